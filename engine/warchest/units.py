"""Unit types, their coin counts and the names players may type for them.

Coin counts and the first-game armies are data (``units.json``); the abilities are code in
``manoeuvres.py`` and ``rules.py`` because each one changes how legality is computed.
"""

from __future__ import annotations

import json
from pathlib import Path

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

# Names a player may type, besides the ids themselves (spaces and hyphens are folded to "_").
_ALIASES = {
    "lightcavalry": LIGHT_CAVALRY,
    "royalguard": ROYAL_GUARD,
    "guard": ROYAL_GUARD,
    "warriorpriest": WARRIOR_PRIEST,
    "priest": WARRIOR_PRIEST,
    "marshal": MARSHALL,
    "crossbow": CROSSBOWMAN,
    "royal_coin": ROYAL,
    "sceau": ROYAL,
    "sceau_royal": ROYAL,
    # French names of the cards (glossary)
    "soldat": SWORDSMAN,
    "piquier": PIKEMAN,
    "arbaletrier": CROSSBOWMAN,
    "arbalétrier": CROSSBOWMAN,
    "cavalerie_legere": LIGHT_CAVALRY,
    "cavalerie_légère": LIGHT_CAVALRY,
    "cavalerie": CAVALRY,
    "lancier": LANCER,
    "eclaireur": SCOUT,
    "éclaireur": SCOUT,
    "garde_royale": ROYAL_GUARD,
    "chevalier": KNIGHT,
    "fantassin": FOOTMAN,
    "porte_etendard": ENSIGN,
    "porte_étendard": ENSIGN,
    "marechal": MARSHALL,
    "maréchal": MARSHALL,
    "mercenaire": MERCENARY,
    "pretre_guerrier": WARRIOR_PRIEST,
    "prêtre_guerrier": WARRIOR_PRIEST,
}

MULTIWORD = (
    ("light cavalry", "light_cavalry"),
    ("royal guard", "royal_guard"),
    ("warrior priest", "warrior_priest"),
    ("royal coin", "royal_coin"),
    ("sceau royal", "sceau_royal"),
    ("cavalerie légère", "cavalerie_légère"),
    ("cavalerie legere", "cavalerie_legere"),
    ("garde royale", "garde_royale"),
    ("prêtre guerrier", "prêtre_guerrier"),
    ("pretre guerrier", "pretre_guerrier"),
)
"""Two-word names folded into one token before parsing."""


def coin_name(token: str) -> str | None:
    """The coin or unit id a typed word stands for, or ``None``."""
    token = token.replace("-", "_")
    if token in COINS or token == ROYAL:
        return token
    return _ALIASES.get(token) or _ALIASES.get(token.replace("_", ""))
