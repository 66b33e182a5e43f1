"""Text measuring, fitting and drawing with the DejaVu Sans fonts shipped in ``render/fonts``.

Display names come in every alphabet, so every image draws its text with DejaVu Sans (regular and
bold), which covers Latin, Greek, Cyrillic, Hebrew, Arabic letters and many signs. The font files live
in the repository (their licence is ``render/fonts/LICENSE``): the images never depend on the fonts
of the machine, and Pillow's basic layout keeps shaping libraries out of it, so the same view gives the
same picture everywhere.

Characters the fonts lack (CJK, emoji, other scripts) are never left to Pillow, which would draw the
font's missing-glyph shape without telling: ``render.glyphs`` reads which characters each font maps,
and one user-perceived character (an emoji with its modifiers, a letter with its accents) that
cannot be drawn becomes one small hollow box, the same in every image. A bold character that only
the regular face has is drawn in the regular face rather than as a box.

Text is handled in clusters (a base character with the combining marks, variation selectors and
joined characters that belong to it), so that shortening with ``fit`` never splits one, and
right-to-left runs (Hebrew, Arabic) are put in visual order before drawing, inside left-to-right
lines. Arabic letters are drawn in their isolated forms: the basic layout does not join them.

A board image measures the same few hundred strings again and again (every shortening tries many
prefixes), so widths are cached by (text, face, size): the answers, and so the pictures, are the
same as without the cache. ``recording`` lists what is drawn, at the size it has in the final image,
so that tests can hold every label to the size a phone needs.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from render.glyphs import code_points

Color = tuple[int, int, int] | tuple[int, int, int, int] | tuple[int]

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
ELLIPSIS = "…"

BOX_ADVANCE = 0.62
"""Width of the placeholder box's cell, in ems (a little narrower than a capital letter)."""

_MIRRORED = dict(zip("()[]{}<>«»‹›", ")(][}{><»«›‹", strict=True))
"""Paired signs that face the other way inside a right-to-left run."""


class Run(NamedTuple):
    """A stretch of text drawn in one go: ``text`` in the bold or regular face, or, when ``box`` is
    set, one placeholder box standing for the cluster ``text`` the fonts cannot draw."""

    text: str
    bold: bool
    box: bool = False


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or its bold) at ``size`` pixels, loaded once per size, with the basic layout."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=2)
def _covered(bold: bool) -> frozenset[int]:
    return code_points(BOLD if bold else REGULAR)


@lru_cache(maxsize=1)
def _cap_height() -> float:
    """Height of the capital letters in ems, measured on a large "H" of the regular face."""
    return -font(1000).getbbox("H", anchor="ls")[1] / 1000


def _extends(cluster: str, ch: str) -> bool:
    """Whether ``ch`` belongs to the cluster before it rather than starting a new one."""
    cp = ord(ch)
    if cluster.endswith("\u200d") or ch == "\u200d":  # zero-width joiner: emoji sequences
        return True
    if unicodedata.category(ch) in ("Mn", "Me", "Mc"):  # accents, variation selectors, vowel signs
        return True
    if 0x1F3FB <= cp <= 0x1F3FF or 0xE0020 <= cp <= 0xE007F:  # skin tones, flag tags
        return True
    if 0x1160 <= cp <= 0x11FF or 0xD7B0 <= cp <= 0xD7FF:  # Hangul vowel and final jamo
        return True
    regional = 0x1F1E6 <= cp <= 0x1F1FF  # flags are pairs of regional indicators
    return regional and len(cluster) == 1 and 0x1F1E6 <= ord(cluster) <= 0x1F1FF


@lru_cache(maxsize=4096)
def clusters(text: str) -> tuple[str, ...]:
    """``text`` cut into the characters a reader sees: a cut between two clusters never splits a
    letter from its accents, an emoji from its modifiers or a flag in two."""
    out: list[str] = []
    for ch in text:
        if out and _extends(out[-1], ch):
            out[-1] += ch
        else:
            out.append(ch)
    return tuple(out)


def _invisible(ch: str) -> bool:
    """Characters with no shape of their own: joiners, direction marks, soft hyphens, variation
    selectors, controls."""
    cp = ord(ch)
    return unicodedata.category(ch) in ("Cf", "Cc") or 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF


def _decoration(ch: str) -> bool:
    """Parts of a cluster left out when the rest can be drawn: the invisible ones and skin tones."""
    return _invisible(ch) or 0x1F3FB <= ord(ch) <= 0x1F3FF


def _resolve(cluster: str, bold: bool) -> tuple[str, bool] | None:
    """What to draw for ``cluster`` and in which face (bold asked: bold, else regular); None for a
    placeholder box. A composed letter the fonts lack may still be drawn as base letter and marks."""
    faces = (True, False) if bold else (False,)
    for form in dict.fromkeys((unicodedata.normalize("NFC", cluster), unicodedata.normalize("NFD", cluster))):
        chars = "".join(ch for ch in form if not _decoration(ch))
        if not chars:
            break
        for face in faces:
            if all(ord(ch) in _covered(face) for ch in chars):
                return chars, face
    if cluster.isspace():  # tabs, line breaks, wide spaces
        return " ", faces[0]
    if all(_invisible(ch) for ch in cluster):
        return "", faces[0]
    return None


def _direction(cluster: str) -> str:
    """ "R" for a right-to-left letter, "L" for a left-to-right one, "N" for a digit, "" otherwise."""
    kind = unicodedata.bidirectional(cluster[0])
    if kind in ("R", "AL"):
        return "R"
    if kind == "L":
        return "L"
    return "N" if kind in ("EN", "AN") else ""


def _visual(parts: tuple[str, ...]) -> list[str]:
    """The clusters in drawing order: each right-to-left run (from a right-to-left letter to the last
    one before a left-to-right letter) reversed, its numbers kept left to right and its brackets
    mirrored. Lines are left to right, so what surrounds a run stays in place."""
    kinds = [_direction(p) for p in parts]
    if "R" not in kinds:
        return list(parts)
    out = list(parts)
    i = 0
    while i < len(parts):
        if kinds[i] != "R":
            i += 1
            continue
        end = i
        j = i + 1
        while j < len(parts) and kinds[j] != "L":
            if kinds[j] == "R":
                end = j
            j += 1
        run = [_MIRRORED.get(p, p) for p in reversed(parts[i : end + 1])]
        k = 0
        while k < len(run):  # numbers inside the run still read left to right
            m = k
            while m < len(run) and _direction(run[m]) == "N":
                m += 1
            run[k:m] = reversed(run[k:m])
            k = m + 1 if m == k else m
        out[i : end + 1] = run
        i = end + 1
    return out


@lru_cache(maxsize=4096)
def _plan(text: str, bold: bool = False) -> tuple[Run, ...]:
    """``text`` as the runs ``draw_text`` draws, in visual order, neighbours in one face merged."""
    runs: list[Run] = []
    for part in _visual(clusters(text)):
        resolved = _resolve(part, bold)
        if resolved is None:
            runs.append(Run(part, bold, box=True))
        elif resolved[0]:
            chars, face = resolved
            if runs and not runs[-1].box and runs[-1].bold == face:
                runs[-1] = Run(runs[-1].text + chars, face)
            else:
                runs.append(Run(chars, face))
    return tuple(runs)


def placeholders(text: str, *, bold: bool = False) -> tuple[str, ...]:
    """The clusters of ``text`` that are drawn as a placeholder box (the fonts have no glyph)."""
    return tuple(run.text for run in _plan(text, bold) if run.box)


@lru_cache(maxsize=16384)
def _run_width(run: Run, size: int) -> float:
    return size * BOX_ADVANCE if run.box else font(size, run.bold).getlength(run.text)


@lru_cache(maxsize=16384)
def text_width(text: str, size: int, *, bold: bool = False) -> float:
    """Advance width of ``text`` as ``draw_text`` draws it (in bold when ``bold``)."""
    return sum(_run_width(run, size) for run in _plan(text, bold))


@lru_cache(maxsize=4096)
def fit(text: str, size: int, max_width: float, *, bold: bool = False, words: bool = False) -> str:
    """``text`` when it fits in ``max_width`` pixels; else its longest prefix of whole clusters that
    fits with "…" after it (spaces before the "…" dropped), measured as drawn; "" if not even "…" fits.

    With ``words`` the prefix ends at a word (before a space), so that no word is cut in the middle
    ("Tour de…", never "Tour de gu…"); only when not even the first word fits is it cut inside it.
    """
    if text_width(text, size, bold=bold) <= max_width:
        return text
    parts = clusters(text)

    def shortened(count: int) -> str:
        return "".join(parts[:count]).rstrip() + ELLIPSIS

    if words:
        ends = [n for n in range(1, len(parts)) if parts[n].isspace() and not parts[n - 1].isspace()]
        fitting = [n for n in ends if text_width(shortened(n), size, bold=bold) <= max_width]
        if fitting:
            return shortened(fitting[-1])
    low, high = 0, len(parts) - 1  # the answer keeps between low and high clusters
    if text_width(shortened(0), size, bold=bold) > max_width:
        return ""
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(shortened(mid), size, bold=bold) <= max_width:
            low = mid
        else:
            high = mid - 1
    return shortened(low)


SOFT_HYPHEN = "\u00ad"
"""Where a long word may break when it does not fit on a line (shown as "-" there, else unseen)."""


def _shown(line: str) -> str:
    """A line of ``wrap`` as drawn: a soft hyphen ending it is a hyphen, the others are unseen."""
    line = line.rstrip()
    if line.endswith(SOFT_HYPHEN):
        line = line[:-1] + "-"
    return line.replace(SOFT_HYPHEN, "")


def wrap(text: str, size: int, width: float, max_lines: int, *, bold: bool = False) -> list[str]:
    """``text`` broken into at most ``max_lines`` lines of at most ``width`` pixels, between words,
    after a hyphen or at a soft hyphen (``SOFT_HYPHEN``, drawn "-" at the end of a line); when it
    does not all fit, the last line ends at a word with "…". A single word wider than ``width``
    without a break is shortened (the only case where a word is cut). Soft hyphens are used only
    when the text does not fit without them: "The" / "Dustbowl" rather than "The Dust-" / "bowl"."""
    plain = _wrap(text.replace(SOFT_HYPHEN, ""), size, width, max_lines, bold)
    if SOFT_HYPHEN not in text or all(ELLIPSIS not in line for line in plain):
        return plain
    return _wrap(text, size, width, max_lines, bold)


def _wrap(text: str, size: int, width: float, max_lines: int, bold: bool) -> list[str]:
    pieces: list[str] = []
    for word in text.split():
        chunks = word.replace("-", "-" + SOFT_HYPHEN).split(SOFT_HYPHEN)
        chunks = [c for c in chunks if c]
        pieces += [c if c.endswith("-") else c + SOFT_HYPHEN for c in chunks[:-1]] + [chunks[-1]]
        pieces[-1] += " "
    lines: list[str] = []
    line = ""
    for piece in pieces:
        trial = line + piece
        if line and text_width(_shown(trial), size, bold=bold) > width:
            lines.append(_shown(line))
            line = piece
        else:
            line = trial
    if line.strip():
        lines.append(_shown(line))
    if len(lines) > max_lines:
        last = " ".join([lines[max_lines - 1], *lines[max_lines:]])
        lines = [*lines[: max_lines - 1], fit(last + " " + ELLIPSIS, size, width, bold=bold, words=True)]
    return [fit(line, size, width, bold=bold, words=True) for line in lines]


def shrink(text: str, size: int, max_width: float, smallest: int, *, bold: bool = False) -> int:
    """The largest size from ``size`` down to ``smallest`` at which ``text`` fits in ``max_width``
    (``smallest`` when none does, for ``fit`` to shorten): a label a little too long for its box
    loses a pixel or two of height rather than letters."""
    while size > smallest and text_width(text, size, bold=bold) > max_width:
        size -= 1
    return size


class Drawn(NamedTuple):
    """One text as ``draw_text`` drew it: the text asked for, what was drawn (shortened or not), the
    font size in pixels of the finished image, the role of the label (None for plain text), and the
    width it had to fit in (None when it had no limit), in the pixels it was drawn at."""

    text: str
    shown: str
    size: float
    bold: bool
    role: str | None
    room: float | None


_SCALE: ContextVar[float] = ContextVar("render_text_scale", default=1.0)
_RECORDS: ContextVar[list[Drawn] | None] = ContextVar("render_text_records", default=None)


@contextmanager
def scaled(factor: float) -> Iterator[None]:
    """Everything drawn inside is drawn ``factor`` times larger than it will appear (a supersampled
    sprite or board, reduced afterwards): the recorder divides the sizes by it."""
    token = _SCALE.set(_SCALE.get() * factor)
    try:
        yield
    finally:
        _SCALE.reset(token)


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Collect every text ``draw_text`` draws inside the block (cached sprites are not drawn again:
    clear the caches first to see all of an image's texts)."""
    found: list[Drawn] = []
    token = _RECORDS.set(found)
    try:
        yield found
    finally:
        _RECORDS.reset(token)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Color,
    *,
    anchor: str = "la",
    bold: bool = False,
    max_width: float | None = None,
    words: bool = False,
    role: str | None = None,
) -> float:
    """Draw ``text`` and return its width; with ``max_width``, shortened first by ``fit`` (at a word
    with ``words``).

    ``anchor`` is two letters like Pillow's: horizontal ``l``/``m``/``r`` then vertical ``a`` (top of
    the ascender), ``s`` (baseline) or ``c`` (capital letters centred on y, best for labels in shapes).
    ``role`` names what the label is (``"hex"``, ``"stat"``, ...) for the size checks of the tests.
    """
    asked = text
    if max_width is not None:
        text = fit(text, size, max_width, bold=bold, words=words)
    records = _RECORDS.get()
    if records is not None:
        records.append(Drawn(asked, text, size / _SCALE.get(), bold, role, max_width))
    runs = _plan(text, bold)
    width = sum(_run_width(run, size) for run in runs)
    x, y = xy
    h, v = anchor[0], anchor[1]
    pen = x - width / 2 if h == "m" else x - width if h == "r" else x
    if v == "a":
        baseline = y + font(size, bold).getmetrics()[0]
    elif v == "c":
        baseline = y + size * _cap_height() / 2
    else:
        baseline = y
    for run in runs:
        if run.box:
            _draw_box(draw, pen, baseline, size, fill, run.bold)
        else:
            x, y = math.floor(pen), math.floor(baseline)
            mask, left, top = _mask(
                run.text, size, run.bold, _sixty_fourth(pen - x), _sixty_fourth(baseline - y)
            )
            draw.bitmap((x + left, y + top), mask, fill=fill)
        pen += _run_width(run, size)
    return width


def _sixty_fourth(fraction: float) -> float:
    """A pixel's fraction as FreeType positions glyphs (26.6 fixed point): the same mask as drawn
    at the exact position, and the same key for positions that only differ below it."""
    return round(fraction * 64) / 64


@lru_cache(maxsize=4096)
def _mask(text: str, size: int, bold: bool, dx: float, dy: float) -> tuple[Image.Image, int, int]:
    """The coverage of ``text`` drawn with its baseline's left end at (``dx``, ``dy``) of a pixel,
    and where the mask's corner lies from that pixel.

    Rasterising glyphs is most of what a label costs, and boards draw the same labels at the same
    places and sizes move after move: the masks are kept and pasted in the text's colour, which
    gives exactly the pixels Pillow's own text drawing gives there."""
    face = font(size, bold)
    left, top, right, bottom = (int(v) for v in face.getbbox(text, anchor="ls"))
    left, top = left - 1, top - 1
    mask = Image.new("L", (max(1, right - left + 2), max(1, bottom - top + 2)), 0)
    ImageDraw.Draw(mask).text((dx - left, dy - top), text, font=face, fill=255, anchor="ls")
    return mask, left, top


def _draw_box(
    draw: ImageDraw.ImageDraw, pen: float, baseline: float, size: int, fill: Color, bold: bool
) -> None:
    """The placeholder: a hollow box as tall as a capital letter, centred in its cell."""
    cap = size * _cap_height()
    side = size * BOX_ADVANCE
    line = max(1, round(size * (0.09 if bold else 0.06)))
    left, right = pen + side * 0.14, pen + side * 0.86
    draw.rectangle([left, baseline - cap, right, baseline], outline=fill, width=line)
