"""The War Chest board: a cached empty board per board shape, then control, highlights and tokens.

Every hex holds, from its top corner down: its label, then the control ring of a location with the
unit token inside it, a little below the centre; a start flag stands at the left edge. ``hex_style``
sizes them from the hex size so that the label never meets the ring, the stack or the last-action
band along the edge, on either board.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.warchest.view import LocationView, WarChestView
from render.common import INK, MUTED, PAPER, arrow, marked_actions, sprite
from render.layers import Layers, Piece, Shelf, centered
from render.page import LABEL
from render.text import draw_text, font, scaled
from render.warchest.hexgrid import SQRT3, Hex, Layout, corners, fit
from render.warchest.sprites import COS30, control_ring, last_outline, removed_mark, start_flag, token
from render.warchest.style import START_LOCATIONS

GROUND = (236, 229, 210)
LOCATION_GROUND = (225, 212, 174)
HEX_EDGE = (150, 138, 110)
BOARD_SS = 3
"""Supersampling of the empty board (drawn once per board shape)."""
HEX_GAP = 1.5
"""Hexes are drawn this much smaller than their cell, so that neighbours show a seam."""
CAP = 0.73
"""Height of DejaVu Sans capitals and digits, in ems."""
DESCENT = 0.24
"""Depth of the "g" below the baseline, in ems."""


def hex_label(h: Hex) -> str:
    """The label players type: column letter from x, row number from y (``(4, 0)`` is ``e1``)."""
    return "abcdefghijklmnopqrstuvwxyz"[h[0]] + str(h[1] + 1)


@dataclass(frozen=True)
class HexStyle:
    """Sizes of what a hex holds, in pixels of the board image."""

    size: float
    label: int
    label_dy: float
    """How far above the hex centre the label's capitals are centred."""
    band: float
    """Width of the last-action band along the inside of the hex edge."""
    ring: int
    ring_line: int
    token: int
    dy: float
    """How far below the hex centre the ring and the token are centred."""

    def piece_center(self, center: tuple[float, float]) -> tuple[float, float]:
        """Where the ring and the token of the hex centred on ``center`` go."""
        return (center[0], center[1] + self.dy)


def hex_style(size: float) -> HexStyle:
    """The largest ring and token that leave room, under the top corner, for a legible label clear
    of the last-action band above it and of the ring below it."""
    label = LABEL
    band = max(7.0, 0.085 * size)
    half_label = 0.75 * label
    edge = -(size - HEX_GAP) + math.tan(math.radians(30)) * half_label
    top = edge + band / COS30 + 2
    label_dy = -(top + CAP * label / 2)
    bottom = top + (CAP + DESCENT) * label
    ring_line = max(2, round(0.08 * size))
    dy = 0.12 * size
    ring = math.floor(min(0.48 * size, dy - bottom - 2 - ring_line))
    token = math.floor(min(0.4 * size, 0.8 * ring))
    return HexStyle(size, label, label_dy, band, ring, ring_line, token, dy)


def label_box(layout: Layout, h: Hex) -> tuple[float, float, float, float]:
    """The pixels the label of ``h`` covers on the board (its ink, descender included)."""
    style = hex_style(layout.size)
    cx, cy = layout.center(h)
    text = hex_label(h)
    face = font(style.label, True)
    width = face.getlength(text)
    baseline = cy - style.label_dy + style.label * CAP / 2
    x0, y0, x1, y1 = face.getbbox(text, anchor="ls")
    return (cx - width / 2 + x0, baseline + y0, cx - width / 2 + x1, baseline + y1)


@lru_cache(maxsize=128)
def label_sprite(text: str, size: int) -> Image.Image:
    """A hex label alone, centred in its sprite, to print again over a highlighted hex: in ink, since
    the board's muted grey falls under 4.5:1 on the highlight's wash (4.4 measured)."""
    w, h = math.ceil(font(size, True).getlength(text)) + 8, math.ceil(size * 1.6)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        draw_text(draw, (w * k / 2, h * k / 2), text, size * k, INK, anchor="mc", bold=True, role="hex")

    return sprite(w, h, paint)


def board_layout(hexes: Sequence[Hex], width: int) -> Layout:
    return fit(hexes, width, max_size=100)


def _label(draw: ImageDraw.ImageDraw, layout: Layout, h: Hex, k: int) -> None:
    style = hex_style(layout.size)
    cx, cy = layout.center(h)
    at = (cx * k, (cy - style.label_dy) * k)
    draw_text(draw, at, hex_label(h), style.label * k, MUTED, anchor="mc", bold=True, role="hex")


@lru_cache(maxsize=8)
def empty_board(hexes: tuple[Hex, ...], locations: tuple[Hex, ...], layout: Layout) -> Image.Image:
    """Hexes, their labels, the location grounds and start flags: everything that never moves."""
    k = BOARD_SS
    big = Image.new("RGBA", (layout.width * k, layout.height * k), (*PAPER, 255))
    draw = ImageDraw.Draw(big)
    s = layout.size
    where = set(locations)
    with scaled(k):
        for h in hexes:
            cx, cy = layout.center(h)
            ground = LOCATION_GROUND if h in where else GROUND
            pts = [(x * k, y * k) for x, y in corners(cx, cy, s - HEX_GAP)]
            draw.polygon(pts, fill=ground, outline=HEX_EDGE, width=round(2.2 * k))
            _label(draw, layout, h, k)
    board = big.resize((layout.width, layout.height), Image.Resampling.LANCZOS)
    for h in locations:
        team = START_LOCATIONS.get(h)
        if team is not None:
            cx, cy = layout.center(h)
            flag = start_flag(team, round(s * 0.24))
            left = cx - SQRT3 / 2 * (s - HEX_GAP) + hex_style(s).band + 2
            board.alpha_composite(flag, (round(left), round(cy - flag.height / 2)))
    return board


def outlined_hexes(view: WarChestView) -> list[Hex]:
    """The hexes the moves since the last handover touched (the last action's included), outlined on
    the board, each once, in the order they were first touched."""
    hexes: list[Hex] = []
    for marked in marked_actions(view, "hexes"):
        for h in marked.get("hexes") or []:
            at = (int(h[0]), int(h[1]))
            if at not in hexes:
                hexes.append(at)
    return hexes


def move_paths(view: WarChestView) -> list[tuple[Hex, Hex]]:
    """The hexes each move since the last handover went from and to (``path``), drawn as arrows."""
    paths: list[tuple[Hex, Hex]] = []
    for marked in marked_actions(view, "hexes"):
        path = [(int(h[0]), int(h[1])) for h in marked.get("path") or []]
        if len(path) == 2 and (path[0], path[1]) not in paths:
            paths.append((path[0], path[1]))
    return paths


def move_path(view: WarChestView) -> tuple[Hex, Hex] | None:
    """The last move's path (the view's ``last["path"]``), one of ``move_paths``."""
    last = view.get("last")
    path = [(int(h[0]), int(h[1])) for h in (last.get("path") if last else None) or []]
    return (path[0], path[1]) if len(path) == 2 else None


def removed_units(view: WarChestView) -> list[tuple[Hex, int]]:
    """Where a unit the moves since the last handover struck off the board stood, with its seat, for
    the board to cross it out; a hex a unit stands on again is left to that unit."""
    occupied = {(int(u["hex"][0]), int(u["hex"][1])) for u in view.get("units") or []}
    out: list[tuple[Hex, int]] = []
    for marked in marked_actions(view, "hexes"):
        for hit in marked.get("struck") or []:
            at = (int(hit["hex"][0]), int(hit["hex"][1]))
            if hit.get("removed") and at not in occupied and at not in [h for h, _s in out]:
                out.append((at, int(hit.get("seat", 0))))
    return out


LAYERS_KEPT = 4
"""Boards (shapes and sizes) whose last drawing is kept to be re-laid: a few MB each."""
_layers: Shelf[tuple[tuple[Hex, ...], tuple[Hex, ...], Layout]] = Shelf(LAYERS_KEPT)


def draw_board(
    view: WarChestView, layout: Layout, locale: str, owners: Mapping[int, str] | None = None
) -> Image.Image:
    """The board of ``view``: the cached empty board with the current position on it, re-laid from
    this board's last drawing where its pieces changed (``render.layers``). A copy: the page
    itself pastes the kept picture (``kept_board``).

    ``owners`` gives the letter each seat's tokens carry (four players), see ``style.owner_tags``."""
    return kept_board(view, layout, locale, owners).canvas.copy()


def kept_board(
    view: WarChestView, layout: Layout, locale: str, owners: Mapping[int, str] | None = None
) -> Layers:
    """What ``draw_board`` draws, with what changed since the board's last drawing."""
    hexes = tuple(sorted((int(x), int(y)) for x, y in view["board"]["hexes"]))
    locations = view["board"].get("locations") or []
    where = tuple(sorted((int(loc["hex"][0]), int(loc["hex"][1])) for loc in locations))
    key = (hexes, where, layout)
    layers = _layers.get(key, empty_board(hexes, where, layout))
    layers.draw(board_pieces(view, layout, locale, owners))
    return layers


def board_pieces(
    view: WarChestView, layout: Layout, locale: str, owners: Mapping[int, str] | None = None
) -> list[Piece]:
    """What goes on the empty board, bottom first: the last action's outlines and its hexes' labels
    again over their wash, its arrow, the control rings, the tokens."""
    pieces: list[Piece] = []
    style = hex_style(layout.size)
    outlined = outlined_hexes(view)
    for h in outlined:
        pieces.append(centered(last_outline(layout.size - HEX_GAP, style.band), layout.center(h)))
    for h in outlined:  # the wash tints the label: print it again on top
        cx, cy = layout.center(h)
        pieces.append(centered(label_sprite(hex_label(h), style.label), (cx, cy - style.label_dy)))
    for path in move_paths(view):  # under the tokens, its head at the edge of the token that moved
        (ax, ay), (bx, by) = (style.piece_center(layout.center(h)) for h in path)
        length = math.hypot(bx - ax, by - ay)
        short = max(0.0, 1 - (style.token + 6) / length) if length else 0.0
        drawn = arrow((ax, ay), (ax + (bx - ax) * short, ay + (by - ay) * short))
        if drawn is not None:
            pieces.append(drawn)
    for h, seat in removed_units(view):  # under the ring and tokens: where a struck unit stood
        team = _team_of(view, seat)
        pieces.append(centered(removed_mark(team, style.token), style.piece_center(layout.center(h))))
    for loc in locations_of(view):
        team = loc.get("team")
        ring = control_ring(None if team is None else int(team), style.ring, style.ring_line)
        at = layout.center((int(loc["hex"][0]), int(loc["hex"][1])))
        pieces.append(centered(ring, style.piece_center(at)))
    for unit in view.get("units") or []:
        team = unit.get("team")
        owner = (owners or {}).get(int(unit.get("seat", -1)), "")
        sprite = token(
            str(unit["type"]),
            None if team is None else int(team),
            int(unit.get("height", 1)),
            locale,
            style.token,
            owner,
        )
        pieces.append(
            centered(sprite, style.piece_center(layout.center((int(unit["hex"][0]), int(unit["hex"][1])))))
        )
    return pieces


def _team_of(view: WarChestView, seat: int) -> int | None:
    seats = view.get("seats") or []
    return int(seats[seat].get("team", seat)) if 0 <= seat < len(seats) else None


def locations_of(view: WarChestView) -> list[LocationView]:
    return list(view["board"].get("locations") or [])
