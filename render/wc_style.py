"""War Chest look: team colours and shapes, unit names and abbreviations, catalog access.

Teams differ in two ways at once so that no player depends on colour alone: team 0 is blue with
round tokens and markers, team 1 is vermilion with square ones (the Okabe-Ito pair, distinct under
every common colour-vision deficiency).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import i18n
from engine.text import Msg
from render.common import RGB, mix

TEAM_COLOR: dict[int | None, RGB] = {0: (0, 114, 178), 1: (213, 94, 0), None: (120, 114, 100)}
CIRCLE, SQUARE = "circle", "square"
TEAM_SHAPE: dict[int | None, str] = {0: CIRCLE, 1: SQUARE, None: CIRCLE}

UNIT_TYPES = (
    "archer",
    "berserker",
    "cavalry",
    "crossbowman",
    "ensign",
    "footman",
    "knight",
    "lancer",
    "light_cavalry",
    "marshall",
    "mercenary",
    "pikeman",
    "royal_guard",
    "scout",
    "swordsman",
    "warrior_priest",
    "royal",
)

START_LOCATIONS: dict[tuple[int, int], int] = {
    (4, 0): 0,
    (6, 1): 0,
    (6, 4): 0,
    (0, 5): 1,
    (2, 6): 1,
    (0, 2): 1,
}
"""Where each team's first control markers stand (the last of each team only on the 4-player board)."""


def tint(team: int | None, amount: float = 0.78) -> RGB:
    """A light version of the team colour, for fills behind dark text."""
    return mix(TEAM_COLOR[team], (255, 255, 255), amount)


def shade(team: int | None, amount: float = 0.35) -> RGB:
    """A dark version of the team colour, for edges and stacked coins."""
    return mix(TEAM_COLOR[team], (0, 0, 0), amount)


def tr(key: str, locale: str, **params: Any) -> str:
    """A catalog string of this renderer."""
    return i18n.t(key, locale, **params)


def has_key(key: str, locale: str) -> bool:
    return key in i18n.catalog(i18n.normalize(locale)) or key in i18n.catalog(i18n.DEFAULT)


def unit_name(unit: str, locale: str) -> str:
    key = f"render.wc.unit.{unit}"
    return tr(key, locale) if has_key(key, locale) else unit.replace("_", " ")


def unit_abbr(unit: str, locale: str) -> str:
    key = f"render.wc.abbr.{unit}"
    return tr(key, locale) if has_key(key, locale) else unit[:2].upper()


def player_name(names: Mapping[str, str], player_id: str | None) -> str:
    if player_id is None:
        return "?"
    return names.get(player_id, player_id)


def message(data: Mapping[str, Any] | None, locale: str, names: Mapping[str, str]) -> str:
    """Render a ``{"key", "params"}`` message from the view, or "" when the catalog lacks the key.

    Player ids inside parameters arrive as ``"@<id>"`` text and are replaced by display names.
    """
    if not data or not has_key(str(data.get("key", "")), locale):
        return ""
    text = i18n.t(Msg(str(data["key"]), dict(data.get("params") or {})), locale)
    for pid in sorted(names, key=len, reverse=True):  # "@111" before "@11"
        text = text.replace("@" + pid, names[pid])
    return text
