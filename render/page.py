"""The page every game's public image is laid out on: sections stacked top to bottom on paper.

Each game draws its sections (status, board, panels, legend) at the inner width; ``stack`` puts them
one under the other with the same margins and gaps, so the three games' images look alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from render.common import PAPER

MARGIN = 20
GAP = 14

Section = tuple[Image.Image, int, bool]
"""(image, left edge, opaque): opaque sections are pasted, which is much faster than blending them."""


def inner(width: int) -> int:
    """The width sections are drawn at on a page ``width`` pixels wide."""
    return width - 2 * MARGIN


def centered(image: Image.Image, width: int) -> int:
    """The left edge that centres ``image`` on a page ``width`` pixels wide."""
    return MARGIN + (inner(width) - image.width) // 2


def stack(sections: Sequence[Section], width: int) -> Image.Image:
    """A page ``width`` pixels wide holding ``sections`` from the top, ``GAP`` apart."""
    total = MARGIN + sum(image.height for image, _x, _o in sections) + GAP * (len(sections) - 1) + MARGIN
    canvas = Image.new("RGBA", (width, total), (*PAPER, 255))
    y = MARGIN
    for image, x, opaque in sections:
        if opaque:
            canvas.paste(image, (x, y))
        else:
            canvas.alpha_composite(image, (x, y))
        y += image.height + GAP
    return canvas
