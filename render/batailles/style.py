"""Batailles look: seat colours and shapes, terrain palette, catalog access.

The two armies wear the War Chest team colours and shapes (seat 0 blue with round marks, seat 1
vermilion with square ones), so a player who knows one board reads the other at once and nobody
depends on colour alone. Terrain colours stay clear of both army colours: greens for forest, browns
for buildings and hills, a light blue for water.
"""

from __future__ import annotations

from render.catalog import tr
from render.common import RGB, mix
from render.warchest.style import TEAM_COLOR, TEAM_SHAPE, shade, tint

__all__ = [
    "ACTIVATIONS_PER_TURN",
    "BUILDING_ROOF",
    "BUILDING_WALL",
    "FOREST_DARK",
    "FOREST_GROUND",
    "GRID_EDGE",
    "GROUND",
    "HILL",
    "HILL_LINE",
    "HITS",
    "STATS",
    "TEAM_COLOR",
    "TEAM_SHAPE",
    "WATER",
    "WATER_LINE",
    "seat_color",
    "seat_shade",
    "seat_shape",
    "seat_tint",
    "stat_letters",
]

GROUND: RGB = (236, 231, 212)
GRID_EDGE: RGB = (150, 138, 110)
HILL: RGB = (214, 189, 139)
HILL_LINE: RGB = (163, 130, 78)
FOREST_GROUND: RGB = (176, 207, 150)
FOREST_DARK: RGB = (46, 105, 48)
BUILDING_WALL: RGB = (226, 214, 190)
BUILDING_ROOF: RGB = (128, 72, 52)
WATER: RGB = (150, 196, 230)
WATER_LINE: RGB = (58, 118, 170)
HITS: RGB = (27, 27, 31)

ACTIVATIONS_PER_TURN = 6
"""Troops a player may activate in a turn (the view gives only how many remain)."""

STATS = ("movement", "attack", "defence", "range", "command", "logistics")
"""The six characteristics in the order the rules write them (M A D R C L)."""


def seat_color(seat: int) -> RGB:
    return TEAM_COLOR[seat if seat in (0, 1) else None]


def seat_shape(seat: int) -> str:
    return TEAM_SHAPE[seat if seat in (0, 1) else None]


def seat_tint(seat: int | None, amount: float = 0.8) -> RGB:
    return tint(seat if seat in (0, 1) else None, amount)


def seat_shade(seat: int, amount: float = 0.35) -> RGB:
    return shade(seat if seat in (0, 1) else None, amount)


def faint(color: RGB, amount: float = 0.86) -> RGB:
    """``color`` washed towards the ground colour, for large areas such as deployment rows."""
    return mix(color, GROUND, amount)


def stat_letters(locale: str) -> list[str]:
    """One letter per characteristic in the reader's language (French writes P for Portée)."""
    return [tr(f"render.bt.stat.{s}", locale) for s in STATS]
