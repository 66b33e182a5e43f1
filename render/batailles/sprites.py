"""Cached Batailles sprites: troop cards, facing marks, hit bursts and zone outlines.

A troop card fills one place of a zone. It shows who owns the troop twice (the army colour, and
round or square back corners, the two armies' shapes), which way it faces twice (the card comes to
a point on that side, and that point is edged in the army's dark colour), its name, and its six
characteristics M A D R C L with zeros greyed so the strengths stand out. Lists and the status use
the smaller facing mark: the army's round or square mark with an arrow. Every sprite is keyed by
everything that changes its pixels.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.batailles.style import HITS, seat_color, seat_shade, seat_shape, seat_tint
from render.common import HIGHLIGHT, INK, MUTED, RULE, SS, WHITE, mix, rgba, sprite, star
from render.palette import CIRCLE
from render.text import draw_text, shrink, text_width

IDLE, ACTIVE, DONE = "idle", "active", "done"
"""Card states: may still act, is acting now, has acted this turn."""

_ANGLE = {"n": -90.0, "e": 0.0, "s": 90.0, "w": 180.0}


def _arrow(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, facing: str, fill: object) -> None:
    """A solid arrow of half-length ``r`` centred on (cx, cy), pointing ``facing``."""
    a = math.radians(_ANGLE.get(facing, -90.0))
    ux, uy = math.cos(a), math.sin(a)
    px, py = -uy, ux
    shaft = [(-0.85, 0.2), (0.1, 0.2), (0.1, 0.55), (0.95, 0.0), (0.1, -0.55), (0.1, -0.2), (-0.85, -0.2)]
    pts = [(cx + r * (u * ux + v * px), cy + r * (u * uy + v * py)) for u, v in shaft]
    draw.polygon(pts, fill=fill)  # type: ignore[arg-type]


def _mark(draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float, line: int) -> None:
    if seat_shape(seat) == CIRCLE:
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=seat_color(seat), outline=INK, width=line)
    else:
        h = r * 0.92
        draw.rounded_rectangle(
            [cx - h, cy - h, cx + h, cy + h], radius=r * 0.2, fill=seat_color(seat), outline=INK, width=line
        )


@lru_cache(maxsize=64)
def facing_mark(seat: int, facing: str | None, size: int) -> Image.Image:
    """The army's round or square mark with a white arrow for the facing (none when unknown)."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = size * k / 2
        r = size * k * 0.46
        _mark(draw, seat, c, c, r, max(1, round(size * k * 0.06)))
        if facing in _ANGLE:
            _arrow(draw, c, c, r * 0.78, facing, WHITE)

    return sprite(size, size, paint)


_TURN = {
    "n": None,
    "s": Image.Transpose.ROTATE_180,
    "e": Image.Transpose.ROTATE_270,
    "w": Image.Transpose.ROTATE_90,
}


def _card_shape(width: int, height: int, seat: int, state: str, point: float) -> Image.Image:
    """The card's body pointing north, at supersampled size: a pointed front, round or square back."""
    k = SS
    pad = 4 if state == ACTIVE else 0
    w, h = (width + 2 * pad) * k, (height + 2 * pad) * k
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    done = state == DONE
    fill = seat_tint(seat, 0.8)
    if done:
        fill = mix(fill, (236, 236, 236), 0.75)
    edge = mix(seat_color(seat), (170, 170, 170), 0.6) if done else seat_color(seat)
    front = (150, 150, 150) if done else seat_shade(seat)
    line = max(1, round(2.5 * k))
    point *= k
    radius = min(width, height) * k * (0.28 if seat_shape(seat) == CIRCLE else 0.04)
    x0, y0, x1, y1 = pad * k, pad * k, w - pad * k - 1, h - pad * k - 1
    cx = w / 2
    if state == ACTIVE:
        glow = [(0, point + pad * k), (cx, 0), (w - 1, point + pad * k), (w - 1, h - 1), (0, h - 1)]
        draw.polygon(glow, fill=rgba(HIGHLIGHT), outline=rgba(INK), width=max(1, round(1.2 * k)))
    body_top = y0 + point
    draw.rounded_rectangle(
        [x0, body_top, x1, y1], radius=radius, fill=rgba(fill), outline=rgba(edge), width=line
    )
    # The pointed front covers the body's front corners.
    cover = body_top + radius + line
    draw.polygon([(x0, cover), (x0, body_top), (cx, y0), (x1, body_top), (x1, cover)], fill=rgba(fill))
    draw.line([(x0 + line / 2, body_top), (x0 + line / 2, cover)], fill=rgba(edge), width=line)
    draw.line([(x1 - line / 2, body_top), (x1 - line / 2, cover)], fill=rgba(edge), width=line)
    bar = max(2, round(height * 0.085)) * k
    draw.line(
        [(x0, body_top + bar / 3), (cx, y0 + bar / 3), (x1, body_top + bar / 3)],
        fill=front,
        width=bar,
        joint="curve",
    )
    return img


@lru_cache(maxsize=2048)
def troop_card(
    name: str,
    seat: int,
    profile: tuple[int, ...],
    facing: str,
    width: int,
    height: int,
    state: str = IDLE,
) -> Image.Image:
    """One troop in one place of a zone, shaped like an arrow pointing where it faces.

    The front side comes to a point edged in the army's dark colour; the back corners are round for
    seat 0 and square for seat 1 (the two armies' shapes). The name is on top, M A D R C L below.
    """
    k = SS
    pad = 4 if state == ACTIVE else 0
    turn = _TURN.get(facing)
    vertical = facing not in ("e", "w")
    tip = min(width, height) * 0.16
    shape = (
        _card_shape(width, height, seat, state, tip)
        if vertical
        else _card_shape(height, width, seat, state, tip)
    )
    if turn is not None:
        shape = shape.transpose(turn)
    draw = ImageDraw.Draw(shape)
    x0, y0, x1, y1 = pad * k, pad * k, (pad + width) * k, (pad + height) * k
    point_v = tip * k if vertical else 0.0
    point_h = tip * k if not vertical else 0.0
    if width >= 52:
        ink = MUTED if state == DONE else INK
        left = x0 + (point_h * 0.8 if facing == "w" else 0) + 3 * k
        right = x1 - (point_h * 0.8 if facing == "e" else 0) - 3 * k
        top = y0 + (point_v * 0.8 if facing == "n" else 0)
        bottom = y1 - (point_v * 0.8 if facing == "s" else 0)
        room = (right - left) / k
        size = shrink(name, max(9, round(height * 0.31)), room, 10, bold=True)
        mid = (left + right) / 2
        at = (mid, top + (bottom - top) * 0.3)
        draw_text(draw, at, name, size * k, ink, anchor="mc", bold=True, max_width=room * k)
        digit = round(height * 0.38)
        while digit > 9 and text_width("0" * 6, digit, bold=True) * 1.06 > room:
            digit -= 1
        span = min(room, text_width("0" * 6, digit, bold=True) * 1.25) * k
        left, cell = mid - span / 2, span / 6
        base = top + (bottom - top) * 0.74
        for i, value in enumerate(profile[:6]):
            color = ink if value else RULE
            draw_text(
                draw, (left + cell * (i + 0.5), base), str(value), digit * k, color, anchor="mc", bold=True
            )
    return shape.resize((width + 2 * pad, height + 2 * pad), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def hits_badge(hits: int, height: int) -> Image.Image:
    """A dark burst with the hits a zone has taken this turn (five make a loss at the turn's end)."""
    w = height

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        c = w * k / 2
        outer, inner = w * k * 0.5, w * k * 0.36
        pts = star((c, c), outer, inner, 8)
        draw.polygon(pts, fill=rgba(HITS), outline=rgba(HIGHLIGHT), width=max(1, round(w * k * 0.04)))
        draw_text(draw, (c, c), str(hits), round(w * k * 0.46), WHITE, anchor="mc", bold=True)

    return sprite(w, w, paint)


@lru_cache(maxsize=16)
def zone_outline(size: int) -> Image.Image:
    """A thick yellow-on-black square around a zone the last action or a pending choice concerns."""
    outer = size + 8

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        draw.rectangle([0, 0, outer * k - 1, outer * k - 1], outline=rgba(INK), width=round(7 * k))
        draw.rectangle(
            [2 * k, 2 * k, outer * k - 1 - 2 * k, outer * k - 1 - 2 * k],
            outline=rgba(HIGHLIGHT),
            width=round(4 * k),
        )

    return sprite(outer, outer, paint)


@lru_cache(maxsize=32)
def die_face(value: int, size: int) -> Image.Image:
    """A die showing ``value``: dark when it scores (4 or more), light when it fails."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        good = value >= 4
        draw.rounded_rectangle(
            [k, k, size * k - k, size * k - k],
            radius=size * k * 0.2,
            fill=rgba(INK if good else WHITE),
            outline=rgba(INK),
            width=max(1, round(size * k * 0.07)),
        )
        c = size * k / 2
        draw_text(
            draw, (c, c), str(value), round(size * k * 0.6), WHITE if good else INK, anchor="mc", bold=True
        )

    return sprite(size, size, paint)
