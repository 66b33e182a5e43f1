"""A league's standings as an image: the card the bot keeps in a league's channel and ``/league standings``.

Its view (``StandingsView``) holds words already in the reader's language and display names (the table
layer counts and translates): a title, the column headings, a row per player (place, name, points in
bold, wins-draws-losses, then the tiebreaks in their order) and a note saying that order. Rows alternate
bands so that a line reads across on a phone; a player who left the league is greyed. 800 pixels
wide, labels at the boards' legible size; ``standings_words`` is the same table as alt text.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TypedDict

from PIL import Image, ImageDraw

from render.catalog import tr
from render.text import draw_text, wrap

WIDTH = 800
LABEL = 21
ROW = 40
LINE = 28
TITLE = 52
MARGIN = 16
PAPER = (246, 241, 230)
BAND = (236, 228, 212)
INK = (40, 44, 52)
MUTED = (92, 92, 100)
RULE = (214, 206, 190)
PLACE_RIGHT = MARGIN + 40
NAME_LEFT = PLACE_RIGHT + 14
POINTS_RIGHT = 350
RECORD_LEFT = POINTS_RIGHT + 22
TIEBREAKS_LEFT = 530
NOTE_LINES = 4


class StandingsRow(TypedDict):
    place: str
    name: str
    points: str
    record: str
    tiebreaks: list[str]
    dropped: bool


class StandingsView(TypedDict):
    title: str
    columns: list[str]
    rows: list[StandingsRow]
    note: str


def _rows(view: StandingsView) -> list[StandingsRow]:
    return list(view.get("rows") or [])


def _tiebreak_xs(count: int) -> list[float]:
    """The right edges of the tiebreak columns, spread over what is left of the width."""
    if count == 0:
        return []
    step = (WIDTH - MARGIN - TIEBREAKS_LEFT) / count
    return [TIEBREAKS_LEFT + step * (i + 1) for i in range(count)]


def standings_image(view: StandingsView, *, names: dict[str, str], locale: str) -> bytes:
    """The standings of ``view`` as PNG bytes (``names`` is unused: the view holds the names)."""
    rows = _rows(view)
    columns = [str(c) for c in view.get("columns") or []]
    note = wrap(str(view.get("note") or ""), LABEL, WIDTH - 2 * MARGIN, NOTE_LINES)
    height = MARGIN + TITLE + ROW * (1 + len(rows)) + (LINE * len(note) + MARGIN if note else 0) + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    draw_text(
        draw,
        (MARGIN, y + TITLE / 2),
        str(view.get("title", "")),
        LABEL + 3,
        INK,
        anchor="lm",
        bold=True,
        max_width=WIDTH - 2 * MARGIN,
        words=True,
    )
    y += TITLE
    extra = columns[4:]
    xs = _tiebreak_xs(len(extra))
    heads = columns[:4] + [""] * (4 - len(columns[:4]))
    middle = y + ROW / 2
    draw_text(draw, (PLACE_RIGHT, middle), heads[0], LABEL, MUTED, anchor="rm", bold=True)
    draw_text(draw, (NAME_LEFT, middle), heads[1], LABEL, MUTED, anchor="lm", bold=True)
    draw_text(draw, (POINTS_RIGHT, middle), heads[2], LABEL, MUTED, anchor="rm", bold=True)
    draw_text(draw, (RECORD_LEFT, middle), heads[3], LABEL, MUTED, anchor="lm", bold=True)
    for x, head in zip(xs, extra, strict=True):
        draw_text(draw, (x, middle), head, LABEL, MUTED, anchor="rm", bold=True)
    y += ROW
    draw.line([(MARGIN, y - 2), (WIDTH - MARGIN, y - 2)], fill=RULE, width=2)
    for index, row in enumerate(rows):
        _row(draw, y, row, xs, shaded=index % 2 == 0)
        y += ROW
    y += MARGIN
    for line in note:
        draw_text(draw, (MARGIN, y + LINE / 2), line, LABEL, MUTED, anchor="lm", max_width=WIDTH - 2 * MARGIN)
        y += LINE
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _row(draw: ImageDraw.ImageDraw, y: int, row: StandingsRow, xs: Sequence[float], *, shaded: bool) -> None:
    if shaded:
        draw.rectangle([MARGIN, y, WIDTH - MARGIN, y + ROW - 1], fill=BAND)
    middle = y + ROW / 2
    ink = MUTED if row.get("dropped") else INK
    draw_text(draw, (PLACE_RIGHT, middle), str(row.get("place", "")), LABEL, MUTED, anchor="rm", role="stat")
    draw_text(
        draw,
        (NAME_LEFT, middle),
        str(row.get("name", "")),
        LABEL,
        ink,
        anchor="lm",
        max_width=POINTS_RIGHT - 70 - NAME_LEFT,
    )
    draw_text(
        draw,
        (POINTS_RIGHT, middle),
        str(row.get("points", "")),
        LABEL,
        ink,
        anchor="rm",
        bold=True,
        role="stat",
    )
    draw_text(
        draw,
        (RECORD_LEFT, middle),
        str(row.get("record", "")),
        LABEL,
        MUTED,
        anchor="lm",
        max_width=TIEBREAKS_LEFT - 24 - RECORD_LEFT,
    )
    for x, value in zip(xs, list(row.get("tiebreaks") or []), strict=False):
        draw_text(draw, (x, middle), str(value), LABEL, MUTED, anchor="rm", role="stat")


def standings_words(view: StandingsView, locale: str) -> str:
    """The standings as alt text: the title, each row in order with its tiebreaks, then the note that
    says their order."""
    between = tr("render.alt.between", locale)
    said = []
    for row in _rows(view):
        values = ", ".join(str(v) for v in row.get("tiebreaks") or [])
        tiebreaks = tr("render.alt.standings.tiebreaks", locale, values=values) if values else ""
        line = tr(
            "render.alt.standings.row",
            locale,
            place=str(row.get("place", "")),
            name=str(row.get("name", "")),
            points=str(row.get("points", "")),
            record=str(row.get("record", "")),
            tiebreaks=tiebreaks,
        )
        if row.get("dropped"):
            line += tr("render.alt.standings.left", locale)
        said.append(line)
    text = tr(
        "render.alt.standings",
        locale,
        title=str(view.get("title", "")),
        rows=between.join(said),
        note=str(view.get("note", "")),
    )
    return text.strip()[:1024]


__all__ = ["StandingsRow", "StandingsView", "standings_image", "standings_words"]
