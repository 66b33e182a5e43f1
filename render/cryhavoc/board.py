"""The Cry Havoc map: a cached empty map per side, with the moment's pieces drawn on top.

Regions are drawn as tiles at the positions the view gives (0..100 on both axes, the printed layout),
tinted and patterned by terrain. Borders are lines between tiles; the Hive, whose thick borders
nobody crosses, gets a heavy dark frame and no border lines; edge arrows that join two regions across
the map edge are arrows leaving each tile with the same letter at both ends.

On each tile: the region name, control (a hollow mark in the controller's shape and a border in its
colour), units per side (shape and count), crystals (gems worth 1, 3, 5; one large gem with the
value written on it when more than three gems would be needed), tokens (War Party, Nest,
exploration, tunnel), structures (a small house in the builder's colour) and the battle token number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.catalog import tr
from render.common import HIGHLIGHT, INK, PAPER, RGB, SS, WHITE, paste_centered, sprite
from render.cryhavoc.style import (
    EDGE,
    HIVE_FILL,
    MAX_GEMS,
    TERRAIN_FILL,
    TERRAIN_MARK,
    WALL,
    badge,
    crystal,
    crystal_total,
    region_name,
    shade,
    side_color,
    side_shape,
    tint,
    token,
)
from render.text import draw_text, fit, text_width

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Geometry:
    """Pixel layout of one side of the map: printed positions stretched over the image."""

    width: int
    height: int
    tile_w: int
    tile_h: int
    name_size: int
    unit_size: int
    bounds: tuple[float, float, float, float]
    """Smallest and largest printed x and y of the side's regions."""

    margin_x: int = 96
    margin_y: int = 56

    def center(self, pos: tuple[float, float]) -> tuple[float, float]:
        xmin, xmax, ymin, ymax = self.bounds
        left, top = self.margin_x + self.tile_w / 2, self.margin_y + self.tile_h / 2
        sx = (self.width - 2 * left) / max(1.0, xmax - xmin)
        sy = (self.height - 2 * top) / max(1.0, ymax - ymin)
        return (left + (pos[0] - xmin) * sx, top + (pos[1] - ymin) * sy)

    def box(self, pos: tuple[float, float]) -> Box:
        cx, cy = self.center(pos)
        return (cx - self.tile_w / 2, cy - self.tile_h / 2, cx + self.tile_w / 2, cy + self.tile_h / 2)


SIZES = {"small": (1160, 1000, 236, 112, 17, 32, 96), "large": (1160, 1100, 136, 112, 14, 27, 74)}
"""Per side: image width and height, tile width and height, name and unit sizes, side margin."""


def geometry_for(side: str, positions: list[tuple[float, float]]) -> Geometry:
    w, h, tw, th, ns, us, mx = SIZES.get(side, SIZES["large"])
    xs = [p[0] for p in positions] or [0.0, 100.0]
    ys = [p[1] for p in positions] or [0.0, 100.0]
    return Geometry(w, h, tw, th, ns, us, (min(xs), max(xs), min(ys), max(ys)), margin_x=mx)


StaticKey = tuple[
    str,
    str,
    tuple[tuple[str, str | None, bool, float, float, int | None], ...],
    tuple[tuple[str, str], ...],
    tuple[tuple[str, str], ...],
    tuple[tuple[str, str], ...],
]


def geometry(view: Mapping[str, Any]) -> Geometry:
    positions = [(float(r["pos"][0]), float(r["pos"][1])) for r in view["regions"]]
    return geometry_for(str(view.get("side")), positions)


def static_key(view: Mapping[str, Any], locale: str) -> StaticKey:
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
    edges = sorted(
        {tuple(sorted((str(r["id"]), str(a)))) for r in view["regions"] for a in r.get("adjacent", [])}
    )
    arrows = tuple(tuple(map(str, a)) for a in view.get("arrows") or [])
    thick = tuple(tuple(map(str, t)) for t in view.get("thick") or [])
    return (str(view.get("side")), locale, regions, tuple(edges), arrows, thick)  # type: ignore[return-value, arg-type]


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
        for row, y in enumerate(range(34, h - 6, step)):
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


def _arrow(
    d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], color: RGB, width: int
) -> None:
    d.line([a, b], fill=color, width=width)
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    head = width * 3.2
    left = (b[0] - head * math.cos(ang - 0.5), b[1] - head * math.sin(ang - 0.5))
    right = (b[0] - head * math.cos(ang + 0.5), b[1] - head * math.sin(ang + 0.5))
    d.polygon([b, left, right], fill=color)


def _exit_point(box: Box, direction: tuple[float, float]) -> tuple[float, float]:
    """Where a ray from the middle of ``box`` along ``direction`` leaves the box."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    dx, dy = direction
    tx = (box[2] - cx) / abs(dx) if dx else math.inf
    ty = (box[3] - cy) / abs(dy) if dy else math.inf
    t = min(tx, ty)
    return (cx + dx * t, cy + dy * t)


def _arrow_ends(
    g: Geometry, pos: Mapping[str, tuple[float, float]], arrows: tuple[tuple[str, str], ...]
) -> list[tuple[tuple[float, float], tuple[float, float], tuple[float, float], str]]:
    """(start, tip, badge centre, letter) of every edge arrow; a region with several fans them out."""
    letters = "ABCDEFGH"
    per_region: dict[str, list[str]] = {}
    for i, pair in enumerate(arrows):
        for rid in pair:
            if rid in pos:
                per_region.setdefault(rid, []).append(letters[i % len(letters)])
    xmin, xmax, ymin, ymax = g.bounds
    mid = ((xmin + xmax) / 2, (ymin + ymax) / 2)
    out = []
    for rid, marks in per_region.items():
        base = math.atan2(pos[rid][1] - mid[1], pos[rid][0] - mid[0])
        for k, letter in enumerate(marks):
            ang = base + (k - (len(marks) - 1) / 2) * 0.6
            dx, dy = math.cos(ang), math.sin(ang)
            start = _exit_point(g.box(pos[rid]), (dx, dy))
            end = (start[0] + dx * 34, start[1] + dy * 34)
            out.append((start, end, (end[0] + dx * 20, end[1] + dy * 20), letter))
    return out


@lru_cache(maxsize=16)
def empty_map(key: StaticKey) -> Image.Image:
    """The map with tiles, names, borders, walls and edge arrows, but no pieces (cached per side)."""
    side, locale, regions, edges, arrows, thick = key
    g = geometry_for(side, [(x, y) for _r, _t, _h, x, y, _q in regions])
    img = Image.new("RGBA", (g.width, g.height), (*PAPER, 255))
    pos = {rid: (x, y) for rid, _t, _h, x, y, _q in regions}
    big = Image.new("RGBA", (g.width * SS, g.height * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    for a, b in edges:
        if a in pos and b in pos and [a, b] not in [list(x) for x in arrows] and (b, a) not in arrows:
            (x0, y0), (x1, y1) = g.center(pos[a]), g.center(pos[b])
            d.line([(x0 * SS, y0 * SS), (x1 * SS, y1 * SS)], fill=EDGE, width=7 * SS)
    walled = {r for pair in thick for r in pair if sum(r in p for p in thick) == len(thick)}
    ends = _arrow_ends(g, pos, arrows)
    for start, end, badge_at, _letter in ends:
        _arrow(d, (start[0] * SS, start[1] * SS), (end[0] * SS, end[1] * SS), EDGE, 6 * SS)
        r = 15 * SS
        bx, by = badge_at[0] * SS, badge_at[1] * SS
        d.ellipse([bx - r, by - r, bx + r, by + r], fill=INK)
    img.alpha_composite(big.resize((g.width, g.height), Image.Resampling.LANCZOS))
    draw = ImageDraw.Draw(img)
    for _start, _end, badge_at, letter in ends:
        draw_text(draw, badge_at, letter, 17, WHITE, anchor="mc", bold=True)
    for rid, terrain, hive, x, y, hq in regions:
        kind = "hive" if hive else "hq" if terrain is None else "land"
        t = tile(terrain, kind, g.tile_w, g.tile_h, hq)
        box = g.box((x, y))
        img.alpha_composite(t, (round(box[0]), round(box[1])))
        if rid in walled:
            draw.rounded_rectangle(
                [box[0] - 5, box[1] - 5, box[2] + 5, box[3] + 5], radius=15, outline=WALL, width=8
            )
        ink = WHITE if kind == "hive" else INK
        for n, line in enumerate(_label({"id": rid, "hq": hq}, g, locale)):
            draw_text(
                draw, (box[0] + 9, box[1] + 7 + n * (g.name_size + 2)), line, g.name_size, ink, bold=True
            )
    return img


def _label(region: Mapping[str, Any], g: Geometry, locale: str) -> list[str]:
    """The lines of a tile's title: its name, "HQ · " first on a headquarters."""
    name = region_name(str(region["id"]), locale)
    name = name[:1].upper() + name[1:]
    if region.get("hq") is not None:
        name = f"{tr('render.ch.hq', locale)} · {name}"
    room = g.tile_w - 18 - g.unit_size * 0.8
    return name_lines(name, g.name_size, room)


def name_lines(name: str, size: int, room: float) -> list[str]:
    """A region name in bold on one line, or on two (cut at a space or after a hyphen) when it is too
    long; a line still too long is shortened with "…"."""
    if text_width(name, size, bold=True) <= room:
        return [name]
    cuts = [i + 1 for i, ch in enumerate(name) if ch in " -"]
    best = None
    for cut in cuts:
        first, second = name[:cut].rstrip(), name[cut:].strip()
        widest = max(text_width(first, size, bold=True), text_width(second, size, bold=True))
        if best is None or widest < best[0]:
            best = (widest, [first, second])
    if best is None:
        return [fit(name, size, room, bold=True)]
    return [fit(line, size, room, bold=True) for line in best[1]]


def named_regions(text: str, ids: list[str]) -> list[str]:
    """Region ids an action text names (``go mossdeep flintpeak``), in the order they appear."""
    words = text.replace(",", " ").split()
    return [w for w in words if w in ids]


def _sides(units: Mapping[str, int]) -> list[tuple[str, int]]:
    order = sorted((k for k in units if k.isdigit()), key=int) + [k for k in units if not k.isdigit()]
    return [(k, int(units[k])) for k in order if int(units[k]) > 0]


def draw_map(view: Mapping[str, Any], locale: str) -> Image.Image:
    """The map of ``view``: the cached empty side with every piece of the moment on top."""
    g = geometry(view)
    img = empty_map(static_key(view, locale)).copy()
    draw = ImageDraw.Draw(img)
    ids = [str(r["id"]) for r in view["regions"]]
    last = view.get("last") or {}
    marked = set(named_regions(str(last.get("text", "")), ids))
    fight = (view.get("battle") or {}).get("region")
    u = g.unit_size
    for r in view["regions"]:
        box = g.box((float(r["pos"][0]), float(r["pos"][1])))
        x0, y0, x1, y1 = box
        control = r.get("control")
        if r["id"] == fight or r["id"] in marked:
            ring = 6 if r["id"] == fight else 4
            draw.rounded_rectangle(
                [x0 - ring - 2, y0 - ring - 2, x1 + ring + 2, y1 + ring + 2], radius=16, outline=INK, width=2
            )
            draw.rounded_rectangle(
                [x0 - ring, y0 - ring, x1 + ring, y1 + ring], radius=15, outline=HIGHLIGHT, width=ring
            )
        if control is not None:
            color = side_color(control)
            draw.rounded_rectangle([x0 + 1, y0 + 1, x1 - 1, y1 - 1], radius=12, outline=color, width=4)
            paste_centered(
                img,
                token(side_shape(control), color, int(u * 0.8), "", True),
                (x1 - u * 0.45 - 3, y0 + u * 0.45 + 2),
            )
        sides = _sides(r.get("units") or {})
        top = 28 if len(_label(r, g, locale)) == 1 else 26 + g.name_size
        if sides:
            step = min(u + 6, (g.tile_w - 14) / len(sides))
            for i, (side, count) in enumerate(sides):
                key: int | str = int(side) if side.isdigit() else "trogs"
                mark = token(side_shape(key), side_color(key), u, str(count))
                paste_centered(img, mark, (x0 + 10 + u / 2 + i * step, y0 + top + u / 2))
        # bottom row: crystals from the right, tokens and structures from the left
        cy = y1 - 18
        cs = 24 if g.tile_w > 160 else 21
        gems = [
            c
            for c in ("red", "yellow", "green")
            for _ in range(int((r.get("crystal_tokens") or {}).get(c, 0)))
        ]
        if len(gems) > MAX_GEMS:
            total = crystal_total(int(r.get("crystals") or 0), cs)
            paste_centered(img, total, (x1 - 6 - total.width / 2, cy))
            cx = x1 - 6 - total.width - 3 - cs / 2
        else:
            cx = x1 - 6 - cs / 2
            for color_name in gems:
                paste_centered(img, crystal(color_name, cs), (cx, cy))
                cx -= cs - 3
        items: list[Image.Image] = []
        bh = 20 if g.tile_w > 160 else 18
        if r.get("battle"):
            items.append(badge(str(r["battle"]), HIGHLIGHT, INK, bh + 4, INK))
        tok = r.get("token")
        if tok in ("war_party", "nest"):
            items.append(badge(tr(f"render.ch.token.{tok}", locale), (110, 80, 60), WHITE, bh))
        if r.get("explore"):
            items.append(badge("?", (250, 240, 200), INK, bh))
        if r.get("tunnel"):
            items.append(badge(tr("render.ch.token.tunnel", locale), (60, 45, 35), (240, 220, 170), bh))
        for st in r.get("structures") or []:
            items.append(structure_mark(str(st.get("type", "")), st.get("seat"), bh + 4, locale))
        x = x0 + 8
        for item in items:
            if x + item.width > cx + cs / 2:
                break
            paste_centered(img, item, (x + item.width / 2, cy))
            x += item.width + 3
    return img


def structure_mark(kind: str, seat: Any, size: int, locale: str) -> Image.Image:
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
        ImageDraw.Draw(img), (size / 2, size * 0.6), letter, int(size * 0.5), WHITE, anchor="mc", bold=True
    )
    return img
