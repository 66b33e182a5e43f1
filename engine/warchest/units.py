"""Unit types, their coin counts and the names players may type for them.

Coin counts and the first-game armies are data (``units.json``); the abilities are code in
``manoeuvres.py`` and ``rules.py`` because each one changes how legality is computed.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from engine.matching import FOLDS_KEPT, Phrases, fold_words, phrases

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

# Names a player may type, besides the ids themselves (folded: lower case, no accents; hyphens and
# underscores are the same).
_ALIASES = {
    "lightcavalry": LIGHT_CAVALRY,
    "royalguard": ROYAL_GUARD,
    "guard": ROYAL_GUARD,
    "warriorpriest": WARRIOR_PRIEST,
    "priest": WARRIOR_PRIEST,
    "marshal": MARSHALL,
    "crossbow": CROSSBOWMAN,
    "royalcoin": ROYAL,
    "sceau": ROYAL,
    "sceauroyal": ROYAL,
    # French names of the cards (glossary)
    "soldat": SWORDSMAN,
    "piquier": PIKEMAN,
    "arbaletrier": CROSSBOWMAN,
    "cavalerielegere": LIGHT_CAVALRY,
    "cavalerie": CAVALRY,
    "lancier": LANCER,
    "eclaireur": SCOUT,
    "garderoyale": ROYAL_GUARD,
    "chevalier": KNIGHT,
    "fantassin": FOOTMAN,
    "porteetendard": ENSIGN,
    "marechal": MARSHALL,
    "mercenaire": MERCENARY,
    "pretreguerrier": WARRIOR_PRIEST,
}

NAME_PHRASES: Phrases = phrases(
    [
        ("light cavalry", LIGHT_CAVALRY),
        ("royal guard", ROYAL_GUARD),
        ("warrior priest", WARRIOR_PRIEST),
        ("royal coin", ROYAL),
        ("sceau royal", ROYAL),
        ("pièce sceau royal", ROYAL),
        ("cavalerie légère", LIGHT_CAVALRY),
        ("garde royale", ROYAL_GUARD),
        ("prêtre guerrier", WARRIOR_PRIEST),
        ("porte-étendard", ENSIGN),
    ]
)
"""Names of several words (typed with spaces or hyphens), read as one unit or coin id."""


@functools.lru_cache(maxsize=FOLDS_KEPT)
def coin_name(token: str) -> str | None:
    """The coin or unit id a typed word stands for (any case, accents optional), or ``None``.

    Remembered per word: every word of every legal action's text is read back through here when an
    action is parsed, mostly the same unit ids and hex labels."""
    token = "_".join(fold_words(token.replace("_", "-"), hyphens=True))
    if token in COINS or token == ROYAL:
        return token
    return _ALIASES.get(token.replace("_", ""))
