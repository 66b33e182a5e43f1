"""Each game's fixed palette of at most 256 colours, kept in ``render/<game>/palette.txt``.

A board is a drawing: a few dozen flat colours (paper, terrains, seat colours, ink) and the
anti-aliased edges between them. Quantising every board of a game to one fixed palette, rather than
to a palette chosen per image, is fast (a lookup instead of a search of the image's colours) and
gives the same indices for the same picture from one move to the next, which lets ``render.png``
reuse the bands that did not change.

``build`` makes a palette from reference boards: the colours that cover a visible share of them
first and exactly, then the most used colours of an octree quantisation of all of them for the
edges, each kept only if no closer entry already stands for it. ``make regen-golden`` rebuilds the
files from seeded games of each game (``tests/render/test_palettes.py``).

Each pixel goes to its nearest entry without dithering, which would speckle flat fills; paper is entry 0. The
reference boards are the golden views and seeded games of every table size (``make regen-golden`` rebuilds the
palettes before the golden images), and a test holds boards of fresh seeds to them: flat colours within six
levels, edges within a shade on average. Palette PNGs take about a third of the bytes of an RGB PNG. Details
and private images, drawn on request, keep a palette of their own (exact when they have at most 256 colours,
Pillow's fast octree otherwise).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import cast

from PIL import Image

from render.common import PAPER, RGB, rgb_colours

ROOT = Path(__file__).resolve().parent
SIZE = 256
EXACT_SHARE = 0.0005
"""A colour covering at least this share of one reference board is kept exactly."""
MAX_EXACT = 160
"""At most this many exact colours, leaving the rest of the palette to the edges between them."""
CLOSEST = 48
"""Squared distance under which an edge colour adds nothing to an entry already in the palette."""


def path(game: str) -> Path:
    return ROOT / game / "palette.txt"


def read(game: str) -> list[RGB]:
    """The colours of ``game``'s palette file, in order."""
    colours = []
    for line in path(game).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            value = int(line, 16)
            colours.append(((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF))
    return colours


def write(game: str, colours: Sequence[RGB]) -> None:
    lines = [f"# {game}: the fixed board palette, rebuilt by `make regen-golden`; one colour a line."]
    lines += [f"{r:02x}{g:02x}{b:02x}" for r, g, b in colours]
    path(game).write_text("\n".join(lines) + "\n", encoding="utf-8")


def image_of(colours: Sequence[RGB]) -> Image.Image:
    """A one-pixel palette image holding ``colours``, as ``Image.quantize`` takes it.

    Unused entries repeat the last colour: an entry of black left over would draw near-black pixels
    to itself."""
    padded = list(colours) + [colours[-1]] * (SIZE - len(colours))
    holder = Image.new("P", (1, 1))
    holder.putpalette([channel for colour in padded for channel in colour])
    return holder


@cache
def load(game: str) -> Image.Image:
    """``game``'s palette as a palette image, read once per process."""
    return image_of(read(game))


def _distance(a: RGB, b: RGB) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


def build(images: Sequence[Image.Image]) -> list[RGB]:
    """A palette for boards like ``images``, deterministic for the same images."""
    rgbs = [image.convert("RGB") for image in images]
    counts: dict[RGB, int] = {}
    flat: set[RGB] = set()
    for rgb in rgbs:
        for count, colour in rgb_colours(rgb, 1 << 24) or []:
            counts[colour] = counts.get(colour, 0) + count
            if count >= EXACT_SHARE * rgb.width * rgb.height:
                flat.add(colour)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    # Paper first: the page's extra column of paper is PNG's filter bytes, which must be index 0.
    others = [colour for colour, _count in ranked if colour in flat and colour != PAPER]
    exact = [PAPER, *others[: MAX_EXACT - 1]]

    mosaic = Image.new("RGB", (max(rgb.width for rgb in rgbs), sum(rgb.height for rgb in rgbs)))
    y = 0
    for rgb in rgbs:
        mosaic.paste(rgb, (0, y))
        y += rgb.height
    octree = mosaic.quantize(SIZE, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    entries = octree.getpalette() or []
    # A palette image's colours are its indices.
    indices = cast("list[tuple[int, int]]", octree.getcolors(SIZE) or [])
    used = sorted(indices, key=lambda item: (-item[0], item[1]))
    edges = [(entries[3 * i], entries[3 * i + 1], entries[3 * i + 2]) for _count, i in used]

    colours = list(exact)
    for colour in edges:
        if len(colours) >= SIZE:
            break
        if all(_distance(colour, kept) > CLOSEST for kept in colours):
            colours.append(colour)
    return _keep_exact(colours, exact)


def _keep_exact(colours: list[RGB], exact: list[RGB]) -> list[RGB]:
    """``colours`` without the entries that would take an exact colour's pixels.

    Pillow looks colours up in a coarse cache of the palette, which may give a near entry rather
    than an identical one; an edge entry that wins over an exact colour is dropped (and of two exact
    colours that fall together, the less used one), until every exact colour maps to itself."""
    while True:
        probe = Image.new("RGB", (len(exact), 1))
        probe.putdata(exact)
        raw = probe.quantize(palette=image_of(colours), dither=Image.Dither.NONE).convert("RGB").tobytes()
        mapped = [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]
        wrong = [(want, got) for want, got in zip(exact, mapped, strict=True) if want != got]
        if not wrong:
            return colours
        want, got = wrong[0]
        if got in exact:
            loser = max(want, got, key=exact.index)
            exact = [colour for colour in exact if colour != loser]
            colours = [colour for colour in colours if colour != loser]
        else:
            colours = [colour for colour in colours if colour != got]
