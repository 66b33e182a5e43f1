"""The Cry Havoc map: a cached empty map per side, with the moment's pieces drawn on top.

Regions are tiles at the places ``layout`` gives them, tinted and patterned by terrain. Borders are
lines between tiles; the Hive, whose thick borders nobody crosses, gets a heavy dark frame and no
border lines; regions joined across the map edge get short arrows with the same letter.

A tile holds its name at the top (on two lines at a space or after a hyphen when it is long), then
its pieces: units per side (the side's shape, then the count), the controller's hollow mark, then
a row of tokens (headquarters, battle number, Trog War Party or Nest with the Trogs it brings out,
exploration, tunnel, structures in the builder's colour) and the region's crystal value. A region
someone controls is framed in that player's colour between two dark lines, which reads on every
terrain. Every label a player needs is drawn at ``LABEL`` size.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from engine.cryhavoc.content import TOKENS
from engine.cryhavoc.view import CryHavocView, RegionView
from render import common
from render.catalog import tr
from render.common import (
    HIGHLIGHT,
    INK,
    PAPER,
    RGB,
    SS,
    WHITE,
    ink_on,
    marked_actions,
    paste_centered,
    sprite,
)
from render.cryhavoc.layout import (
    BADGE_RADIUS,
    Arrow,
    Layout,
    arrows_for,
    border_segments,
    borders,
    layout_for,
    printed_positions,
)
from render.cryhavoc.style import (
    CRYSTAL,
    EDGE,
    HIVE_FILL,
    TERRAIN_FILL,
    TERRAIN_MARK,
    TROG_COLOR,
    WALL,
    badge,
    breakable,
    region_name,
    shade,
    side_color,
    side_shape,
    tint,
    token,
)
from render.layers import Layers, Piece, Shelf
from render.page import LABEL, legible
from render.text import draw_text, text_width, wrap

Box = tuple[float, float, float, float]
INSET = 11
"""Distance from a tile's edge to its text: the control frame runs in between."""
LINE_H = 25
UNIT_MARK = 26
ITEM_H = 28
PATTERN_TOP = 44
"""The terrain pattern starts under a tile's first line of name, so that the name reads on the wash."""


def trog_strength(kind: str) -> str:
    """The Trogs a token brings out, as the public knows it: a Nest always the same number; a War
    Party, drawn face down from the box's six, anything from the weakest to the strongest of them."""
    if kind == "nest":
        return str(TOKENS["nest"]["trogs"])
    counts = sorted({int(t["trogs"]) for t in TOKENS["war_party"]})
    return str(counts[0]) if len(counts) == 1 else f"{counts[0]}\u2013{counts[-1]}"


StaticKey = tuple[
    str,
    str,
    tuple[tuple[str, str | None, bool, float, float, int | None], ...],
    tuple[tuple[str, str], ...],
    tuple[tuple[str, str], ...],
    tuple[tuple[str, str], ...],
]


def geometry(view: CryHavocView) -> Layout:
    """The layout the map of ``view`` is drawn with."""
    return layout_for(str(view.get("side")), printed_positions(view["regions"]))


def static_key(view: CryHavocView, locale: str) -> StaticKey:
    """Everything the empty map depends on: side, language, printed regions, borders, HQ owners."""
    regions = tuple(
        (
            str(r["id"]),
            r.get("terrain"),
            bool(r.get("hive")),
            float(r["pos"][0]),
            float(r["pos"][1]),
            r.get("hq"),
        )
        for r in view["regions"]
    )
    edges = sorted({_ordered(str(r["id"]), str(a)) for r in view["regions"] for a in r.get("adjacent", [])})
    arrows = tuple((str(a), str(b)) for a, b in view.get("arrows") or [])
    thick = tuple((str(a), str(b)) for a, b in view.get("thick") or [])
    return (str(view.get("side")), locale, regions, tuple(edges), arrows, thick)


def _ordered(a: str, b: str) -> tuple[str, str]:
    """A border's two regions in a fixed order, so that each border is one key."""
    return (a, b) if a <= b else (b, a)


@lru_cache(maxsize=32)
def tile(terrain: str | None, kind: str, w: int, h: int, owner: int | None) -> Image.Image:
    """One empty region tile: terrain wash and pattern, or an HQ in its owner's tint, or the Hive."""
    if kind == "hive":
        fill, mark = HIVE_FILL, shade(HIVE_FILL, 0.3)
    elif kind == "hq":
        base = side_color(owner) if owner is not None else (150, 140, 120)
        fill, mark = tint(base, 0.72), tint(base, 0.45)
    else:
        fill, mark = TERRAIN_FILL[terrain], TERRAIN_MARK[terrain]
    edge = shade(fill, 0.45)

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.rounded_rectangle([0, 0, w * s - 1, h * s - 1], radius=12 * s, fill=edge)
        d.rounded_rectangle([2 * s, 2 * s, w * s - 1 - 2 * s, h * s - 1 - 2 * s], radius=10 * s, fill=fill)
        lw = max(1, s * 3 // 2)
        step = 26
        for row, y in enumerate(range(PATTERN_TOP, h - 6, step)):
            for x in range(14 + (row % 2) * step // 2, w - 10, step):
                X, Y = x * s, y * s
                if kind == "hive":
                    r = 7 * s
                    pts = [
                        (X + r * math.cos(k * math.pi / 3), Y + r * math.sin(k * math.pi / 3))
                        for k in range(6)
                    ]
                    d.polygon(pts, outline=mark, width=lw)
                elif kind == "hq":
                    d.rectangle([X - 4 * s, Y - 4 * s, X + 4 * s, Y + 4 * s], outline=mark, width=lw)
                elif terrain == "mountain":
                    d.line(
                        [(X - 7 * s, Y + 4 * s), (X, Y - 5 * s), (X + 7 * s, Y + 4 * s)], fill=mark, width=lw
                    )
                elif terrain == "desert":
                    d.ellipse([X - 2 * s, Y - 2 * s, X + 2 * s, Y + 2 * s], fill=mark)
                    d.ellipse([X + 6 * s, Y + 4 * s, X + 9 * s, Y + 7 * s], fill=mark)
                elif terrain == "jungle":
                    d.line([(X, Y + 6 * s), (X, Y - 4 * s)], fill=mark, width=lw)
                    d.line([(X, Y - 1 * s), (X - 5 * s, Y - 6 * s)], fill=mark, width=lw)
                    d.line([(X, Y + 2 * s), (X + 5 * s, Y - 3 * s)], fill=mark, width=lw)
                elif terrain == "ocean":
                    pts = [(X - 8 * s + k * 2 * s, Y + math.sin(k * 0.8) * 3 * s) for k in range(9)]
                    d.line(pts, fill=mark, width=lw)

    return sprite(w, h, paint)


def _arrowhead(
    d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], color: RGB, width: int
) -> None:
    d.line([a, b], fill=color, width=width)
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    head = width * 2.6
    left = (b[0] - head * math.cos(ang - 0.5), b[1] - head * math.sin(ang - 0.5))
    right = (b[0] - head * math.cos(ang + 0.5), b[1] - head * math.sin(ang + 0.5))
    d.polygon([b, left, right], fill=color)


def key_layout(key: StaticKey) -> Layout:
    """The layout of the empty map of ``key``."""
    return layout_for(key[0], tuple((rid, x, y) for rid, _t, _h, x, y, _q in key[2]))


def map_lines(key: StaticKey) -> tuple[Layout, list[tuple[str, str]], list[Arrow]]:
    """The layout, the border pairs and the edge arrows of the empty map of ``key``."""
    _side, _locale, _regions, edges, arrows, _thick = key
    g = key_layout(key)
    pairs = borders(edges, arrows, g)
    return g, pairs, arrows_for(arrows, g, border_segments(pairs, g))


def name_lines(region: Mapping[str, object], g: Layout, locale: str) -> list[str]:
    """The lines of a tile's title: its name, on two lines at a space, after a hyphen or inside a
    compound word ("Hollow-", "grove") if long."""
    name = region_name(str(region["id"]), locale)
    name = name[:1].upper() + name[1:]
    return wrap(breakable(name), LABEL, g.tile_w - 2 * INSET, 2, bold=True)


@lru_cache(maxsize=16)
def empty_map(key: StaticKey) -> Image.Image:
    """The map with tiles, names, borders, walls and edge arrows, but no pieces (cached per side)."""
    _side, locale, regions, _edges, _arrows, thick = key
    g, pairs, arrows = map_lines(key)
    img = Image.new("RGBA", (g.width, g.height), (*PAPER, 255))
    big = Image.new("RGBA", (g.width * SS, g.height * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    for (x0, y0), (x1, y1) in border_segments(pairs, g):
        d.line([(x0 * SS, y0 * SS), (x1 * SS, y1 * SS)], fill=EDGE, width=7 * SS)
    for arrow in arrows:
        start, tip = arrow.start, arrow.tip
        _arrowhead(d, (start[0] * SS, start[1] * SS), (tip[0] * SS, tip[1] * SS), EDGE, 6 * SS)
        r = BADGE_RADIUS * SS
        bx, by = arrow.badge[0] * SS, arrow.badge[1] * SS
        d.ellipse([bx - r, by - r, bx + r, by + r], fill=INK)
    img.alpha_composite(big.resize((g.width, g.height), Image.Resampling.LANCZOS))
    draw = ImageDraw.Draw(img)
    for arrow in arrows:
        draw_text(draw, arrow.badge, arrow.letter, LABEL - 1, WHITE, anchor="mc", bold=True, role="arrow")
    walled = {r for pair in thick for r in pair if sum(r in p for p in thick) == len(thick)}
    for rid, terrain, hive, _x, _y, hq in regions:
        kind = "hive" if hive else "hq" if terrain is None else "land"
        t = tile(terrain, kind, g.tile_w, g.tile_h, hq)
        box = g.box(rid)
        img.alpha_composite(t, (round(box[0]), round(box[1])))
        if rid in walled:
            draw.rounded_rectangle(
                [box[0] - 5, box[1] - 5, box[2] + 5, box[3] + 5], radius=15, outline=WALL, width=8
            )
        ink = ink_on(HIVE_FILL) if kind == "hive" else INK
        for n, line in enumerate(name_lines({"id": rid}, g, locale)):
            at = (box[0] + INSET, box[1] + 8 + LINE_H / 2 + n * LINE_H)
            draw_text(draw, at, line, LABEL, ink, anchor="lc", bold=True, role="region")
    return img


def _sides(units: Mapping[str, int]) -> list[tuple[str, int]]:
    order = sorted((k for k in units if k.isdigit()), key=int) + [k for k in units if not k.isdigit()]
    return [(k, int(units[k])) for k in order if int(units[k]) > 0]


def control_frame(draw: ImageDraw.ImageDraw, box: Box, color: RGB) -> None:
    """The frame of a controlled region: the player's colour between two dark lines, so that it
    stands out from any terrain's wash and pattern."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle([x0, y0, x1 - 1, y1 - 1], radius=12, outline=INK, width=2)
    draw.rounded_rectangle([x0 + 2, y0 + 2, x1 - 3, y1 - 3], radius=10, outline=color, width=FRAME_BAND)
    inner = 2 + FRAME_BAND
    draw.rounded_rectangle(
        [x0 + inner, y0 + inner, x1 - 1 - inner, y1 - 1 - inner], radius=7, outline=INK, width=1
    )


FRAME_BAND = 6


def _units(
    img: Image.Image, draw: ImageDraw.ImageDraw, sides: list[tuple[str, int]], x: float, cy: float
) -> float:
    """Each side's mark and count from ``x``; returns where they end."""
    for side, count in sides:
        key: int | str = int(side) if side.isdigit() else "trogs"
        paste_centered(img, token(side_shape(key), side_color(key), UNIT_MARK), (x + UNIT_MARK / 2, cy))
        x += UNIT_MARK + 3
        x += draw_text(draw, (x, cy), str(count), LABEL, INK, anchor="lc", bold=True, role="units") + 9
    return x


REACH = 8
"""How far a region's drawing may reach beyond its tile: the highlight ring around the region of
the battle under way (the gap between two tiles is twice this at least)."""

PATCHES_KEPT = 256
"""Regions drawn with their pieces, kept per worker (about 140 KB each): most moves change one
to three regions, and a region seen before in the same state is pasted instead of drawn."""


LAYERS_KEPT = 4
"""Maps (sides, sizes, languages) whose last drawing is kept to be re-laid: a few MB each."""
_layers: Shelf[StaticKey] = Shelf(LAYERS_KEPT)


def draw_map(view: CryHavocView, locale: str) -> Image.Image:
    """The map of ``view``: the cached empty side with every piece of the moment on top. A copy:
    the page itself pastes the kept picture (``kept_map``).

    Each region is drawn on its own patch of the empty map, which is kept (``region_patch``), so a
    move redraws only the regions it changed; the patch pixels are the same as drawing straight on
    the map. The map is re-laid from its last drawing where its patches or arrow changed
    (``render.layers``)."""
    return kept_map(view, locale).canvas.copy()


def kept_map(view: CryHavocView, locale: str) -> Layers:
    """What ``draw_map`` draws, with what changed since the map's last drawing."""
    key = static_key(view, locale)
    layers = _layers.get(key, empty_map(key))
    rings = highlight_rings(view)
    pieces: list[Piece] = []
    for region in view["regions"]:
        r = shown_region(view, region)
        patch, mask, at = region_patch(key, json.dumps(r, sort_keys=True), rings.get(str(r["id"]), 0))
        pieces.append((patch, at[0], at[1], mask))
    pieces += path_pieces(view, key_layout(key))
    layers.draw(pieces)
    return layers


def shown_region(view: CryHavocView, region: RegionView) -> RegionView:
    """The region as the map draws it: the view's, with the units ``region_units`` gives it."""
    return {**region, "units": region_units(view, region)}


def region_units(view: CryHavocView, region: RegionView) -> dict[str, int]:
    """The units a region shows, by side: those standing in it and, in the region of the battle
    under way, both sides' units still to place or on the battle board's objectives. They are
    fighting there, so the map keeps them on the region for as long as the battle waits on its
    players, rather than showing it empty."""
    units = {str(k): int(v) for k, v in (region.get("units") or {}).items()}
    battle = view.get("battle")
    if not battle or battle.get("region") != region.get("id"):
        return units
    placing = battle.get("placing") or {}
    objectives = (battle.get("objectives") or {}).values()
    for role in ("attacker", "defender"):
        side = battle.get(role)
        fighting = int(placing.get(role, 0)) + sum(int(o.get(role, 0)) for o in objectives)
        if side is not None and fighting:
            key = str(side)
            units[key] = units.get(key, 0) + fighting
    return units


def move_paths(view: CryHavocView) -> list[tuple[str, str]]:
    """The regions each step or retreat since the last handover went from and to (``path``)."""
    ids = {str(r["id"]) for r in view["regions"]}
    paths: list[tuple[str, str]] = []
    for marked in marked_actions(view, "regions"):
        path = [str(r) for r in marked.get("path") or [] if str(r) in ids]
        if len(path) == 2 and (path[0], path[1]) not in paths:
            paths.append((path[0], path[1]))
    return paths


def move_path(view: CryHavocView) -> tuple[str, str] | None:
    """The last step's or retreat's path (the view's ``last["path"]``), one of ``move_paths``."""
    ids = {str(r["id"]) for r in view["regions"]}
    last = view.get("last")
    path = [str(r) for r in (last.get("path") if last else None) or [] if str(r) in ids]
    return (path[0], path[1]) if len(path) == 2 else None


def draw_path(img: Image.Image, view: CryHavocView, g: Layout) -> None:
    """The arrows of ``path_pieces`` drawn on ``img``."""
    for drawn in path_pieces(view, g):
        item, x, y = drawn[:3]
        paste_centered(img, item, (x + item.width / 2, y + item.height / 2))


def path_pieces(view: CryHavocView, g: Layout) -> list[Piece]:
    """The arrows of the steps and retreats since the last handover (``path_piece`` each)."""
    return [drawn for path in move_paths(view) if (drawn := path_piece(path, g)) is not None]


def path_piece(path: tuple[str, str], g: Layout) -> Piece | None:
    """The arrow of a step or retreat, from the edge of the region left to the edge of the one
    reached (over the road between them, leaving the tiles' pieces clear), a little into both
    tiles when they are close."""
    boxes = [g.box(rid) for rid in path]
    (ax, ay), (bx, by) = (((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes)
    length = math.hypot(bx - ax, by - ay)
    if length < 1:
        return None
    ux, uy = (bx - ax) / length, (by - ay) / length

    def reach(box: Box) -> float:
        """How far from the middle of ``box`` its edge is, along the arrow."""
        half_w, half_h = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
        return min(half_w / abs(ux) if ux else math.inf, half_h / abs(uy) if uy else math.inf)

    start, end = reach(boxes[0]), length - reach(boxes[1])
    if end - start < 40:
        start, end = start - 14, end + 14
    return common.arrow((ax + ux * start, ay + uy * start), (ax + ux * end, ay + uy * end))


def highlight_rings(view: CryHavocView) -> dict[str, int]:
    """The width of the highlight ring around each region that has one: the battle under way gets
    the wider, the regions the moves since the last handover touched (the view's ``since``, and
    ``last["regions"]``) the narrower."""
    ids = {str(r["id"]) for r in view["regions"]}
    touched = [str(r) for marked in marked_actions(view, "regions") for r in marked.get("regions") or []]
    rings = dict.fromkeys((r for r in touched if r in ids), 4)
    battle = view.get("battle")
    fight = battle.get("region") if battle else None
    if fight is not None:
        rings[str(fight)] = 6
    return rings


@lru_cache(maxsize=PATCHES_KEPT)
def region_patch(key: StaticKey, region: str, ring: int) -> tuple[Image.Image, Image.Image, tuple[int, int]]:
    """One region of the map ``key`` with its pieces (``region``: the view's region as JSON) and a
    highlight ring of ``ring`` pixels (0: none): the patch, the mask of the pixels it changes and
    where it goes. The patch starts at even coordinates, so that every position rounded while
    drawing rounds as it would on the whole map, and the mask keeps a neighbour's ring that
    reaches into the patch's margin."""
    r = json.loads(region)
    g = key_layout(key)
    x0, y0, x1, y1 = g.box(str(r["id"]))
    left, top = 2 * math.floor((x0 - REACH) / 2), 2 * math.floor((y0 - REACH) / 2)
    right, bottom = 2 * math.ceil((x1 + REACH + 1) / 2), 2 * math.ceil((y1 + REACH + 1) / 2)
    left, top = max(0, left), max(0, top)
    right, bottom = min(g.width, right), min(g.height, bottom)
    base = empty_map(key).crop((left, top, right, bottom))
    img = base.copy()
    _draw_region(img, r, (x0 - left, y0 - top, x1 - left, y1 - top), g, ring, key[1])
    bands = ImageChops.difference(img, base).split()
    changed = functools.reduce(ImageChops.lighter, bands).point(lambda v: 255 if v else 0, "1")
    return img, changed, (left, top)


def _draw_region(img: Image.Image, r: RegionView, box: Box, g: Layout, ring: int, locale: str) -> None:
    """A region's pieces on ``img`` where its tile is ``box``: the highlight ring, the control frame,
    units, the controller's mark, tokens and crystals."""
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    control = r.get("control")
    two_rows = g.tile_h >= 2 * LINE_H + 2 * ITEM_H + 16
    if ring:
        draw.rounded_rectangle(
            [x0 - ring - 2, y0 - ring - 2, x1 + ring + 2, y1 + ring + 2], radius=16, outline=INK, width=2
        )
        draw.rounded_rectangle(
            [x0 - ring, y0 - ring, x1 + ring, y1 + ring], radius=15, outline=HIGHLIGHT, width=ring
        )
    if control is not None:
        control_frame(draw, box, side_color(control))
    lines = len(name_lines(r, g, locale))
    bottom = y1 - INSET + 3 - ITEM_H / 2
    upper = y0 + 8 + lines * LINE_H + ITEM_H / 2 if two_rows else bottom
    right = x1 - INSET + 2
    crystal_w = 0.0
    value = int(r.get("crystals") or 0)
    if value:
        mark = crystal_value(value, largest_crystal(r.get("crystal_tokens") or {}))
        paste_centered(img, mark, (right - mark.width / 2, bottom))
        crystal_w = mark.width + 4
    items = _items(r, locale)
    control_w = 0.0
    if control is not None:
        hollow = token(side_shape(control), side_color(control), 26, "", True)
        cx = right - 13 - (crystal_w if not two_rows else 0)
        paste_centered(img, hollow, (cx, upper))
        control_w = 30
    x = _units(img, draw, _sides(r.get("units") or {}), x0 + INSET, upper)
    rows = [(x, upper, right - control_w - (crystal_w if not two_rows else 0))]
    if two_rows:
        rows.append((x0 + INSET, bottom, right - crystal_w))
    rows.sort(key=lambda row: -row[1])  # the bottom row first, then what is left of the units row
    for item in items:
        for n, (left, cy, end) in enumerate(rows):
            if left + item.width <= end:
                paste_centered(img, item, (left + item.width / 2, cy))
                rows[n] = (left + item.width + 4, cy, end)
                break


def largest_crystal(tokens: Mapping[str, int]) -> str:
    """The most valuable kind of crystal in a region: its colour marks the region's value."""
    for name in ("red", "yellow", "green"):
        if int(tokens.get(name, 0)):
            return name
    return "green"


@lru_cache(maxsize=128)
def crystal_value(value: int, color_name: str) -> Image.Image:
    """A cut gem in the colour of the region's best crystal, followed by the region's whole crystal
    value in legible type: what the region scores, whatever mix of crystals makes it up."""
    color, _worth = CRYSTAL[color_name]
    digits = str(value)
    gem = 24
    width = gem + 3 + math.ceil(text_width(digits, LABEL, bold=True)) + 2
    height = ITEM_H

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        w, top = gem * s, (height - gem) / 2 * s
        pts = [
            (w * 0.5, top + 1 * s),
            (w - 1 * s, top + w * 0.38),
            (w * 0.5, top + w - 1 * s),
            (1 * s, top + w * 0.38),
        ]
        d.polygon(pts, fill=shade(color, 0.5))
        inner = [
            (w * 0.5, top + 3.5 * s),
            (w - 4 * s, top + w * 0.39),
            (w * 0.5, top + w - 4 * s),
            (4 * s, top + w * 0.39),
        ]
        d.polygon(inner, fill=color)
        draw_text(
            d, ((gem + 3) * s, height * s / 2), digits, LABEL * s, INK, anchor="lc", bold=True, role="crystal"
        )

    return sprite(width, height, paint)


@lru_cache(maxsize=32)
def trog_token(label: str, strength: str) -> Image.Image:
    """A Trog War Party or Nest: its letters, then a Trog mark and the Trogs it brings out."""
    size = LABEL
    hexagon = ITEM_H - 8
    lw = text_width(label, legible(), bold=True)
    sw = text_width(strength, size, bold=True)
    width = math.ceil(8 + lw + 6 + hexagon + 3 + sw + 9)
    fill = (110, 80, 60)

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        h = ITEM_H * s
        d.rounded_rectangle([0, 0, width * s - 1, h - 1], radius=h // 2, fill=shade(fill, 0.5))
        d.rounded_rectangle(
            [2 * s, 2 * s, width * s - 1 - 2 * s, h - 1 - 2 * s], radius=h // 2 - 2 * s, fill=fill
        )
        draw_text(d, (8 * s, h / 2), label, legible() * s, WHITE, anchor="lc", bold=True)
        cx, cy, r = (8 + lw + 6 + hexagon / 2) * s, h / 2, hexagon / 2 * s
        pts = [
            (
                cx + r * math.cos(math.pi / 6 + k * math.pi / 3),
                cy + r * math.sin(math.pi / 6 + k * math.pi / 3),
            )
            for k in range(6)
        ]
        d.polygon(pts, fill=WHITE)
        inner = [
            (
                cx + (r - 2.5 * s) * math.cos(math.pi / 6 + k * math.pi / 3),
                cy + (r - 2.5 * s) * math.sin(math.pi / 6 + k * math.pi / 3),
            )
            for k in range(6)
        ]
        d.polygon(inner, fill=TROG_COLOR)
        at = ((8 + lw + 6 + hexagon + 3) * s, h / 2)
        draw_text(d, at, strength, size * s, WHITE, anchor="lc", bold=True, role="strength")

    return sprite(width, ITEM_H, paint)


def _items(r: RegionView, locale: str) -> list[Image.Image]:
    """The tokens of a region, most important first: battle, Trog token, headquarters, exploration,
    tunnel, structures."""
    items: list[Image.Image] = []
    if r.get("battle"):
        items.append(badge(str(r["battle"]), HIGHLIGHT, INK, ITEM_H, INK, role="battle"))
    tok = r.get("token")
    if tok in ("war_party", "nest"):
        items.append(trog_token(tr(f"render.ch.token.{tok}", locale), trog_strength(str(tok))))
    if r.get("hq") is not None:
        items.append(badge(tr("render.ch.hq", locale), WHITE, INK, ITEM_H, side_color(r["hq"])))
    if r.get("explore"):
        items.append(badge("?", (250, 240, 200), INK, ITEM_H))
    if r.get("tunnel"):
        items.append(badge(tr("render.ch.token.tunnel", locale), (60, 45, 35), (240, 220, 170), ITEM_H))
    for st in r.get("structures") or []:
        items.append(structure_mark(str(st.get("type", "")), st.get("seat"), ITEM_H, locale))
    return items


def structure_mark(kind: str, seat: int | str | None, size: int, locale: str) -> Image.Image:
    """A small house in the builder's colour with the structure's initial."""
    from render.cryhavoc.style import name_of

    initial = name_of(f"ch.structure.{kind}", locale, kind)[:1].upper()
    return _house(initial, side_color(seat if isinstance(seat, int) else None), size)


@lru_cache(maxsize=64)
def _house(letter: str, color: RGB, size: int) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        w = size * s
        d.polygon(
            [(w / 2, 0), (w, w * 0.42), (w - 1, w - 1), (0, w - 1), (0, w * 0.42)], fill=shade(color, 0.5)
        )
        d.polygon(
            [
                (w / 2, 2.5 * s),
                (w - 2 * s, w * 0.44),
                (w - 2 * s, w - 2 * s),
                (2 * s, w - 2 * s),
                (2 * s, w * 0.44),
            ],
            fill=color,
        )

    img = sprite(size, size, paint)
    draw_text(
        ImageDraw.Draw(img),
        (size / 2, size * 0.62),
        letter,
        max(legible(), size // 2),
        ink_on(color),
        anchor="mc",
        bold=True,
    )
    return img
