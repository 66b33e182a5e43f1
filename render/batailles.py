"""The Batailles images: the public battlefield after every move, and a notice for the private image.

Layout, top to bottom, 1200 pixels wide so that a phone shows it at a readable size: the status
(round, phase, who acts and how many activations remain, the troop acting, attack dice, the result,
the last action), the battlefield, the two armies' panels side by side (seat 0 on the left, the army
deployed at the bottom of the battlefield), and a legend. Batailles hides nothing, so the private
image only says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

import i18n
from render.bt_board import draw_battlefield
from render.bt_field import grid_for
from render.bt_panels import legend, panel_height, seat_panel, status
from render.bt_style import tr
from render.common import INK, MUTED, PANEL, PAPER, to_png
from render.text import draw_text, fit

WIDTH = 1200
MARGIN = 20
GAP = 14
INNER = WIDTH - 2 * MARGIN


def render(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """The public battlefield image of a Batailles view, as PNG bytes."""
    return to_png(compose(view, names=names, locale=locale))


def compose(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> Image.Image:
    """The public image before encoding (PNG encoding takes about half the time of a render)."""
    locale = i18n.normalize(locale)
    board = view["board"]
    grid = grid_for(int(board["width"]), int(board["height"]), INNER)
    # (image, x, opaque): opaque layers are pasted, which is much faster than blending them.
    sections: list[tuple[Image.Image, int, bool]] = [(status(view, names, locale, INNER), MARGIN, False)]
    field = draw_battlefield(view, grid)
    sections.append((field, MARGIN + (INNER - field.width) // 2, True))
    panel_w = (INNER - GAP) // 2
    height = panel_height(view)
    row = Image.new("RGBA", (INNER, height), (0, 0, 0, 0))
    for seat in (0, 1):
        row.alpha_composite(
            seat_panel(view, seat, names, locale, panel_w, height), (seat * (panel_w + GAP), 0)
        )
    sections.append((row, MARGIN, False))
    sections.append((legend(locale, INNER), MARGIN, True))

    total = MARGIN + sum(image.height for image, _x, _o in sections) + GAP * (len(sections) - 1) + MARGIN
    canvas = Image.new("RGBA", (WIDTH, total), (*PAPER, 255))
    y = MARGIN
    for image, x, opaque in sections:
        if opaque:
            canvas.paste(image, (x, y))
        else:
            canvas.alpha_composite(image, (x, y))
        y += image.height + GAP
    return canvas


def render_private(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """A short notice: Batailles has no hidden information, the public image shows everything."""
    locale = i18n.normalize(locale)
    width, height = 900, 110
    img = Image.new("RGBA", (width, height), (*PANEL, 255))
    draw = ImageDraw.Draw(img)
    draw_text(
        draw,
        (20, 36),
        fit(tr("render.bt.private.title", locale), 28, width - 40),
        28,
        INK,
        anchor="lc",
        bold=True,
    )
    draw_text(
        draw, (20, 78), fit(tr("render.bt.private.text", locale), 22, width - 40), 22, MUTED, anchor="lc"
    )
    return to_png(img)
