"""The Batailles battlefield: grid geometry, the four places of a zone, and the cached empty field.

North (the highest row) is at the top of the image and column ``a`` on the left, so a zone sits
where its chessboard label says. A zone is a band holding its label (and its advantage value and
hits at the right) over its four places, stacked as four rows: terrain pieces fill places first
(river from the bottom up, then forest, then buildings), troops take the free ones as wide bars
where their names stay legible. The rule "a zone holds four elements" can thus be read straight off
the picture. A river keeps a strip of ground between it and the zone's edge, so that it is seen to
run inside its row, and it spans the zone's width, so that it joins the river of the next zone.

Everything that depends only on the map (ground, hills, terrain pieces, labels, advantage values,
deployment rows) is drawn once per map and cached; a board image then only pastes troops on it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.batailles.view import BataillesView
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
from render.common import HIGHLIGHT, INK, PAPER, RGB, mix, rgba, sprite, star
from render.page import LABEL, legible
from render.text import draw_text, scaled, text_width

COLUMNS = "abcdefghijklmnop"
FIELD_SS = 3
"""Supersampling of the empty field (drawn once per map and size)."""
MAX_ZONE = 170

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


def field_map(view: BataillesView) -> FieldMap:
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
    """Pixel geometry of the field: zone size (``size`` tall, ``wide`` across: as wide where the page
    has the room, 0 for square), the bar at the left marking deployment rows, total size."""

    cols: int
    rows: int
    size: int
    gutter: int
    width: int
    height: int
    wide: int = 0

    def zone_box(self, zone: Zone) -> Box:
        across = self.wide or self.size
        x0 = self.gutter + zone[0] * across
        y0 = (self.rows - 1 - zone[1]) * self.size
        return (x0, y0, x0 + across, y0 + self.size)

    @property
    def strip(self) -> int:
        """Height of the band at the top of a zone holding its label and badges."""
        return max(LABEL + 3, round(self.size * 0.18))

    @property
    def pad(self) -> int:
        return max(2, round(self.size * 0.016))

    def place_box(self, zone: Zone, place: int, span: int = 1) -> Box:
        """Places are rows of the zone under its band, 0 at the top; ``span`` rows from ``place``."""
        x0, y0, x1, y1 = self.zone_box(zone)
        pad = self.pad
        top = y0 + self.strip
        h = (y1 - top - 5 * pad) / 4
        upper = top + pad + place * (h + pad)
        return (x0 + pad + 1, upper, x1 - pad - 1, upper + span * h + (span - 1) * pad)

    @property
    def place_size(self) -> tuple[int, int]:
        x0, y0, x1, y1 = self.place_box((0, 0), 0)
        return (math.floor(x1 - x0), math.floor(y1 - y0))


FIELD_HEIGHT = 1160
"""The battlefield's height on the public page, so that the whole page fits a phone's screen."""


WIDEST = 1.2
"""How much wider than tall a zone may be: a phone page is taller than the battlefield is wide, and
the room across lets a troop of one place show its name and its values on one line."""


def grid_for(cols: int, rows: int, width: int, height: int = FIELD_HEIGHT) -> Grid:
    """The largest zones that fit ``width`` x ``height`` pixels: as tall as they are wide, or up to
    ``WIDEST`` times wider where the page is wider than the battlefield is tall."""
    gutter = 10
    across = (width - gutter) // cols
    size = min(MAX_ZONE, across, height // rows)
    wide = max(size, min(MAX_ZONE, across, math.floor(size * WIDEST)))
    return Grid(cols, rows, size, gutter, gutter + cols * wide, rows * size, wide)


def places(terrain: Terrain) -> list[str | None]:
    """What fills each of the four places, top to bottom: ``river``, ``forest``, ``building`` or None
    (free).

    Water takes the bottom places first, so the rivers of neighbouring zones join into one stream.
    """
    filled: list[str | None] = [None, None, None, None]
    for i, where in enumerate((3, 2, 1, 0)):
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
    """A place of forest: a green band with a row of trees."""
    x0, y0, x1, y1 = (v * k for v in box)
    draw.rounded_rectangle([x0, y0, x1, y1], radius=4 * k, fill=FOREST_GROUND)
    h = y1 - y0
    r = h * 0.34
    count = max(2, int((x1 - x0) // (h * 1.05)))
    step = (x1 - x0) / count
    for i in range(count):
        cx, cy = x0 + step * (i + 0.5), y0 + h * 0.42
        draw.rectangle([cx - r * 0.16, cy, cx + r * 0.16, cy + r * 1.25], fill=BUILDING_ROOF)
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=FOREST_DARK, outline=INK, width=max(1, k))


def _draw_building(draw: ImageDraw.ImageDraw, box: Box, k: int) -> None:
    """A place of buildings: a light band with a row of small houses."""
    x0, y0, x1, y1 = (v * k for v in box)
    draw.rounded_rectangle([x0, y0, x1, y1], radius=4 * k, fill=mix(BUILDING_WALL, GROUND, 0.4))
    h = y1 - y0
    count = max(1, int((x1 - x0) // (h * 1.6)))
    step = (x1 - x0) / count
    line = max(1, round(0.6 * k))
    for i in range(count):
        cx, base = x0 + step * (i + 0.5), y0 + h * 0.9
        half, wall = h * 0.32, h * 0.38
        draw.rectangle([cx - half, base - wall, cx + half, base], fill=BUILDING_WALL, outline=INK, width=line)
        roof = [
            (cx - half - h * 0.08, base - wall),
            (cx, base - wall - h * 0.36),
            (cx + half + h * 0.08, base - wall),
        ]
        draw.polygon(roof, fill=BUILDING_ROOF, outline=INK, width=line)
        draw.rectangle([cx - h * 0.07, base - h * 0.2, cx + h * 0.07, base], fill=INK)


def _draw_water(draw: ImageDraw.ImageDraw, box: Box, k: int) -> None:
    """Running water across ``box``: a blue band with waves."""
    x0, y0, x1, y1 = (v * k for v in box)
    draw.rectangle([x0, y0, x1, y1], fill=WATER)
    h = y1 - y0
    amp = max(1.5 * k, h * 0.08)
    lines = 1 if h < 34 * k else 2
    for n in range(lines):
        y = y0 + h * (n + 1) / (lines + 1)
        pts = []
        steps = 32
        for i in range(steps + 1):
            x = x0 + (x1 - x0) * i / steps
            pts.append((x, y + amp * math.sin(i / steps * 6 * math.pi)))
        draw.line(pts, fill=WATER_LINE, width=max(1, round(1.5 * k)))


def _draw_hill(draw: ImageDraw.ImageDraw, box: Box, k: int) -> None:
    x0, y0, x1, y1 = (v * k for v in box)
    s = x1 - x0
    for inset in (0.07, 0.2, 0.33):
        d = s * inset
        draw.rounded_rectangle(
            [x0 + d, y0 + d, x1 - d, y1 - d], radius=s * 0.18, outline=HILL_LINE, width=max(1, round(1.5 * k))
        )


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


def river_box(grid: Grid, zone: Zone, filled: Sequence[str | None]) -> Box | None:
    """Where a zone's water runs: across the zone's whole width (it meets the next zone's river at
    their common side) over the places it fills, a strip of ground above and below it."""
    rows = [i for i, kind in enumerate(filled) if kind == "river"]
    if not rows:
        return None
    x0, _y0, x1, y1 = grid.zone_box(zone)
    _p0, top, _p1, _b = grid.place_box(zone, rows[0])
    _q0, _t, _q1, bottom = grid.place_box(zone, rows[-1])
    ground = max(grid.pad, RIVER_BANK)
    return (x0, top, x1, min(bottom, y1 - ground))


RIVER_BANK = 6
"""Pixels of ground kept between a river and the line under its zone."""


def badge_boxes(grid: Grid, zone: Zone, terrain: Terrain) -> tuple[Box | None, Box]:
    """Where a zone's band puts its advantage badge (right after its label, so that it is read with
    it) and the box a hits badge is right-aligned in (the rest of the band, to its right end)."""
    x0, y0, x1, _y1 = grid.zone_box(zone)
    h = grid.strip - 2
    left = x0 + 5 + text_width(zone_label(zone), LABEL) + 5
    right = x1 - grid.pad - 2
    if not terrain.advantage:
        return None, (left, y0 + 1, right, y0 + 1 + h)
    w = advantage_badge(terrain.advantage, h).width
    return (left, y0 + 1, left + w, y0 + 1 + h), (left + w + 4, y0 + 1, right, y0 + 1 + h)


@lru_cache(maxsize=16)
def empty_field(fmap: FieldMap, grid: Grid) -> Image.Image:
    """Ground, hills, deployment rows, terrain pieces, labels and advantage values of one map."""
    k = FIELD_SS
    big = Image.new("RGBA", (grid.width * k, grid.height * k), (*PAPER, 255))
    draw = ImageDraw.Draw(big, "RGBA")
    for seat in (0, 1):  # a bar in the army colour beside its deployment rows
        for y in fmap.deploy[seat]:
            if 0 <= y < grid.rows:
                top = (grid.rows - 1 - y) * grid.size
                draw.rectangle([0, (top + 2) * k, 6 * k, (top + grid.size - 2) * k], fill=seat_color(seat))
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
            water = river_box(grid, zone, filled)
            if water is not None:
                _draw_water(draw, water, k)
            for place, kind in enumerate(filled):
                pbox = grid.place_box(zone, place)
                if kind == "forest":
                    _draw_forest(draw, pbox, k)
                elif kind == "building":
                    _draw_building(draw, pbox, k)
            if t.impassable:
                _draw_hatch(draw, box, k)
    # Grid lines over everything, then labels in each zone's top band.
    for y in range(grid.rows):
        for x in range(grid.cols):
            x0, y0, x1, y1 = (v * k for v in grid.zone_box((x, y)))
            draw.rectangle([x0, y0, x1, y1], outline=GRID_EDGE, width=round(1.5 * k))
    with scaled(k):
        for y in range(grid.rows):
            for x in range(grid.cols):
                zone = (x, y)
                x0, y0, _x1, _y1 = grid.zone_box(zone)
                at = ((x0 + 5) * k, (y0 + grid.strip / 2 + 1) * k)
                draw_text(draw, at, zone_label(zone), LABEL * k, INK, anchor="lc", role="zone")
    field = big.resize((grid.width, grid.height), Image.Resampling.LANCZOS)
    for zone, t in fmap.terrain:
        if t.impassable:
            x0, y0, x1, y1 = grid.zone_box(zone)
            ImageDraw.Draw(field).rectangle([x0, y0, x1, y1], outline=INK, width=3)
        badge_box, _hits = badge_boxes(grid, zone, t)
        if badge_box is not None:
            badge = advantage_badge(t.advantage, round(badge_box[3] - badge_box[1]))
            field.alpha_composite(badge, (round(badge_box[0]), round(badge_box[1])))
    return field


@lru_cache(maxsize=32)
def advantage_badge(value: int, height: int) -> Image.Image:
    """A gold pill with a star and the points the zone gives each turn to the army holding it."""
    size = min(LABEL, max(legible(), height - 2))
    digits = str(value)
    w = math.ceil(height * 0.85 + text_width(digits, size, bold=True) + 5)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        line = max(1, round(height * k * 0.07))
        draw.rounded_rectangle(
            [0, 0, w * k - 1, height * k - 1],
            radius=height * k / 2,
            fill=rgba(HIGHLIGHT),
            outline=rgba(INK),
            width=line,
        )
        c = height * k * 0.5
        pts = star((c, height * k / 2 + height * k * 0.03), height * k * 0.36, height * k * 0.16, 5, -90)
        draw.polygon(pts, fill=rgba(INK))
        at = (height * k * 0.85, height * k / 2)
        draw_text(draw, at, digits, size * k, INK, anchor="lc", bold=True, role="advantage")

    return sprite(w, height, paint)


def zone_of(item: Mapping[str, object]) -> Zone | None:
    z = item.get("zone")
    if not isinstance(z, Sequence) or len(z) != 2:
        return None
    return (int(z[0]), int(z[1]))
