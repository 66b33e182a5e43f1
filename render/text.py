"""Text measuring, fitting and drawing, in every script, with a chain of fonts (``render.faces``).

Display names come in every alphabet. Each user-perceived character is drawn with the first font of
the chain that has it: DejaVu Sans (regular and bold, shipped in ``render/fonts``, licence in
``render/fonts/LICENSE``) for Latin, Greek, Cyrillic, Hebrew, Arabic letters and many signs, then
the Noto fonts installed from PyPI (Noto Sans and the Noto Sans of each script: Thai, Devanagari and
the other Indic scripts, ...; Noto Sans CJK; Noto Sans Symbols) and Noto Emoji, a monochrome emoji
font drawn in the text's colour like any letter, so that the fixed palettes of the boards hold. An
emoji (a pictograph, or a character with the emoji selector) asks for the emoji font first.
Which characters a font has is read from its ``cmap`` table (``render.glyphs``) before drawing, so
that the answer never depends on Pillow's missing-glyph shape; the Noto files are only opened when a
text needs them. Only a cluster no font has becomes one small hollow box, the same in every image. A
bold character that only DejaVu's regular face has is drawn in it rather than as a box; the Noto
fonts are variable and draw bold at weight 700.

Latin text is drawn exactly as before the chain existed: DejaVu with Pillow's basic layout. Every
other run goes through Pillow's complex layout (raqm): Thai and Devanagari vowel signs are placed,
Arabic letters join, and an emoji's skin tone, a flag's two letters or a joined sequence become one
glyph. The images never depend on the fonts of the machine: the same view gives the same picture
wherever the locked packages are installed.

Text is handled in clusters (a base character with the combining marks, variation selectors and
joined characters that belong to it), so that shortening with ``fit`` never splits one. Lines are
left to right; a right-to-left run (Hebrew, Arabic) is handed to the complex layout whole, which
lays it out from the right and mirrors its brackets, and the numbers inside it still read left to
right. A Chinese, Japanese or Korean text takes the Han shapes of its writing (kana: Japanese;
Hangul: Korean; otherwise Simplified Chinese) from the faces of the CJK collection.

A board image measures the same few hundred strings again and again (every shortening tries many
prefixes), so widths are cached by (text, face, size): the answers, and so the pictures, are the
same as without the cache. ``recording`` lists what is drawn, at the size it has in the final image,
so that tests can hold every label to the size a phone needs.

Shortening: a name, unit, region or card title too wide for its box is cut to its longest prefix of whole
clusters that fits with "…" after it, measured with the face it is drawn in (``draw_text(..., max_width=...)``
or ``fit``); with ``words=True`` (the status lines, the seat strips and headers, every Cry Havoc text) the
prefix ends at a whole word, and only a single word wider than its box is cut inside. ``wrap`` breaks a text
into lines between words or after a hyphen. Labels in chips and legends first lose a few pixels of size
(``shrink``), then letters. A row of names that does not fit (Cry Havoc's initiative orders) shortens the
longest names to a common width, so that every seat stays listed. Invisible characters (joiners, direction
marks, variation selectors) are shaped with their neighbours, never drawn on their own.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from render import faces, grounds
from render.faces import BOLD, REGULAR
from render.faces import FONT_DIR as FONT_DIR
from render.grounds import Drawn as Drawn

Color = tuple[int, int, int] | tuple[int, int, int, int] | tuple[int]

ELLIPSIS = "…"

BOX_ADVANCE = 0.62
"""Width of the placeholder box's cell, in ems (a little narrower than a capital letter)."""


class Run(NamedTuple):
    """A stretch of text drawn in one go: ``text`` in the bold or regular weight of font ``face`` of
    the chain (``render.faces``; 0 is DejaVu Sans), face ``face_index`` of a collection (not named
    ``index``, which would hide the tuple's method); ``rtl`` when it is a right-to-left run, in
    logical order, that the complex layout shapes and lays out from the right. When ``box`` is set,
    one placeholder box standing for the cluster ``text`` no font has."""

    text: str
    bold: bool
    box: bool = False
    face: int = 0
    face_index: int = 0
    rtl: bool = False


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or its bold) at ``size`` pixels, loaded once per size, with the basic layout."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size, layout_engine=ImageFont.Layout.BASIC)


def _run_font(run: Run, size: int) -> ImageFont.FreeTypeFont:
    """The font ``run`` is drawn in: DejaVu's basic-layout font for left-to-right DejaVu text, as
    always; the complex layout for right-to-left runs (Arabic letters join) and the other fonts."""
    if run.face == 0 and not run.rtl:
        return font(size, run.bold)
    return faces.load(run.face, size, run.bold, run.face_index)


def _direction_of(run: Run) -> str | None:
    return "rtl" if run.rtl else None


@lru_cache(maxsize=128)
def _covered(bold: bool, face: int = 0) -> frozenset[int]:
    return faces.covered(face, bold)


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


def _emoji_like(cluster: str) -> bool:
    """Whether ``cluster`` asks for an emoji: a pictograph from the emoji planes, or any character
    with the emoji presentation selector, a skin tone, a joiner, a flag's letters or a keycap."""
    for ch in cluster:
        cp = ord(ch)
        if 0x1F000 <= cp <= 0x1FAFF or cp in (0xFE0F, 0x200D, 0x20E3) or 0xE0020 <= cp <= 0xE007F:
            return True
    return False


def _order(cluster: str) -> Iterator[int]:
    """The fonts of the chain in the order they are tried for ``cluster``: DejaVu first, but the
    emoji font first for an emoji, so that every emoji of a name is drawn in one style. The chain
    is only looked at when DejaVu lacks the cluster: a Latin text never opens another font."""
    emoji = faces.emoji_face() if _emoji_like(cluster) else None
    if emoji is not None:
        yield emoji
    yield 0
    yield from (i for i in range(1, len(faces.chain())) if i != emoji)


def _resolve(cluster: str, bold: bool) -> tuple[str, bool, int] | None:
    """What to draw for ``cluster``, in which weight (bold asked: bold, else regular) and in which
    font of the chain; None for a placeholder box.

    The first font that has every visible character of the cluster is chosen, and a font shaped by
    the complex layout gets the whole cluster (joiners and selectors included), so that a skin tone,
    a flag or a joined emoji becomes its one glyph. Failing that, a font with the cluster less its
    skin tones. DejaVu draws only the visible characters (its layout would draw a joiner as a box);
    a composed letter it lacks may still be drawn as base letter and marks."""
    weights = (True, False) if bold else (False,)
    forms = tuple(dict.fromkeys(unicodedata.normalize(form, cluster) for form in ("NFC", "NFD")))
    if cluster.isspace():  # tabs, line breaks, wide spaces
        return " ", weights[0], 0
    if any(not _invisible(ch) for ch in cluster):
        for leave_out in (_invisible, _decoration):
            for face in _order(cluster):
                for form in forms:
                    chars = "".join(ch for ch in form if not leave_out(ch))
                    for weight in weights:
                        if all(ord(ch) in _covered(weight, face) for ch in chars):
                            kept = form if face != 0 and leave_out is _invisible else chars
                            return kept, weight, face
    if all(_invisible(ch) for ch in cluster):
        return "", weights[0], 0
    return None


def _direction(cluster: str) -> str:
    """ "R" for a right-to-left letter, "L" for a left-to-right one, "N" for a digit, "" otherwise."""
    kind = unicodedata.bidirectional(cluster[0])
    if kind in ("R", "AL"):
        return "R"
    if kind == "L":
        return "L"
    return "N" if kind in ("EN", "AN") else ""


def _rtl_spans(parts: tuple[str, ...]) -> list[tuple[int, int]]:
    """The right-to-left runs of ``parts``, as (first, last) cluster positions: from a
    right-to-left letter to the last one before a left-to-right letter. Lines are left to right, so
    what surrounds a run stays in place."""
    kinds = [_direction(p) for p in parts]
    spans: list[tuple[int, int]] = []
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
        spans.append((i, end))
        i = end + 1
    return spans


def _cjk_index(text: str) -> int:
    """The face of the CJK collection for ``text``: Japanese shapes when it has kana, Korean when
    it has Hangul, Simplified Chinese otherwise."""
    for ch in text:
        cp = ord(ch)
        if 0x3040 <= cp <= 0x30FF or 0x31F0 <= cp <= 0x31FF or 0xFF66 <= cp <= 0xFF9F:
            return faces.CJK_FACES["ja"]
        if 0xAC00 <= cp <= 0xD7AF or 0x1100 <= cp <= 0x11FF or 0x3130 <= cp <= 0x318F:
            return faces.CJK_FACES["ko"]
    return faces.CJK_DEFAULT


Resolved = tuple[str, bool, int] | None


def _joined_words(parts: tuple[str, ...], resolved: list[Resolved], bold: bool) -> list[Resolved]:
    """``resolved`` with each Arabic word whose letters came from several fonts drawn in the first
    font that has them all: letters join only inside one run of one font."""
    out = list(resolved)
    start = 0
    while start < len(parts):
        end = start
        while end < len(parts) and not parts[end].isspace():
            end += 1
        found = out[start:end]
        word = "".join(parts[start:end])
        if (
            len({r[2] for r in found if r is not None}) > 1
            and None not in found
            and any(unicodedata.bidirectional(ch) == "AL" for ch in word)
        ):
            whole = _resolve(word, bold)
            if whole is not None and whole[0]:
                out[start:end] = [(r[0], whole[1], whole[2]) if r else r for r in found]
        start = end + 1
    return out


def _same_font(a: Run, b: Run) -> bool:
    """Whether ``b`` can be drawn in one go with ``a`` before it (neither a box)."""
    return not a.box and not b.box and a._replace(text="") == b._replace(text="")


@lru_cache(maxsize=2048)
def _plain(ch: str, bold: bool) -> bool:
    """Whether ``ch`` is a character ``_plan`` draws as itself in DejaVu, in the weight asked, with
    the characters around it: a space, or a visible character DejaVu has in that weight, in its
    composed form, that neither joins nor modifies a neighbour, asks for no emoji and reads left to
    right. A text of such characters only is one run (most labels, names, and every last action of
    a Latin script): ``_plan`` need not cut it into clusters and resolve each."""
    if ch == " ":
        return True
    if ch.isspace() or _invisible(ch) or _emoji_like(ch) or _extends("x", ch) or _extends(ch, "x"):
        return False
    if unicodedata.bidirectional(ch) in ("R", "AL") or unicodedata.normalize("NFC", ch) != ch:
        return False
    return ord(ch) < 0x1F1E6 and ord(ch) in _covered(bold, 0)


@lru_cache(maxsize=4096)
def _plan(text: str, bold: bool = False) -> tuple[Run, ...]:
    """``text`` as the runs ``draw_text`` draws, in visual order, neighbours in one font merged.

    A right-to-left run keeps its logical order inside (the complex layout lays it out from the
    right, joins its letters and mirrors its brackets); the pieces of a run in different fonts,
    and its numbers, which still read left to right, are put in visual order here."""
    if text and all(_plain(ch, bold) for ch in text):
        # what the steps below give such a text, without going through them character by character
        return (Run(text, bold, face=0, face_index=_cjk_index(text) if faces.is_collection(0) else 0),)
    parts = clusters(text)
    resolved = _joined_words(parts, [_resolve(p, bold) for p in parts], bold)
    cjk = _cjk_index(text)
    pieces: list[tuple[int, int, bool]] = []  # (first, last + 1, right to left) in visual order
    start = 0
    for first, last in _rtl_spans(parts):
        pieces.append((start, first, False))
        inner: list[tuple[int, int, bool]] = []
        k = first
        while k <= last:
            m = k + 1
            number = _direction(parts[k]) == "N"
            while m <= last and (_direction(parts[m]) == "N") == number:
                m += 1
            inner.append((k, m, not number))
            k = m
        pieces += reversed(inner)
        start = last + 1
    pieces.append((start, len(parts), False))

    runs: list[Run] = []
    for first, end, rtl in pieces:
        group: list[Run] = []
        for k in range(first, end):
            found = resolved[k]
            if found is None:
                group.append(Run(parts[k], bold, box=True))
                continue
            chars, weight, face = found
            if not chars:
                continue
            run = Run(chars, weight, face=face, face_index=cjk if faces.is_collection(face) else 0, rtl=rtl)
            if group and _same_font(group[-1], run):
                group[-1] = group[-1]._replace(text=group[-1].text + chars)
            else:
                group.append(run)
        runs += reversed(group) if rtl else group
    return tuple(runs)


def placeholders(text: str, *, bold: bool = False) -> tuple[str, ...]:
    """The clusters of ``text`` that are drawn as a placeholder box (the fonts have no glyph)."""
    return tuple(run.text for run in _plan(text, bold) if run.box)


@lru_cache(maxsize=16384)
def _run_width(run: Run, size: int) -> float:
    if run.box:
        return size * BOX_ADVANCE
    return _run_font(run, size).getlength(run.text, direction=_direction_of(run))


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


_SCALE: ContextVar[float] = ContextVar("render_text_scale", default=1.0)
_RECORDS = grounds.RECORDS


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
    records = _RECORDS.get()
    if records is not None:
        box = (pen, baseline - size * _cap_height(), pen + width, baseline)
        ink, ground = _opaque(fill), _ground_under(draw, box)
        image = getattr(draw, "_image", None)
        scale = _SCALE.get()
        where = (box[0] / scale, box[1] / scale, box[2] / scale, box[3] / scale)
        canvas = None if image is None else (image.width / scale, image.height / scale)
        records.append(Drawn(asked, text, size / scale, bold, role, max_width, ink, ground, where, canvas))
        if ground is None and image is not None and image.mode == "RGBA":
            grounds.note(image, records, len(records) - 1, box)
    for run in runs:
        if run.box:
            _draw_box(draw, pen, baseline, size, fill, run.bold)
        else:
            x, y = math.floor(pen), math.floor(baseline)
            mask, left, top = _mask(
                run.text, size, run.bold, _sixty_fourth(pen - x), _sixty_fourth(baseline - y), run
            )
            draw.bitmap((x + left, y + top), mask, fill=fill)
        pen += _run_width(run, size)
    return width


def _opaque(fill: Color) -> tuple[int, int, int] | None:
    """A text colour as RGB (None for a colour given otherwise than as a tuple)."""
    if isinstance(fill, tuple) and len(fill) >= 3:
        return (int(fill[0]), int(fill[1]), int(fill[2]))
    return None


def _ground_under(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]
) -> tuple[int, int, int] | None:
    """The colour that covers most of ``box`` on the image ``draw`` draws on (text not drawn yet);
    None when it is not opaque (a layer: ``render.grounds`` finds it when the layer is pasted) or
    the image is not in colour."""
    image = getattr(draw, "_image", None)
    color = None if image is None else grounds.most_common(image, box)
    if color is None or (len(color) > 3 and color[3] < grounds.OPAQUE):
        return None
    return (color[0], color[1], color[2])


def _sixty_fourth(fraction: float) -> float:
    """A pixel's fraction as FreeType positions glyphs (26.6 fixed point): the same mask as drawn
    at the exact position, and the same key for positions that only differ below it."""
    return round(fraction * 64) / 64


@lru_cache(maxsize=4096)
def _mask(
    text: str, size: int, bold: bool, dx: float, dy: float, run: Run | None = None
) -> tuple[Image.Image, int, int]:
    """The coverage of ``text`` drawn with its baseline's left end at (``dx``, ``dy``) of a pixel,
    and where the mask's corner lies from that pixel.

    Rasterising glyphs is most of what a label costs, and boards draw the same labels at the same
    places and sizes move after move: the masks are kept and pasted in the text's colour, which
    gives exactly the pixels Pillow's own text drawing gives there."""
    face, direction = (font(size, bold), None) if run is None else (_run_font(run, size), _direction_of(run))
    left, top, right, bottom = (int(v) for v in face.getbbox(text, anchor="ls", direction=direction))
    left, top = left - 1, top - 1
    mask = Image.new("L", (max(1, right - left + 2), max(1, bottom - top + 2)), 0)
    ImageDraw.Draw(mask).text(
        (dx - left, dy - top), text, font=face, fill=255, anchor="ls", direction=direction
    )
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
