"""The Batailles battlefield: grid geometry, the four places of a zone, and the cached empty field.

North (the highest row) is at the top of the image and column ``a`` on the left, so a zone sits
where its chessboard label says. Every zone shows its four places as a 2 x 2 grid: terrain pieces
fill places first (river from the bottom up, then forest, then buildings), troops take the free ones.
The rule "a zone holds four elements" can thus be read straight off the picture.

Everything that depends only on the map (ground, hills, terrain pieces, labels, advantage values,
deployment rows) is drawn once per map and cached; a board image then only pastes troops on it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.batailles.style import (
    BUILDING_ROOF,
    BUILDING_WALL,
    FOREST_DARK,
    FOREST_GROUND,
    GRID_EDGE,
    GROUND,
    HILL,
    HILL_LINE,
    WATER,
    WATER_LINE,
    faint,
    seat_color,
)
from render.common import HIGHLIGHT, INK, MUTED, PAPER, RGB, mix, rgba, sprite, star
from render.text import draw_text

COLUMNS = "abcdefghijklmnop"
FIELD_SS = 3
"""Supersampling of the empty field (drawn once per map and size)."""
MAX_ZONE = 170
MAX_FIELD_HEIGHT = 1400

Zone = tuple[int, int]
Box = tuple[float, float, float, float]


def zone_label(zone: Zone) -> str:
    """``(2, 0)`` is ``c1``: the label players type, as the engine writes it."""
    return f"{COLUMNS[zone[0]]}{zone[1] + 1}"


@dataclass(frozen=True)
class Terrain:
    """The terrain of one zone as the view gives it."""

    forest: int = 0
    building: int = 0
    river: int = 0
    hill: bool = False
    advantage: int = 0

    @property
    def impassable(self) -> bool:
        return self.forest + self.building + self.river >= 4


@dataclass(frozen=True)
class FieldMap:
    """The parts of a view's board the empty field depends on; hashable so it keys the cache."""

    cols: int
    rows: int
    terrain: tuple[tuple[Zone, Terrain], ...]
    deploy: tuple[tuple[int, ...], tuple[int, ...]]

    def at(self, zone: Zone) -> Terrain:
        return dict(self.terrain).get(zone, Terrain())


def field_map(view: Mapping[str, Any]) -> FieldMap:
    """Read the board part of a Batailles view."""
    board = view["board"]
    terrain = []
    for z in board.get("zones") or []:
        zone = (int(z["zone"][0]), int(z["zone"][1]))
        terrain.append(
            (
                zone,
                Terrain(
                    forest=int(z.get("forest", 0)),
                    building=int(z.get("building", 0)),
                    river=int(z.get("river", 0)),
                    hill=bool(z.get("hill", False)),
                    advantage=int(z.get("advantage", 0)),
                ),
            )
        )
    deploy = board.get("deploy") or {}
    rows = (
        tuple(int(r) for r in deploy.get("0", [])),
        tuple(int(r) for r in deploy.get("1", [])),
    )
    return FieldMap(int(board["width"]), int(board["height"]), tuple(sorted(terrain)), rows)


@dataclass(frozen=True)
class Grid:
    """Pixel geometry of the field: zone size, coordinate gutters, total size."""

    cols: int
    rows: int
    size: int
    gutter: int
    width: int
    height: int

    def zone_box(self, zone: Zone) -> Box:
        x0 = self.gutter + zone[0] * self.size
        y0 = (self.rows - 1 - zone[1]) * self.size
        return (x0, y0, x0 + self.size, y0 + self.size)

    @property
    def strip(self) -> int:
        """Height of the band at the top of a zone holding its label and badges."""
        return max(14, round(self.size * 0.17))

    def place_box(self, zone: Zone, place: int) -> Box:
        """Place 0 is top left, 1 top right, 2 bottom left, 3 bottom right."""
        x0, y0, x1, y1 = self.zone_box(zone)
        pad = max(2, round(self.size * 0.02))
        top = y0 + self.strip
        w = (x1 - x0 - 3 * pad) / 2
        h = (y1 - top - 3 * pad) / 2
        col, row = place % 2, place // 2
        left = x0 + pad + col * (w + pad)
        upper = top + pad + row * (h + pad)
        return (left, upper, left + w, upper + h)

    @property
    def place_size(self) -> tuple[int, int]:
        x0, y0, x1, y1 = self.place_box((0, 0), 0)
        return (math.floor(x1 - x0), math.floor(y1 - y0))


def grid_for(cols: int, rows: int, width: int) -> Grid:
    """The largest square zones that fit ``width`` pixels (and a readable height)."""
    gutter = 28
    size = min(MAX_ZONE, (width - gutter) // cols, MAX_FIELD_HEIGHT // rows)
    return Grid(cols, rows, size, gutter, gutter + cols * size, rows * size + gutter)


def places(terrain: Terrain) -> list[str | None]:
    """What fills each of the four places: ``river``, ``forest``, ``building`` or None (free).

    Water takes the bottom row first, so the rivers of neighbouring zones join into one stream.
    """
    filled: list[str | None] = [None, None, None, None]
    for i, where in enumerate((2, 3, 1, 0)):
        if i < terrain.river:
            filled[where] = "river"
    pieces = ["forest"] * terrain.forest + ["building"] * terrain.building
    for where in range(4):
        if filled[where] is None and pieces:
            filled[where] = pieces.pop(0)
    return filled


def _ground(fmap: FieldMap, zone: Zone) -> RGB:
    t = fmap.at(zone)
    if t.hill:
        return HILL
    for seat in (0, 1):
        if zone[1] in fmap.deploy[seat]:
            return faint(seat_color(seat), 0.93)
    return GROUND


def _draw_forest(draw: ImageDraw.ImageDraw, box: Box, k: int) -> None:
    x0, y0, x1, y1 = (v * k for v in box)
    draw.rounded_rectangle([x0, y0, x1, y1], radius=6 * k, fill=FOREST_GROUND)
    w, h = x1 - x0, y1 - y0
    r = min(w, h) * 0.2
    for fx, fy in ((0.28, 0.4), (0.72, 0.36), (0.5, 0.7)):
        cx, cy = x0 + w * fx, y0 + h * fy
        draw.rectangle([cx - r * 0.15, cy, cx + r * 0.15, cy + r * 1.1], fill=BUILDING_ROOF)
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=FOREST_DARK, outline=INK, width=max(1, k))


def _draw_building(draw: ImageDraw.ImageDraw, box: Box, k: int) -> None:
    x0, y0, x1, y1 = (v * k for v in box)
    draw.rounded_rectangle([x0, y0, x1, y1], radius=6 * k, fill=mix(BUILDING_WALL, GROUND, 0.4))
    w, h = x1 - x0, y1 - y0
    s = min(w, h)
    cx, base = x0 + w / 2, y0 + h * 0.86
    half = s * 0.32
    wall_top = base - s * 0.36
    line = max(1, round(0.6 * k))
    draw.rectangle([cx - half, wall_top, cx + half, base], fill=BUILDING_WALL, outline=INK, width=line)
    roof = [(cx - half - s * 0.08, wall_top), (cx, wall_top - s * 0.3), (cx + half + s * 0.08, wall_top)]
    draw.polygon(roof, fill=BUILDING_ROOF, outline=INK, width=line)
    draw.rectangle([cx - s * 0.07, base - s * 0.2, cx + s * 0.07, base], fill=INK)


def _draw_water(draw: ImageDraw.ImageDraw, box: Box, k: int) -> None:
    x0, y0, x1, y1 = (v * k for v in box)
    draw.rectangle([x0, y0, x1, y1], fill=WATER)
    h = y1 - y0
    amp = max(2.0, h * 0.06)
    for fy in (0.3, 0.62):
        y = y0 + h * fy
        pts = []
        steps = 24
        for i in range(steps + 1):
            x = x0 + (x1 - x0) * i / steps
            pts.append((x, y + amp * math.sin(i / steps * 4 * math.pi)))
        draw.line(pts, fill=WATER_LINE, width=max(1, round(1.5 * k)))


def _draw_hill(draw: ImageDraw.ImageDraw, box: Box, k: int) -> None:
    x0, y0, x1, y1 = (v * k for v in box)
    s = x1 - x0
    for inset in (0.07, 0.2, 0.33):
        d = s * inset
        draw.rounded_rectangle(
            [x0 + d, y0 + d, x1 - d, y1 - d], radius=s * 0.18, outline=HILL_LINE, width=max(1, round(1.5 * k))
        )


def _draw_hill_sign(draw: ImageDraw.ImageDraw, left: float, base: float, h: float) -> None:
    """A small two-peaked mountain next to the zone label: this zone is a hill."""
    pts = [(left, base), (left + h * 0.55, base - h), (left + h * 0.85, base - h * 0.55)]
    pts += [(left + h * 1.1, base - h * 0.8), (left + h * 1.6, base)]
    draw.polygon(pts, fill=HILL_LINE, outline=INK, width=max(1, round(h * 0.08)))


def _draw_hatch(draw: ImageDraw.ImageDraw, box: Box, k: int) -> None:
    x0, _y0, x1, y1 = (v * k for v in box)
    s = x1 - x0
    step = s / 7
    for i in range(-7, 8):
        a = (x0 + i * step, y1)
        # Clip the diagonal to the zone square.
        t0 = max(0.0, (x0 - a[0]) / s)
        t1 = min(1.0, (x1 - a[0]) / s)
        if t1 <= t0:
            continue
        draw.line(
            [(a[0] + s * t0, a[1] - s * t0), (a[0] + s * t1, a[1] - s * t1)],
            fill=(60, 52, 40, 150),
            width=max(1, round(2.2 * k)),
        )


@lru_cache(maxsize=16)
def empty_field(fmap: FieldMap, grid: Grid) -> Image.Image:
    """Ground, hills, deployment rows, terrain pieces, labels and advantage values of one map."""
    k = FIELD_SS
    big = Image.new("RGBA", (grid.width * k, grid.height * k), (*PAPER, 255))
    draw = ImageDraw.Draw(big, "RGBA")
    s = grid.size
    coord = max(14, min(22, round(s * 0.16)))
    for x in range(grid.cols):
        cx = (grid.gutter + (x + 0.5) * s) * k
        draw_text(
            draw, (cx, (grid.rows * s + grid.gutter / 2) * k), COLUMNS[x], coord * k, MUTED, anchor="mc"
        )
    for seat in (0, 1):  # a bar in the army colour beside its deployment rows
        for y in fmap.deploy[seat]:
            if 0 <= y < grid.rows:
                top = (grid.rows - 1 - y) * s
                draw.rectangle([0, (top + 2) * k, 5 * k, (top + s - 2) * k], fill=seat_color(seat))
    for y in range(grid.rows):
        cy = ((grid.rows - 1 - y + 0.5) * s) * k
        draw_text(draw, (grid.gutter / 2 * k, cy), str(y + 1), coord * k, MUTED, anchor="mc", bold=True)

    for y in range(grid.rows):
        for x in range(grid.cols):
            zone = (x, y)
            box = grid.zone_box(zone)
            t = fmap.at(zone)
            x0, y0, x1, y1 = (v * k for v in box)
            draw.rectangle([x0, y0, x1, y1], fill=_ground(fmap, zone))
            if t.hill:
                _draw_hill(draw, box, k)
            filled = places(t)
            if filled[2] == "river":  # the bottom row of water spans the zone's full width
                bx0, _by0, bx1, _by1 = box
                _p0, py0, _p1, _py1 = grid.place_box(zone, 2)
                _draw_water(draw, (bx0, py0, bx1, box[3] - 1), k)
            for place, kind in enumerate(filled):
                pbox = grid.place_box(zone, place)
                if kind == "forest":
                    _draw_forest(draw, pbox, k)
                elif kind == "building":
                    _draw_building(draw, pbox, k)
                elif kind == "river" and place < 2:
                    _draw_water(draw, pbox, k)
            if t.impassable:
                _draw_hatch(draw, box, k)
    # Grid lines over everything, then labels in each zone's top band.
    for y in range(grid.rows):
        for x in range(grid.cols):
            x0, y0, x1, y1 = (v * k for v in grid.zone_box((x, y)))
            draw.rectangle([x0, y0, x1, y1], outline=GRID_EDGE, width=round(1.5 * k))
    for y in range(grid.rows):
        for x in range(grid.cols):
            zone = (x, y)
            x0, y0, _x1, _y1 = grid.zone_box(zone)
            size = max(11, round(grid.strip * 0.72))
            width = draw_text(
                draw,
                ((x0 + 5) * k, (y0 + grid.strip / 2 + 1) * k),
                zone_label(zone),
                size * k,
                INK,
                anchor="lc",
            )
            if fmap.at(zone).hill:
                left = (x0 + 5) * k + width + 6 * k
                _draw_hill_sign(draw, left, (y0 + grid.strip * 0.85) * k, grid.strip * 0.6 * k)
    field = big.resize((grid.width, grid.height), Image.Resampling.LANCZOS)
    for zone, t in fmap.terrain:
        if t.impassable:
            x0, y0, x1, y1 = grid.zone_box(zone)
            ImageDraw.Draw(field).rectangle([x0, y0, x1, y1], outline=INK, width=3)
        if t.advantage:
            x0, y0, x1, _y1 = grid.zone_box(zone)
            badge = advantage_badge(t.advantage, grid.strip + 14)
            field.alpha_composite(badge, (round(x1 - badge.width - 2), round(y0 + 1)))
    return field


@lru_cache(maxsize=32)
def advantage_badge(value: int, height: int) -> Image.Image:
    """A gold star with the points the zone gives each turn to the army holding it."""
    w = height

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = w * k / 2
        outer, inner = w * k * 0.5, w * k * 0.24
        pts = star((c, c + w * k * 0.04), outer, inner, 5, -90)
        draw.polygon(pts, fill=rgba(HIGHLIGHT), outline=rgba(INK), width=max(1, round(w * k * 0.05)))
        draw_text(draw, (c, c + w * k * 0.06), str(value), round(w * k * 0.42), INK, anchor="mc", bold=True)

    return sprite(w, w, paint)


def zone_of(item: Mapping[str, Any]) -> Zone | None:
    z = item.get("zone")
    if not isinstance(z, Sequence) or len(z) != 2:
        return None
    return (int(z[0]), int(z[1]))
