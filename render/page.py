"""The page every game's images are laid out on: sections stacked top to bottom on paper.

Each game draws its sections (status, board, strip, panels, legend) at the inner width; ``stack`` puts
them one under the other with the same margins and gaps, so the three games' images look alike.

Board images are read on phones first, where Discord shows a 1200-pixel image about 400 pixels wide:
the public image fits ``WIDTH`` x ``MAX_HEIGHT`` so that it opens whole, and every label a player needs
is at least ``legible()`` pixels tall, which is ``PHONE_LABEL_PX`` on that phone.

The board image holds the status (round, whose turn or the result, the last action), the board as large as the
page allows, and one compact chip per seat with the counts that decide a turn (War Chest: bag, hand, markers
left; Batailles: advantage, losses against the defeat threshold, troops in play; Cry Havoc: victory points,
hand, reserve). During a Cry Havoc battle the battle board comes right under the status, above the map. The
labels held to ``legible()`` (21 pixels, 7 on that phone) are hexes, zones and regions, stack heights, troop
characteristics, unit counts, crystal values and Trog strengths; the tests record every text drawn
(``render.text.recording``, at its size in the finished image, with where its letters went and the size of the
picture or sprite it was drawn on), hold each game's busiest views to that rule, and check the texts players
saw cut to their boxes (``tests/render/test_text_fits.py``).

The details image (``render_details``), for anyone who asks (a "Details" button, ``/game board
details:true``), draws what does not fit a phone's first look, each game's listed in its package; it reads
nothing of ``view["private"]``, so it is the same for every viewer.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence

from PIL import Image

from render import grounds
from render.common import PAPER
from render.layers import Layers

WIDTH = 1200
MAX_HEIGHT = 1500
"""What a phone shows whole without scrolling inside the image: the public images stay within it."""
MARGIN = 10
GAP = 10
PHONE_WIDTH = 400
PHONE_LABEL_PX = 7


def legible(width: int = WIDTH) -> int:
    """The smallest font size, in pixels, of a label that must stay ``PHONE_LABEL_PX`` tall when an
    image ``width`` pixels wide is shown ``PHONE_WIDTH`` pixels wide."""
    return math.ceil(PHONE_LABEL_PX * width / PHONE_WIDTH)


LABEL = legible() + 1
"""Font size of the labels players read on the board (hexes, zones, counts, characteristics)."""

Section = tuple[Image.Image, int, bool]
"""(image, left edge, opaque): opaque sections are pasted, which is much faster than blending them."""


def inner(width: int = WIDTH) -> int:
    """The width sections are drawn at on a page ``width`` pixels wide."""
    return width - 2 * MARGIN


INNER = inner()


def centered(image: Image.Image, width: int = WIDTH) -> int:
    """The left edge that centres ``image`` on a page ``width`` pixels wide."""
    return MARGIN + (inner(width) - image.width) // 2


def stack(
    sections: Sequence[Section],
    width: int = WIDTH,
    *,
    lead: bool = False,
    board: tuple[int, Layers] | None = None,
) -> Image.Image:
    """A page ``width`` pixels wide holding ``sections`` from the top, ``GAP`` apart.

    With ``lead`` the page has one more column of paper on the left, outside the picture: the
    encoder turns it into PNG's filter bytes (``render.png.encode``) instead of copying the page.

    With ``board`` (the index of a section that is the canvas of those layers, every section
    opaque), the page is the one this thread kept from its last stack of the same layout, drawn
    over: the other sections are pasted again, and the board only where it was re-laid when the
    page holds the board's previous picture. The page returned is drawn over by the next such
    stack: encode it at once, never keep it."""
    total = MARGIN + sum(image.height for image, _x, _o in sections) + GAP * (len(sections) - 1) + MARGIN
    shift = 1 if lead else 0
    opaque_only = all(opaque for _image, _x, opaque in sections)
    if board is not None and opaque_only:
        return _kept_stack(sections, (width + shift, total), shift, board)
    # A page of opaque sections only is an RGB image: pasting drops their alpha, and no page-wide
    # conversion is needed before the palette.
    if opaque_only:
        canvas = Image.new("RGB", (width + shift, total), PAPER)
    else:
        canvas = Image.new("RGBA", (width + shift, total), (*PAPER, 255))
    y = MARGIN
    for image, x, opaque in sections:
        if opaque:
            canvas.paste(image, (x + shift, y))
        else:
            grounds.paste(canvas, image, (x + shift, y))
        y += image.height + GAP
    return canvas


class _KeptPages(threading.local):
    """The last page of each layout, with the name of the board picture it holds; per thread, as
    the layers themselves (``render.layers.Shelf``)."""

    def __init__(self) -> None:
        self.pages: OrderedDict[Hashable, tuple[Image.Image, tuple[int, int]]] = OrderedDict()


_kept = _KeptPages()
PAGES_KEPT = 4
"""Layouts whose last page is kept: a few MB each."""


def _kept_stack(
    sections: Sequence[Section], size: tuple[int, int], shift: int, board: tuple[int, Layers]
) -> Image.Image:
    """``stack`` of opaque ``sections`` on the kept page of their layout (see ``stack``)."""
    index, layers = board
    layout = (size, tuple((image.size, x) for image, x, _o in sections))
    found = _kept.pages.pop(layout, None)
    canvas = Image.new("RGB", size, PAPER) if found is None else found[0]
    follows = found is not None and found[1] == (layers.serial, layers.version - 1)
    y = MARGIN
    for n, (image, x, _opaque) in enumerate(sections):
        if n == index and follows:
            for box in layers.changed:
                canvas.paste(image.crop(box), (x + shift + box[0], y + box[1]))
        else:
            canvas.paste(image, (x + shift, y))
        y += image.height + GAP
    _kept.pages[layout] = (canvas, (layers.serial, layers.version))
    while len(_kept.pages) > PAGES_KEPT:
        _kept.pages.popitem(last=False)
    return canvas
