"""A player's rating over their rated games: the chart ``/stats`` shows beside the text.

Its view is plain numbers and words already in the reader's language (the table layer reads the
store and translates)::

    {"title": str, "caption": str,
     "series": [{"label": "War Chest", "start": rating before the first game,
                 "points": [conservative rating after each game, oldest first]}, ...]}

One line per game the player has rated games of, each with its own colour *and* marker shape
(circle, square, triangle, diamond), named in a legend under the title, so that the lines are told
apart without colour too. The horizontal axis counts each game's rated games, oldest on the left;
the best and worst values are labelled on the left. Drawn for a phone: 800 by 440, labels at the
boards' legible size. ``chart_words`` is the same chart as alt text.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from render.catalog import tr
from render.text import draw_text

WIDTH, HEIGHT = 800, 440
LABEL = 21
"""The labels' size: the legible size of the boards (``render.page.legible``)."""
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 84, 28, 104, 48
PAPER = (246, 241, 230)
INK = (40, 44, 52)
GRID = (214, 206, 190)
COLOURS = ((178, 74, 44), (0, 101, 160), (0, 128, 96), (160, 80, 140))
"""Line colours (a dark vermilion, blue, bluish green, reddish purple: Okabe and Ito's hues, darkened
to stand out on the paper); the marker shapes tell the lines apart without them."""
MARKERS = ("circle", "square", "triangle", "diamond")
LINE = COLOURS[0]


def _number(value: float, locale: str) -> str:
    text = f"{value:.1f}".replace("-", "−")
    return text.replace(".", ",") if locale.startswith("fr") else text


def _series(view: Mapping[str, Any]) -> list[tuple[str, list[float]]]:
    """Each line's label and values (the rating before its first game, then after each)."""
    out = []
    for entry in view.get("series", []):
        values = [float(entry.get("start", 0.0)), *(float(v) for v in entry.get("points", []))]
        out.append((str(entry.get("label", "")), values))
    return out


def _marker(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, colour: tuple[int, int, int]) -> None:
    r = 7
    if kind == "circle":
        draw.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=PAPER, width=2)
    elif kind == "square":
        draw.rectangle([x - r + 1, y - r + 1, x + r - 1, y + r - 1], fill=colour, outline=PAPER, width=2)
    elif kind == "triangle":
        draw.polygon([(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)], fill=colour, outline=PAPER)
    else:
        draw.polygon(
            [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)], fill=colour, outline=PAPER
        )


def rating_chart(view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
    """The chart of ``view`` as PNG bytes (``names`` is unused: the view names nobody by id)."""
    series = _series(view)
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM
    draw_text(
        draw,
        (16, 12),
        str(view.get("title", "")),
        LABEL + 3,
        INK,
        bold=True,
        max_width=WIDTH - 32,
        words=True,
    )
    x = 16.0
    for i, (label, _values) in enumerate(series):  # the legend: marker, then the game's name
        colour, kind = COLOURS[i % len(COLOURS)], MARKERS[i % len(MARKERS)]
        draw.line([(x, 66), (x + 28, 66)], fill=colour, width=3)
        _marker(draw, kind, x + 14, 66, colour)
        x += 36 + draw_text(draw, (x + 36, 66), label, LABEL, INK, anchor="lm", max_width=WIDTH - x - 52)
        x += 24
    everything = [v for _label, values in series for v in values] or [0.0]
    low, high = min(everything), max(everything)
    if high - low < 1.0:
        low, high = low - 0.5, high + 0.5

    def y_of(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    for value in (low, high):
        y = y_of(value)
        draw.line([(left, y), (right, y)], fill=GRID, width=1)
        draw_text(draw, (left - 10, y), _number(value, locale), LABEL, INK, anchor="rm", role="stat")
    if low < 0 < high:
        draw.line([(left, y_of(0)), (right, y_of(0))], fill=GRID, width=2)
    longest = max((len(values) for _label, values in series), default=1)
    step = (right - left) / max(1, longest - 1)
    for i, (_label, values) in enumerate(series):
        colour, kind = COLOURS[i % len(COLOURS)], MARKERS[i % len(MARKERS)]
        points = [(left + n * step, y_of(v)) for n, v in enumerate(values)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3, joint="curve")
        for px, py in points:
            _marker(draw, kind, px, py, colour)
    draw_text(
        draw,
        (16, HEIGHT - 14),
        str(view.get("caption", "")),
        LABEL - 3,
        INK,
        anchor="ls",
        max_width=WIDTH - 32,
    )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def chart_words(view: Mapping[str, Any], locale: str) -> str:
    """The chart as alt text: per line, its game, its rated games and where the rating went."""
    parts = []
    for label, values in _series(view):
        parts.append(
            tr(
                "render.alt.chart.series",
                locale,
                game=label,
                games=len(values) - 1,
                start=_number(values[0], locale),
                end=_number(values[-1], locale),
                best=_number(max(values[1:] or values), locale),
                worst=_number(min(values[1:] or values), locale),
            )
        )
    series = tr("render.alt.between", locale).join(parts)
    return tr("render.alt.chart", locale, title=str(view.get("title", "")), series=series)[:1024]
