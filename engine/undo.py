"""Whether a player may take back their last action: Board Game Arena's rule, stated on the contract.

A player takes back one action at a time: their last action not yet taken back (and, at a table
where every other seat is a computer player, the computer players' replies played since it). The
others consent; the undo is refused only when, over that span of steps (the asker's action
included):

- **something random happened**: a die was rolled or something was drawn at random. The game's
  seeded generator moving is the sign common to every game; a game whose draws come from a pile
  shuffled earlier (a deck, an event stack) says so itself, since taking such a draw back would let
  the player draw again knowing what comes;
- **something hidden was shown to the asker or their team**: an opponent's coin or card that the
  asker could not see and now can, a face-down token turned over.

What the asker showed of their own (a coin of their hand played face up, a card of their hand paid)
does not block: the others consent to the undo and keep what they saw. Each game defines exactly
what counts, in its ``revealed`` function (``engine.<game>``), and in its rules document.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.contract import A, S
from engine.text import Msg, msg

RANDOM = "random"
"""A die rolled, a coin or card drawn at random, a shuffled pile turned over: ``svc.undo.random``."""
SHOWN = "shown"
"""Something hidden now seen by the asker or their team: ``svc.undo.shown``."""

Step = tuple[str, A]
"""One step of the span: the player who acted and their action."""

Revealed = Callable[[S, S, str, str], str | None]
"""``revealed(before, after, actor, asker)``: ``RANDOM``, ``SHOWN`` or None for one step."""


def undo_refusal(
    apply: Callable[[S, str, A], tuple[S, list[Msg]]],
    before: S,
    steps: Sequence[Step[A]],
    asker: str,
    *,
    rng_of: Callable[[S], object],
    revealed: Revealed[S],
) -> Msg | None:
    """None when ``asker`` may take back ``steps`` (played in order from ``before``), else why not.

    Each step is replayed from the position before it, so a game's ``revealed`` compares the two
    positions around one action: who acted, and what the asker could see before and after.
    """
    state = before
    for actor, action in steps:
        after, _events = apply(state, actor, action)
        why = RANDOM if rng_of(after) != rng_of(state) else revealed(state, after, actor, asker)
        if why is not None:
            return msg(f"svc.undo.{why}")
        state = after
    return None


def nothing_hidden(_before: object, _after: object, _actor: str, _asker: str) -> str | None:
    """The ``revealed`` of a game without hidden information (its randomness is its generator)."""
    return None
