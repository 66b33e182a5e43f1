"""The rating chart of ``/stats``: a PNG of the promised size, the same bytes for the same view, a line
per game that goes where the ratings go, and alt text that says it."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from render import describe
from render.chart import COLOURS, LINE, WIDTH, height, plot_top, rating_chart
from render.text import recording


def view(*series: tuple[str, float, list[float]]) -> dict[str, Any]:
    return {
        "title": "Alice",
        "series": [
            {
                "label": label,
                "start": start,
                "points": points,
                "summary": f"{points[-1]} · {len(points)} games",
            }
            for label, start, points in series
        ],
        "caption": "3 rated games",
    }


def chart(points: list[float], start: float = 0.0) -> Image.Image:
    drawn = rating_chart(view(("War Chest", start, points)), names={}, locale="fr")
    return Image.open(io.BytesIO(drawn)).convert("RGB")


def line_height(image: Image.Image, x: int, colour: tuple[int, int, int] = LINE, games: int = 1) -> int:
    """The highest row of ``colour`` in column ``x`` of the plot."""
    return next(y for y in range(plot_top(games) - 10, image.height) if image.getpixel((x, y)) == colour)


def test_a_chart_is_a_png_of_its_size_and_the_same_view_draws_the_same_bytes() -> None:
    shown = view(("Cry Havoc", -1.5, [2.0, -3.25, 4.5]))
    first = rating_chart(shown, names={}, locale="en")
    assert first == rating_chart(shown, names={}, locale="en")
    assert Image.open(io.BytesIO(first)).size == (WIDTH, height(1))


def test_the_line_rises_with_the_rating() -> None:
    rising, falling = chart([1.0, 2.0, 8.0]), chart([-1.0, -2.0, -8.0])
    right = WIDTH - 40
    assert line_height(rising, right) < line_height(falling, right)
    assert line_height(chart([5.0]), right) < plot_top(1) + 100, "one game still draws its point"


def test_each_game_has_its_own_line_in_its_own_colour() -> None:
    two = view(("War Chest", 0.0, [1.0, 6.0, 9.0]), ("Batailles", 0.0, [-1.0, -4.0, -6.0]))
    with recording() as drawn:
        image = Image.open(io.BytesIO(rating_chart(two, names={}, locale="en"))).convert("RGB")
    right = WIDTH - 40
    assert line_height(image, right, COLOURS[0], 2) < line_height(image, right, COLOURS[1], 2)
    colours = {c for _n, c in image.getcolors(image.width * image.height) or []}
    assert COLOURS[0] in colours and COLOURS[1] in colours and COLOURS[2] not in colours
    texts = {d.text for d in drawn}
    assert {"War Chest", "9.0 · 3 games", "Batailles", "-6.0 · 3 games"} <= texts, "each game with its record"
    assert min(d.size for d in drawn) >= 21, "every label at the boards' legible size"


def test_the_alt_text_tells_each_line_in_the_readers_language() -> None:
    two = view(("War Chest", 0.0, [1.0, 6.0, 2.5]), ("Batailles", 0.0, [-1.0]))
    english = describe("chart", two, names={}, locale="en")
    assert english == (
        "Chart, Alice. War Chest (2.5 · 3 games), 3 rated games: from 0.0 to 2.5, best 6.0, worst 1.0;"
        " Batailles (-1.0 · 1 games), 1 rated game: from 0.0 to −1.0, best −1.0, worst −1.0"
    )
    french = describe("chart", two, names={}, locale="fr")
    assert "War Chest (2.5 · 3 games), 3 parties classées : de 0,0 à 2,5, au mieux 6,0" in french
    assert " ; Batailles (-1.0 · 1 games), 1 partie classée" in french
