"""What lies under a text drawn on a transparent layer, found when that layer is pasted.

Some labels are drawn on a layer of their own before it reaches the picture: a sprite painted large
and reduced (War Chest's hex labels, Cry Havoc's crystal values), a line squeezed to its room
(Batailles' characteristics), a heading strip stacked onto a page. Where such a text is drawn, the
recorder (``render.text.recording``) sees only transparency under it. So the layer remembers, for
each of its texts, the text's box and the layer's own colour there (``note``); a reduction carries
that to the reduced layer (``resized``); and each paste onto a picture (``paste``) works out the
colour actually under the text there, the layer's colour over the picture's, and records it. The
first paste fills in the text's own record; a layer pasted again (a cached label printed a second
time, over a highlight) adds a record per paste, so every place is measured.

Nothing here runs unless a recorder is listening: drawing for a post costs what it cost before.

The rule the records are held to is contrast: every text at 4.5:1 against what lies under it.
``common.sprite``'s reduction carries the boxes, and each ``grounds.paste`` (``paste_centered``,
``page.stack``) records the layer's colour over the picture's, one record per paste.
"""

from __future__ import annotations

import math
import weakref
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import NamedTuple, cast

from PIL import Image

Box = tuple[float, float, float, float]
RGBA = tuple[int, int, int, int]


class Drawn(NamedTuple):
    """One text as ``render.text.draw_text`` drew it (declared here, below the text module, since the
    grounds keep the records of a layer's texts until it is pasted): the text asked for, what was drawn
    (shortened or not), the font size in pixels of the finished image, the role of the label (None for
    plain text), and the width it had to fit in (None when it had no limit), in the pixels it was drawn
    at; its colour and the colour most of its box had just before, for the contrast checks. A text on a
    transparent layer gets its ground when the layer is pasted (below), one record per paste; None while
    it is not pasted yet. ``box`` is where its letters went (left, top of the capitals, right, baseline)
    and ``canvas`` the size of the picture or layer it was drawn on, both in the pixels of that picture at
    its finished size (a supersampled sprite's divided by its factor), so that a test sees a text reaching
    past the card, chip or panel it belongs to."""

    text: str
    shown: str
    size: float
    bold: bool
    role: str | None
    room: float | None
    ink: tuple[int, int, int] | None = None
    ground: tuple[int, int, int] | None = None
    box: tuple[float, float, float, float] | None = None
    canvas: tuple[float, float] | None = None


@dataclass(frozen=True)
class _Pending:
    """One text of a layer: where its record is, its box in the layer's pixels, and the layer's own
    colour under it before it was drawn."""

    records: list[Drawn]
    index: int
    box: Box
    under: RGBA


RECORDS: ContextVar[list[Drawn] | None] = ContextVar("render_text_records", default=None)
"""The records of the recorder listening (``render.text.recording``), None when none is."""

_LAYERS: dict[int, list[_Pending]] = {}
"""The texts of each layer still alive, by the layer's id (images are not hashable); an entry goes
when its image is collected."""


def _texts(image: Image.Image) -> list[_Pending] | None:
    return _LAYERS.get(id(image))


def _keep(image: Image.Image, texts: list[_Pending]) -> None:
    key = id(image)
    if key not in _LAYERS:
        weakref.finalize(image, _LAYERS.pop, key, None)
    _LAYERS[key] = texts


def note(image: Image.Image, records: list[Drawn], index: int, box: Box) -> None:
    """``records[index]`` is a text about to be drawn in ``box`` of ``image``, a layer whose colour
    there is not opaque: its ground is worked out when the layer is pasted."""
    under = most_common(image, box)
    if under is None:
        return
    found = _texts(image) or []
    _keep(image, [*found, _Pending(records, index, box, _rgba(under))])


def resized(source: Image.Image, result: Image.Image) -> Image.Image:
    """``result``, ``source`` resized, takes over its texts with their boxes scaled; returns it."""
    found = None if RECORDS.get() is None else _texts(source)
    if found:
        sx, sy = result.width / source.width, result.height / source.height
        _keep(
            result,
            [replace(p, box=(p.box[0] * sx, p.box[1] * sy, p.box[2] * sx, p.box[3] * sy)) for p in found],
        )
    return result


def paste(
    canvas: Image.Image,
    layer: Image.Image,
    xy: tuple[int, int],
    *,
    part: Image.Image | None = None,
    cut: tuple[int, int] = (0, 0),
) -> None:
    """Alpha-composite ``part`` (``layer`` itself, or the crop of it starting at ``cut``) onto
    ``canvas`` at ``xy``, first recording, for each text noted on ``layer``, what lies under it
    there: the layer's own colour over the canvas's."""
    listening = RECORDS.get()
    found = None if listening is None else _texts(layer)
    if found:
        mine = [p for p in found if p.records is listening]  # not a recording that has ended
        _resolve(canvas, mine, (xy[0] - cut[0], xy[1] - cut[1]))
    canvas.alpha_composite(layer if part is None else part, xy)


def _resolve(canvas: Image.Image, found: list[_Pending], origin: tuple[int, int]) -> None:
    """Record each text's ground on ``canvas``; a text over a part of ``canvas`` that is not opaque
    yet (a layer pasted onto another layer) passes to ``canvas``, to be measured when it is pasted."""
    carried = []
    for pending in found:
        left, top, right, bottom = pending.box
        box = (left + origin[0], top + origin[1], right + origin[0], bottom + origin[1])
        below = most_common(canvas, box)
        if below is None:
            continue
        under = _over(pending.under, _rgba(below))
        if under[3] < OPAQUE:
            carried.append(replace(pending, box=box, under=under))
            continue
        record = pending.records[pending.index]
        if record.ground is None:
            pending.records[pending.index] = record._replace(ground=under[:3])
        else:
            pending.records.append(record._replace(ground=under[:3]))
    if carried:
        _keep(canvas, [*(_texts(canvas) or []), *carried])


OPAQUE = 250
"""The alpha from which a colour counts as opaque (anti-aliased edges aside)."""


def _over(top: RGBA, bottom: RGBA) -> RGBA:
    """``top`` composited over ``bottom`` (Porter-Duff over, straight alpha)."""
    ta, ba = top[3] / 255, bottom[3] / 255
    alpha = ta + ba * (1 - ta)
    if alpha == 0:
        return (0, 0, 0, 0)
    mixed = [(top[i] * ta + bottom[i] * ba * (1 - ta)) / alpha for i in range(3)]
    return (round(mixed[0]), round(mixed[1]), round(mixed[2]), round(alpha * 255))


def _rgba(color: tuple[int, ...]) -> RGBA:
    return (color[0], color[1], color[2], color[3] if len(color) > 3 else 255)


def most_common(image: Image.Image, box: Box) -> tuple[int, ...] | None:
    """The colour covering most of ``box`` of ``image`` (RGB or RGBA); None outside it."""
    if image.mode not in ("RGB", "RGBA"):
        return None
    left, top = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
    right, bottom = min(image.width, math.ceil(box[2])), min(image.height, math.ceil(box[3]))
    if right <= left or bottom <= top:
        return None
    colors = image.crop((left, top, right, bottom)).getcolors((right - left) * (bottom - top))
    if not colors:
        return None
    _count, color = max(colors, key=lambda c: c[0])
    values = color if isinstance(color, tuple) else (color,)
    return tuple(int(cast(float, c)) for c in values)
