"""A player's rating over their rated games: the chart ``/stats`` shows beside the text.

Its view is plain numbers and words already in the reader's language (the table layer reads the
store and translates)::

    {"title": str, "caption": str,
     "series": [{"label": "War Chest", "start": rating before the first game,
                 "points": [conservative rating after each game, oldest first],
                 "summary": "7.0 · 6 games: 4 won, 0 drawn, 2 lost · Streak: 1 win"}, ...]}

A card: under the title, each game the player has rated games of with its record, then the chart,
one line per game, each with its own colour *and* marker shape (circle, square, triangle, diamond)
shown beside its name above, so that the lines are told apart without colour too. The horizontal
axis counts each game's rated games, oldest on the left; the best and worst values are labelled on
the left. Drawn for a phone: 800 pixels wide, labels at the boards' legible size. ``chart_words``
is the same card as alt text.
"""

from __future__ import annotations

import io
from typing import NotRequired, TypedDict

from PIL import Image, ImageDraw

import i18n
from render.catalog import tr
from render.text import draw_text

WIDTH = 800
LABEL = 21
"""The labels' size: the legible size of the boards (``render.page.legible``)."""
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_BOTTOM = 84, 28, 48
HEAD, ENTRY, PLOT = 52, 62, 280
"""The title's height, each game's two lines (name, record) and the plot's height."""
PAPER = (246, 241, 230)
INK = (40, 44, 52)
MUTED = (88, 88, 96)
GRID = (214, 206, 190)
COLOURS = ((178, 74, 44), (0, 101, 160), (0, 128, 96), (160, 80, 140))
"""Line colours (a dark vermilion, blue, bluish green, reddish purple: Okabe and Ito's hues, darkened
to stand out on the paper); the marker shapes tell the lines apart without them."""
MARKERS = ("circle", "square", "triangle", "diamond")
LINE = COLOURS[0]


def _number(value: float, locale: str) -> str:
    return i18n.decimal(value, locale)


def plot_top(games: int) -> int:
    """Where the plot starts, under the title and ``games`` entries."""
    return HEAD + ENTRY * games + 24


def height(games: int) -> int:
    """The card's height with ``games`` entries."""
    return plot_top(games) + PLOT + MARGIN_BOTTOM


class ChartSeries(TypedDict):
    """One game's line: its name, the rating before its first rated game and after each, oldest
    first, and the player's record in it (none: the name alone)."""

    label: str
    start: float
    points: list[float]
    summary: NotRequired[str]


class ChartView(TypedDict):
    """What ``rating_chart`` and ``chart_words`` draw: a title, a line per game, a caption."""

    title: str
    caption: str
    series: list[ChartSeries]


def _series(view: ChartView) -> list[tuple[str, list[float], str]]:
    """Each line's label, values (the rating before its first game, then after each) and record."""
    out = []
    for entry in view.get("series", []):
        values = [float(entry.get("start", 0.0)), *(float(v) for v in entry.get("points", []))]
        out.append((str(entry.get("label", "")), values, str(entry.get("summary", ""))))
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


def rating_chart(view: ChartView, *, names: dict[str, str], locale: str) -> bytes:
    """The chart of ``view`` as PNG bytes (``names`` is unused: the view names nobody by id)."""
    series = _series(view)
    tall = height(len(series))
    image = Image.new("RGB", (WIDTH, tall), PAPER)
    draw = ImageDraw.Draw(image)
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = plot_top(len(series)), tall - MARGIN_BOTTOM
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
    for i, (label, _values, summary) in enumerate(series):  # each game: marker, name, then its record
        colour, kind = COLOURS[i % len(COLOURS)], MARKERS[i % len(MARKERS)]
        y = HEAD + ENTRY * i + 14
        draw.line([(16, y), (44, y)], fill=colour, width=3)
        _marker(draw, kind, 30, y, colour)
        draw_text(draw, (56, y), label, LABEL, INK, anchor="lm", bold=True, max_width=WIDTH - 72)
        draw_text(draw, (56, y + 29), summary, LABEL, MUTED, anchor="lm", max_width=WIDTH - 72, words=True)
    everything = [v for _label, values, _summary in series for v in values] or [0.0]
    low, high = min(everything), max(everything)
    if high - low < 1.0:
        low, high = low - 0.5, high + 0.5

    def y_of(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    for value in (low, high):
        level = y_of(value)
        draw.line([(left, level), (right, level)], fill=GRID, width=1)
        draw_text(draw, (left - 10, level), _number(value, locale), LABEL, INK, anchor="rm", role="stat")
    if low < 0 < high:
        draw.line([(left, y_of(0)), (right, y_of(0))], fill=GRID, width=2)
    longest = max((len(values) for _label, values, _summary in series), default=1)
    step = (right - left) / max(1, longest - 1)
    for i, (_label, values, _summary) in enumerate(series):
        colour, kind = COLOURS[i % len(COLOURS)], MARKERS[i % len(MARKERS)]
        points = [(left + n * step, y_of(v)) for n, v in enumerate(values)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3, joint="curve")
        for px, py in points:
            _marker(draw, kind, px, py, colour)
    draw_text(
        draw,
        (16, tall - 14),
        str(view.get("caption", "")),
        LABEL,
        INK,
        anchor="ls",
        max_width=WIDTH - 32,
    )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def chart_words(view: ChartView, locale: str) -> str:
    """The chart as alt text: per line, its game, its rated games and where the rating went."""
    parts = []
    for label, values, summary in _series(view):
        parts.append(
            tr(
                "render.alt.chart.series",
                locale,
                game=f"{label} ({summary})" if summary else label,
                games=len(values) - 1,
                start=_number(values[0], locale),
                end=_number(values[-1], locale),
                best=_number(max(values[1:] or values), locale),
                worst=_number(min(values[1:] or values), locale),
            )
        )
    series = tr("render.alt.between", locale).join(parts)
    return tr("render.alt.chart", locale, title=str(view.get("title", "")), series=series)[:1024]
