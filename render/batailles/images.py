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

from PIL import Image

import i18n
from render.batailles.board import draw_battlefield
from render.batailles.field import grid_for
from render.batailles.panels import legend, panel_height, seat_panel, status
from render.catalog import tr
from render.common import to_png
from render.page import GAP, MARGIN, Section, centered, inner, stack
from render.panels import notice

WIDTH = 1200
INNER = inner(WIDTH)


def render(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """The public battlefield image of a Batailles view, as PNG bytes."""
    return to_png(compose(view, names=names, locale=locale))


def compose(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> Image.Image:
    """The public image before encoding (PNG encoding takes about half the time of a render)."""
    locale = i18n.normalize(locale)
    board = view["board"]
    grid = grid_for(int(board["width"]), int(board["height"]), INNER)
    sections: list[Section] = [(status(view, names, locale, INNER), MARGIN, False)]
    field = draw_battlefield(view, grid)
    sections.append((field, centered(field, WIDTH), True))
    panel_w = (INNER - GAP) // 2
    height = panel_height(view)
    row = Image.new("RGBA", (INNER, height), (0, 0, 0, 0))
    for seat in (0, 1):
        row.alpha_composite(
            seat_panel(view, seat, names, locale, panel_w, height), (seat * (panel_w + GAP), 0)
        )
    sections.append((row, MARGIN, False))
    sections.append((legend(locale, INNER), MARGIN, True))
    return stack(sections, WIDTH)


def render_private(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """A short notice: Batailles has no hidden information, the public image shows everything."""
    locale = i18n.normalize(locale)
    return to_png(notice(tr("render.bt.private.title", locale), tr("render.bt.private.text", locale)))
