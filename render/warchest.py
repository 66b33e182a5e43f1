"""The War Chest images: the public board after every move, and a player's private coins.

Layout, top to bottom, about 1100 pixels wide so that a phone shows it at a readable size:
the status (round, initiative, whose turn or the result, the last action), the panels of team 0
(whose side of the board is the top), the board, the panels of team 1, and a legend.
The public image reads nothing from ``view["private"]``, so it is the same for every viewer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

import i18n
from render.common import HIGHLIGHT, INK, MUTED, PAPER, RULE, paste_centered, to_png
from render.hexgrid import Hex
from render.text import draw_text, fit, text_width
from render.wc_board import board_layout, draw_board
from render.wc_panels import panel_height, private_panel, seat_panel, seat_units
from render.wc_sprites import control_ring, last_outline, start_flag, team_mark, token
from render.wc_style import has_key, message, player_name, tint, tr, unit_name

WIDTH = 1100
MARGIN = 20
GAP = 14
INNER = WIDTH - 2 * MARGIN


def render(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """The public board image of a War Chest view, as PNG bytes."""
    locale = i18n.normalize(locale)
    hexes: list[Hex] = [(int(x), int(y)) for x, y in view["board"]["hexes"]]
    layout = board_layout(hexes, INNER)
    seats = view.get("seats") or []
    top = [i for i, s in enumerate(seats) if int(s.get("team", i)) == 0]
    bottom = [i for i, s in enumerate(seats) if int(s.get("team", i)) != 0]

    sections: list[tuple[Image.Image, int]] = [(_status(view, names, locale), MARGIN)]  # (image, x)
    if top:
        sections.append((_panel_row(view, top, names, locale), MARGIN))
    board = draw_board(view, layout, locale)
    sections.append((board, MARGIN + (INNER - board.width) // 2))
    if bottom:
        sections.append((_panel_row(view, bottom, names, locale), MARGIN))
    sections.append((_legend(view, names, locale), MARGIN))

    height = MARGIN + sum(image.height for image, _x in sections) + GAP * (len(sections) - 1) + MARGIN
    canvas = Image.new("RGBA", (WIDTH, height), (*PAPER, 255))
    y = MARGIN
    for image, x in sections:
        canvas.alpha_composite(image, (x, y))
        y += image.height + GAP
    return to_png(canvas)


def render_private(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """The viewer's own hidden coins (hand and bag) as PNG bytes; a short notice for spectators."""
    return to_png(private_panel(view, names, i18n.normalize(locale)))


def _panel_row(
    view: Mapping[str, Any], group: list[int], names: Mapping[str, str], locale: str
) -> Image.Image:
    """The panels of one team side by side (one panel with two players, two with four)."""
    width = (INNER - GAP * (len(group) - 1)) // len(group)
    height = max(panel_height(view, i, width) for i in group)
    row = Image.new("RGBA", (INNER, height), (0, 0, 0, 0))
    for n, index in enumerate(group):
        row.alpha_composite(seat_panel(view, index, names, locale, width), (n * (width + GAP), 0))
    return row


def _seat_name(view: Mapping[str, Any], names: Mapping[str, str], index: int) -> str:
    seats = view.get("seats") or []
    if 0 <= index < len(seats):
        return player_name(names, seats[index].get("id"))
    return "?"


def _team_names(view: Mapping[str, Any], names: Mapping[str, str], team: int) -> str:
    seats = view.get("seats") or []
    return " & ".join(
        player_name(names, s.get("id")) for i, s in enumerate(seats) if int(s.get("team", i)) == team
    )


def _status_line(view: Mapping[str, Any], names: Mapping[str, str], locale: str) -> tuple[str, str]:
    """The main line (whose turn, the follow-up, or the result) and a second, smaller line."""
    result = view.get("result")
    if view.get("phase") == "over" or result:
        result = result or {}
        if result.get("draw") or not result.get("winners"):
            main = tr("render.wc.over.draw", locale)
        else:
            winners = ", ".join(player_name(names, w) for w in result["winners"])
            main = tr("render.wc.over.win", locale, players=winners)
        return main, message(result.get("reason"), locale, names)
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


def _status(view: Mapping[str, Any], names: Mapping[str, str], locale: str) -> Image.Image:
    """Title, round and initiative; then whose turn (or the result); then the last action."""
    draft_pool = [str(u) for u in ((view.get("draft") or {}).get("pool") or [])]
    pool_rows = -(-len(draft_pool) // 4) if view.get("phase") == "draft" else 0
    main, sub = _status_line(view, names, locale)
    box_h = 64 if not sub else 96
    height = 50 + box_h + 12 + 40 + (36 + pool_rows * 48 if pool_rows else 0)
    img = Image.new("RGBA", (INNER, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)

    draw_text(draw, (0, 22), tr("render.wc.title", locale), 34, INK, anchor="lc", bold=True)
    x = text_width(tr("render.wc.title", locale), 34) + 24
    if view.get("round") is not None and view.get("phase") != "draft":
        draw_text(
            draw,
            (x, 22),
            tr("render.wc.round", locale, round=view["round"]),
            28,
            MUTED,
            anchor="lc",
            bold=True,
        )
    initiative = view.get("initiative")
    if initiative is not None and view.get("phase") != "draft":
        seats = view.get("seats") or []
        team = int(seats[initiative].get("team", initiative)) if 0 <= initiative < len(seats) else None
        text = tr("render.wc.initiative", locale, name=_seat_name(view, names, int(initiative)))
        text = fit(text, 26, INNER / 2)
        w = text_width(text, 26)
        draw_text(draw, (INNER, 22), text, 26, INK, anchor="rc")
        paste_centered(img, team_mark(team, 28), (INNER - w - 22, 22))

    y = 50
    over = view.get("phase") == "over" or bool(view.get("result"))
    acting_team = _acting_team(view)
    fill = HIGHLIGHT if over else tint(acting_team, 0.8)
    draw.rounded_rectangle([0, y, INNER - 1, y + box_h], radius=12, fill=fill, outline=INK, width=3)
    x0 = 18
    if not over and acting_team is not None:
        paste_centered(img, team_mark(acting_team, 36), (x0 + 18, y + 32))
        x0 += 48
    draw_text(draw, (x0, y + 32), fit(main, 32, INNER - x0 - 18), 32, INK, anchor="lc", bold=True)
    if sub:
        draw_text(draw, (x0, y + 72), fit(sub, 23, INNER - x0 - 18), 23, INK, anchor="lc")
    y += box_h + 12

    last = view.get("last")
    paste_centered(img, last_outline(14), (16, y + 18))
    if last:
        text = tr(
            "render.wc.last",
            locale,
            name=_seat_name(view, names, int(last.get("seat", -1))),
            text=str(last.get("text", "")),
        )
    else:
        text = tr("render.wc.last.none", locale)
    draw_text(draw, (40, y + 18), fit(text, 25, INNER - 44), 25, INK, anchor="lc")
    y += 40

    if pool_rows:
        draw_text(draw, (0, y + 16), tr("render.wc.draft.pool", locale), 22, MUTED, anchor="lc", bold=True)
        y += 36
        slot = INNER / 4
        for i, unit in enumerate(draft_pool):
            cx = slot * (i % 4)
            cy = y + (i // 4) * 48 + 22
            paste_centered(img, token(unit, None, None, locale, 18), (cx + 22, cy))
            draw_text(draw, (cx + 48, cy), fit(unit_name(unit, locale), 22, slot - 56), 22, INK, anchor="lc")
    return img


def _acting_team(view: Mapping[str, Any]) -> int | None:
    seats = view.get("seats") or []
    pending = view.get("pending")
    acting = [int(pending["seat"])] if pending else [int(i) for i in view.get("to_act") or []]
    teams = {int(seats[i].get("team", i)) for i in acting if 0 <= i < len(seats)}
    return teams.pop() if len(teams) == 1 else None


def _legend(view: Mapping[str, Any], names: Mapping[str, str], locale: str) -> Image.Image:
    """What the abbreviations and marks mean: unit names first, then the board symbols."""
    types: list[str] = []
    for i in range(len(view.get("seats") or [])):
        types += [u for u in seat_units(view, i) if u not in types]
    types += [str(u["type"]) for u in view.get("units") or [] if str(u["type"]) not in types]
    per_row = 4
    unit_rows = -(-len(types) // per_row)
    symbols: list[tuple[Image.Image, str]] = [
        (control_ring(None, 40), tr("render.wc.legend.location", locale)),
        (control_ring(0, 40), tr("render.wc.legend.controlled", locale, players=_team_names(view, names, 0))),
        (control_ring(1, 40), tr("render.wc.legend.controlled", locale, players=_team_names(view, names, 1))),
        (start_flag(0, 30), tr("render.wc.legend.start", locale)),
        (last_outline(20), tr("render.wc.legend.last", locale)),
        (token(types[0] if types else "royal", None, 2, locale, 18), tr("render.wc.legend.height", locale)),
    ]
    sym_per_row = 3
    sym_rows = -(-len(symbols) // sym_per_row)
    height = 16 + 34 + unit_rows * 46 + 14 + sym_rows * 58 + 12
    img = Image.new("RGBA", (INNER, height), (255, 255, 255, 255))
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, INNER - 1, height - 1], outline=RULE, width=2)
    y = 16
    draw_text(draw, (16, y + 14), tr("render.wc.legend.units", locale), 22, MUTED, anchor="lc", bold=True)
    y += 34
    slot = (INNER - 32) / per_row
    for i, unit in enumerate(types):
        x = 16 + slot * (i % per_row)
        cy = y + (i // per_row) * 46 + 22
        paste_centered(img, token(unit, None, None, locale, 18), (x + 20, cy))
        draw_text(draw, (x + 46, cy), fit(unit_name(unit, locale), 22, slot - 52), 22, INK, anchor="lc")
    y += unit_rows * 46 + 6
    draw.line([(16, y), (INNER - 16, y)], fill=RULE, width=2)
    y += 8
    slot = (INNER - 32) / sym_per_row
    for i, (icon, label) in enumerate(symbols):
        x = 16 + slot * (i % sym_per_row)
        cy = y + (i // sym_per_row) * 58 + 29
        paste_centered(img, icon, (x + 26, cy))
        draw_text(draw, (x + 60, cy), fit(label, 22, slot - 66), 22, INK, anchor="lc")
    return img
