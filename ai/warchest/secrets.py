"""What a War Chest explanation may not name while the game runs: a coin of the seat's hand.

An action the seat did not play names a coin it holds; a recruit, a pass or the initiative is played
with a coin discarded face down. Such a secret is told once the game is over (``ai.explain``).
"""

from __future__ import annotations

from ai.explain import HAND
from engine.text import Msg, msg
from engine.warchest.actions import FACE_DOWN, Action, Initiative, Pass, Recruit, coin_of
from engine.warchest.rules import unit_name


def secret(state: object, seat: int, action: Action, chosen: Action) -> str | None:
    if isinstance(action, FACE_DOWN):
        return HAND
    coin = coin_of(action)
    if coin is None or action == chosen:
        return None
    shown = None if isinstance(chosen, FACE_DOWN) else coin_of(chosen)
    return None if coin == shown else HAND


def masked(action: Action) -> Msg | None:
    """A recruit names the unit recruited, not the coin paid; a pass or the initiative, no coin."""
    if isinstance(action, Recruit):
        return msg("why.wc.recruit", unit=unit_name(action.unit))
    if isinstance(action, Pass):
        return msg("why.wc.pass")
    if isinstance(action, Initiative):
        return msg("why.wc.initiative")
    return None


def revealed(state: object, kind: str) -> bool:
    return False
