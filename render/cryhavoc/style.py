"""Cry Havoc look: seat colours and shapes, terrain palette, small sprites, catalog access.

Seats keep the colours of the other boards (seat 0 blue, seat 1 vermilion, then bluish green and
reddish purple, the Okabe-Ito set) and each also has its own shape (circle, square, triangle,
diamond), so no player depends on colour alone. The neutral Trogs are dark grey hexagons. Terrain
colours are pale washes, each with its own pattern, so that units stay the strongest marks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

import i18n
from engine.text import Msg
from render.catalog import lookup, player_name
from render.common import INK, RGB, WHITE, sprite
from render.palette import SEAT_COLOR, SEAT_SHAPE, darken, lighten
from render.text import draw_text, text_width

TROG_COLOR: RGB = (70, 66, 60)
TROG_SHAPE = "hexagon"

TERRAIN_FILL: dict[str | None, RGB] = {
    "mountain": (205, 198, 190),
    "desert": (240, 218, 160),
    "jungle": (182, 214, 160),
    "ocean": (172, 205, 232),
    None: (236, 231, 212),
}
TERRAIN_MARK: dict[str | None, RGB] = {
    "mountain": (120, 108, 98),
    "desert": (196, 160, 80),
    "jungle": (70, 130, 60),
    "ocean": (70, 120, 175),
    None: (160, 150, 130),
}
HIVE_FILL: RGB = (120, 98, 78)
CRYSTAL: dict[str, tuple[RGB, int]] = {
    "green": ((60, 170, 80), 1),
    "yellow": ((235, 200, 40), 3),
    "red": ((205, 50, 40), 5),
}
tint = lighten
shade = darken

EDGE: RGB = (120, 110, 92)
WALL: RGB = (40, 32, 26)


def seat_index(side: int | str | None) -> int | None:
    """The seat a side names (views write seats as numbers or digit strings), None for the Trogs."""
    if isinstance(side, str) and side.isdigit():
        return int(side)
    return side if isinstance(side, int) else None


def side_color(side: int | str | None) -> RGB:
    """Colour of a seat, or of the neutral Trogs (``"trogs"``, ``None``)."""
    seat = seat_index(side)
    return TROG_COLOR if seat is None else SEAT_COLOR[seat % 4]


def side_shape(side: int | str | None) -> str:
    seat = seat_index(side)
    return TROG_SHAPE if seat is None else SEAT_SHAPE[seat % 4]


def tm(m: Msg, locale: str) -> str:
    return i18n.t(m, locale)


def name_of(key: str, locale: str, fallback: str) -> str:
    return lookup(key, locale, fallback.replace("_", " "))


def region_name(rid: str, locale: str) -> str:
    return name_of(f"ch.region.{rid}", locale, rid)


def faction_name(faction: str, locale: str) -> str:
    return name_of(f"ch.faction.{faction}", locale, faction)


def seat_label(view: Mapping[str, Any], seat: int | str | None, names: Mapping[str, str], locale: str) -> str:
    """A seat's display name, or the neutral Trogs' name."""
    index = seat_index(seat)
    seats = view.get("seats") or []
    if index is not None and 0 <= index < len(seats):
        return player_name(names, seats[index].get("id"))
    return name_of("ch.trogs_neutral", locale, "trogs")


def _polygon(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    if shape == "square":
        k = r * 0.86
        return [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    if shape == "triangle":
        return [(cx, cy - r * 1.05), (cx + r * 1.05, cy + r * 0.8), (cx - r * 1.05, cy + r * 0.8)]
    if shape == "diamond":
        return [(cx, cy - r * 1.1), (cx + r * 1.1, cy), (cx, cy + r * 1.1), (cx - r * 1.1, cy)]
    if shape == "hexagon":
        return [
            (
                cx + r * math.cos(math.pi / 6 + k * math.pi / 3),
                cy + r * math.sin(math.pi / 6 + k * math.pi / 3),
            )
            for k in range(6)
        ]
    raise ValueError(shape)


@lru_cache(maxsize=256)
def token(shape: str, color: RGB, size: int, label: str = "", hollow: bool = False) -> Image.Image:
    """A unit or control mark: ``shape`` filled with ``color`` and a dark edge, ``label`` inside.

    ``hollow`` draws a thick ring of the shape with a white middle (control tokens), which reads as a
    different object from a unit even at a glance.
    """
    edge = shade(color, 0.55)

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        c = size * s / 2
        r = c - 1.5 * s
        inner = r - max(2, size // 7) * s
        if shape == "circle":
            d.ellipse([c - r, c - r, c + r, c + r], fill=edge)
            d.ellipse([c - r + 1.5 * s, c - r + 1.5 * s, c + r - 1.5 * s, c + r - 1.5 * s], fill=color)
            if hollow:
                d.ellipse([c - inner, c - inner, c + inner, c + inner], fill=WHITE)
        else:
            d.polygon(_polygon(shape, c, c, r), fill=edge)
            d.polygon(_polygon(shape, c, c, r - 1.8 * s), fill=color)
            if hollow:
                d.polygon(_polygon(shape, c, c, inner - 1.5 * s), fill=WHITE)

    img = sprite(size, size, paint)
    if label:
        d = ImageDraw.Draw(img)
        fs = max(9, int(size * (0.5 if len(label) < 2 else 0.42)))
        dy = size * 0.08 if shape == "triangle" else 0
        draw_text(d, (size / 2, size / 2 + dy), label, fs, WHITE, anchor="mc", bold=True)
    return img


@lru_cache(maxsize=64)
def crystal(color_name: str, size: int) -> Image.Image:
    """A cut gem in the crystal's colour with its value written inside (colour is not the only cue)."""
    color, value = CRYSTAL[color_name]

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        w = size * s
        pts = [(w * 0.5, 1 * s), (w - 1 * s, w * 0.35), (w * 0.5, w - 1 * s), (1 * s, w * 0.35)]
        d.polygon(pts, fill=shade(color, 0.5))
        inner = [(w * 0.5, 3 * s), (w - 3.2 * s, w * 0.36), (w * 0.5, w - 3.5 * s), (3.2 * s, w * 0.36)]
        d.polygon(inner, fill=color)

    img = sprite(size, size, paint)
    ink = INK if color_name == "yellow" else WHITE
    draw_text(
        ImageDraw.Draw(img),
        (size / 2, size * 0.42),
        str(value),
        max(9, int(size * 0.48)),
        ink,
        anchor="mc",
        bold=True,
    )
    return img


MAX_GEMS = 3
"""Crystals drawn one gem each up to this many; a richer region gets one large gem with its value."""


@lru_cache(maxsize=64)
def crystal_total(value: int, size: int) -> Image.Image:
    """A wide cut gem in the red crystal's colour with the region's whole crystal value written on it.

    Crystal values have no upper limit, and a row of a dozen gems would run off the tile: past
    ``MAX_GEMS`` gems the region shows this one mark, whose number stays legible at any value.
    """
    color = CRYSTAL["red"][0]
    fs = max(9, int(size * 0.56))
    label = str(value)
    width = max(size + 4, int(text_width(label, fs)) + size // 2 + 8)

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        w, h, a = width * s, size * s, size * s * 0.3
        d.polygon(
            [(a, 0), (w - a, 0), (w - 1, h / 2), (w - a, h - 1), (a, h - 1), (0, h / 2)],
            fill=shade(color, 0.5),
        )
        b = 2.5 * s
        inner = [(a + b / 2, b), (w - a - b / 2, b), (w - 1 - b, h / 2), (w - a - b / 2, h - 1 - b)]
        d.polygon([*inner, (a + b / 2, h - 1 - b), (b, h / 2)], fill=color)

    img = sprite(width, size, paint)
    draw_text(ImageDraw.Draw(img), (width / 2, size / 2), label, fs, WHITE, anchor="mc", bold=True)
    return img


@lru_cache(maxsize=64)
def badge(text: str, fill: RGB, ink: RGB, height: int, ring: RGB | None = None) -> Image.Image:
    """A rounded label (battle number, War Party, Nest, tunnel, exploration)."""
    fs = int(height * 0.62)
    from render.text import text_width

    width = max(height, int(text_width(text, fs, bold=True)) + height // 2 + 4)

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.rounded_rectangle(
            [0, 0, width * s - 1, height * s - 1], radius=height * s // 2, fill=ring or shade(fill, 0.5)
        )
        d.rounded_rectangle(
            [2 * s, 2 * s, width * s - 1 - 2 * s, height * s - 1 - 2 * s],
            radius=height * s // 2 - 2 * s,
            fill=fill,
        )

    img = sprite(width, height, paint)
    draw_text(ImageDraw.Draw(img), (width / 2, height / 2), text, fs, ink, anchor="mc", bold=True)
    return img
