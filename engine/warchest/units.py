"""Unit types and their coin counts.

Coin counts and the first-game armies are data (``units.json``); the abilities are code in
``manoeuvres.py`` and ``rules.py`` because each one changes how legality is computed.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from engine.matching import FOLDS_KEPT, fold_words

_DATA = json.loads((Path(__file__).parent / "units.json").read_text(encoding="utf-8"))

ROYAL = "royal"
COINS: dict[str, int] = dict(_DATA["coins"])
UNIT_TYPES: tuple[str, ...] = tuple(sorted(COINS))
FIRST_GAME: tuple[tuple[str, ...], ...] = tuple(
    tuple(_DATA["first_game"][k]) for k in sorted(_DATA["first_game"])
)
FIRST_GAME_4: tuple[tuple[str, ...], ...] = tuple(
    tuple(_DATA["first_game_4"][k]) for k in sorted(_DATA["first_game_4"])
)
"""The bot's own fixed split for ``armies=first`` with four players (the seed suggests none): the
two-player first game's cards spread over each team, plus Knight, Ensign, Marshall and Footman, whose
team-friendly tactics teach the four-player game."""

ARCHER = "archer"
BERSERKER = "berserker"
CAVALRY = "cavalry"
CROSSBOWMAN = "crossbowman"
ENSIGN = "ensign"
FOOTMAN = "footman"
KNIGHT = "knight"
LANCER = "lancer"
LIGHT_CAVALRY = "light_cavalry"
MARSHALL = "marshall"
MERCENARY = "mercenary"
PIKEMAN = "pikeman"
ROYAL_GUARD = "royal_guard"
SCOUT = "scout"
SWORDSMAN = "swordsman"
WARRIOR_PRIEST = "warrior_priest"

NO_NORMAL_ATTACK = frozenset({ARCHER, LANCER})
"""Units whose only attack is their tactic."""


@functools.lru_cache(maxsize=FOLDS_KEPT)
def coin_id(token: str) -> str | None:
    """The coin or unit id a typed word spells (any case, hyphens or underscores: ``Light-Cavalry``
    is ``light_cavalry``), or ``None``; the names players type in their languages are the lexicon's
    (``engine.warchest.parse``).

    Remembered per word: every word of every legal action's text is read back through here when an
    action is parsed, mostly the same unit ids and hex labels."""
    token = "_".join(fold_words(token.replace("_", "-"), hyphens=True))
    return token if token in COINS or token == ROYAL else None
