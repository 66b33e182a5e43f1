"""The War Chest images: the board after every move, the seats' details on request, a player's coins.

The public image is what a player looks at first, sized for a phone: the status (round, initiative,
whose turn or the result, the last action), the board as wide as the page, and one compact chip per
seat (bag, hand, markers left). The unit tables and the legend are in ``render_details``.
Neither reads ``view["private"]``, so both are the same for every viewer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from functools import lru_cache
from typing import cast

from PIL import Image, ImageDraw

import i18n
from engine.warchest.view import SeatView, WarChestView
from render import grounds, palettes, png
from render.alt import Glance
from render.catalog import has_key, player_name, tr
from render.common import HIGHLIGHT, INK, MUTED, PAPER, RGB, RULE, paste_centered, to_png
from render.layers import Changed, page_rows
from render.page import GAP, INNER, LABEL, MARGIN, WIDTH, Section, centered, stack
from render.panels import (
    BOX_TOP,
    Chip,
    away_pill,
    box_height,
    chip_boxes,
    chip_row,
    heading,
    icon_grid,
    last_action,
    last_text,
    result_lines,
    status_box,
    status_height,
)
from render.text import draw_text
from render.warchest.board import LAYERS_KEPT, board_layout, kept_board
from render.warchest.hexgrid import Hex
from render.warchest.panels import panel_height, pills, private_panel, seat_panel, seat_units
from render.warchest.sprites import control_ring, last_icon, removed_mark, start_flag, team_mark, token
from render.warchest.style import TEAM_COLOR, owner_tags, tint, unit_name

__all__ = ["INNER", "WIDTH", "render", "render_details", "render_private"]


def render(view: WarChestView, *, names: Mapping[str, str], locale: str) -> bytes:
    """The public board image of a War Chest view, as PNG bytes."""
    return to_png(compose(view, names=names, locale=locale, lead=True), palettes.load("warchest"), lead=True)


def compose(view: WarChestView, *, names: Mapping[str, str], locale: str, lead: bool = False) -> Image.Image:
    """The public image before encoding (``lead``: with the encoder's extra column, on the page kept
    for the encoder, drawn over by the next such page; see ``stack``)."""
    locale = i18n.normalize(locale)
    hexes: list[Hex] = [(int(x), int(y)) for x, y in view["board"]["hexes"]]
    layout = board_layout(hexes, INNER)
    owners = owner_tags(view, names)
    kept = kept_board(view, layout, locale, owners)
    board = kept.canvas
    status, heading_line = _status_parts(view, names, locale)
    chips = _chips(view, names, locale, owners)
    sections: list[Section] = [
        (status, MARGIN, True),
        (board, centered(board), True),
        (chip_row(chips, INNER, STRIP_PER_ROW), MARGIN, True),
    ]
    page = stack(sections, lead=lead, board=(1, kept) if lead else None)
    # Outside what changed in the status and the strip and what the board re-laid, the page is the
    # one drawn with the board's previous picture at the same place: the encoder need not even
    # read those rows.
    shift = 1 if lead else 0
    top, left = MARGIN + status.height + GAP, centered(board) + shift
    above: Changed | None = None
    below: Changed | None = None
    seen = _seen.last.pop(kept.serial, None)
    if seen is not None and seen[0] == kept.version - 1 and heading_line is not None:
        # the same heading at the same place: the status changed under it at most
        above = [(MARGIN + (BOX_TOP if seen[1] == heading_line else 0), MARGIN + status.height)]
        if len(seen[2]) == len(chips):
            strip = top + board.height + GAP
            places = chip_boxes(len(chips), INNER, STRIP_PER_ROW)
            below = [
                (strip + y0, strip + y1, MARGIN + shift + x0, MARGIN + shift + x1)
                for (x0, y0, x1, y1), old, new in zip(places, seen[2], chips, strict=True)
                if old != new
            ]
    _seen.last[kept.serial] = (kept.version, heading_line, tuple(chips))
    while len(_seen.last) > LAYERS_KEPT:
        _seen.last.popitem(last=False)
    page.info[png.UNCHANGED] = page_rows(kept, top, left, page.height, above=above, below=below)
    return page


class _Seen(threading.local):
    """Per board layers (by serial), what the page drawn with their last picture held: that
    picture's version, what the status's heading said and the strip's chips. Per thread, as the
    layers themselves (``render.layers.Shelf``)."""

    def __init__(self) -> None:
        self.last: OrderedDict[int, tuple[int, Hashable, tuple[Chip, ...]]] = OrderedDict()


_seen = _Seen()
STRIP_PER_ROW = 2


def render_details(view: WarChestView, *, names: Mapping[str, str], locale: str) -> bytes:
    """Every seat's public counts (unit cards with their coins on the board, in supply, discarded,
    eliminated; bag, hand, face-down discard, markers) and the legend, as PNG bytes."""
    locale = i18n.normalize(locale)
    owners = owner_tags(view, names)
    title = Image.new("RGBA", (INNER, 44), (0, 0, 0, 0))
    heading(ImageDraw.Draw(title), tr("render.wc.title", locale), _round(view, locale))
    sections: list[Section] = [(title, MARGIN, False)]
    seats = view.get("seats") or []
    for team in sorted({int(s.get("team", i)) for i, s in enumerate(seats)}):
        group = [i for i, s in enumerate(seats) if int(s.get("team", i)) == team]
        sections.append((_panel_row(view, group, names, locale, owners), MARGIN, False))
    sections.append((_legend(view, names, locale), MARGIN, False))
    return to_png(stack(sections))


def render_private(view: WarChestView, *, names: Mapping[str, str], locale: str) -> bytes:
    """The viewer's own hidden coins (hand and bag) as PNG bytes; a short notice for spectators."""
    return to_png(private_panel(view, names, i18n.normalize(locale)))


def _round(view: WarChestView, locale: str) -> str | None:
    if view.get("round") is not None and view.get("phase") != "draft":
        return tr("render.wc.round", locale, round=view["round"])
    return None


def _panel_row(
    view: WarChestView,
    group: list[int],
    names: Mapping[str, str],
    locale: str,
    owners: Mapping[int, str],
) -> Image.Image:
    """The panels of one team side by side (two players: both seats on one row)."""
    seats = view.get("seats") or []
    if len(seats) == 2:
        group = [0, 1] if group == [0] else []
    width = (INNER - GAP) // 2
    if not group:
        return Image.new("RGBA", (INNER, 1), (0, 0, 0, 0))
    height = max(panel_height(view, i, width) for i in group)
    row = Image.new("RGBA", (INNER, height), (0, 0, 0, 0))
    for n, index in enumerate(group):
        panel = seat_panel(view, index, names, locale, width, owners.get(index, ""))
        row.alpha_composite(panel, (n * (width + GAP), 0))
    return row


def _chips(
    view: WarChestView, names: Mapping[str, str], locale: str, owners: Mapping[int, str]
) -> list[Chip]:
    """One chip per seat, team by team: mark, name, badges; bag, hand, markers left."""
    seats = view.get("seats") or []
    order = sorted(range(len(seats)), key=lambda i: (int(seats[i].get("team", i)), i))
    chips = []
    for index in order:
        seat = seats[index]
        team = int(seat.get("team", index))
        chips.append(
            Chip(
                team_mark(team, 32, owners.get(index, "")),
                player_name(names, seat.get("id")),
                (tint(team, 0.85), TEAM_COLOR[team]),
                (*pills(view, index, locale), *away_pill(seat, locale)),
                _counts(seat, locale),
            )
        )
    return chips


def _counts(seat: SeatView, locale: str) -> tuple[tuple[str, str], ...]:
    """A seat's public counts, as its chip shows them: bag, hand, markers left."""
    return (
        (tr("render.wc.count.bag", locale), str(seat.get("bag", 0))),
        (tr("render.wc.count.hand", locale), str(seat.get("hand", 0))),
        (tr("render.wc.count.markers", locale), str(seat.get("markers_left", 0))),
    )


def glance(shown: Mapping[str, object], names: Mapping[str, str], locale: str) -> Glance:
    """What the board's status and chips say, in words: for the image's alt text. ``render.describe``
    hands every game's view alike, picked by its ``game``: this one is a War Chest view."""
    view = cast("WarChestView", shown)
    locale = i18n.normalize(locale)
    seats = view.get("seats") or []
    order = sorted(range(len(seats)), key=lambda i: (int(seats[i].get("team", i)), i))
    keys = ("render.wc.last", "render.wc.last.none")
    initiative = view.get("initiative")
    lines = list(_status_line(view, names, locale))
    if initiative is not None and view.get("phase") != "draft":
        lines.append(tr("render.wc.initiative", locale, name=_seat_name(view, names, int(initiative))))
    return Glance(
        title=tr("render.wc.title", locale),
        round=_round(view, locale),
        lines=tuple(lines),
        last=last_text(view.get("last"), keys, locale, lambda seat: _seat_name(view, names, int(seat))),
        seats=tuple((player_name(names, seats[i].get("id")), _counts(seats[i], locale)) for i in order),
    )


def _seat_name(view: WarChestView, names: Mapping[str, str], index: int) -> str:
    seats = view.get("seats") or []
    if 0 <= index < len(seats):
        return player_name(names, seats[index].get("id"))
    return "?"


def _team_names(view: WarChestView, names: Mapping[str, str], team: int) -> str:
    seats = view.get("seats") or []
    return " & ".join(
        player_name(names, s.get("id")) for i, s in enumerate(seats) if int(s.get("team", i)) == team
    )


def _status_line(view: WarChestView, names: Mapping[str, str], locale: str) -> tuple[str, str]:
    """The main line (whose turn, the follow-up, or the result) and a second, smaller line."""
    result = view.get("result")
    if view.get("phase") == "over" or result:
        keys = ("render.wc.over.win", "render.wc.over.draw", "render.wc.over.aborted")
        return result_lines(result, keys, locale, names)
    pending = view.get("pending")
    if pending:
        action = _pending_text(str(pending.get("kind")), locale)
        return tr(
            "render.wc.pending", locale, name=_seat_name(view, names, int(pending["seat"])), action=action
        ), ""
    acting = ", ".join(_seat_name(view, names, int(i)) for i in view.get("to_act") or [])
    if view.get("phase") == "draft":
        return tr("render.wc.draft", locale, name=acting), ""
    return tr("render.wc.to_act", locale, players=acting), ""


def _pending_text(kind: str, locale: str) -> str:
    """Our wording of a follow-up, else the rules catalog's, else a generic phrase."""
    for key in (f"render.wc.pending.{kind}", f"wc.pending.{kind}"):
        if has_key(key, locale):
            return tr(key, locale)
    return tr("render.wc.pending.generic", locale)


DRAFT_ROW = 56
DRAFT_TOKEN = 25
"""Radius of a draft pool token: its abbreviation stays legible on a phone (``sprites.token``)."""


def _status(view: WarChestView, names: Mapping[str, str], locale: str) -> Image.Image:
    """Title, round and initiative; then whose turn (or the result); then the last action."""
    return _status_parts(view, names, locale)[0]


def _status_parts(view: WarChestView, names: Mapping[str, str], locale: str) -> tuple[Image.Image, Hashable]:
    """``_status`` and what its heading line (above ``BOX_TOP``) says: two statuses of the same
    height whose headings say the same have the same pixels there (None for a recorder's)."""
    draft = view.get("draft")
    draft_pool = [str(u) for u in ((draft.get("pool") if draft else None) or [])]
    pool_rows = -(-len(draft_pool) // 4) if view.get("phase") == "draft" else 0
    main, sub = _status_line(view, names, locale)
    height = status_height(bool(sub)) + (34 + pool_rows * DRAFT_ROW if pool_rows else 0)
    initiative = view.get("initiative")
    marker: tuple[str, int | None] | None = None
    if initiative is not None and view.get("phase") != "draft":
        seats = view.get("seats") or []
        team = int(seats[initiative].get("team", initiative)) if 0 <= initiative < len(seats) else None
        marker = (tr("render.wc.initiative", locale, name=_seat_name(view, names, int(initiative))), team)
    over = view.get("phase") == "over" or bool(view.get("result"))
    acting_team = _acting_team(view)
    box = (HIGHLIGHT if over else tint(acting_team, 0.8), None if over else acting_team, main, sub)
    top = (height, tr("render.wc.title", locale), _round(view, locale), marker, box)
    # a recorder hears every text drawn: then nothing is taken from the cache
    recording = grounds.RECORDS.get() is not None
    img = _status_top.__wrapped__(*top) if recording else _status_top(*top).copy()
    draw = ImageDraw.Draw(img)
    y = BOX_TOP + box_height(bool(sub)) + 8

    keys = ("render.wc.last", "render.wc.last.none")
    told = (view.get("last"), keys, locale, lambda seat: _seat_name(view, names, int(seat)))
    last_action(img, draw, y, last_icon(26), told, 38)
    y += 34

    if pool_rows:
        draw_text(draw, (0, y + 16), tr("render.wc.draft.pool", locale), LABEL, MUTED, anchor="lc", bold=True)
        y += 34
        slot = INNER / 4
        for i, unit in enumerate(draft_pool):
            cx = slot * (i % 4)
            cy = y + (i // 4) * DRAFT_ROW + DRAFT_ROW / 2
            paste_centered(img, token(unit, None, None, locale, DRAFT_TOKEN), (cx + 28, cy))
            draw_text(
                draw, (cx + 60, cy), unit_name(unit, locale), LABEL, INK, anchor="lc", max_width=slot - 66
            )
    return img, None if recording else top[:4]


@lru_cache(maxsize=8)  # 830 KB each: a four-seat table's turns, initiative before and after
def _status_top(
    height: int,
    title: str,
    round_text: str | None,
    marker: tuple[str, int | None] | None,
    box: tuple[RGB, int | None, str, str],
) -> Image.Image:
    """The status ``height`` pixels tall with its title line (``marker``: the initiative's words and
    team) and the box saying who acts (fill, acting team, main and second line) drawn, and nothing
    under them yet. From one move to the next these mostly come back (four seats take turns): kept,
    the status only draws its last-action line afresh. Copy before drawing on it."""
    img = Image.new("RGBA", (INNER, height), (*PAPER, 255))
    draw = ImageDraw.Draw(img)
    heading(draw, title, round_text)
    if marker is not None:
        text, team = marker
        w = draw_text(draw, (INNER, 20), text, 24, INK, anchor="rc", max_width=INNER / 2)
        paste_centered(img, team_mark(team, 28), (INNER - w - 20, 20))
    fill, acting_team, main, sub = box
    mark = team_mark(acting_team, 36) if acting_team is not None else None
    status_box(img, draw, (BOX_TOP, INNER, box_height(bool(sub))), fill, mark, (main, sub))
    return img


def _acting_team(view: WarChestView) -> int | None:
    seats = view.get("seats") or []
    pending = view.get("pending")
    acting = [int(pending["seat"])] if pending else [int(i) for i in view.get("to_act") or []]
    teams = {int(seats[i].get("team", i)) for i in acting if 0 <= i < len(seats)}
    return teams.pop() if len(teams) == 1 else None


def _legend(view: WarChestView, names: Mapping[str, str], locale: str) -> Image.Image:
    """What the abbreviations and marks mean: unit names first, then the board symbols, two to a
    row so that each has the room of half the page."""
    types: list[str] = []
    for i in range(len(view.get("seats") or [])):
        types += [u for u in seat_units(view, i) if u not in types]
    types += [str(u["type"]) for u in view.get("units") or [] if str(u["type"]) not in types]
    per_row = 3
    unit_rows = -(-len(types) // per_row)
    symbols: list[tuple[Image.Image, str]] = [
        (control_ring(None, 20, 4), tr("render.wc.legend.location", locale)),
        (
            control_ring(0, 20, 4),
            tr("render.wc.legend.controlled", locale, players=_team_names(view, names, 0)),
        ),
        (
            control_ring(1, 20, 4),
            tr("render.wc.legend.controlled", locale, players=_team_names(view, names, 1)),
        ),
        (start_flag(0, 30), tr("render.wc.legend.start", locale)),
        (last_icon(40), tr("render.wc.legend.last", locale)),
        (removed_mark(0, 20), tr("render.wc.legend.removed", locale)),
        (token(types[0] if types else "royal", None, 2, locale, 20), tr("render.wc.legend.height", locale)),
    ]
    sym_per_row = 2
    sym_rows = -(-len(symbols) // sym_per_row)
    height = 16 + 34 + unit_rows * 46 + 14 + sym_rows * 58 + 12
    img = Image.new("RGBA", (INNER, height), (255, 255, 255, 255))
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, INNER - 1, height - 1], outline=RULE, width=2)
    y = 16
    draw_text(draw, (16, y + 14), tr("render.wc.legend.units", locale), LABEL, MUTED, anchor="lc", bold=True)
    y += 34
    units = [(token(unit, None, None, locale, 20), unit_name(unit, locale)) for unit in types]
    icon_grid(img, draw, units, top=y, per_row=per_row, row=(46, 22), offsets=(22, 50), size=LABEL)
    y += unit_rows * 46 + 6
    draw.line([(16, y), (INNER - 16, y)], fill=RULE, width=2)
    y += 8
    icon_grid(img, draw, symbols, top=y, per_row=sym_per_row, row=(58, 29), offsets=(30, 72), size=LABEL)
    return img
