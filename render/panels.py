"""Pieces of the status box, the seat panels and the legends that every game draws the same way.

The three games share one visual grammar, so that a player who knows one image reads the others:
a bold title with the round beside it and black phase pills on the right; a box with a thick edge
saying who acts (tinted in their colour, yellow once the game is over); seat panels with a tinted
header holding the seat's mark, its name and pills; legends as a grid of icons with their meaning.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from babel.dates import format_date
from PIL import Image, ImageDraw

import i18n
from engine.contract import ResultJson
from engine.text import decode_msg
from render import grounds
from render.catalog import message, player_name, tr
from render.common import INK, MUTED, PANEL, PAPER, RGB, RGBA, RULE, WHITE, paste_centered
from render.page import LABEL, legible
from render.text import draw_text, shrink, text_width, wrap

PAD = 16
HEADER_H = 58
TITLE_Y = 20
"""Middle of the title line at the top of every status section."""
BOX_TOP = 42
"""Top of the box saying who acts, under the title line."""
LAST_H = 34
"""Height of the line repeating the last action, under the box."""


def box_height(sub: bool, extra: int = 0) -> int:
    """Height of the box saying who acts: one line, or two with a second line, plus ``extra``."""
    return (86 if sub else 54) + extra


def status_height(sub: bool, extra: int = 0) -> int:
    """Height of a status section: title line, box, last action."""
    return BOX_TOP + box_height(sub, extra) + 8 + LAST_H


Pill = tuple[str, RGB, RGB]


def away_pill(seat: Mapping[str, object], locale: str) -> tuple[Pill, ...]:
    """The badge of a seat whose player is away (the view's ``away``: the UTC date they are back),
    "away → 8 Dec" in the seat's chip; none for the others."""
    back = seat.get("away")
    if not back:
        return ()
    shown = format_date(date.fromisoformat(str(back)[:10]), "d MMM", locale=i18n.normalize(locale))
    return ((tr("render.badge.away", locale, date=shown), INK, WHITE),)


"""(text, fill, ink) of a pill in a panel header."""


def heading(draw: ImageDraw.ImageDraw, title: str, detail: str | None = None) -> float:
    """The bold game title, then ``detail`` (round) in grey; returns where the line ends."""
    x = draw_text(draw, (0, TITLE_Y), title, 32, INK, anchor="lc", bold=True) + 22
    if detail:
        x += draw_text(draw, (x, TITLE_Y), detail, 26, MUTED, anchor="lc", bold=True) + 18
    return x


def phase_pills(draw: ImageDraw.ImageDraw, pills: Sequence[str], right: float, left: float) -> None:
    """Black pills ending at ``right``, leftwards; those that would cross ``left`` are left out."""
    for text in pills:
        w = text_width(text, LABEL, bold=True) + 28
        if right - w < left:
            break
        draw.rounded_rectangle([right - w, 2, right, 38], radius=18, fill=INK)
        draw_text(draw, (right - w / 2, TITLE_Y), text, LABEL, WHITE, anchor="mc", bold=True)
        right -= w + 10


def status_box(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int],
    fill: RGB,
    mark: Image.Image | None,
    lines: tuple[str, str],
    *,
    main_size: int = 28,
) -> float:
    """The box saying who acts: ``box`` is (top, width, height); ``mark`` the acting seat's mark (or
    None), ``lines`` the main line and an optional second one. Returns the text's left edge."""
    top, width, height = box
    main, sub = lines
    draw.rounded_rectangle([0, top, width - 1, top + height], radius=12, fill=fill, outline=INK, width=3)
    x0 = 16
    if mark is not None:
        paste_centered(img, mark, (x0 + 18, top + 27))
        x0 += 46
    room = width - x0 - 16
    draw_text(draw, (x0, top + 27), main, main_size, INK, anchor="lc", bold=True, max_width=room, words=True)
    if sub:
        draw_text(draw, (x0, top + 61), sub, LABEL, INK, anchor="lc", max_width=room, words=True)
    return x0


def pill(draw: ImageDraw.ImageDraw, right: float, cy: float, text: str, fill: RGB, ink: RGB) -> float:
    """A pill with ``text`` ending at ``right``; returns its left edge."""
    size = legible()
    w = text_width(text, size, bold=True) + 22
    draw.rounded_rectangle([right - w, cy - 16, right, cy + 16], radius=16, fill=fill, outline=INK, width=2)
    draw_text(draw, (right - w / 2, cy), text, size, ink, anchor="mc", bold=True)
    return right - w


def framed(
    width: int, height: int, background: RGBA = (0, 0, 0, 0)
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A white panel with rounded corners and a rule edge, on ``background``."""
    img = Image.new("RGBA", (width, height), background)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle([0, 0, width - 1, height - 1], radius=12, fill=PANEL, outline=RULE, width=2)
    return img, draw


def header_band(draw: ImageDraw.ImageDraw, width: int, fill: RGB) -> None:
    """The tinted top of a panel: rounded above, square where it meets the body."""
    draw.rounded_rectangle([0, 0, width - 1, HEADER_H], radius=12, fill=fill)
    draw.rectangle([0, HEADER_H - 12, width - 1, HEADER_H], fill=fill)


def seat_header(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    colors: tuple[RGB, RGB],
    mark: Image.Image,
    name: str,
    pills: Sequence[Pill],
) -> None:
    """A seat panel's header: ``colors`` (tint, line), the seat's mark, the name, then ``pills`` from
    the right edge (the name is shortened to leave them room)."""
    width = img.width
    header_band(draw, width, colors[0])
    draw.line([(0, HEADER_H), (width, HEADER_H)], fill=colors[1], width=4)
    cy = HEADER_H / 2
    paste_centered(img, mark, (PAD + 17, cy))
    right: float = width - PAD
    for text, fill, ink in pills:
        right = pill(draw, right, cy, text, fill, ink) - 8
    draw_text(
        draw,
        (PAD + 44, cy),
        name,
        28,
        INK,
        anchor="lc",
        bold=True,
        max_width=right - (PAD + 44) - 8,
        words=True,
    )


def icon_grid(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    items: Sequence[tuple[Image.Image, str]],
    *,
    top: float,
    per_row: int,
    row: tuple[int, float],
    offsets: tuple[int, int],
    size: int,
) -> None:
    """Legend entries in ``per_row`` columns inside a 16-pixel border: ``row`` is (height, middle of
    the icon from the row's top), ``offsets`` where the icon's middle and the text start in a slot.
    A text too long for its slot, even a few pixels smaller, goes on two lines."""
    row_h, mid = row
    icon_dx, text_dx = offsets
    slot = (img.width - 32) / per_row
    for i, (icon, label) in enumerate(items):
        x = 16 + slot * (i % per_row)
        cy = top + (i // per_row) * row_h + mid
        paste_centered(img, icon, (x + icon_dx, cy))
        room = slot - text_dx - 6
        fitted = shrink(label, size, room, size - 3)
        lines = [label] if text_width(label, fitted) <= room else wrap(label, size - 2, room, 2)
        line_size = fitted if len(lines) == 1 else size - 2
        for n, line in enumerate(lines):
            at = (x + text_dx, cy + (n - (len(lines) - 1) / 2) * (line_size + 3))
            draw_text(draw, at, line, line_size, INK, anchor="lc", max_width=room, words=True)


def notice(title: str, text: str, width: int = 900, height: int = 110) -> Image.Image:
    """A small card with a bold title and one grey line (the private image when there is nothing)."""
    img = Image.new("RGBA", (width, height), (*PANEL, 255))
    draw = ImageDraw.Draw(img)
    draw_text(draw, (20, 36), title, 28, INK, anchor="lc", bold=True, max_width=width - 40, words=True)
    draw_text(draw, (20, 78), text, 22, MUTED, anchor="lc", max_width=width - 40, words=True)
    return img


def result_lines(
    result: ResultJson | None, keys: tuple[str, str, str], locale: str, names: Mapping[str, str]
) -> tuple[str, str]:
    """The status lines of a finished game: ``keys`` are the catalog keys of a win (its text takes
    ``players``), of a draw and of an abort (a game closed with no result, ``aborted`` in the
    result); the second line is the result's reason, or ""."""
    if not result:
        return tr(keys[1], locale), ""
    winners = result.get("winners") or []
    if result.get("aborted"):
        main = tr(keys[2], locale)
    elif result.get("draw") or not winners:
        main = tr(keys[1], locale)
    else:
        main = tr(keys[0], locale, players=[player_name(names, w) for w in winners])
    return main, message(result.get("reason"), locale, names)


def last_text(
    last: Mapping[str, object] | None, keys: tuple[str, str], locale: str, who: Callable[[int], str]
) -> str:
    """The line about the view's ``last`` action: ``keys`` are the catalog keys with and without one
    (their text takes ``name`` and ``text``); ``who`` names the seat that played it, as the ``player``
    of the game's description (told in the third person: the board is read by the whole table).
    What the action did (``last["outcome"]``: "the Knight on d4 is removed") follows it, through
    the key ``<keys[0]>.outcome``."""
    return _last_line(last, keys, locale, who)[0](None)


def _last_line(
    last: Mapping[str, object] | None, keys: tuple[str, str], locale: str, who: Callable[[int], str]
) -> tuple[Callable[[int | None], str], int]:
    """``last_text`` with the action's words cut to their first ``n`` (None: all of them), and how
    many words the action has."""
    if not last:
        return (lambda _n: tr(keys[1], locale)), 0
    seat = last.get("seat", -1)
    name = who(seat if isinstance(seat, int) else -1)
    label = last.get("label")  # the action in the reader's words, where the game records them
    if isinstance(label, Mapping) and label:
        text = i18n.t(decode_msg(label), locale, player=name)
    else:
        text = str(last.get("text", ""))
    told = last.get("outcome")  # what the action did, where the game tells it: encoded messages
    outcomes = [decode_msg(o) for o in told if isinstance(o, Mapping)] if isinstance(told, list) else []
    words = text.split(" ")

    def line(n: int | None) -> str:
        action = text if n is None else " ".join(words[:n]).rstrip(",;:") + "…"
        if outcomes:
            action = tr(f"{keys[0]}.outcome", locale, action=action, outcomes=outcomes)
        return tr(keys[0], locale, name=name, text=action)

    return line, len(words)


LAST_SIZE = 24
"""Size of the last action's line, which may come down to ``legible()`` for a long one."""


def last_action(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    top: float,
    icon: Image.Image | None,
    told: tuple[Mapping[str, object] | None, tuple[str, str], str, Callable[[int], str]],
    text_x: int,
) -> None:
    """The status line under the box that repeats the last action, after the icon the board marks
    it with (``None`` when the caller draws its own); ``told`` is what ``last_text`` takes. A line
    too long for the width comes down to the legible size, then loses the last words of the action,
    never of what the action did ("…: the Knight on d4 is removed"), which a player most needs."""
    if icon is not None:
        paste_centered(img, icon, (16, top + LAST_H / 2))
    room = img.width - text_x - 4
    line, n = _last_line(*told)
    text = line(None)
    size = shrink(text, LAST_SIZE, room, legible())
    while text_width(text, size) > room and n > 1:
        n -= 1
        text = line(n)
    draw_text(draw, (text_x, top + LAST_H / 2), text, size, INK, anchor="lc", max_width=room, words=True)


@dataclass(frozen=True)
class Chip:
    """One seat in the compact strip under a board: its mark, name and pills on the first line, its
    counts (label, value) on the second."""

    mark: Image.Image
    name: str
    colors: tuple[RGB, RGB]
    """(tint, line): the seat's light colour behind the text and its colour around it."""
    pills: tuple[Pill, ...] = ()
    counts: tuple[tuple[str, str], ...] = ()


CHIP_H = 80


def chip_row(chips: Sequence[Chip], width: int, per_row: int) -> Image.Image:
    """The compact strip: ``chips`` ``per_row`` to a row across ``width`` pixels, rows 8 apart. A
    count's label is drawn at the phone's legible size; the counts come closer when room is short,
    and a label is left out rather than cut; its value always shows.

    A move changes one or two seats' chips: each chip is drawn once on paper and kept
    (``_chip_image``), so the others are only pasted again. The strip is opaque: an RGB image."""
    rows = -(-len(chips) // per_row)
    places = chip_boxes(len(chips), width, per_row)
    size = (width, rows * CHIP_H + (rows - 1) * 8)
    if grounds.RECORDS.get() is not None:  # a recorder hears every text drawn: no copies
        drawn = Image.new("RGBA", size, (*PAPER, 255))
        for chip, (x, y, right, _bottom) in zip(chips, places, strict=True):
            _draw_chip(drawn, chip, x, y, right - x)
        return drawn.convert("RGB")
    img = Image.new("RGB", size, PAPER)
    for chip, (x, y, right, _bottom) in zip(chips, places, strict=True):
        kept = _chip_image(_Same(chip.mark), chip.name, chip.colors, chip.pills, chip.counts, right - x)
        img.paste(kept, (x, y))
    return img


def chip_boxes(count: int, width: int, per_row: int) -> list[tuple[int, int, int, int]]:
    """Where ``chip_row`` puts each of ``count`` chips (left, top, right, bottom): a page that
    knows which chips changed tells its encoder those boxes only."""
    gap = 10
    chip_w = (width - gap * (per_row - 1)) // per_row
    boxes = []
    for n in range(count):
        x, y = (n % per_row) * (chip_w + gap), (n // per_row) * (CHIP_H + 8)
        boxes.append((x, y, x + chip_w, y + CHIP_H))
    return boxes


class _Same:
    """An image as part of a cache key: equal only to the very same object (an image's ``==``
    compares its pixels, and it has no hash). It holds the image, so its ``id`` is not reused while
    the key is kept."""

    __slots__ = ("image",)

    def __init__(self, image: Image.Image) -> None:
        self.image = image

    def __hash__(self) -> int:
        return id(self.image)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.image is self.image


@lru_cache(maxsize=128)  # up to 140 KB each: a few tables' seats, their last few counts
def _chip_image(
    mark: _Same,
    name: str,
    colors: tuple[RGB, RGB],
    pills: tuple[Pill, ...],
    counts: tuple[tuple[str, str], ...],
    chip_w: int,
) -> Image.Image:
    """One chip drawn on paper, ``chip_w`` x ``CHIP_H``, in RGB: the pixels ``_draw_chip`` gives at any
    place of the strip (a chip's coordinates are whole pixels and its text positions 64ths of one,
    so moving it by whole pixels moves every pixel with it), kept for the next strips."""
    img = Image.new("RGBA", (chip_w, CHIP_H), (*PAPER, 255))
    _draw_chip(img, Chip(mark.image, name, colors, pills, counts), 0, 0, chip_w)
    return img.convert("RGB")  # opaque throughout: pasted, it is the same, in three quarters the room


def _draw_chip(img: Image.Image, chip: Chip, x0: int, y0: int, chip_w: int) -> None:
    """``chip`` drawn on ``img`` with its top left corner at (``x0``, ``y0``)."""
    draw = ImageDraw.Draw(img)
    tint, line = chip.colors
    draw.rounded_rectangle(
        [x0, y0, x0 + chip_w - 1, y0 + CHIP_H - 1], radius=12, fill=tint, outline=line, width=3
    )
    cy = y0 + 22
    paste_centered(img, chip.mark, (x0 + 24, cy))
    right: float = x0 + chip_w - 10
    for text, fill, ink in chip.pills:
        right = pill(draw, right, cy, text, fill, ink) - 6
    draw_text(
        draw,
        (x0 + 46, cy),
        chip.name,
        LABEL,
        INK,
        anchor="lc",
        bold=True,
        max_width=right - x0 - 52,
        words=True,
    )
    x: float = x0 + 14
    cy = y0 + 57
    end = x0 + chip_w - 12
    need = sum(
        (text_width(label, legible()) + 6 if label else 0) + text_width(value, 24, bold=True)
        for label, value in chip.counts
    )
    between = len(chip.counts) - 1
    spacing = 18.0 if between <= 0 else max(6.0, min(18.0, (end - x - need) / between))
    for label, value in chip.counts:
        value_w = text_width(value, 24, bold=True)
        room = end - x - value_w - 6
        size = legible()
        if label and text_width(label, size) <= room:
            x += draw_text(draw, (x, cy), label, size, MUTED, anchor="lc") + 6
        if x + value_w > end:
            break
        x += draw_text(draw, (x, cy), value, 24, INK, anchor="lc", bold=True, role="count") + spacing
