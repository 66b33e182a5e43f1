"""Nim's drawing: the heap as a row of stones on a real PNG, a player's colours, and their words.

Built on the shared pieces a game's renderer uses (``render.alt``, ``render.catalog``), exported as
``RENDERER`` for ``render`` to find through the registry.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from render.alt import Glance
from render.catalog import player_name, tr
from render.games import GameRenderer

STONE = 24
SIDE = 320
"""The board is square, as large as the smallest board a phone is shown."""
COLOURS = {"red": (200, 40, 40), "green": (40, 160, 60), "blue": (40, 70, 200)}


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def board(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """One grey stone per stone left in the heap, in rows of ten."""
    image = Image.new("RGB", (SIDE, SIDE), (245, 240, 225))
    pen = ImageDraw.Draw(image)
    for i in range(int(view["heap"])):
        x, y = 40 + i % 10 * STONE, 40 + i // 10 * STONE
        pen.ellipse((x + 2, y + 2, x + STONE - 2, y + STONE - 2), fill=(120, 120, 120))
    return _png(image)


def hand(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """The viewer's colours, one square each."""
    colours = list((view.get("private") or {}).get("hand") or [])
    image = Image.new("RGB", (max(len(colours), 1) * STONE, STONE), (255, 255, 255))
    pen = ImageDraw.Draw(image)
    for i, colour in enumerate(colours):
        pen.rectangle((i * STONE + 2, 2, (i + 1) * STONE - 2, STONE - 2), fill=COLOURS[colour])
    return _png(image)


def glance(view: Mapping[str, Any], names: Mapping[str, str], locale: str) -> Glance:
    to_act = [player_name(names, p) for p in view.get("to_act") or []]
    turn = tr("nim.alt.turn", locale, players=to_act) if to_act else tr("nim.alt.over", locale)
    return Glance(tr("table.game.nim", locale), None, (turn,), "", ())


def private_words(view: Mapping[str, Any], names: Mapping[str, str], locale: str) -> str:
    colours = [tr(f"nim.item.{c}", locale) for c in (view.get("private") or {}).get("hand") or []]
    return tr("nim.alt.hand", locale, colours=colours)


def board_lines(view: Mapping[str, Any], names: Mapping[str, str], locale: str) -> list[str]:
    lines = [tr("nim.tb.heap", locale, count=int(view["heap"]))]
    return lines + [tr("nim.tb.next", locale, name=player_name(names, p)) for p in view.get("to_act") or []]


RENDERER = GameRenderer(board, board, hand, glance, private_words, board_lines)
"""The public board and its details are one picture: a heap has nothing more to show."""
