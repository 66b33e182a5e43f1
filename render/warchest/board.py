"""The War Chest board: a cached empty board per board shape, then control, highlights and tokens."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, MUTED, PAPER, paste_centered
from render.text import draw_text
from render.warchest.hexgrid import Hex, Layout, corners, fit
from render.warchest.sprites import control_ring, last_outline, start_flag, token
from render.warchest.style import START_LOCATIONS

GROUND = (236, 229, 210)
LOCATION_GROUND = (225, 212, 174)
HEX_EDGE = (150, 138, 110)
BOARD_SS = 3
"""Supersampling of the empty board (drawn once per board shape)."""


def hex_label(h: Hex) -> str:
    """The label players type: column letter from x, row number from y (``(4, 0)`` is ``e1``)."""
    return "abcdefghijklmnopqrstuvwxyz"[h[0]] + str(h[1] + 1)


def board_layout(hexes: Sequence[Hex], width: int) -> Layout:
    return fit(hexes, width, max_size=86)


@lru_cache(maxsize=8)
def empty_board(hexes: tuple[Hex, ...], locations: tuple[Hex, ...], layout: Layout) -> Image.Image:
    """Hexes, their labels, the location grounds and start flags: everything that never moves."""
    k = BOARD_SS
    big = Image.new("RGBA", (layout.width * k, layout.height * k), (*PAPER, 255))
    draw = ImageDraw.Draw(big)
    s = layout.size
    where = set(locations)
    for h in hexes:
        cx, cy = layout.center(h)
        ground = LOCATION_GROUND if h in where else GROUND
        pts = [(x * k, y * k) for x, y in corners(cx, cy, s - 1.5)]
        draw.polygon(pts, fill=ground, outline=HEX_EDGE, width=round(2.2 * k))
        label_size = round(s * 0.23 * k)
        draw_text(draw, (cx * k, (cy - s * 0.8) * k), hex_label(h), label_size, MUTED, anchor="mc", bold=True)
    board = big.resize((layout.width, layout.height), Image.Resampling.LANCZOS)
    for h in locations:
        team = START_LOCATIONS.get(h)
        if team is not None:
            cx, cy = layout.center(h)
            flag = start_flag(team, round(s * 0.24))
            board.alpha_composite(flag, (round(cx - flag.width * 0.3), round(cy + s * 0.67)))
    return board


def draw_board(view: Mapping[str, Any], layout: Layout, locale: str) -> Image.Image:
    """The board of ``view``: the cached empty board with the current position pasted on it."""
    hexes = tuple(sorted((int(x), int(y)) for x, y in view["board"]["hexes"]))
    locations = view["board"].get("locations") or []
    where = tuple(sorted((int(loc["hex"][0]), int(loc["hex"][1])) for loc in locations))
    board = empty_board(hexes, where, layout).copy()
    s = round(layout.size)
    for loc in locations:
        team = loc.get("team")
        ring = control_ring(None if team is None else int(team), s)
        paste_centered(board, ring, layout.center((int(loc["hex"][0]), int(loc["hex"][1]))))
    last = view.get("last") or {}
    outlined = [(int(h[0]), int(h[1])) for h in last.get("hexes") or []]
    for h in outlined:
        paste_centered(board, last_outline(s), layout.center(h))
    draw = ImageDraw.Draw(board)
    for h in outlined:  # the outline covers the label: print it again on top
        cx, cy = layout.center(h)
        draw_text(
            draw,
            (cx, cy - layout.size * 0.8),
            hex_label(h),
            round(layout.size * 0.23),
            INK,
            anchor="mc",
            bold=True,
        )
    radius = round(layout.size * 0.42)
    for unit in view.get("units") or []:
        team = unit.get("team")
        sprite = token(
            str(unit["type"]), None if team is None else int(team), int(unit.get("height", 1)), locale, radius
        )
        paste_centered(board, sprite, layout.center((int(unit["hex"][0]), int(unit["hex"][1]))))
    return board
