"""The page every game's images are laid out on: sections stacked top to bottom on paper.

Each game draws its sections (status, board, strip, panels, legend) at the inner width; ``stack`` puts
them one under the other with the same margins and gaps, so the three games' images look alike.

Board images are read on phones first, where Discord shows a 1200-pixel image about 400 pixels wide:
the public image fits ``WIDTH`` x ``MAX_HEIGHT`` so that it opens whole, and every label a player needs
is at least ``legible()`` pixels tall, which is ``PHONE_LABEL_PX`` on that phone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image

from render import grounds
from render.common import PAPER

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


def stack(sections: Sequence[Section], width: int = WIDTH, *, lead: bool = False) -> Image.Image:
    """A page ``width`` pixels wide holding ``sections`` from the top, ``GAP`` apart.

    With ``lead`` the page has one more column of paper on the left, outside the picture: the
    encoder turns it into PNG's filter bytes (``render.png.encode``) instead of copying the page."""
    total = MARGIN + sum(image.height for image, _x, _o in sections) + GAP * (len(sections) - 1) + MARGIN
    shift = 1 if lead else 0
    # A page of opaque sections only is an RGB image: pasting drops their alpha, and no page-wide
    # conversion is needed before the palette.
    if all(opaque for _image, _x, opaque in sections):
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
