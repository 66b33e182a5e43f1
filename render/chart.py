"""A player's rating over their rated games: the small chart ``/stats`` shows beside the text.

Its view is plain numbers and words already in the reader's language (the table layer reads the
store and translates): ``{"title": str, "points": [conservative rating after each game, oldest
first], "start": the rating before the first game, "caption": str}``. Drawn for a phone: 640 by 300,
the line and its dots in the bot's ink, the best and worst values labelled on the left.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

import i18n
from render.catalog import tr
from render.text import draw_text

WIDTH, HEIGHT = 640, 300
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 64, 20, 48, 36
PAPER = (246, 241, 230)
INK = (40, 44, 52)
LINE = (178, 74, 44)
GRID = (214, 206, 190)


def _label(value: float, locale: str) -> str:
    return i18n.decimal(value, locale)


def rating_chart(view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
    """The chart of ``view`` as PNG bytes (``names`` is unused: the view names nobody by id)."""
    values = [float(view.get("start", 0.0)), *(float(v) for v in view.get("points", []))]
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (MARGIN_LEFT, 14), str(view.get("title", "")), 18, INK, bold=True, max_width=WIDTH - 80)
    low, high = min(values), max(values)
    if high - low < 1.0:
        low, high = low - 0.5, high + 0.5
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM

    def y_of(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    for value in (low, high):
        y = y_of(value)
        draw.line([(left, y), (right, y)], fill=GRID, width=1)
        draw_text(draw, (left - 8, y), _label(value, locale), 13, INK, anchor="rc", role="stat")
    if low < 0 < high:
        draw.line([(left, y_of(0)), (right, y_of(0))], fill=GRID, width=2)
    step = (right - left) / max(1, len(values) - 1)
    points = [(left + i * step, y_of(v)) for i, v in enumerate(values)]
    if len(points) > 1:
        draw.line(points, fill=LINE, width=3, joint="curve")
    for x, y in points:
        draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill=LINE, outline=PAPER)
    draw_text(
        draw, (left, HEIGHT - 12), str(view.get("caption", "")), 13, INK, anchor="ls", max_width=right - left
    )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def chart_words(view: dict[str, Any], locale: str) -> str:
    """The chart's alt text: its title, how many games, where the rating started and ended, and the
    highest and lowest values (the two the chart labels), written as the chart writes numbers."""
    points = [float(v) for v in view.get("points", [])]
    values = [float(view.get("start", 0.0)), *points]
    return tr(
        "render.alt.chart",
        locale,
        title=str(view.get("title", "")),
        count=len(points),
        start=_label(values[0], locale),
        last=_label(values[-1], locale),
        high=_label(max(values), locale),
        low=_label(min(values), locale),
    )
