"""The rating chart of ``/stats``: a PNG of the promised size, the same bytes for the same view, and
a line that goes where the ratings go."""

from __future__ import annotations

import io

from PIL import Image

from render.chart import HEIGHT, LINE, WIDTH, rating_chart


def chart(points: list[float], start: float = 0.0) -> Image.Image:
    view = {"title": "War Chest", "start": start, "points": points, "caption": "3 rated games"}
    return Image.open(io.BytesIO(rating_chart(view, names={}, locale="fr"))).convert("RGB")


def line_height(image: Image.Image, x: int) -> int:
    """The highest row of the line's colour in column ``x``."""
    return next(y for y in range(image.height) if image.getpixel((x, y)) == LINE)


def test_a_chart_is_a_png_of_its_size_and_the_same_view_draws_the_same_bytes() -> None:
    view = {"title": "Cry Havoc", "start": -1.5, "points": [2.0, -3.25, 4.5], "caption": "x"}
    first = rating_chart(view, names={}, locale="en")
    assert first == rating_chart(view, names={}, locale="en")
    assert Image.open(io.BytesIO(first)).size == (WIDTH, HEIGHT)


def test_the_line_rises_with_the_rating() -> None:
    rising, falling = chart([1.0, 2.0, 8.0]), chart([-1.0, -2.0, -8.0])
    right = WIDTH - 24
    assert line_height(rising, right) < line_height(falling, right)
    assert line_height(chart([5.0]), right) < HEIGHT // 2, "one game still draws its point"
