"""The rating chart of ``/stats``: a PNG of the promised size, the same bytes for the same view, a line
per game that goes where the ratings go, and alt text that says it."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from render import describe
from render.chart import COLOURS, HEIGHT, LINE, MARGIN_TOP, WIDTH, rating_chart


def view(*series: tuple[str, float, list[float]]) -> dict[str, Any]:
    return {
        "title": "Alice",
        "series": [{"label": label, "start": start, "points": points} for label, start, points in series],
        "caption": "3 rated games",
    }


def chart(points: list[float], start: float = 0.0) -> Image.Image:
    drawn = rating_chart(view(("War Chest", start, points)), names={}, locale="fr")
    return Image.open(io.BytesIO(drawn)).convert("RGB")


def line_height(image: Image.Image, x: int, colour: tuple[int, int, int] = LINE) -> int:
    """The highest row of ``colour`` in column ``x``."""
    return next(y for y in range(MARGIN_TOP - 10, image.height) if image.getpixel((x, y)) == colour)


def test_a_chart_is_a_png_of_its_size_and_the_same_view_draws_the_same_bytes() -> None:
    shown = view(("Cry Havoc", -1.5, [2.0, -3.25, 4.5]))
    first = rating_chart(shown, names={}, locale="en")
    assert first == rating_chart(shown, names={}, locale="en")
    assert Image.open(io.BytesIO(first)).size == (WIDTH, HEIGHT)


def test_the_line_rises_with_the_rating() -> None:
    rising, falling = chart([1.0, 2.0, 8.0]), chart([-1.0, -2.0, -8.0])
    right = WIDTH - 40
    assert line_height(rising, right) < line_height(falling, right)
    assert line_height(chart([5.0]), right) < HEIGHT // 2, "one game still draws its point"


def test_each_game_has_its_own_line_in_its_own_colour() -> None:
    two = view(("War Chest", 0.0, [1.0, 6.0, 9.0]), ("Batailles", 0.0, [-1.0, -4.0, -6.0]))
    image = Image.open(io.BytesIO(rating_chart(two, names={}, locale="en"))).convert("RGB")
    right = WIDTH - 40
    assert line_height(image, right, COLOURS[0]) < line_height(image, right, COLOURS[1])
    colours = {c for _n, c in image.getcolors(WIDTH * HEIGHT) or []}
    assert COLOURS[0] in colours and COLOURS[1] in colours and COLOURS[2] not in colours


def test_the_alt_text_tells_each_line_in_the_readers_language() -> None:
    two = view(("War Chest", 0.0, [1.0, 6.0, 2.5]), ("Batailles", 0.0, [-1.0]))
    english = describe("chart", two, names={}, locale="en")
    assert english == (
        "Chart, Alice. War Chest, 3 rated games: from 0.0 to 2.5, best 6.0, worst 1.0;"
        " Batailles, 1 rated game: from 0.0 to −1.0, best −1.0, worst −1.0"
    )
    french = describe("chart", two, names={}, locale="fr")
    assert "War Chest, 3 parties classées : de 0,0 à 2,5, au mieux 6,0" in french
    assert " ; Batailles, 1 partie classée" in french
