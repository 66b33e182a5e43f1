"""What one seat knows of a Batailles game, and full states drawn consistent with it.

Batailles hides nothing on the table: both armies, their profiles and the dice already rolled are
public (``view.py``). The only thing a player cannot know is the dice still to come, which the
state's generator decides. ``observation`` therefore keeps the seat's view and the whole saved
state except the generator, and ``determinize`` gives that state a generator drawn at random, so
that a computer player never plans on knowing how its next attack will roll.
"""

from __future__ import annotations

from typing import Any

from engine.batailles import rules
from engine.batailles.actions import Action
from engine.batailles.state import State, dump, load
from engine.batailles.view import build_view
from engine.rng import Rng


def observation(st: State, seat: int) -> dict[str, Any]:
    """What ``seat`` knows: ``{"seat", "view", "public"}``; ``public`` is the save without the dice."""
    public = dump(st)
    del public["rng"]
    return {"seat": seat, "view": build_view(st, st.players[seat], None), "public": public}


def determinize(obs: dict[str, Any], rng: Rng) -> State:
    """The observed state with a random generator: the same position, unknown dice to come."""
    return load({**obs["public"], "rng": rng.next_u64()})


def step(st: State, seat: int, action: Action) -> State:
    """``apply`` on a state the caller owns and will not look at again: ``st`` itself moves on.

    A search plays thousands of actions on its sampled states, each taken from ``legal_actions``;
    skipping the copy and the legality check of ``apply`` makes it several times faster. The result
    is the state ``apply`` would return (a test checks it).
    """
    rules.play(st, seat, action, [])
    return st
