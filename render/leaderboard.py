"""A server's leaderboard as an image: the table ``/leaderboard`` posts with its text.

Its view holds words already in the reader's language and display names (the table layer reads the
store and translates)::

    {"sections": [{"title": "🏆 War Chest, page 1/1",
                   "rows": [{"rank": "1.", "name": "alice", "rating": "7.0", "record": "6 games, 4 wins"}],
                   "apart": "Fewer than 5 rated games:" or "", "apart_rows": [rows as above],
                   "empty": "No rated game of this one yet." or ""}]}

A section per game, a row per player: rank, name, rating in bold, games and wins, on alternating
bands so that a row reads across on a phone; the players with few rated games come after a line of
their own. 800 pixels wide, labels at the boards' legible size; ``leaderboard_words`` is the same
table as alt text.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Literal, TypedDict

from PIL import Image, ImageDraw

from render.catalog import tr
from render.text import draw_text

WIDTH = 800
LABEL = 21
"""The labels' size: the legible size of the boards (``render.page.legible``)."""
ROW = 40
TITLE = 48
MARGIN = 16
PAPER = (246, 241, 230)
BAND = (236, 228, 212)
INK = (40, 44, 52)
MUTED = (96, 96, 104)
RULE = (214, 206, 190)
RANK_RIGHT = MARGIN + 44
NAME_LEFT = RANK_RIGHT + 14
RATING_RIGHT = 470
RECORD_LEFT = RATING_RIGHT + 24


class LeaderboardRow(TypedDict):
    """A player's line: rank (``"1."``, or "" among the players set apart), name, rating, record."""

    rank: str
    name: str
    rating: str
    record: str


class LeaderboardSection(TypedDict):
    """A game's table: its title, the ranked rows, the line that sets the others apart and their rows,
    and the words shown when there is no row at all (else "")."""

    title: str
    rows: list[LeaderboardRow]
    apart: str
    apart_rows: list[LeaderboardRow]
    empty: str


class LeaderboardView(TypedDict):
    """What ``leaderboard_image`` and ``leaderboard_words`` draw: a section per game."""

    sections: list[LeaderboardSection]


def _rows(section: LeaderboardSection, key: Literal["rows", "apart_rows"]) -> list[LeaderboardRow]:
    return list(section.get(key) or [])


def _height(sections: Sequence[LeaderboardSection]) -> int:
    height = MARGIN
    for section in sections:
        height += TITLE + ROW * len(_rows(section, "rows"))
        if section.get("empty"):
            height += ROW
        if _rows(section, "apart_rows"):
            height += ROW * (1 + len(_rows(section, "apart_rows")))
        height += MARGIN
    return height


def _row(draw: ImageDraw.ImageDraw, y: int, row: LeaderboardRow, shaded: bool) -> None:
    if shaded:
        draw.rectangle([MARGIN, y, WIDTH - MARGIN, y + ROW - 1], fill=BAND)
    middle = y + ROW / 2
    draw_text(draw, (RANK_RIGHT, middle), str(row.get("rank", "")), LABEL, MUTED, anchor="rm", role="stat")
    name = str(row.get("name", ""))
    draw_text(
        draw, (NAME_LEFT, middle), name, LABEL, INK, anchor="lm", max_width=RATING_RIGHT - 80 - NAME_LEFT
    )
    draw_text(
        draw,
        (RATING_RIGHT, middle),
        str(row.get("rating", "")),
        LABEL,
        INK,
        anchor="rm",
        bold=True,
        role="stat",
    )
    record = str(row.get("record", ""))
    draw_text(
        draw, (RECORD_LEFT, middle), record, LABEL, MUTED, anchor="lm", max_width=WIDTH - MARGIN - RECORD_LEFT
    )


def leaderboard_image(view: LeaderboardView, *, names: dict[str, str], locale: str) -> bytes:
    """The leaderboard of ``view`` as PNG bytes (``names`` is unused: the view holds the names)."""
    sections = list(view.get("sections") or [])
    image = Image.new("RGB", (WIDTH, _height(sections)), PAPER)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    for section in sections:
        title = str(section.get("title", ""))
        draw_text(
            draw,
            (MARGIN, y + TITLE / 2),
            title,
            LABEL + 3,
            INK,
            anchor="lm",
            bold=True,
            max_width=WIDTH - 2 * MARGIN,
        )
        y += TITLE
        if section.get("empty"):
            draw_text(
                draw,
                (MARGIN, y + ROW / 2),
                str(section["empty"]),
                LABEL,
                MUTED,
                anchor="lm",
                max_width=WIDTH - 2 * MARGIN,
            )
            y += ROW
        for n, row in enumerate(_rows(section, "rows")):
            _row(draw, y, row, n % 2 == 0)
            y += ROW
        apart = _rows(section, "apart_rows")
        if apart:
            draw.line([(MARGIN, y + 4), (WIDTH - MARGIN, y + 4)], fill=RULE, width=2)
            label = str(section.get("apart", ""))
            draw_text(
                draw,
                (MARGIN, y + ROW / 2 + 2),
                label,
                LABEL,
                MUTED,
                anchor="lm",
                max_width=WIDTH - 2 * MARGIN,
            )
            y += ROW
            for n, row in enumerate(apart):
                _row(draw, y, row, n % 2 == 0)
                y += ROW
        y += MARGIN
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def leaderboard_words(view: LeaderboardView, locale: str) -> str:
    """The leaderboard as alt text: each section's title, its ranked rows in order, then the line
    that sets the others apart and their rows."""
    between = tr("render.alt.between", locale)
    parts = []
    for section in view.get("sections") or []:
        said = [_said(row, locale) for row in _rows(section, "rows")]
        apart = [_said(row, locale) for row in _rows(section, "apart_rows")]
        if apart:
            said.append(f"{section.get('apart', '')} {between.join(apart)}".strip())
        rows = between.join(said) or str(section.get("empty", "")).rstrip(".")
        parts.append(tr("render.alt.leaderboard", locale, title=str(section.get("title", "")), rows=rows))
    return " ".join(parts)[:1024]


def _said(row: LeaderboardRow, locale: str) -> str:
    return tr(
        "render.alt.leaderboard.row",
        locale,
        rank=str(row.get("rank", "")),
        name=str(row.get("name", "")),
        rating=str(row.get("rating", "")),
        record=str(row.get("record", "")),
    ).strip()
