"""A picture kept from one drawing to the next: a fixed ground with pieces composited on it in order,
where a new drawing re-lays only the places whose pieces changed.

A board after a move differs from the board before it in a few pieces (a token moved, a ring changed
hands, the last move's arrow and outlines moved on), yet copying the empty board and compositing every
piece again costs a whole board each time. ``Layers`` keeps the last picture and the pieces it was
made of; given the next list of pieces it finds those that came or went, and in each of their boxes
puts the ground back and composites, in order, every piece of the new list that reaches into the box.
Compositing is computed pixel by pixel, so each re-laid box is exactly what a whole drawing gives
there, and the picture equals a fresh one (a test holds it to that).

A piece is the same piece when it is the same image object at the same place: sprites come from
caches, so an unchanged piece is the very object drawn last time. The pieces drawn last are kept,
which keeps their objects (and so their ids) alive while they are compared.

Each game's board (the War Chest board, the Batailles battlefield, the Cry Havoc map) is kept this way: the
empty board, and the sprites, the arrow and Cry Havoc's region patches composited on it. The page then tells
the encoder (``page.info[render.png.UNCHANGED]``) that outside the sections around the board and the boxes the
board re-laid it is the page drawn with the board's previous picture at the same place; when the last page of
that size is that one, the encoder takes those bands without reading or comparing them. The kept boards are
per thread (``Shelf``: a kept picture is drawn over by the next drawing, so threads drawing at once, as tests
and benchmarks do, never share one). A worker keeps four boards of each game (a few MB each): a worker that
drew every game and table size holds about 25 MB more than without them. Arrows are kept by their ends
(``common.arrow``).
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter, OrderedDict
from collections.abc import Sequence
from typing import Generic, TypeVar

from PIL import Image

from render import grounds

K = TypeVar("K")
Box = tuple[int, int, int, int]
Key = tuple[int, int, int, int]
Piece = tuple[Image.Image, int, int] | tuple[Image.Image, int, int, Image.Image]
"""An RGBA sprite and where its top left corner goes (it may reach past the picture's edges),
composited over what lies under it; or, with a fourth item, an image pasted there through that mask
(``Image.paste(item, at, mask)``)."""


def centered(item: Image.Image, center: tuple[float, float]) -> Piece:
    """``item`` placed with its middle on ``center``, rounded as ``common.paste_centered`` does."""
    return (item, round(center[0] - item.width / 2), round(center[1] - item.height / 2))


def _key(piece: Piece) -> Key:
    return (id(piece[0]), piece[1], piece[2], id(piece[3]) if len(piece) > 3 else 0)


def _box(piece: Piece, size: tuple[int, int]) -> Box | None:
    """The part of the picture ``piece`` covers, or None when it lies outside."""
    item, x, y = piece[:3]
    box = (max(0, x), max(0, y), min(size[0], x + item.width), min(size[1], y + item.height))
    return box if box[0] < box[2] and box[1] < box[3] else None


def _common(keys: Sequence[Key], shared: Counter[Key]) -> list[Key]:
    """``keys`` in order, each kept as often as ``shared`` counts it."""
    left = Counter(shared)
    kept = []
    for key in keys:
        if left[key] > 0:
            left[key] -= 1
            kept.append(key)
    return kept


def _outer(boxes: list[Box]) -> list[Box]:
    """``boxes`` without those that lie inside another (of two equal boxes, the first is kept).

    A move's pieces mostly change within one another's boxes: a hex's outline holds its label and
    its token. Re-laying a box puts back its ground and every piece reaching into it, so a box
    inside another one re-laid gives nothing the outer one does not: its pixels are the same."""
    kept = []
    for n, box in enumerate(boxes):
        inside = any(
            m != n
            and other[0] <= box[0]
            and other[1] <= box[1]
            and other[2] >= box[2]
            and other[3] >= box[3]
            and (other != box or m < n)
            for m, other in enumerate(boxes)
        )
        if not inside:
            kept.append(box)
    return kept


_serials = itertools.count(1)


class Layers:
    """The last picture of ``ground`` with pieces on it (see the module's notes)."""

    def __init__(self, ground: Image.Image) -> None:
        self.serial = next(_serials)
        """Tells this object's pictures from another's (never reused, unlike ``id``)."""
        self.ground = ground
        self.canvas = ground.copy()
        self.pieces: list[Piece] = []
        self.changed: list[Box] = [(0, 0, ground.width, ground.height)]
        """The boxes the last ``draw`` re-laid: where its picture may differ from the one before."""
        self.version = 0
        """How many pictures were drawn: with ``serial``, the name of the last picture, for those who
        compare it with another (``render.png.Unchanged``)."""

    def draw(self, pieces: Sequence[Piece]) -> Image.Image:
        """The ground with ``pieces`` composited on it, first to last. The image returned is this
        object's own, drawn over by the next ``draw``: paste it or copy it, never change it."""
        pieces = list(pieces)
        size = self.ground.size
        old, new = [_key(p) for p in self.pieces], [_key(p) for p in pieces]
        shared = Counter(old) & Counter(new)
        recording = grounds.RECORDS.get() is not None
        if recording or _common(old, shared) != _common(new, shared):
            # Pieces that stay changed order, or a recorder wants every text's ground: all again.
            boxes: list[Box] = [(0, 0, size[0], size[1])]
        else:
            gone = Counter(old) - shared
            came = Counter(new) - shared
            boxes = []
            for piece_list, moved in ((self.pieces, gone), (pieces, came)):
                for piece in piece_list:
                    key = _key(piece)
                    if moved[key] > 0:
                        moved[key] -= 1
                        box = _box(piece, size)
                        if box is not None:
                            boxes.append(box)
            boxes = _outer(boxes)
        placed = [(piece, _box(piece, size)) for piece in pieces]
        for box in boxes:
            self.canvas.paste(self.ground.crop(box), box[:2])
            for piece, reach in placed:
                if reach is None:
                    continue
                left, top = max(box[0], reach[0]), max(box[1], reach[1])
                right, bottom = min(box[2], reach[2]), min(box[3], reach[3])
                if left < right and top < bottom:
                    item, x, y = piece[:3]
                    part = (left - x, top - y, right - x, bottom - y)
                    if len(piece) > 3:
                        mask = piece[3]
                        self.canvas.paste(item.crop(part), (left, top), mask.crop(part))
                    elif recording:  # the texts on the piece get what lies under them
                        grounds.paste(self.canvas, item, (left, top), part=item.crop(part), cut=part[:2])
                    else:
                        self.canvas.alpha_composite(item, (left, top), part)
        self.pieces = pieces
        self.changed = boxes
        self.version += 1
        return self.canvas


class Shelf(threading.local, Generic[K]):
    """Layers kept by key, at most ``limit``, the least recently used dropped first; one set per
    thread: a picture is drawn over by the next drawing, so two threads drawing at once (tests and
    benchmarks draw in threads; the bot's workers are processes) must never share one."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.kept: OrderedDict[K, Layers] = OrderedDict()

    def get(self, key: K, ground: Image.Image) -> Layers:
        """The layers kept under ``key`` (new ones when none are, or when their ground is not
        ``ground``: a ground drawn again starts afresh), kept as the last used."""
        layers = self.kept.pop(key, None)
        if layers is None or layers.ground is not ground:
            layers = Layers(ground)
        self.kept[key] = layers
        while len(self.kept) > self.limit:
            self.kept.popitem(last=False)
        return layers

    def clear(self) -> None:
        self.kept.clear()


Changed = list[tuple[int, int] | tuple[int, int, int, int]]
"""Row ranges (top, bottom) and boxes (top, bottom, left, right) of a page: ``render.png.Unchanged``."""


PageName = tuple[int, int, int, int]
"""A page's picture as ``render.png.Unchanged`` names it: the layers' serial, the picture's version,
where its top left corner sits (top, left)."""


def page_rows(
    layers: Layers,
    top: int,
    left: int,
    height: int,
    *,
    above: Changed | None = None,
    below: Changed | None = None,
) -> tuple[PageName, PageName, Changed]:
    """What a page ``height`` rows tall, holding ``layers``' last picture with its top left corner
    at (``left``, ``top``) and other sections above and below it, may tell its encoder
    (``render.png.Unchanged``): outside the rows above and below the picture and the boxes the
    picture re-laid, the page is the one drawn with the picture before, at the same place.

    A drawer that knows what changed above or below the picture since that page says so with
    ``above`` and ``below`` (the page's rows and boxes), instead of all those rows."""
    rows: Changed = [(0, top)] if above is None else list(above)
    rows += [(top + box[1], top + box[3], left + box[0], left + box[2]) for box in layers.changed]
    rows += [(top + layers.canvas.height, height)] if below is None else below
    return (layers.serial, layers.version, top, left), (layers.serial, layers.version - 1, top, left), rows
