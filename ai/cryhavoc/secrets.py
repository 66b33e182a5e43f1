"""What a Cry Havoc explanation may not name while the game runs: a card of the seat's hand.

The card kept after a draw, and any card an action the seat did not play would have spent. Such a
secret is told once the game is over (``ai.explain``).
"""

from __future__ import annotations

from ai.explain import HAND
from engine.text import Msg, msg

_CARD_VERBS = frozenset({"discard", "move", "recruit", "build", "pay", "keep", "play"})
"""Verbs whose first word is a card of the hand."""


def secret(state: object, seat: int, action: object, chosen: object) -> str | None:
    verb = getattr(action, "verb", None)
    if verb == "keep":
        return HAND
    if verb not in _CARD_VERBS or action == chosen:
        return None
    card = tuple(getattr(action, "args", ()))[:1]
    spent = getattr(chosen, "verb", None) in _CARD_VERBS - {"keep"}
    return None if spent and card == tuple(getattr(chosen, "args", ()))[:1] else HAND


def masked(action: object) -> Msg | None:
    """A card kept is told without the card."""
    return msg("why.ch.keep") if getattr(action, "verb", None) == "keep" else None


def revealed(state: object, kind: str) -> bool:
    return False
