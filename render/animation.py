"""A whole game as one animated image: one frame per handover, a hold on the final position.

Each frame is the public board as ``render.render`` draws it, made narrower for a phone; the result is
a GIF, the animated format every Discord client plays. What keeps it small and quick to make:

- **One palette for the whole game.** Every board of a game is already drawn in that game's fixed
  palette (``render.palettes``); the narrowed frames are looked up in the same palette (no palette
  chosen per frame, which is slow and makes every pixel differ from one frame to the next), and the
  GIF carries it once, as its global colour table.
- **Only what changed.** A move changes a few places of the board. Each frame after the first stores
  the rectangle around the pixels that differ from the frame before, and inside it the pixels that
  did not change are transparent (index ``TRANSPARENT``), which the GIF's compression reduces to
  almost nothing. A frame the same as the one before is a single transparent pixel: it is kept, with
  its own delay, so the replay still has one frame per handover.

The file must stay under ``limit`` bytes: frames are made narrower, then fewer (evenly, keeping the
first and the last), until it fits.

Frames are half the board's width, and a whole game is well under 2 MB.
"""

from __future__ import annotations

import io
import math
import struct
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeVar, cast

from PIL import GifImagePlugin, Image, ImageChops

FRAME_MS = 900
FINAL_MS = 4000
WIDTHS = (600, 480, 400)
"""Frame widths tried in turn: half the 1200 pixels of a board (each frame pixel the average of four
board pixels), then narrower for a very long game."""
LIMIT = 2 * 1024 * 1024
"""A whole game's replay fits in this, at the first width for a game of a hundred handovers."""
TRANSPARENT = 255
"""The palette index left free for the unchanged pixels of a frame (no game palette fills it)."""
COLOURS = TRANSPARENT
"""At most this many palette entries are used for pixels."""
SAMPLE, SAMPLE_WIDTH = 16, 160
"""Boards (and their width) an adaptive palette is made from, for a game without a fixed one."""


def _open(png: bytes) -> Image.Image:
    board = Image.open(io.BytesIO(png))
    board.load()
    return board


def _palette(boards: Sequence[bytes], game: str | None) -> list[tuple[int, int, int]]:
    """The replay's colours: the game's fixed board palette, or (a game without one, a test's) an
    adaptive palette of a sample of its boards, side by side."""
    from render import palettes

    if game is not None and palettes.path(game).is_file():
        return palettes.read(game)[:COLOURS]
    sample = [_narrow(_open(png), SAMPLE_WIDTH) for png in _thin(boards, SAMPLE)]
    mosaic = Image.new("RGB", (sum(s.width for s in sample), max(s.height for s in sample)))
    x = 0
    for small in sample:
        mosaic.paste(small, (x, 0))
        x += small.width
    adaptive = mosaic.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = adaptive.getpalette() or [0, 0, 0]
    # A palette image's colours are its indices.
    indices = cast("list[tuple[int, int]]", adaptive.getcolors(256) or [(1, 0)])
    used = sorted(index for _count, index in indices)
    return [(flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]) for i in used]


def _scaled(size: tuple[int, int], scale: float) -> tuple[int, int]:
    return max(1, math.ceil(size[0] * scale - 1e-9)), max(1, math.ceil(size[1] * scale - 1e-9))


def _narrow(board: Image.Image, width: int, widest: int | None = None) -> Image.Image:
    """``board`` as RGB, scaled as a board ``widest`` pixels wide (default: its own width) is to
    ``width``: each pixel the average of the board's pixels it covers (a whole-number reduction
    when the widths allow it, which is the quickest)."""
    rgb = board.convert("RGB")
    widest = widest or rgb.width
    if width >= widest:
        return rgb
    if widest % width == 0:
        return rgb.reduce(widest // width)
    return rgb.resize(_scaled(rgb.size, width / widest), Image.Resampling.BOX)


def _frames(boards: Sequence[bytes], width: int) -> Iterator[Image.Image]:
    """Each board narrowed, on a canvas of the largest one's size: a board may be taller than the
    first (a result panel at the end), and a GIF's frames must fit the size its header gives. The
    margin added below or beside a smaller board is its own paper (its top-left pixel)."""
    sizes = []
    for png in boards:
        with Image.open(io.BytesIO(png)) as board:  # the header only: nothing is decoded yet
            sizes.append(board.size)
    widest = max(w for w, _h in sizes)
    scale = min(1.0, width / widest)
    canvas = (max(_scaled(size, scale)[0] for size in sizes), max(_scaled(size, scale)[1] for size in sizes))
    for png in boards:
        small = _narrow(_open(png), width, widest)
        if small.size == canvas:
            yield small
            continue
        framed = Image.new("RGB", canvas, small.getpixel((0, 0)))
        framed.paste(small, (0, 0))
        yield framed


class _Indexer:
    """Looks RGB pixels up in the replay's palette: every frame's indices, whatever the frame."""

    def __init__(self, colours: Sequence[tuple[int, int, int]]) -> None:
        self.count = len(colours)
        padded = list(colours) + [colours[-1]] * (256 - len(colours))
        self.image = Image.new("P", (1, 1))
        self.image.putpalette([channel for colour in padded for channel in colour])
        # an index past the real colours (the padding repeats the last one) becomes the last colour,
        # so that no pixel ever takes the transparent index
        self.fold = bytes(min(i, self.count - 1) for i in range(256))
        self.flat = [channel for colour in padded for channel in colour]

    def indices(self, rgb: Image.Image) -> Image.Image:
        """``rgb``'s palette indices, as an ``L`` image (one byte a pixel)."""
        raw = rgb.quantize(palette=self.image, dither=Image.Dither.NONE).tobytes()
        return Image.frombytes("L", rgb.size, raw.translate(self.fold))


def _frame_bytes(indices: Image.Image, offset: tuple[int, int], duration: int, transparent: bool) -> bytes:
    """One frame of the GIF: its graphic control (delay, drawn over the frame before, transparency)
    and its image, compressed by Pillow's GIF encoder."""
    frame = indices.copy()
    frame.putpalette([0, 0, 0] * 256)  # the global table holds the colours; this one is not written
    params: dict[str, int] = {"duration": duration, "disposal": 1}
    if transparent:
        params["transparency"] = TRANSPARENT
    return b"".join(GifImagePlugin.getdata(frame, offset, **params))


def _header(size: tuple[int, int], flat: list[int]) -> bytes:
    """The GIF's header: its size, the game's 256-entry palette, and the loop forever extension."""
    screen = struct.pack("<HHBBB", size[0], size[1], 0xF7, 0, 0)  # global table of 2^(7+1) entries
    loop = b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\x00"
    return b"GIF89a" + screen + bytes(flat[:768]) + loop


def encode(boards: Sequence[bytes], width: int, game: str | None = None) -> bytes:
    """The GIF of ``boards`` (images, every one kept, in order; the last held), ``width`` pixels wide,
    in ``game``'s palette."""
    indexer = _Indexer(_palette(boards, game))
    parts: list[bytes] = []
    shown: Image.Image | None = None  # the picture on screen so far, as indices
    before: Image.Image | None = None  # the last frame's RGB pixels
    for n, rgb in enumerate(_frames(boards, width)):
        duration = FINAL_MS if n == len(boards) - 1 else FRAME_MS
        if shown is None or before is None:
            shown = indexer.indices(rgb)
            parts.append(_header(rgb.size, indexer.flat))
            parts.append(_frame_bytes(shown, (0, 0), duration, transparent=False))
            before = rgb
            continue
        box = ImageChops.difference(before, rgb).getbbox()
        before = rgb
        if box is None:  # the same picture: one transparent pixel holds it for this frame's delay
            parts.append(
                _frame_bytes(Image.new("L", (1, 1), TRANSPARENT), (0, 0), duration, transparent=True)
            )
            continue
        changed = indexer.indices(rgb.crop(box))
        same = ImageChops.difference(changed, shown.crop(box)).point([255] + [0] * 255)
        shown.paste(changed, box[:2])
        changed.paste(TRANSPARENT, mask=same)
        parts.append(_frame_bytes(changed, box[:2], duration, transparent=True))
    parts.append(b";")
    return b"".join(parts)


T = TypeVar("T")


def _thin(items: Sequence[T], count: int) -> list[T]:
    """``count`` items spread evenly over ``items``, the first and the last always kept."""
    if count >= len(items):
        return list(items)
    if count < 2:
        return [items[-1]]
    step = (len(items) - 1) / (count - 1)
    return [items[round(i * step)] for i in range(count)]


def animate(
    views: Sequence[Mapping[str, object]],
    *,
    names: dict[str, str],
    locale: str,
    draw: Callable[..., bytes] | None = None,
    limit: int = LIMIT,
) -> bytes:
    """The GIF of ``views`` (in order; the last is held), at most ``limit`` bytes when it can be."""
    if not views:
        raise ValueError("a replay needs at least one position")
    if draw is None:
        from render import render

        draw = render
    boards = [draw(view, names=names, locale=locale) for view in views]
    game = views[0].get("game")
    count = len(boards)
    while True:
        for width in WIDTHS:
            data = encode(_thin(boards, count), width, game if isinstance(game, str) else None)
            if len(data) <= limit:
                return data
        if count <= 2:
            return data
        count = max(2, count * 2 // 3)
