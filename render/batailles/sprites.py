"""Cached Batailles sprites: troop bars, facing marks, hit and advantage badges, zone outlines.

A troop bar fills one or two places of a zone, across its width. It shows who owns the troop twice
(the army colour, and round or square ends, the two armies' shapes), which way it faces with the
arrow of its mark, its name in type a phone can read, and, given two places, its six
characteristics M A D R C L with zeros greyed so the strengths stand out. Lists and the status use
the same facing mark: the army's round or square mark with an arrow. Every sprite is keyed by
everything that changes its pixels.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render import grounds
from render.batailles.style import HITS, seat_color, seat_shape, seat_tint
from render.common import HIGHLIGHT, INK, MUTED, RGB, WHITE, mix, rgba, sprite, star
from render.page import LABEL, legible
from render.palette import CIRCLE
from render.text import ELLIPSIS, draw_text, fit, text_width

IDLE, ACTIVE, DONE = "idle", "active", "done"
"""Card states: may still act, is acting now, has acted this turn."""

_ANGLE = {"n": -90.0, "e": 0.0, "s": 90.0, "w": 180.0}


def _arrow(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, facing: str, fill: tuple[int, ...]
) -> None:
    """A solid arrow of half-length ``r`` centred on (cx, cy), pointing ``facing``."""
    a = math.radians(_ANGLE.get(facing, -90.0))
    ux, uy = math.cos(a), math.sin(a)
    px, py = -uy, ux
    shaft = [(-0.85, 0.2), (0.1, 0.2), (0.1, 0.55), (0.95, 0.0), (0.1, -0.55), (0.1, -0.2), (-0.85, -0.2)]
    pts = [(cx + r * (u * ux + v * px), cy + r * (u * uy + v * py)) for u, v in shaft]
    draw.polygon(pts, fill=fill)


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


def short_name(name: str, size: int, room: float) -> tuple[str, bool]:
    """A troop's name as it fits ``room`` pixels at ``size``: bold when it fits, else regular, else
    shortened keeping its last characters when they are digits ("horse12" becomes "ho…12"), so
    that numbered troops of one kind stay told apart. Returns the text and whether it is bold."""
    for bold in (True, False):
        if text_width(name, size, bold=bold) <= room:
            return name, bold
    digits = len(name) - len(name.rstrip("0123456789"))
    tail = name[-digits:] if 0 < digits < len(name) else ""
    head = name[: len(name) - len(tail)]
    for keep in range(len(head) - 1, 0, -1):
        text = head[:keep] + ELLIPSIS + tail
        if text_width(text, size) <= room:
            return text, False
    return fit(name, size, room), False


@lru_cache(maxsize=256)
def bar_shape(seat: int, width: int, height: int, state: str = IDLE) -> Image.Image:
    """The empty bar a troop is drawn on: its army's shape and colours in ``state``. Kept apart from
    the troop's name and numbers, so that a troop seen for the first time (or with a new facing or
    profile) costs only its text, not a supersampled shape."""
    done = state == DONE
    fill = HIGHLIGHT if state == ACTIVE else seat_tint(seat, 0.8)
    if done:
        fill = mix(fill, (236, 236, 236), 0.75)
    edge = (
        INK if state == ACTIVE else mix(seat_color(seat), (170, 170, 170), 0.6) if done else seat_color(seat)
    )
    radius = (
        height / 2 if seat_shape(seat) == CIRCLE and height < 40 else 10 if seat_shape(seat) == CIRCLE else 3
    )

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        line = max(1, round((3 if state == ACTIVE else 2) * k))
        draw.rounded_rectangle(
            [0, 0, width * k - 1, height * k - 1],
            radius=radius * k,
            fill=rgba(fill),
            outline=rgba(edge),
            width=line,
        )

    return sprite(width, height, paint)


def stat_inks(state: str) -> tuple[RGB, RGB]:
    """The colours of a troop bar's name and values, and of its characteristics' initials: muted
    once it has acted; the initials in ink on the highlight of the troop acting, where muted grey
    would not read."""
    if state == ACTIVE:
        return INK, INK
    return (MUTED if state == DONE else INK), MUTED


STAT_LETTERS = ("M", "A", "D", "R", "C", "L")
"""The characteristics' initials in English; the image passes the reader's (``style.stat_letters``)."""


@lru_cache(maxsize=2048)
def troop_bar(
    name: str,
    seat: int,
    profile: tuple[int, ...],
    facing: str,
    width: int,
    height: int,
    state: str = IDLE,
    letters: tuple[str, ...] = STAT_LETTERS,
) -> Image.Image:
    """One troop on the battlefield, as wide as its zone: the army's mark with the facing arrow, the
    name, and, when the troop has two places' height to itself, its characteristics that are not
    zero, each after its initial ("M1 A2 D2": movement 1, attack 2, defence 2), so that a reader
    needs no table to tell them apart (``stat_pairs``).

    The bar is rounded at the ends for seat 0 and square for seat 1 (the two armies' shapes), in the
    army's light colour with its colour around; yellow while it acts, grey once it has acted."""
    ink = stat_inks(state)[0]
    two_lines = height >= 2 * legible() + 5
    mark = min((height if not two_lines else height // 2 + 4) - 4, LABEL + 6, 30)
    img = bar_shape(seat, width, height, state).copy()
    cy = height * 0.28 if two_lines else height / 2
    if mark >= 10:
        icon = facing_mark(seat, facing, mark)
        img.alpha_composite(icon, (4, round(cy - mark / 2)))
    left = 4 + mark + 4
    room: float = width - left - 5
    size = min(LABEL, max(9, math.floor(height if not two_lines else height / 2) - 2))
    draw = ImageDraw.Draw(img)
    if not two_lines:  # the name, then Movement, Attack and Defence at the bar's right end
        room += 1  # the values end 4 pixels from the bar's end, not 5
        named = room - text_width(name, size) - NAME_GAP  # what the name leaves, in regular type
        values = main_values(img, profile, (width - 4, cy), named, size, stat_inks(state))
        room -= values + NAME_GAP
    text, bold = short_name(name, size, room)
    draw_text(draw, (left, cy), text, size, ink, anchor="lc", bold=bold, role="troop")
    if two_lines:
        stat_line(img, profile, letters, (6, height * 0.74), width - 12, size, stat_inks(state))
    return img


NAME_GAP = 5
"""Room between a one-line bar's name and its values."""

DOT_GAP = 4
"""Room between two values of a one-line bar, a dot in its middle."""

MAIN_STATS = 3
"""How many characteristics a bar of one place shows: Movement, Attack and Defence, first in the
rules' order, those a reader weighs a troop by on the battlefield (the details image lists all six)."""


def main_values(
    img: Image.Image,
    profile: tuple[int, ...],
    right: tuple[float, float],
    room: float,
    size: int,
    inks: tuple[RGB, RGB],
) -> float:
    """The values of Movement, Attack and Defence in the rules' order ("1·2·2", zeros included, as the
    key under the battlefield reads them), ending at ``right`` (right end, middle height), for a bar
    of one place, where no second line holds the characteristics with their initials. In regular
    type, which sets them apart from the bold name and leaves the name its room; at ``size``,
    squeezed sideways (to ``SQUEEZE`` at most) when they are wider than ``room``, what the name leaves
    them; the name is shortened only past that. Returns the width drawn."""
    ink, faint = inks
    parts = [str(v) for v in profile[:MAIN_STATS]]
    wide = sum(text_width(v, size) for v in parts) + DOT_GAP * (len(parts) - 1)
    line = Image.new("RGBA", (math.ceil(wide) + 2, math.ceil(size * 1.5)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(line)
    pen, middle = 1.0, line.height / 2
    for n, value in enumerate(parts):
        if n:  # a small dot between two values, as the key writes "1·2·2"
            dot = size * 0.09
            draw.ellipse(
                [pen + DOT_GAP / 2 - dot, middle - dot, pen + DOT_GAP / 2 + dot, middle + dot], fill=faint
            )
            pen += DOT_GAP
        pen += draw_text(draw, (pen, middle), value, size, ink, anchor="lc", role="stat")
    fits = max(line.width * SQUEEZE, min(line.width, room))
    if line.width > fits:
        line = grounds.resized(line, line.resize((math.floor(fits), line.height), Image.Resampling.LANCZOS))
    x, cy = right
    grounds.paste(img, line, (round(x - line.width), round(cy - line.height / 2)))
    return float(line.width)


SQUEEZE = 0.72
"""How narrow the characteristics line may be squeezed (its height, what legibility rests on, stays)."""


def stat_pairs(profile: tuple[int, ...], letters: tuple[str, ...]) -> list[tuple[str, str]]:
    """The characteristics that are not zero, as (initial, value): ``M1 A2 D2``."""
    return [(letter, str(v)) for letter, v in zip(letters, profile, strict=False) if v]


def stat_line(
    img: Image.Image,
    profile: tuple[int, ...],
    letters: tuple[str, ...],
    at: tuple[float, float],
    room: float,
    size: int,
    inks: tuple[RGB, RGB],
) -> None:
    """The characteristics line of a troop, from ``at`` (left end, middle height): the non-zero
    ones after their initials, at ``size`` down to the smallest legible size, squeezed sideways (to
    ``SQUEEZE`` at most) when they are still too wide; past that (a troop strong in everything),
    the six values in the rules' order, as the key under the battlefield lists them. ``inks`` are
    the colours of the values and of the initials (and zeros): ``stat_inks`` of the bar's state."""
    ink, faint = inks
    x, cy = at
    pairs = stat_pairs(profile, letters)
    for at_size in range(size, legible() - 1, -1):
        gap = 0.3 * at_size
        wide = sum(text_width(letter, at_size) + text_width(v, at_size, bold=True) for letter, v in pairs)
        wide += gap * max(0, len(pairs) - 1)
        if wide <= room or at_size == legible():
            break
    if wide > room / SQUEEZE:
        draw = ImageDraw.Draw(img)
        cell = room / 6
        for i, stat in enumerate(profile[:6]):
            color = ink if stat else faint
            at_cell = (x + cell * (i + 0.5), cy)
            draw_text(draw, at_cell, str(stat), size, color, anchor="mc", bold=True, role="stat")
        return
    line = Image.new("RGBA", (math.ceil(wide) + 2, math.ceil(at_size * 1.5)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(line)
    pen = 1.0
    for letter, value in pairs:
        pen += draw_text(draw, (pen, line.height / 2), letter, at_size, faint, anchor="lc", role="stat")
        pen += draw_text(
            draw, (pen, line.height / 2), value, at_size, ink, anchor="lc", bold=True, role="stat"
        )
        pen += gap
    if line.width > room:
        line = grounds.resized(line, line.resize((math.floor(room), line.height), Image.Resampling.LANCZOS))
    grounds.paste(img, line, (round(x), round(cy - line.height / 2)))


@lru_cache(maxsize=64)
def hits_badge(hits: int, height: int, burst: bool = True) -> Image.Image:
    """A dark pill with a burst and the hits a zone has taken this turn (five make a loss at the
    turn's end); without the burst where the zone's band is short of room."""
    size = min(LABEL, max(legible(), height - 2))
    digits = str(hits)
    lead = height * 0.85 if burst else 6
    w = math.ceil(lead + text_width(digits, size, bold=True) + 5)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        draw.rounded_rectangle(
            [0, 0, w * k - 1, height * k - 1],
            radius=height * k / 2,
            fill=rgba(HITS),
            outline=rgba(HIGHLIGHT),
            width=max(1, round(height * k * 0.07)),
        )
        if burst:
            c = height * k * 0.5
            draw.polygon(
                star((c, height * k / 2), height * k * 0.36, height * k * 0.19, 8), fill=rgba(HIGHLIGHT)
            )
        at = (lead * k, height * k / 2)
        draw_text(draw, at, digits, size * k, WHITE, anchor="lc", bold=True, role="hits")

    return sprite(w, height, paint)


@lru_cache(maxsize=32)
def removed_badge(count: int, height: int) -> Image.Image:
    """A white pill with a cross and how many troops the moves since the last handover removed from
    the zone, so that a player who was away sees what the battle took."""
    size = min(LABEL, max(legible(), height - 2))
    digits = str(count)
    lead = height * 0.85
    w = math.ceil(lead + text_width(digits, size, bold=True) + 6)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        h = height * k
        draw.rounded_rectangle(
            [0, 0, w * k - 1, h - 1],
            radius=h / 2,
            fill=rgba(WHITE),
            outline=rgba(INK),
            width=max(1, round(h * 0.07)),
        )
        c, arm = h * 0.5, h * 0.2
        for sign in (1, -1):
            draw.line(
                [(c - arm, h / 2 - sign * arm), (c + arm, h / 2 + sign * arm)],
                fill=rgba(HITS),
                width=round(h * 0.12),
            )
        draw_text(draw, (lead * k, h / 2), digits, size * k, INK, anchor="lc", bold=True, role="removed")

    return sprite(w, height, paint)


@lru_cache(maxsize=16)
def zone_outline(size: int, wide: int = 0) -> Image.Image:
    """A thick yellow-on-black frame around a zone the moves since the last handover or a pending
    choice concern: ``size`` tall and ``wide`` across (0: square), as the zone is."""
    outer, across = size + 8, (wide or size) + 8

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        draw.rectangle([0, 0, across * k - 1, outer * k - 1], outline=rgba(INK), width=round(7 * k))
        draw.rectangle(
            [2 * k, 2 * k, across * k - 1 - 2 * k, outer * k - 1 - 2 * k],
            outline=rgba(HIGHLIGHT),
            width=round(4 * k),
        )

    return sprite(across, outer, paint)


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
