"""Frozen action values handed out again rather than built again.

The action lists are rebuilt at every step of a game (and at every node of a computer player's
search) from the same few hundred moves, and building a frozen dataclass costs several times a cache
look-up. Actions are frozen, so one value may serve every list that holds it; the bound keeps a long
game or a long search from growing the memory.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

A = TypeVar("A")

ACTIONS_KEPT = 1 << 14
"""Values kept per kind of action (a Batailles deployment, listed by thousands, keeps more)."""


def kept(cls: type[A], size: int = ACTIONS_KEPT) -> Callable[..., A]:
    """``cls`` as a constructor that hands out the same value again for the same fields."""
    return functools.lru_cache(maxsize=size)(cls)
