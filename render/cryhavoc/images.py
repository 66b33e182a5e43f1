"""The Cry Havoc images: the public map after every move, and the viewer's hand.

Layout of the public image, top to bottom, 1200 pixels wide so that a phone shows it at a readable
size: the status (round of five, phase, whose action and what is pending, the result, the last
action), the tracks (score with event stacks, initiative, upcoming initiative, revealed events), the
map, the battle board while a battle is being resolved, the player panels two by two, and a legend.
Hands never appear on it: only ``view["private"]`` holds cards and only ``render_private`` reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

import i18n
from render.common import PAPER, to_png
from render.cryhavoc import hand
from render.cryhavoc.board import draw_map
from render.cryhavoc.panels import battle_board, legend, seat_panel, status, tracks
from render.page import GAP, MARGIN, Section, centered, inner, stack

WIDTH = 1200
INNER = inner(WIDTH)


def render(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """The public board image of a Cry Havoc view, as PNG bytes."""
    return to_png(compose(view, names=names, locale=locale))


def compose(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> Image.Image:
    """The public image before encoding (PNG encoding takes about half the time of a render)."""
    locale = i18n.normalize(locale)
    # Every section is opaque on the page colour: pasting is enough.
    sections: list[Section] = [
        (status(view, names, locale, INNER), MARGIN, True),
        (tracks(view, names, locale, INNER), MARGIN, True),
    ]
    field = draw_map(view, locale)
    sections.append((field, centered(field, WIDTH), True))
    if view.get("battle"):
        sections.append((battle_board(view, names, locale, INNER), MARGIN, True))
    seats = view.get("seats") or []
    panel_w = (INNER - GAP) // 2
    for first in range(0, len(seats), 2):
        row = [seat_panel(view, s, names, locale, panel_w) for s in range(first, min(first + 2, len(seats)))]
        strip = Image.new("RGBA", (INNER, max(p.height for p in row)), (*PAPER, 255))
        for n, panel in enumerate(row):
            strip.paste(panel, (n * (panel_w + GAP), 0))
        sections.append((strip, MARGIN, True))
    sections.append((legend(locale, INNER), MARGIN, True))
    return stack(sections, WIDTH)


def render_private(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """The viewer's hand (and the two drawn cards of a draw-two-keep-one), shown to that player alone."""
    return hand.render_private(view, names=names, locale=i18n.normalize(locale))
