"""What a Batailles explanation may not name while the armies deploy unseen: a troop's place.

Told once both armies are deployed (or the game is over, ``ai.explain``).
"""

from __future__ import annotations

from ai.explain import PLACE
from engine.batailles.actions import Deploy
from engine.text import Msg


def _deploying(state: object) -> bool:
    return getattr(state, "phase", None) == "deploy"


def secret(state: object, seat: int, action: object, chosen: object) -> str | None:
    return PLACE if isinstance(action, Deploy) and _deploying(state) else None


def masked(action: object) -> Msg | None:
    return None


def revealed(state: object, kind: str) -> bool:
    return kind == PLACE and not _deploying(state)
