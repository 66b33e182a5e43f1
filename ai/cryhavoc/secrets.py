"""What a Cry Havoc explanation may not name while the game runs: a card of the seat's hand.

The card kept after a draw, and any card an action the seat did not play would have spent. Such a
secret is told once the game is over (``ai.explain``).
"""

from __future__ import annotations

from ai.explain import HAND
from engine.cryhavoc.actions import Keep, card_of
from engine.text import Msg, msg


def secret(state: object, seat: int, action: object, chosen: object) -> str | None:
    if isinstance(action, Keep):
        return HAND
    card = card_of(action)
    if card is None or action == chosen:
        return None
    spent = not isinstance(chosen, Keep) and card_of(chosen) is not None
    return None if spent and card == card_of(chosen) else HAND


def masked(action: object) -> Msg | None:
    """A card kept is told without the card."""
    return msg("why.ch.keep") if isinstance(action, Keep) else None


def revealed(state: object, kind: str) -> bool:
    return False
