"""Text drawing with Pillow's embedded font, accents included.

The embedded font (``ImageFont.load_default(size=N)``) is the same on every machine, which keeps
images reproducible, but it only covers ASCII and a few signs: French letters such as "é", "à"
or "ç" would come out as empty boxes. ``draw_text`` therefore draws the bare letter and adds the
accent as a small stroke on top (or the cedilla underneath). Characters the font cannot show at
all (emoji, other scripts in display names) become "?", never a box.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import ImageDraw, ImageFont

Color = tuple[int, int, int] | tuple[int, int, int, int]

# Every character the embedded font has a glyph for (checked against its "missing glyph" shape).
_SUPPORTED = frozenset(chr(c) for c in range(32, 127)) | frozenset("©«°±´·»‘’“”…‹›⁄™")

# Characters worth a readable stand-in rather than "?".
_REPLACE = {
    "œ": "oe",
    "Œ": "OE",
    "æ": "ae",
    "Æ": "AE",
    "ß": "ss",
    "\u00a0": " ",
    "\u202f": " ",
    "\u2009": " ",
    "–": "-",
    "—": "-",
    "−": "-",
    "×": "x",
    "•": "·",
}

_ACUTE, _GRAVE, _CIRCUMFLEX, _DIAERESIS, _CEDILLA, _TILDE, _RING = (
    "\u0301",
    "\u0300",
    "\u0302",
    "\u0308",
    "\u0327",
    "\u0303",
    "\u030a",
)
_MARKS = frozenset((_ACUTE, _GRAVE, _CIRCUMFLEX, _DIAERESIS, _CEDILLA, _TILDE, _RING))


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The embedded font at ``size`` pixels, with the basic layout so no system library is involved."""
    loaded = ImageFont.load_default(size=size)
    assert isinstance(loaded, ImageFont.FreeTypeFont)
    return loaded


@lru_cache(maxsize=4096)
def _plan(text: str) -> tuple[str, tuple[tuple[int, str], ...]]:
    """Split ``text`` into what the font draws and the accents to add: (plain text, ((index, marks), ...))."""
    plain: list[str] = []
    marks: list[tuple[int, str]] = []
    for ch in text:
        if ch in _SUPPORTED:
            plain.append(ch)
            continue
        if ch in _REPLACE:
            plain.append(_REPLACE[ch])
            continue
        parts = unicodedata.normalize("NFD", ch)
        base, extra = parts[0], parts[1:]
        if base in _SUPPORTED and extra and all(m in _MARKS for m in extra):
            marks.append((len("".join(plain)), extra))
            plain.append(base)
        else:
            plain.append("?")
    return "".join(plain), tuple(marks)


def text_width(text: str, size: int) -> float:
    """Advance width of ``text`` as ``draw_text`` would draw it."""
    return font(size).getlength(_plan(text)[0])


def fit(text: str, size: int, max_width: float) -> str:
    """``text`` shortened with an ellipsis so that it fits in ``max_width`` pixels."""
    if text_width(text, size) <= max_width:
        return text
    cut = text
    while cut and text_width(cut + "…", size) > max_width:
        cut = cut[:-1]
    return cut.rstrip() + "…"


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Color,
    *,
    anchor: str = "la",
    bold: bool = False,
) -> float:
    """Draw ``text`` and return its width.

    ``anchor`` is two letters like Pillow's: horizontal ``l``/``m``/``r`` then vertical ``a`` (top of
    the ascender), ``s`` (baseline) or ``c`` (capital letters centred on y, best for labels in shapes).
    ``bold`` thickens the strokes, since the embedded font has a single weight.
    """
    f = font(size)
    plain, marks = _plan(text)
    width = f.getlength(plain)
    x, y = xy
    h, v = anchor[0], anchor[1]
    left = x - width / 2 if h == "m" else x - width if h == "r" else x
    ascent, _descent = f.getmetrics()
    if v == "a":
        baseline = y + ascent
    elif v == "c":
        baseline = y + size * 0.35
    else:
        baseline = y
    stroke = max(1, round(size / 28)) if bold else 0
    draw.text((left, baseline), plain, font=f, fill=fill, anchor="ls", stroke_width=stroke, stroke_fill=fill)
    for index, mark_chars in marks:
        pen = left + f.getlength(plain[:index])
        _draw_marks(draw, f, size, plain[index], pen, baseline, mark_chars, fill, stroke)
    return width


def _draw_marks(
    draw: ImageDraw.ImageDraw,
    f: ImageFont.FreeTypeFont,
    size: int,
    base: str,
    pen: float,
    baseline: float,
    mark_chars: str,
    fill: Color,
    stroke: int,
) -> None:
    """Draw accents over (or a cedilla under) the glyph ``base`` drawn at ``pen`` on ``baseline``."""
    left, top, right, _bottom = f.getbbox(base, anchor="ls")
    cx = pen + (left + right) / 2
    top_y = baseline + top
    lw = max(1, round(size / 14)) + stroke
    gap = size * 0.07
    h = size * 0.17
    for mark in mark_chars:
        low = top_y - gap
        high = low - h
        if mark == _ACUTE:
            draw.line([(cx - h * 0.35, low), (cx + h * 0.45, high)], fill=fill, width=lw)
        elif mark == _GRAVE:
            draw.line([(cx + h * 0.35, low), (cx - h * 0.45, high)], fill=fill, width=lw)
        elif mark == _CIRCUMFLEX:
            draw.line(
                [(cx - h * 0.6, low), (cx, high), (cx + h * 0.6, low)], fill=fill, width=lw, joint="curve"
            )
        elif mark == _TILDE:
            mid = (low + high) / 2
            pts = [
                (cx - h * 0.7, mid + h * 0.2),
                (cx - h * 0.3, mid - h * 0.3),
                (cx + h * 0.3, mid + h * 0.3),
            ]
            draw.line([*pts, (cx + h * 0.7, mid - h * 0.2)], fill=fill, width=lw, joint="curve")
        elif mark == _DIAERESIS:
            r = max(1.0, lw * 0.75)
            for dx in (-h * 0.45, h * 0.45):
                draw.ellipse([cx + dx - r, low - h * 0.45 - r, cx + dx + r, low - h * 0.45 + r], fill=fill)
        elif mark == _RING:
            r = h * 0.4
            draw.ellipse([cx - r, low - 2 * r, cx + r, low], outline=fill, width=max(1, lw - 1))
        elif mark == _CEDILLA:
            d = size * 0.2
            pts = [(cx, baseline - lw / 2), (cx + d * 0.1, baseline + d * 0.45)]
            pts += [(cx + d * 0.45, baseline + d * 0.7), (cx - d * 0.35, baseline + d)]
            draw.line(pts, fill=fill, width=max(1, lw - 1), joint="curve")
