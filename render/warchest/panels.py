"""War Chest's seat panels for the details image (public counts) and the private panel (hand and bag)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import cast

from PIL import Image, ImageDraw

from engine.warchest.view import WarChestView
from render.alt import clip, listing, sentence
from render.catalog import player_name, tr
from render.common import HIGHLIGHT, INK, MUTED, PANEL, RULE, WHITE, paste_centered
from render.page import LABEL
from render.panels import HEADER_H, PAD, Pill, framed, seat_header
from render.text import draw_text, shrink, text_width
from render.warchest.sprites import team_mark, token
from render.warchest.style import TEAM_COLOR, UNIT_TYPES, tint, unit_name

TABLE_HEAD_H = 30
ROW_H = 46
CHIP_H = 62
CHIP_MIN_W = 230


def seat_units(view: WarChestView, index: int) -> list[str]:
    """The unit cards of a seat; while drafting, the cards picked so far."""
    seat = view["seats"][index]
    units = [str(u) for u in seat.get("units") or []]
    draft = view.get("draft")
    if not units and draft:
        units = [str(u) for u in (draft.get("picks") or {}).get(str(index), [])]
    return units


def _on_board(view: WarChestView, index: int, unit: str) -> str:
    heights = [
        int(u.get("height", 1))
        for u in view.get("units") or []
        if int(u.get("seat", -1)) == index and u.get("type") == unit
    ]
    return "+".join(str(h) for h in heights) if heights else "0"


def _chip_columns(width: int) -> int:
    return max(1, min(4, (width - 2 * PAD) // CHIP_MIN_W))


def panel_height(view: WarChestView, index: int, width: int) -> int:
    rows = len(_rows(view, index))
    chip_rows = -(-4 // _chip_columns(width))
    return HEADER_H + TABLE_HEAD_H + rows * ROW_H + 10 + chip_rows * (CHIP_H + 8) + PAD


def _rows(view: WarChestView, index: int) -> list[str]:
    seat = view["seats"][index]
    units = seat_units(view, index)
    royal_shown = (seat.get("discard_up") or {}).get("royal", 0) or (seat.get("eliminated") or {}).get(
        "royal", 0
    )
    return [*units, "royal"] if royal_shown and "royal" not in units else units


def _columns(locale: str, width: int) -> tuple[list[tuple[str, float]], int]:
    """The number columns (header shown, width) and the header size: each column as wide as its
    header or a two-digit count needs, the long header when the unit names keep room enough."""
    head_size = 19
    keys = (
        "render.wc.col.board",
        "render.wc.col.supply",
        "render.wc.col.discard",
        "render.wc.col.eliminated",
    )
    longest = max(text_width(unit_name(u, locale), NAME_SIZE) for u in UNIT_TYPES)
    name_room = 46 + longest + 12
    for suffix in ("", ".short"):
        cols = [(tr(key + suffix, locale), 0.0) for key in keys]
        cols = [
            (label, max(text_width(label, head_size), text_width("00", 24, bold=True)) + 16)
            for label, _w in cols
        ]
        if PAD + name_room + sum(w for _l, w in cols) + PAD <= width:
            break
    return cols, head_size


NAME_SIZE = 22


def seat_panel(
    view: WarChestView,
    index: int,
    names: Mapping[str, str],
    locale: str,
    width: int,
    owner: str = "",
) -> Image.Image:
    """Everything public about one seat: name, status badges, unit cards with their coins, counters.

    The number columns take what their headers need and the unit names the rest, so that no name is
    shortened while there is room for it."""
    seat = view["seats"][index]
    team = int(seat.get("team", index))
    height = panel_height(view, index, width)
    img, draw = framed(width, height)
    name = player_name(names, seat.get("id"))
    seat_header(
        img,
        draw,
        (tint(team, 0.8), TEAM_COLOR[team]),
        team_mark(team, 34, owner),
        name,
        pills(view, index, locale),
    )

    # Unit table.
    values: list[Callable[[str], str]] = [
        lambda u: _on_board(view, index, u),
        lambda u: str((seat.get("supply") or {}).get(u, 0)),
        lambda u: str((seat.get("discard_up") or {}).get(u, 0)),
        lambda u: str((seat.get("eliminated") or {}).get(u, 0)),
    ]
    cols, head_size = _columns(locale, width)
    x = float(width - PAD)
    lefts: list[float] = []
    for _label, w in reversed(cols):
        x -= w
        lefts.insert(0, x)
    first_num = lefts[0]
    y = HEADER_H + 6
    draw_text(
        draw, (PAD, y + TABLE_HEAD_H / 2), tr("render.wc.col.unit", locale), head_size, MUTED, anchor="lc"
    )
    for (label, w), left in zip(cols, lefts, strict=True):
        draw_text(
            draw, (left + w / 2, y + TABLE_HEAD_H / 2), label, head_size, MUTED, anchor="mc", max_width=w - 4
        )
    y += TABLE_HEAD_H
    for row, unit in enumerate(_rows(view, index)):
        if row % 2 == 0:
            draw.rectangle([2, y, width - 3, y + ROW_H], fill=(246, 243, 236))
        mid = y + ROW_H / 2
        paste_centered(img, token(unit, team, None, locale, 17), (PAD + 19, mid))
        room = first_num - (PAD + 46) - 6
        unit_label = unit_name(unit, locale)
        size = shrink(unit_label, NAME_SIZE, room, LABEL - 1)
        draw_text(draw, (PAD + 46, mid), unit_label, size, INK, anchor="lc", max_width=room, role="unit_name")
        for (_label, w), left, column in zip(cols, lefts, values, strict=True):
            text = column(unit)
            color = MUTED if text == "0" else INK
            draw_text(draw, (left + w / 2, mid), text, 24, color, anchor="mc", bold=True, role="count")
        y += ROW_H

    # Counters.
    y += 10
    chips = [
        ("render.wc.count.bag", seat.get("bag", 0)),
        ("render.wc.count.hand", seat.get("hand", 0)),
        ("render.wc.count.facedown", seat.get("discard_down", 0)),
        ("render.wc.count.markers", seat.get("markers_left", 0)),
    ]
    ncols = _chip_columns(width)
    chip_w = (width - 2 * PAD - (ncols - 1) * 8) / ncols
    for i, (key, value) in enumerate(chips):
        x0 = PAD + (i % ncols) * (chip_w + 8)
        y0 = y + (i // ncols) * (CHIP_H + 8)
        draw.rounded_rectangle(
            [x0, y0, x0 + chip_w, y0 + CHIP_H], radius=8, fill=(243, 240, 232), outline=RULE
        )
        value_w = draw_text(
            draw,
            (x0 + chip_w - 14, y0 + CHIP_H / 2),
            str(value),
            30,
            INK,
            anchor="rc",
            bold=True,
            role="count",
        )
        label, room = tr(key, locale), chip_w - value_w - 34
        size = shrink(label, 21, room, 18)
        draw_text(
            draw, (x0 + 12, y0 + CHIP_H / 2), label, size, MUTED, anchor="lc", max_width=room, words=True
        )
    return img


def pills(view: WarChestView, index: int, locale: str) -> list[Pill]:
    """The badges of a seat: winner, to act, initiative."""
    seat = view["seats"][index]
    found: list[Pill] = []
    result = view.get("result")
    if result and seat.get("id") in (result.get("winners") or []):
        found.append((tr("render.wc.badge.winner", locale), HIGHLIGHT, INK))
    if index in (view.get("to_act") or []):
        found.append((tr("render.wc.badge.to_act", locale), HIGHLIGHT, INK))
    if view.get("initiative") == index and view.get("phase") != "draft":
        found.append((tr("render.wc.badge.initiative", locale), INK, WHITE))
    return found


def private_panel(view: WarChestView, names: Mapping[str, str], locale: str, width: int = 900) -> Image.Image:
    """The viewer's hidden coins: the hand as tokens, then the bag's contents by type."""
    private = view.get("private")
    if not private:
        img = Image.new("RGBA", (width, 90), (*PANEL, 255))
        draw = ImageDraw.Draw(img)
        draw_text(draw, (PAD, 45), tr("render.wc.private.none", locale), 24, MUTED, anchor="lc")
        return img
    index = int(private["seat"])
    seat = view["seats"][index]
    team = int(seat.get("team", index))
    hand: Sequence[str] = [str(c) for c in private.get("hand") or []]
    bag = {str(k): int(v) for k, v in (private.get("bag") or {}).items() if int(v) > 0}
    per_row = max(1, (width - 2 * PAD) // 210)
    hand_rows = max(1, -(-len(hand) // per_row))
    bag_places = _bag_places(bag, locale, width - 2 * PAD)
    bag_rows = max(1, 1 + max((row for row, _x, _room in bag_places), default=0))
    height = HEADER_H + 40 + hand_rows * 110 + 40 + bag_rows * 64 + PAD
    img = Image.new("RGBA", (width, height), (*PANEL, 255))
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, width, HEADER_H], fill=tint(team, 0.8))
    draw.line([(0, HEADER_H), (width, HEADER_H)], fill=TEAM_COLOR[team], width=4)
    paste_centered(img, team_mark(team, 34), (PAD + 17, HEADER_H / 2))
    title = tr("render.wc.private.title", locale, name=player_name(names, seat.get("id")))
    title_at = (PAD + 44, HEADER_H / 2)
    draw_text(draw, title_at, title, 26, INK, anchor="lc", bold=True, max_width=width - PAD * 2 - 44)

    y = HEADER_H + 12
    draw_text(draw, (PAD, y + 12), tr("render.wc.private.hand", locale), 22, MUTED, anchor="lc", bold=True)
    y += 28
    if not hand:
        draw_text(draw, (PAD, y + 40), tr("render.wc.private.empty", locale), 22, MUTED, anchor="lc")
    slot = (width - 2 * PAD) / per_row
    for i, coin in enumerate(hand):
        cx = PAD + slot * (i % per_row + 0.5)
        top = y + (i // per_row) * 110
        paste_centered(img, token(coin, team, None, locale, 30), (cx, top + 38))
        draw_text(draw, (cx, top + 90), unit_name(coin, locale), 21, INK, anchor="mc", max_width=slot - 8)
    y += hand_rows * 110 + 6
    draw.line([(PAD, y), (width - PAD, y)], fill=RULE, width=2)
    count = sum(bag.values())
    draw_text(
        draw,
        (PAD, y + 20),
        tr("render.wc.private.bag", locale, count=count),
        22,
        MUTED,
        anchor="lc",
        bold=True,
    )
    y += 40
    if not bag:
        draw_text(draw, (PAD, y + 30), tr("render.wc.private.empty", locale), 22, MUTED, anchor="lc")
    for (coin, n), (row, x, room) in zip(sorted(bag.items()), bag_places, strict=True):
        x0 = PAD + x
        mid = y + row * 64 + 30
        paste_centered(img, token(coin, team, None, locale, 20), (x0 + 24, mid))
        w = draw_text(draw, (x0 + 52, mid), unit_name(coin, locale), 21, INK, anchor="lc", max_width=room)
        draw_text(draw, (x0 + 60 + w, mid), f"x{n}", 24, INK, anchor="lc", bold=True)
    return img


BAG_GAP = 28
"""Room between two entries of the bag's row."""


def _bag_places(bag: Mapping[str, int], locale: str, width: float) -> list[tuple[int, float, float]]:
    """Where each type of the bag goes, in sorted order: its row, its left edge and the room its
    name has. Entries follow each other at their own widths and go to the next row when the row is
    full, so a long name ("Warrior Priest", "Garde royale") is cut only when it is wider than a whole
    row, never because a fixed column is narrower than the room left beside it."""
    places: list[tuple[int, float, float]] = []
    row, x = 0, 0.0
    for coin, n in sorted(bag.items()):
        count_w = text_width(f"x{n}", 24, bold=True)
        name_w = text_width(unit_name(coin, locale), 21)
        need = 60 + name_w + count_w
        if x > 0 and x + need > width:
            row, x = row + 1, 0.0
        room = min(name_w, width - x - 60 - count_w)
        places.append((row, x, room))
        x += need + BAG_GAP
    return places


def private_words(shown: Mapping[str, object], names: Mapping[str, str], locale: str) -> str:
    """The alt text of the viewer's coins: the title, the hand, the bag by type (its owner's alone).
    ``render.describe`` hands every game's view alike, picked by its ``game``: this one is War Chest's."""
    view = cast("WarChestView", shown)
    private = view.get("private")
    if not private:
        return tr("render.wc.private.none", locale)
    seat = view["seats"][int(private["seat"])]
    hand = [unit_name(str(c), locale) for c in private.get("hand") or []]
    bag = {str(k): int(v) for k, v in (private.get("bag") or {}).items() if int(v) > 0}
    in_bag = [f"{unit_name(coin, locale)} ×{n}" for coin, n in sorted(bag.items())]
    title = tr("render.wc.private.title", locale, name=player_name(names, seat.get("id")))
    pieces = (
        title,
        listing(tr("render.wc.private.hand", locale), hand, locale),
        listing(tr("render.wc.private.bag", locale, count=sum(bag.values())), in_bag, locale)
        if in_bag
        else tr("render.wc.private.bag", locale, count=0),
    )
    return clip(" ".join(sentence(p) for p in pieces))
