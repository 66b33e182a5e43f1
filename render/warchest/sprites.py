"""Cached War Chest sprites: unit tokens, control rings, start flags, the last-action outline.

Each sprite is keyed by everything that changes its pixels (type, team, height, language, size), so
after the first few boards a new image is made almost only of pastes.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import HIGHLIGHT, INK, WHITE, rgba, sprite
from render.palette import CIRCLE
from render.text import draw_text
from render.warchest.hexgrid import corners
from render.warchest.style import TEAM_COLOR, TEAM_SHAPE, shade, tint, unit_abbr


def _shape(draw: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, **kw: object) -> None:
    """A round coin or a rounded square of comparable weight, centred on (cx, cy)."""
    if shape == CIRCLE:
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], **kw)  # type: ignore[arg-type]
    else:
        h = r * 0.9
        draw.rounded_rectangle([cx - h, cy - h, cx + h, cy + h], radius=r * 0.28, **kw)  # type: ignore[arg-type]


@lru_cache(maxsize=1024)
def token(unit: str, team: int | None, height: int | None, locale: str, radius: int) -> Image.Image:
    """A unit token: team shape and colour, abbreviation, stacked edges and a height badge.

    ``height`` None draws a single coin without badge (panels and legend).
    """
    size = math.ceil(radius * 2.9)
    fill = TEAM_COLOR[team]
    edge = shade(team)
    shape = TEAM_SHAPE[team]
    layers = 0 if height is None else min(max(height, 1), 3) - 1

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        r = radius * k
        cx = size * k / 2
        cy = size * k / 2 - layers * 0.08 * r
        line = max(1, round(0.08 * r))
        for i in range(layers, 0, -1):
            _shape(draw, shape, cx, cy + i * 0.17 * r, r, fill=edge, outline=INK, width=line)
        _shape(draw, shape, cx, cy, r, fill=fill, outline=INK, width=line)
        _shape(draw, shape, cx, cy, r * 0.84, outline=WHITE, width=max(1, round(0.05 * r)))
        text = unit_abbr(unit, locale)
        font_size = round(r * (0.74 if len(text) <= 2 else 0.56))
        draw_text(draw, (cx, cy), text, font_size, WHITE, anchor="mc", bold=True)
        if height is not None:
            bx, by, br = cx + 0.8 * r, cy + 0.78 * r + layers * 0.17 * r, 0.42 * r
            draw.ellipse([bx - br, by - br, bx + br, by + br], fill=WHITE, outline=INK, width=line)
            draw_text(draw, (bx, by), str(height), round(r * 0.56), INK, anchor="mc", bold=True)

    return sprite(size, size, paint)


@lru_cache(maxsize=64)
def control_ring(team: int | None, hex_size: int) -> Image.Image:
    """The mark of a control location: thin grey ring when neutral, thick team shape when controlled."""
    size = math.ceil(hex_size * 1.5)
    shape = TEAM_SHAPE[team]

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = size * k / 2
        r = 0.63 * hex_size * k
        if team is None:
            _shape(draw, CIRCLE, c, c, r, outline=rgba(TEAM_COLOR[None]), width=round(0.035 * hex_size * k))
            return
        _shape(draw, shape, c, c, r, fill=rgba(tint(team, 0.55)))
        _shape(draw, shape, c, c, r, outline=rgba(INK), width=round(0.1 * hex_size * k))
        _shape(
            draw,
            shape,
            c,
            c,
            r - 0.015 * hex_size * k,
            outline=rgba(TEAM_COLOR[team]),
            width=round(0.075 * hex_size * k),
        )

    return sprite(size, size, paint)


@lru_cache(maxsize=16)
def start_flag(team: int, scale: int) -> Image.Image:
    """A small pennant in the team colour marking a start location (``scale`` is its height in pixels)."""
    w, h = math.ceil(scale * 0.9), scale

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        pole = max(1, round(0.1 * scale * k))
        x0 = 0.15 * scale * k
        draw.line([(x0, 0.05 * h * k), (x0, 0.97 * h * k)], fill=INK, width=pole)
        flag = [(x0, 0.05 * h * k), (0.88 * w * k, 0.28 * h * k), (x0, 0.55 * h * k)]
        draw.polygon(flag, fill=TEAM_COLOR[team], outline=INK, width=max(1, round(0.05 * scale * k)))

    return sprite(w, h, paint)


@lru_cache(maxsize=16)
def last_outline(hex_size: int) -> Image.Image:
    """A thick yellow-on-black hex outline for the hexes of the last action."""
    size = math.ceil(hex_size * 2.3)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = size * k / 2
        outer = corners(c, c, hex_size * k * 0.97)
        inner = corners(c, c, hex_size * k * 0.9)
        draw.polygon(outer, outline=rgba(INK), width=round(0.1 * hex_size * k))
        draw.polygon(inner, outline=rgba(HIGHLIGHT), width=round(0.08 * hex_size * k))

    return sprite(size, size, paint)


@lru_cache(maxsize=16)
def team_mark(team: int | None, size: int) -> Image.Image:
    """A plain team shape (round or square) in the team colour, for names and legends."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = size * k / 2
        _shape(
            draw,
            TEAM_SHAPE[team],
            c,
            c,
            size * k * 0.42,
            fill=TEAM_COLOR[team],
            outline=INK,
            width=max(1, round(size * k * 0.06)),
        )

    return sprite(size, size, paint)
