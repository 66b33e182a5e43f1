"""The Batailles images: the battlefield after every move, the armies' details on request, and a
notice for the private image.

The public image is what a player looks at first, sized for a phone: the status (round, phase, who
acts and how many activations remain, the troops acting, attack dice, the result, the last action),
the battlefield as large as the page allows, and one chip per army (advantage, losses against the
defeat threshold, troops in play). The rosters with every troop's characteristics and the legend are
in ``render_details``. Batailles hides nothing, so the private image only says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from PIL import Image, ImageDraw

import i18n
from engine.batailles.view import BataillesView
from render import palettes, png
from render.alt import board_words, sentence
from render.batailles.board import kept_battlefield
from render.batailles.field import grid_for
from render.batailles.panels import (
    glance,
    legend,
    panel_height,
    round_text,
    seat_panel,
    stat_key,
    status,
    strip,
)
from render.batailles.style import stat_letters
from render.catalog import tr
from render.common import to_png
from render.layers import page_rows
from render.page import GAP, INNER, MARGIN, WIDTH, Section, centered, stack
from render.panels import heading, notice

__all__ = ["WIDTH", "compose", "render", "render_details", "render_private"]


def render(view: BataillesView, *, names: Mapping[str, str], locale: str) -> bytes:
    """The public battlefield image of a Batailles view, as PNG bytes."""
    return to_png(compose(view, names=names, locale=locale, lead=True), palettes.load("batailles"), lead=True)


def compose(view: BataillesView, *, names: Mapping[str, str], locale: str, lead: bool = False) -> Image.Image:
    """The public image before encoding (``lead``: with the encoder's extra column, on the page kept
    for the encoder, drawn over by the next such page; see ``stack``)."""
    locale = i18n.normalize(locale)
    board = view["board"]
    grid = grid_for(int(board["width"]), int(board["height"]), INNER)
    kept = kept_battlefield(view, grid, tuple(stat_letters(locale)))
    field = kept.canvas
    top = status(view, names, locale, INNER)
    sections: list[Section] = [
        (top, MARGIN, True),
        (field, centered(field), True),
        (stat_key(locale, INNER), MARGIN, True),
        (strip(view, names, locale, INNER), MARGIN, True),
    ]
    page = stack(sections, lead=lead, board=(1, kept) if lead else None)
    # Outside the status, what follows the field and what the field re-laid, the page is the one
    # drawn with the field's previous picture at the same place: the encoder need not read those rows.
    at = (MARGIN + top.height + GAP, centered(field) + (1 if lead else 0))
    page.info[png.UNCHANGED] = page_rows(kept, *at, page.height)
    return page


def render_details(view: BataillesView, *, names: Mapping[str, str], locale: str) -> bytes:
    """Both armies' rosters (every troop with its zone and characteristics, advantage, losses,
    turns) and the legend, as PNG bytes."""
    locale = i18n.normalize(locale)
    title = Image.new("RGBA", (INNER, 44), (0, 0, 0, 0))
    heading(ImageDraw.Draw(title), tr("render.bt.title", locale), round_text(view, locale))
    panel_w = (INNER - GAP) // 2
    height = panel_height(view)
    row = Image.new("RGBA", (INNER, height), (0, 0, 0, 0))
    for seat in (0, 1):
        row.alpha_composite(
            seat_panel(view, seat, names, locale, panel_w, height), (seat * (panel_w + GAP), 0)
        )
    sections: list[Section] = [
        (title, MARGIN, False),
        (row, MARGIN, False),
        (legend(locale, INNER), MARGIN, True),
    ]
    return to_png(stack(sections))


def render_private(view: BataillesView, *, names: Mapping[str, str], locale: str) -> bytes:
    """While both armies deploy, the battlefield as the viewer sees it: their own troops where they
    placed them, the other army hidden (the public image hides both). Otherwise a short notice:
    Batailles hides nothing else, the public image shows everything."""
    locale = i18n.normalize(locale)
    if _deployment(view) is not None:
        return to_png(compose(view, names=names, locale=locale))
    return to_png(notice(tr("render.bt.private.title", locale), tr("render.bt.private.text", locale)))


def _deployment(view: BataillesView) -> list[str] | None:
    """The viewer's own troops placed so far, while both armies deploy (else None)."""
    private = view.get("private")
    return private.get("deployment") if private else None


def private_words(shown: Mapping[str, object], names: Mapping[str, str], locale: str) -> str:
    """The alt text of the private image: the viewer's own deployment as its board says it, or the
    notice that nothing is hidden. ``render.describe`` hands every game's view alike, picked by its
    ``game``: this one is Batailles'."""
    view = cast("BataillesView", shown)
    if _deployment(view) is not None:
        return board_words(glance(view, names, locale), locale)
    return f"{sentence(tr('render.bt.private.title', locale))} {tr('render.bt.private.text', locale)}"
