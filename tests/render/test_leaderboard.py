"""The leaderboard image of ``/leaderboard``: a row per player in each game's section, the players
with few rated games after a line of their own, the same bytes for the same view, and alt text
that reads the same table."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from render import describe
from render.leaderboard import MARGIN, ROW, TITLE, WIDTH, leaderboard_image
from render.text import recording


def section(rows: int, apart: int = 0) -> dict[str, Any]:
    def row(n: int, rank: str) -> dict[str, str]:
        return {
            "rank": rank,
            "name": f"player {n}",
            "rating": f"{10 - n}.0",
            "record": f"{n + 1} games, 1 win",
        }

    return {
        "title": "🏆 War Chest, page 1/1",
        "rows": [row(n, f"{n + 1}.") for n in range(rows)],
        "apart": "Fewer than 5 rated games:",
        "apart_rows": [row(rows + n, "") for n in range(apart)],
        "empty": "" if rows + apart else "No rated game of this one yet.",
    }


def test_the_table_grows_a_row_per_player_and_the_same_view_draws_the_same_bytes() -> None:
    view = {"sections": [section(3, 2), section(0)]}
    first = leaderboard_image(view, names={}, locale="en")
    assert first == leaderboard_image(view, names={}, locale="en")
    width, height = Image.open(io.BytesIO(first)).size
    assert width == WIDTH
    assert height == MARGIN + (TITLE + 3 * ROW + ROW + 2 * ROW + MARGIN) + (TITLE + ROW + MARGIN)


def test_every_name_rating_and_record_is_drawn_at_a_legible_size() -> None:
    view = {"sections": [section(2, 1)]}
    with recording() as drawn:
        leaderboard_image(view, names={}, locale="en")
    texts = {d.text for d in drawn}
    assert {"player 0", "player 2", "10.0", "8.0", "3 games, 1 win", "Fewer than 5 rated games:"} <= texts
    assert min(d.size for d in drawn) >= 21


def test_the_alt_text_reads_the_table_in_the_readers_language() -> None:
    view = {"sections": [section(2, 1)]}
    assert describe("leaderboard", view, names={}, locale="en") == (
        "🏆 War Chest, page 1/1: 1. player 0 10.0, 1 games, 1 win; 2. player 1 9.0, 2 games, 1 win;"
        " Fewer than 5 rated games: player 2 8.0, 3 games, 1 win."
    )
    assert describe("leaderboard", {"sections": [section(0)]}, names={}, locale="fr") == (
        "🏆 War Chest, page 1/1 : No rated game of this one yet."
    )
