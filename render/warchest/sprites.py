"""Cached War Chest sprites: unit tokens, control rings, start flags, the last-action highlight.

Each sprite is keyed by everything that changes its pixels (type, team, height, owner, language,
size), so after the first few boards a new image is made almost only of pastes. Sizes come from
``board.hex_style``, which keeps every label of a hex clear of the marks around it.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import HIGHLIGHT, INK, WHITE, ink_on, rgba, sprite
from render.page import LABEL, legible
from render.palette import CIRCLE
from render.text import draw_text, text_width
from render.warchest.hexgrid import corners
from render.warchest.style import TEAM_COLOR, TEAM_SHAPE, shade, tint, unit_abbr

COS30 = math.cos(math.radians(30))


def _shape(
    draw: ImageDraw.ImageDraw,
    shape: str,
    cx: float,
    cy: float,
    r: float,
    *,
    fill: tuple[int, ...] | None = None,
    outline: tuple[int, ...] | None = None,
    width: int = 1,
) -> None:
    """A round coin or a rounded square of comparable weight, centred on (cx, cy)."""
    if shape == CIRCLE:
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=outline, width=width)
    else:
        h = r * 0.9
        box = [cx - h, cy - h, cx + h, cy + h]
        draw.rounded_rectangle(box, radius=r * 0.28, fill=fill, outline=outline, width=width)


def badge_radius(radius: int) -> float:
    """Radius of the round badges on a token (stack height, owner): large enough for a legible digit."""
    return max(0.5 * radius, 0.64 * LABEL)


@lru_cache(maxsize=1024)
def token(
    unit: str, team: int | None, height: int | None, locale: str, radius: int, owner: str = ""
) -> Image.Image:
    """A unit token: team shape and colour, abbreviation, stacked edges, a height badge at the
    bottom right and, when teammates share the colour, the owner's letter at the bottom left, under
    the abbreviation and clear of the hex label above the token.

    ``height`` None draws a single coin without badge (panels and legend).
    """
    layers = 0 if height is None else min(max(height, 1), 3) - 1
    label = min(LABEL, max(9, round(radius * 0.85)))
    size = math.ceil(radius * 2 + 2 * badge_radius(radius) + 4)
    tag, tag_w, tag_h = owner_tag(owner)
    if owner:  # room under the abbreviation for the owner's tag, which never covers it
        size = max(size, math.ceil(2 * (tag_h + 3 + OWNER_CAP * label / 2)))
    fill = TEAM_COLOR[team]
    edge = shade(team)
    shape = TEAM_SHAPE[team]

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
        draw_text(draw, (cx, cy), text, label * k, ink_on(fill), anchor="mc", bold=True, role="unit")
        br = badge_radius(radius) * k
        if height is not None:
            bx, by = cx + 0.82 * r, cy + 0.72 * r + layers * 0.17 * r
            draw.ellipse([bx - br, by - br, bx + br, by + br], fill=WHITE, outline=INK, width=line)
            draw_text(draw, (bx, by), str(height), label * k, INK, anchor="mc", bold=True, role="height")
        if owner:  # a pill as wide as the tag, its top just under the abbreviation's capitals
            w, h = tag_w * k, tag_h * k
            oy = cy + (OWNER_CAP * label / 2 + 2) * k + h / 2
            ox = max(cx - 0.82 * r, w / 2 + k)
            box = [ox - w / 2, oy - h / 2, ox + w / 2, oy + h / 2]
            draw.rounded_rectangle(box, radius=h / 2, fill=WHITE, outline=fill, width=2 * line)
            draw_text(draw, (ox, oy), owner, tag * k, INK, anchor="mc", bold=True, role="owner")

    return sprite(size, size, paint)


OWNER_CAP = 0.73
"""The height of capital letters over the font size: where the abbreviation's capitals end, which
the owner's tag stays under."""


def owner_tag(owner: str) -> tuple[int, float, float]:
    """The size of an owner's tag text (legible, as every label a player needs) and the width and
    height of the pill around it: a letter gets a round badge, two letters or a wide script (Chinese,
    Japanese, Korean) a pill as wide as they are, so no stroke meets the edge."""
    if not owner:
        return 0, 0.0, 0.0
    size = legible()
    height = size + 12.0  # a Chinese or Korean glyph fills its whole em, above the capitals too
    return size, max(height, text_width(owner, size, bold=True) + 12), height


@lru_cache(maxsize=64)
def control_ring(team: int | None, radius: int, line: int) -> Image.Image:
    """The mark of a control location: thin grey ring when neutral, thick team shape when controlled."""
    size = math.ceil(2 * radius + line + 4)
    shape = TEAM_SHAPE[team]

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = size * k / 2
        r = radius * k
        if team is None:
            _shape(draw, CIRCLE, c, c, r, outline=rgba(TEAM_COLOR[None]), width=max(1, round(0.4 * line * k)))
            return
        _shape(draw, shape, c, c, r, fill=rgba(tint(team, 0.55)))
        _shape(draw, shape, c, c, r + line * k / 2, outline=rgba(INK), width=round(line * k))
        _shape(
            draw,
            shape,
            c,
            c,
            r + line * k * 0.35,
            outline=rgba(TEAM_COLOR[team]),
            width=round(0.7 * line * k),
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
def last_outline(hex_size: float, band: float) -> Image.Image:
    """The highlight of a hex of the last action: a band ``band`` pixels wide along the inside of the
    hex's edge (a dark rim, then yellow) over a light yellow wash. Nothing is drawn further in than
    the band but the wash, so the hex label, which sits inside it, stays whole."""
    size = math.ceil(hex_size * 2 + 4)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = size * k / 2
        outer = hex_size * k
        draw.polygon(corners(c, c, outer), fill=rgba(INK))
        draw.polygon(corners(c, c, outer - 2.2 * k / COS30), fill=rgba(HIGHLIGHT))
        draw.polygon(corners(c, c, outer - band * k / COS30), fill=rgba(HIGHLIGHT, 70))

    return sprite(size, size, paint)


@lru_cache(maxsize=16)
def removed_mark(team: int | None, radius: int) -> Image.Image:
    """Where a unit struck off the board stood: its team's shape, hollow, crossed out in ink, so
    that a player who was away sees what the moves since took."""
    size = math.ceil(radius * 2 + 4)
    shape = TEAM_SHAPE[team]

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c, r = size * k / 2, radius * k * 0.9
        line = max(1, round(0.1 * radius * k))
        _shape(draw, shape, c, c, r, fill=rgba(WHITE, 150), outline=rgba(TEAM_COLOR[team]), width=line)
        arm = r * 0.55
        for sign in (1, -1):
            draw.line([(c - arm, c - sign * arm), (c + arm, c + sign * arm)], fill=rgba(INK), width=line)

    return sprite(size, size, paint)


@lru_cache(maxsize=16)
def last_icon(size: int) -> Image.Image:
    """The highlight in small, for the status line and the legend."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = size * k / 2
        r = size * k * 0.48
        draw.polygon(corners(c, c, r), fill=rgba(INK))
        draw.polygon(corners(c, c, r - 2 * k), fill=rgba(HIGHLIGHT))
        draw.polygon(corners(c, c, r * 0.6), fill=rgba((250, 246, 214)))

    return sprite(size, size, paint)


@lru_cache(maxsize=32)
def team_mark(team: int | None, size: int, letter: str = "") -> Image.Image:
    """A plain team shape (round or square) in the team colour, for names and legends; with the
    owner's ``letter`` in it when teammates' tokens carry one."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = size * k / 2
        _shape(
            draw,
            TEAM_SHAPE[team],
            c,
            c,
            size * k * 0.46,
            fill=TEAM_COLOR[team],
            outline=INK,
            width=max(1, round(size * k * 0.06)),
        )
        if letter:
            tag = max(legible(), round(size * 0.62))  # legible on a phone
            draw_text(draw, (c, c), letter, tag * k, ink_on(TEAM_COLOR[team]), anchor="mc", bold=True)

    return sprite(size, size, paint)
