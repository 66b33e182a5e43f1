"""The Cry Havoc images: the map after every move, the players' details on request, the viewer's hand.

The public image is what a player looks at first, sized for a phone: the status (round of five,
phase, whose action and what is pending, the result, the last action), the battle board while a
battle is being resolved (what the players decide on then), the map across the page, and one chip
per player (victory points, hand, reserve). The tracks (score, initiative, upcoming initiative,
revealed events, pools), the players' panels (faction, skills, structures, prisoners) and the legend
are in ``render_details``. Hands never appear on either: only ``view["private"]`` holds cards and
only ``render_private`` reads it.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw

import i18n
from engine.cryhavoc.view import CryHavocView
from render import palettes, png
from render.catalog import tr
from render.common import PAPER, to_png
from render.cryhavoc import hand
from render.cryhavoc.board import kept_map
from render.cryhavoc.panels import battle_board, legend, round_text, seat_panel, status, strip, tracks
from render.layers import Layers, page_rows
from render.page import GAP, INNER, MARGIN, WIDTH, Section, centered, stack
from render.panels import heading

__all__ = ["WIDTH", "compose", "public_sections", "render", "render_details", "render_private"]


def render(view: CryHavocView, *, names: Mapping[str, str], locale: str) -> bytes:
    """The public board image of a Cry Havoc view, as PNG bytes."""
    return to_png(compose(view, names=names, locale=locale, lead=True), palettes.load("cryhavoc"), lead=True)


def compose(view: CryHavocView, *, names: Mapping[str, str], locale: str, lead: bool = False) -> Image.Image:
    """The public image before encoding (``lead``: with the encoder's extra column, on the page kept
    for the encoder, drawn over by the next such page; see ``stack``)."""
    sections, kept = _sections(view, names, locale)
    board = ([n for n, _s in sections].index("map"), kept) if lead else None
    page = stack([section for _name, section in sections], lead=lead, board=board)
    # Outside the sections around the map and what the map re-laid, the page is the one drawn with
    # the map's previous picture at the same place: the encoder need not even read those rows.
    above = [image for _name, (image, _x, _o) in sections[: [n for n, _s in sections].index("map")]]
    top = MARGIN + sum(image.height + GAP for image in above)
    left = centered(kept.canvas) + (1 if lead else 0)
    page.info[png.UNCHANGED] = page_rows(kept, top, left, page.height)
    return page


def public_sections(
    view: CryHavocView, *, names: Mapping[str, str], locale: str
) -> list[tuple[str, Section]]:
    """The public image's sections from the top, each with its name: the status, the battle board
    while a battle is being resolved, the map, the players' strip."""
    return _sections(view, names, locale)[0]


def _sections(
    view: CryHavocView, names: Mapping[str, str], locale: str
) -> tuple[list[tuple[str, Section]], Layers]:
    """``public_sections``, and the kept map they hold (``board.kept_map``)."""
    locale = i18n.normalize(locale)
    # Every section is opaque on the page colour: pasting is enough.
    sections: list[tuple[str, Section]] = [("status", (status(view, names, locale, INNER), MARGIN, True))]
    if view.get("battle"):
        sections.append(("battle", (battle_board(view, names, locale, INNER), MARGIN, True)))
    kept = kept_map(view, locale)
    sections.append(("map", (kept.canvas, centered(kept.canvas), True)))
    sections.append(("strip", (strip(view, names, locale, INNER), MARGIN, True)))
    return sections, kept


def render_details(view: CryHavocView, *, names: Mapping[str, str], locale: str) -> bytes:
    """The tracks, every player's panel and the legend, as PNG bytes (public: no hand is shown)."""
    locale = i18n.normalize(locale)
    title = Image.new("RGBA", (INNER, 44), (*PAPER, 255))
    heading(ImageDraw.Draw(title), tr("render.ch.title", locale), round_text(view, locale))
    sections: list[Section] = [(title, MARGIN, True), (tracks(view, names, locale, INNER), MARGIN, True)]
    seats = view.get("seats") or []
    panel_w = (INNER - GAP) // 2
    for first in range(0, len(seats), 2):
        row = [seat_panel(view, s, names, locale, panel_w) for s in range(first, min(first + 2, len(seats)))]
        band = Image.new("RGBA", (INNER, max(p.height for p in row)), (*PAPER, 255))
        for n, panel in enumerate(row):
            band.paste(panel, (n * (panel_w + GAP), 0))
        sections.append((band, MARGIN, True))
    sections.append((legend(locale, INNER), MARGIN, True))
    return to_png(stack(sections))


def render_private(view: CryHavocView, *, names: Mapping[str, str], locale: str) -> bytes:
    """The viewer's hand (and the two drawn cards of a draw-two-keep-one), shown to that player alone."""
    return hand.render_private(view, names=names, locale=i18n.normalize(locale))
