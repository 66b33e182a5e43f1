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

from PIL import Image, ImageDraw

import i18n
from engine.cryhavoc.view import CryHavocView
from engine.text import Msg
from render.catalog import lookup, player_name
from render.common import RGB, WHITE, ink_on, sprite
from render.page import LABEL
from render.palette import SEAT_COLOR, SEAT_SHAPE, darken, lighten
from render.text import SOFT_HYPHEN, draw_text, text_width

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
HIVE_FILL: RGB = (170, 145, 120)
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


COMPOUNDS = (
    "Brine|marsh Dawn|keep Deep|well Drift|water Dusk|keep Dust|bowl Fern|vale Flint|peak Frost|crag "
    "Glass|field Grey|spire High|gate Hollow|grove Iron|spire Low|gate Mire|wood Moss|deep Root|maze "
    "Salt|marsh Scorch|waste Sky|forge Stone|crown Storm|keep Sun|pit Thorn|wood Vine|grove Vine|holt "
    "Wild|bloom"
)
"""The region names made of two words in one, with the place where they may break on a tile too
narrow for the whole word ("Hollow-" then "grove"), rather than being cut ("Hollowgro…")."""
BREAKS = {word.replace("|", ""): word.replace("|", SOFT_HYPHEN) for word in COMPOUNDS.split()}


def breakable(name: str) -> str:
    """``name`` with a soft hyphen where each of its compound words may break (see ``wrap``)."""
    return " ".join(BREAKS.get(word, word) for word in name.split(" "))


def faction_name(faction: str, locale: str) -> str:
    return name_of(f"ch.faction.{faction}", locale, faction)


def seat_label(view: CryHavocView, seat: int | str | None, names: Mapping[str, str], locale: str) -> str:
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
        draw_text(d, (size / 2, size / 2 + dy), label, fs, ink_on(color), anchor="mc", bold=True)
    return img


@lru_cache(maxsize=64)
def badge(
    text: str, fill: RGB, ink: RGB, height: int, ring: RGB | None = None, role: str | None = None
) -> Image.Image:
    """A rounded label (battle number, headquarters, tunnel, exploration), its text as large as the
    labels of the map once the badge is as tall as theirs."""
    fs = min(LABEL, int(height * 0.62)) if height < LABEL + 6 else LABEL
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
    draw_text(ImageDraw.Draw(img), (width / 2, height / 2), text, fs, ink, anchor="mc", bold=True, role=role)
    return img
