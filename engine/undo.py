"""Whether a player may take back their last actions: Board Game Arena's rule, on the contract.

An undo is allowed when nothing happened that the undo would hide or let a player redraw: no die
rolled and nothing drawn at random since (the game's seeded generator is where it was), and nothing
that was hidden shown to anyone (a coin from the hand played face up, a card paid or drawn). Each game
says which of its actions show hidden things; the generator check is the same for all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.text import Msg, msg


def undo_refusal(
    apply: Callable[[Any, str, Any], tuple[Any, list[Msg]]],
    before: Any,
    actions: Sequence[Any],
    player: str,
    *,
    rng_of: Callable[[Any], Any],
    shows_hidden: Callable[[Any, Any], bool],
) -> Msg | None:
    """None when ``player`` may take back ``actions`` (played in order from ``before``), else why not."""
    state = before
    for action in actions:
        if shows_hidden(state, action):
            return msg("svc.undo.shown")
        state, _events = apply(state, player, action)
    if rng_of(state) != rng_of(before):
        return msg("svc.undo.random")
    return None
