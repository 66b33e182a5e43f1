"""War Chest look: team colours and shapes, unit names and abbreviations.

Teams differ in two ways at once so that no player depends on colour alone: team 0 is blue with
round tokens and markers, team 1 is vermilion with square ones (see ``render.palette``).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.warchest.view import WarChestView
from render.catalog import lookup, player_name
from render.common import RGB
from render.palette import CIRCLE, NEUTRAL, SEAT_COLOR, SEAT_SHAPE, darken, lighten
from render.text import clusters, placeholders

TEAM_COLOR: dict[int | None, RGB] = {0: SEAT_COLOR[0], 1: SEAT_COLOR[1], None: NEUTRAL}
TEAM_SHAPE: dict[int | None, str] = {0: SEAT_SHAPE[0], 1: SEAT_SHAPE[1], None: CIRCLE}

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
    return lighten(TEAM_COLOR[team], amount)


def shade(team: int | None, amount: float = 0.35) -> RGB:
    """A dark version of the team colour, for edges and stacked coins."""
    return darken(TEAM_COLOR[team], amount)


def unit_name(unit: str, locale: str) -> str:
    return lookup(f"render.wc.unit.{unit}", locale, unit.replace("_", " "))


def unit_abbr(unit: str, locale: str) -> str:
    return lookup(f"render.wc.abbr.{unit}", locale, unit[:2].upper())


def owner_tags(view: WarChestView, names: Mapping[str, str]) -> dict[int, str]:
    """The letter each seat's tokens carry when a team has two seats (four players), so that
    teammates' units, which share a colour and a shape, still show whose they are; {} otherwise.

    A seat's letter is the first letter (or digit) of its player's display name that the fonts can
    draw; teammates whose names start alike get their first two, and if those still match, or a
    name has no such letter, their seat numbers."""
    seats = view.get("seats") or []
    teams: dict[int, list[int]] = {}
    for i, seat in enumerate(seats):
        teams.setdefault(int(seat.get("team", i)), []).append(i)
    if all(len(group) < 2 for group in teams.values()):
        return {}
    tags: dict[int, str] = {}
    for group in teams.values():
        shown = [_letters(player_name(names, seats[i].get("id"))) for i in group]
        for length in (1, 2):
            tried = ["".join(letters[:length]).upper() for letters in shown]
            if len(set(tried)) == len(tried) and all(tried):
                break
        else:
            tried = [str(i + 1) for i in group]
        tags.update(zip(group, tried, strict=True))
    return tags


def _letters(name: str) -> list[str]:
    """The letters and digits of ``name`` the fonts draw (emoji and unknown scripts left out)."""
    return [c for c in clusters(name) if c[0].isalnum() and not placeholders(c)]
