"""The Cry Havoc panels: status, battle board and players' strip around the map; tracks, one panel
per player and the legend in the details image.

The status says what the game waits for (phase, whose action, what is pending, the result) and the
last action. While a battle is being resolved the battle board shows each objective in resolution
order with both sides' units and bonuses and who has folded. The strip gives each player's victory
points, hand and reserve. The tracks show the score track with its event stacks, the initiative and
upcoming initiative orders, the revealed events and the pools. Texts that do not fit go on to
another line or are shortened after a whole word, never inside one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import cast

from PIL import Image, ImageDraw

from engine.cryhavoc.view import CryHavocView, SeatView
from render.alt import Glance
from render.catalog import has_key, player_name, tr
from render.common import HIGHLIGHT, INK, MUTED, PANEL, PAPER, RGB, RULE, WHITE, paste_centered
from render.cryhavoc.board import structure_mark
from render.cryhavoc.style import (
    badge,
    faction_name,
    name_of,
    seat_label,
    side_color,
    side_shape,
    tint,
    token,
)
from render.page import LABEL, legible
from render.panels import (
    BOX_TOP,
    HEADER_H,
    PAD,
    Chip,
    Pill,
    away_pill,
    box_height,
    chip_row,
    framed,
    header_band,
    heading,
    last_action,
    last_text,
    phase_pills,
    pill,
    result_lines,
    status_box,
    status_height,
)
from render.text import draw_text, fit, shrink, text_width, wrap

OBJECTIVES = ("control", "prisoners", "attrition")


def acting_seat(view: CryHavocView) -> int | None:
    to_act = [int(i) for i in view.get("to_act") or []]
    return to_act[0] if len(to_act) == 1 else None


def phase_key(view: CryHavocView) -> str:
    """The phase as players name it; a battle step or a pending choice counts as its own phase."""
    phase = str(view.get("phase", "actions"))
    battle = view.get("battle")
    if phase == "battle" and battle:
        return f"battle_{battle.get('step', 'cards')}"
    return phase


def status_lines(view: CryHavocView, names: Mapping[str, str], locale: str) -> tuple[str, str]:
    """The main line (what the game waits for, or the result) and a second line (or "")."""
    result = view.get("result")
    if view.get("phase") == "over" or result:
        keys = ("render.ch.over.win", "render.ch.over.draw", "render.ch.over.aborted")
        return result_lines(result, keys, locale, names)
    seat = acting_seat(view)
    who = seat_label(view, seat, names, locale) if seat is not None else "?"
    pending = view.get("pending")
    if pending:
        who = seat_label(view, pending.get("seat"), names, locale)
        key = f"render.ch.pending.{pending.get('kind', 'move')}"
        key = key if has_key(key, locale) else "render.ch.main.actions"
        main = tr(key, locale, name=who, points=pending.get("points", 0))
    else:
        key = f"render.ch.main.{phase_key(view)}"
        main = tr(key if has_key(key, locale) else "render.ch.main.actions", locale, name=who)
    sub = ""
    if view.get("phase") == "actions":
        total = 3 * len(view.get("seats") or [])
        sub = tr("render.ch.actions_done", locale, done=view.get("actions_taken", 0), total=total)
    battle = view.get("battle")
    if battle and battle.get("step") == "place":
        placing = battle.get("placing") or {}
        sub = tr(
            "render.ch.to_place",
            locale,
            attacker=placing.get("attacker", 0),
            defender=placing.get("defender", 0),
        )
    if view.get("scoring_by") is not None:
        enabled = tr("render.ch.scoring_by", locale, name=seat_label(view, view["scoring_by"], names, locale))
        sub = f"{sub} · {enabled}" if sub else enabled
    return main, sub


def status(view: CryHavocView, names: Mapping[str, str], locale: str, width: int) -> Image.Image:
    """Title, round and phase; the box saying who acts (or the result); the last action."""
    main, sub = status_lines(view, names, locale)
    box_h = box_height(bool(sub))
    height = status_height(bool(sub))
    img = Image.new("RGBA", (width, height), (*PAPER, 255))
    draw = ImageDraw.Draw(img)
    x = heading(draw, tr("render.ch.title", locale), round_text(view, locale))
    phase_pills(draw, [tr(f"render.ch.phase.{view.get('phase', 'actions')}", locale)], width, x)
    y = BOX_TOP
    over = view.get("phase") == "over" or bool(view.get("result"))
    pending = view.get("pending")
    seat = pending.get("seat") if pending else acting_seat(view)
    fill = HIGHLIGHT if over else tint(side_color(seat), 0.8) if seat is not None else PANEL
    mark = token(side_shape(seat), side_color(seat), 36) if not over and seat is not None else None
    status_box(img, draw, (y, width, box_h), fill, mark, (main, sub))
    y += box_h + 8
    keys = ("render.ch.last", "render.ch.last.none")
    told = (view.get("last"), keys, locale, lambda seat: seat_label(view, seat, names, locale))
    draw.rectangle([6, y + 8, 24, y + 26], outline=INK, width=2)
    draw.rectangle([8, y + 10, 22, y + 24], outline=HIGHLIGHT, width=3)
    last_action(img, draw, y, None, told, 40)
    return img


def round_text(view: CryHavocView, locale: str) -> str:
    """ "Round 2/5": the rounds the game will have are this one and one per event stack left on the
    score track, so a game shortened by stacking (or over) never shows a round it will not play."""
    number = view.get("round", 1)
    left = len((view.get("events") or {}).get("track") or ())
    rnd = tr("render.ch.round", locale, round=number, max=number + left)
    if view.get("final"):
        rnd += " · " + tr("render.ch.final", locale)
    return rnd


def strip(view: CryHavocView, names: Mapping[str, str], locale: str, width: int) -> Image.Image:
    """One chip per player under the map: name and badge; victory points, hand, reserve."""
    seats = view.get("seats") or []
    chips = []
    for i, info in enumerate(seats):
        color = side_color(i)
        pills: tuple[Pill, ...] = ()
        if i in [int(s) for s in view.get("to_act") or []] and view.get("phase") != "over":
            pills = ((tr("render.ch.badge.to_act", locale), HIGHLIGHT, INK),)
        result = view.get("result")
        winners = (result.get("winners") if result else None) or []
        if info.get("id") in winners:
            pills = ((tr("render.ch.badge.winner", locale), HIGHLIGHT, INK),)
        mark = token(side_shape(i), color, 30)
        name = player_name(names, info.get("id"))
        pills += away_pill(info, locale)
        chips.append(Chip(mark, name, (tint(color, 0.85), color), pills, seat_counts(info, locale)))
    return chip_row(chips, width, max(2, len(seats)))


def seat_counts(info: SeatView, locale: str) -> tuple[tuple[str, str], ...]:
    """A player's counts, as the chip shows them: victory points, hand, reserve."""
    return (
        ("", tr("render.ch.vp", locale, vp=info.get("vp", 0))),
        (tr("render.ch.count.hand", locale), str(info.get("hand", 0))),
        (tr("render.ch.count.reserve", locale), str(info.get("reserve", 0))),
    )


def glance(shown: Mapping[str, object], names: Mapping[str, str], locale: str) -> Glance:
    """What the map's status and chips say, in words: for the image's alt text. ``render.describe``
    hands every game's view alike, picked by its ``game``: this one is a Cry Havoc view."""
    view = cast("CryHavocView", shown)
    keys = ("render.ch.last", "render.ch.last.none")
    seats = view.get("seats") or []
    phase = tr(f"render.ch.phase.{view.get('phase', 'actions')}", locale)
    return Glance(
        title=tr("render.ch.title", locale),
        round=round_text(view, locale),
        lines=(*status_lines(view, names, locale), phase),
        last=last_text(view.get("last"), keys, locale, lambda seat: seat_label(view, seat, names, locale)),
        seats=tuple(
            (
                f"{player_name(names, info.get('id'))} ({faction_name(str(info.get('faction')), locale)})",
                seat_counts(info, locale),
            )
            for info in seats
        ),
    )


def _panel(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A white panel with a rule edge, on the page colour (opaque, so it is pasted, not blended)."""
    return framed(width, height, (*PAPER, 255))


def _order_row(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: CryHavocView,
    seats: list[int],
    names: Mapping[str, str],
    locale: str,
    x: float,
    cy: float,
    right: float,
) -> None:
    """The seats in ``seats``' order from ``x``, each after its mark; when the names do not all fit
    before ``right``, the longest are shortened to the same width so that every seat stays listed."""
    labels = [f"{n + 1}. {seat_label(view, seat, names, locale)}" for n, seat in enumerate(seats)]
    room = _widest_allowed([text_width(label, 20) for label in labels], right - x - 52 * len(labels) + 22)
    for seat, label in zip(seats, labels, strict=True):
        paste_centered(img, token(side_shape(seat), side_color(seat), 24), (x + 12, cy))
        x += 30 + draw_text(draw, (x + 30, cy), label, 20, INK, anchor="lc", max_width=room, words=True) + 22


def _widest_allowed(widths: list[float], total: float) -> float | None:
    """The width to cut the longest of ``widths`` to so that they add up to at most ``total`` (the
    shorter ones keep theirs), or None when they already fit."""
    if sum(widths) <= total:
        return None
    left = total
    for n, w in enumerate(sorted(widths)):
        share = left / (len(widths) - n)
        if w > share:
            return max(0.0, share)
        left -= w
    return None


def tracks(view: CryHavocView, names: Mapping[str, str], locale: str, width: int) -> Image.Image:
    """Score track with event stacks and VP markers; initiative and upcoming orders; the revealed
    events and the pools, wrapped between words so that none is cut."""
    revealed = [name_of(f"ch.event.{e}", locale, e) for e in (view.get("events") or {}).get("revealed") or []]
    decks = ", ".join(
        f"{name_of(f'ch.terrain.{t}', locale, t)} {n}" for t, n in (view.get("terrain_decks") or {}).items()
    )
    notes = wrap(tr("render.ch.events", locale, events=", ".join(revealed) or "-"), 20, width - 2 * PAD, 4)
    notes += wrap(
        tr("render.ch.pools", locale, trogs=view.get("neutral_trogs", 0), decks=decks), 20, width - 2 * PAD, 2
    )
    row = 160
    height = row + 72 + len(notes) * 27 + 8
    img, draw = _panel(width, height)
    draw_text(draw, (PAD, 22), tr("render.ch.score_track", locale), LABEL, INK, anchor="lc", bold=True)
    seats = view.get("seats") or []
    top = max([50] + [int(s.get("vp", 0)) + 5 for s in seats])
    top = (top + 9) // 10 * 10
    x0, x1, ty = PAD + 14, width - PAD - 14, 106

    def at(v: float) -> float:
        return x0 + (x1 - x0) * min(v, top) / top

    draw.rounded_rectangle([x0 - 6, ty - 7, x1 + 6, ty + 7], radius=7, fill=(236, 231, 212), outline=RULE)
    for v in range(0, top + 1, 5):
        draw.line([(at(v), ty - 7), (at(v), ty + 7)], fill=RULE if v % 10 else MUTED, width=1)
        if v % 10 == 0:
            draw_text(draw, (at(v), ty + 22), str(v), 18, MUTED, anchor="mc")
    for stack in (view.get("events") or {}).get("track") or []:
        pos = float(stack.get("pos", 0))
        paste_centered(img, badge(f"E{stack.get('count', 1)}", (90, 70, 110), WHITE, 24), (at(pos), ty))
    placed: dict[int, int] = {}
    for i, s in enumerate(seats):
        vp = int(s.get("vp", 0))
        k = placed.get(vp, 0)
        placed[vp] = k + 1
        paste_centered(img, token(side_shape(i), side_color(i), 24, ""), (at(vp), ty - 22 - k * 15))
    label_w = max(
        text_width(tr("render.ch.initiative", locale), 20, bold=True),
        text_width(tr("render.ch.upcoming", locale), 20, bold=True),
    )
    orders = (("render.ch.initiative", view.get("initiative")), ("render.ch.upcoming", view.get("upcoming")))
    for n, (key, seats_in_order) in enumerate(orders):
        cy = row + n * 34
        draw_text(draw, (PAD, cy), tr(key, locale), 20, MUTED, anchor="lc", bold=True)
        order = [int(s) for s in seats_in_order or []]
        _order_row(img, draw, view, order, names, locale, PAD + label_w + 16, cy, width - PAD)
    for n, line in enumerate(notes):
        draw_text(draw, (PAD, row + 72 + n * 27), line, 20, MUTED, anchor="lc")
    return img


def _units_row(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    side: int | str | None,
    count: int,
    bonus: int,
    x: float,
    cy: float,
    right: float,
) -> None:
    """One side's units on an objective: a mark per unit (the mark and the count past six), then
    the bonus."""
    size = 26
    if count > 6:
        paste_centered(img, token(side_shape(side), side_color(side), size), (x + size / 2, cy))
        x += size + 4
        x += draw_text(draw, (x, cy), f"×{count}", LABEL, INK, anchor="lc", bold=True, role="units") + 8
    else:
        for _ in range(count):
            paste_centered(img, token(side_shape(side), side_color(side), size), (x + size / 2, cy))
            x += size + 3
    if bonus:
        x += 6
        text = f"+{bonus}"
        w = text_width(text, LABEL, bold=True) + 16
        draw.rounded_rectangle([x, cy - 15, x + w, cy + 15], radius=15, fill=HIGHLIGHT, outline=INK, width=2)
        draw_text(draw, (x + w / 2, cy), text, LABEL, INK, anchor="mc", bold=True)
    if not count and not bonus:
        draw_text(draw, (x, cy), "-", LABEL, MUTED, anchor="lc")


BATTLE_ROW = 38


def battle_board(view: CryHavocView, names: Mapping[str, str], locale: str, width: int) -> Image.Image:
    """The battle board of the battle being resolved: objectives in resolution order, both sides.

    It stands under the status, above the map, while a battle is being resolved: it is what the
    players decide on. The order is numbered; a line says so only when the order is reversed."""
    battle = view["battle"]
    assert battle is not None, "drawn only while a battle is being resolved"
    reversed_order = bool(battle.get("reversed"))
    height = 40 + 32 + 3 * BATTLE_ROW + 6 + (30 if reversed_order else 0)
    img, draw = _panel(width, height)
    att, dfn = battle.get("attacker"), battle.get("defender")
    region = name_of(f"ch.region.{battle.get('region')}", locale, str(battle.get("region")))
    region = region[:1].upper() + region[1:]
    head = tr("render.ch.battle.title", locale, number=battle.get("number", 1), region=region)
    draw.rounded_rectangle([0, 0, width - 1, 40], radius=12, fill=(236, 231, 212))
    draw.rectangle([0, 28, width - 1, 40], fill=(236, 231, 212))
    step = tr(f"render.ch.step.{battle.get('step', 'cards')}", locale)
    w = text_width(step, legible(), bold=True) + 24
    right = width - PAD - w
    draw.rounded_rectangle([right, 6, width - PAD, 36], radius=15, fill=INK)
    draw_text(draw, (width - PAD - w / 2, 21), step, legible(), WHITE, anchor="mc", bold=True)
    # while cards are played, a side that folded says so in a pill of its own beside the step, where
    # the title line has room, rather than after its name, where a long one ("the neutral Trogs")
    # would cut it off; once the cards are done, both have folded and the pills would say nothing
    folded = list(battle.get("folded") or [False, False]) if battle.get("step") == "cards" else []
    for i, (side, role) in reversed(list(enumerate(((att, "attacker"), (dfn, "defender"))))):
        if i < len(folded) and folded[i]:
            right = _folded_pill(img, draw, right - 10, side, tr(f"render.ch.battle.folded_{role}", locale))
    room = right - PAD - 12
    draw_text(draw, (PAD, 21), head, 24, INK, anchor="lc", bold=True, max_width=room, words=True)
    order = list(OBJECTIVES)
    if reversed_order:
        order.reverse()
    titles = [f"{n + 1}. {name_of(f'ch.objective.{obj}', locale, obj)}" for n, obj in enumerate(order)]
    widest = max(text_width(title, LABEL, bold=True) for title in titles)
    name_w = round(max(250, min(width / 3, widest + 16)))  # the objectives' column, as wide as they need
    col = (width - name_w - 2 * PAD) // 2
    for i, (side, role) in enumerate(((att, "attacker"), (dfn, "defender"))):
        x = PAD + name_w + i * col
        paste_centered(img, token(side_shape(side), side_color(side), 24), (x + 12, 56))
        label = tr(f"render.ch.battle.{role}", locale, name=seat_label(view, side, names, locale))
        size = shrink(label, LABEL, col - 40, legible(), bold=True)
        draw_text(
            draw, (x + 30, 58), label, size, INK, anchor="lc", bold=True, max_width=col - 40, words=True
        )
    objectives = battle.get("objectives") or {}
    y = 72
    for n, (obj, title) in enumerate(zip(order, titles, strict=True)):
        data = objectives.get(obj) or {}
        cy = y + BATTLE_ROW / 2
        draw.rounded_rectangle(
            [PAD - 6, y + 2, width - PAD + 6, y + BATTLE_ROW - 2],
            radius=8,
            fill=(248, 245, 236) if n % 2 == 0 else PANEL,
        )
        draw_text(
            draw, (PAD, cy), title, LABEL, INK, anchor="lc", bold=True, max_width=name_w - 10, words=True
        )
        for i, (side, role) in enumerate(((att, "attacker"), (dfn, "defender"))):
            x = PAD + name_w + i * col
            count, bonus = int(data.get(role, 0)), int(data.get(f"bonus_{role}", 0))
            _units_row(img, draw, side, count, bonus, x, cy, x + col - 10)
        y += BATTLE_ROW
    if reversed_order:
        note = tr("render.ch.battle.reversed", locale)
        draw_text(draw, (PAD, y + 18), note, 20, MUTED, anchor="lc", max_width=width - 2 * PAD, words=True)
    return img


def _folded_pill(
    img: Image.Image, draw: ImageDraw.ImageDraw, right: float, side: int | str | None, text: str
) -> float:
    """A white pill ending at ``right`` in the battle's title line: the side's mark, then that it
    folded (plays no more cards); returns its left edge."""
    w = 24 + 6 + text_width(text, legible(), bold=True) + 24
    left = right - w
    draw.rounded_rectangle([left, 6, right, 36], radius=15, fill=WHITE, outline=INK, width=2)
    paste_centered(img, token(side_shape(side), side_color(side), 20), (left + 22, 21))
    draw_text(draw, (left + 36, 21), text, legible(), INK, anchor="lc", bold=True)
    return left


ROW_H = 38
TEXT = 20
"""Size of the seat panels' texts."""

Painter = Callable[[Image.Image, ImageDraw.ImageDraw, float, float], None]
Item = tuple[float, Painter]
"""A piece of a seat panel's row: its width and how to draw it at (left, middle)."""


def _chip(draw: ImageDraw.ImageDraw, x: float, y: float, w: float, label: str, value: str) -> None:
    draw.rounded_rectangle([x, y, x + w, y + 42], radius=10, fill=(244, 240, 230))
    value_w = draw_text(draw, (x + w - 10, y + 21), value, 24, INK, anchor="rc", bold=True, role="count")
    room = w - value_w - 28
    size = shrink(label, TEXT, room, 17)
    draw_text(draw, (x + 10, y + 21), label, size, MUTED, anchor="lc", max_width=room, words=True)


def _text_item(text: str, color: RGB, room: float, *, mark: Image.Image | None = None) -> Item:
    """A text (after a mark), shortened at a word when even a row of its own is too narrow."""
    lead = 0.0 if mark is None else mark.width + 6
    shown = fit(text, TEXT, room - lead, words=True)
    width = lead + text_width(shown, TEXT)

    def paint(img: Image.Image, draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        if mark is not None:
            paste_centered(img, mark, (x + mark.width / 2, cy))
        draw_text(draw, (x + lead, cy), shown, TEXT, color, anchor="lc")

    return width, paint


def _pill_item(text: str, fill: RGB, edge: RGB, ink: RGB, room: float) -> Item:
    shown = fit(text, TEXT - 1, room - 20, words=True)
    width = text_width(shown, TEXT - 1) + 20

    def paint(img: Image.Image, draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        draw.rounded_rectangle([x, cy - 15, x + width, cy + 15], radius=15, fill=fill, outline=edge, width=2)
        draw_text(draw, (x + 10, cy), shown, TEXT - 1, ink, anchor="lc")

    return width, paint


def _lines(items: list[Item], start: float, right: float) -> list[list[tuple[float, Item]]]:
    """``items`` laid out from ``start`` to ``right``, 10 pixels apart, onto as many lines as they
    need (every line after the first starting at ``start`` too)."""
    lines: list[list[tuple[float, Item]]] = [[]]
    x = start
    for item in items:
        if lines[-1] and x + item[0] > right:
            lines.append([])
            x = start
        lines[-1].append((x, item))
        x += item[0] + 10
    return lines


def seat_panel(
    view: CryHavocView, seat: int, names: Mapping[str, str], locale: str, width: int
) -> Image.Image:
    """One player: name, faction and VP; hand, deck, discard, reserve; skills; structures left;
    prisoners. A row whose items do not fit goes on to a second line rather than cutting words."""
    info = (view.get("seats") or [])[seat]
    color = side_color(seat)
    right = width - PAD
    rows: list[tuple[str, list[Item]]] = []
    label_w = max(
        text_width(tr(key, locale), TEXT - 1, bold=True)
        for key in ("render.ch.skills", "render.ch.structures", "render.ch.prisoners")
    )
    start = PAD + label_w + 12
    room = right - start
    skills: list[Item] = []
    for skill in info.get("skills") or []:
        label = name_of(f"ch.skill.{skill.get('id')}", locale, str(skill.get("id")))
        if skill.get("exhausted"):
            label += " (" + tr("render.ch.exhausted", locale) + ")"
            skills.append(_pill_item(label, (230, 226, 218), MUTED, MUTED, room))
        else:
            skills.append(_pill_item(label, tint(color, 0.75), color, INK, room))
    rows.append((tr("render.ch.skills", locale), skills))
    built = [
        _text_item(
            f"{name_of(f'ch.structure.{kind}', locale, kind)} ×{left}",
            INK if left else MUTED,
            room,
            mark=structure_mark(str(kind), seat, 26, locale),
        )
        for kind, left in (info.get("structures_left") or {}).items()
    ]
    rows.append((tr("render.ch.structures", locale), built))
    held = [(k, int(v)) for k, v in (info.get("prisoners_held") or {}).items() if int(v) > 0]
    prisoners: list[Item] = []
    for key, count in held:
        who: int | str = int(key) if key.isdigit() else "trogs"
        mark = token(side_shape(who), side_color(who), 28, str(count))
        prisoners.append(_text_item(seat_label(view, who, names, locale), INK, room, mark=mark))
    if not prisoners:
        prisoners.append(_text_item(tr("render.ch.none", locale), MUTED, room))
    rows.append((tr("render.ch.prisoners", locale), prisoners))
    laid = [(label, _lines(items, start, right)) for label, items in rows]
    height = HEADER_H + 10 + 52 + sum(len(lines) for _label, lines in laid) * ROW_H + 8
    img, draw = _panel(width, height)

    header_band(draw, width, tint(color, 0.8))
    draw.line([(0, HEADER_H), (width - 1, HEADER_H)], fill=color, width=3)
    paste_centered(img, token(side_shape(seat), color, 34), (PAD + 17, HEADER_H / 2))
    vp = tr("render.ch.vp", locale, vp=info.get("vp", 0))
    vp_w = draw_text(draw, (width - PAD, HEADER_H / 2), vp, 28, INK, anchor="rc", bold=True)
    edge = width - PAD - vp_w - 12
    if seat in [int(s) for s in view.get("to_act") or []] and view.get("phase") != "over":
        edge = pill(draw, edge, HEADER_H / 2, tr("render.ch.badge.to_act", locale), HIGHLIGHT, INK) - 10
    name = player_name(names, info.get("id"))
    faction = faction_name(str(info.get("faction")), locale)
    x: float = PAD + 44
    name_room = max(40.0, edge - x - min(text_width(faction, TEXT) + 12, (edge - x) / 2))
    x += draw_text(
        draw, (x, HEADER_H / 2), name, 24, INK, anchor="lc", bold=True, max_width=name_room, words=True
    )
    draw_text(
        draw,
        (x + 12, HEADER_H / 2),
        faction,
        TEXT,
        MUTED,
        anchor="lc",
        max_width=max(20, edge - x - 12),
        words=True,
    )
    y = HEADER_H + 10
    cw = (width - 2 * PAD - 3 * 8) / 4
    chips = [
        ("hand", info.get("hand", 0)),
        ("deck", info.get("deck", 0)),
        ("discard", len(info.get("discard") or [])),
        ("reserve", info.get("reserve", 0)),
    ]
    for n, (key, value) in enumerate(chips):
        _chip(draw, PAD + n * (cw + 8), y, cw, tr(f"render.ch.count.{key}", locale), str(value))
    y += 52
    for label, lines in laid:
        draw_text(draw, (PAD, y + ROW_H / 2), label, TEXT - 1, MUTED, anchor="lc", bold=True)
        for line in lines:
            for x0, (_w, paint) in line:
                paint(img, draw, x0, y + ROW_H / 2)
            y += ROW_H
    return img


LEGEND_ROW = 52
LEGEND_LINES = 3
"""Lines a legend entry may take: French needs three for the crystal values."""


@lru_cache(maxsize=8)
def legend(locale: str, width: int) -> Image.Image:
    """What the marks mean: terrain, crystals, tokens, control, structures, walls and edge arrows,
    two to a row, each text on up to two lines between words."""
    from render.cryhavoc.board import (
        FRAME_BAND,
        control_frame,
        crystal_value,
        tile,
        trog_strength,
        trog_token,
    )

    entries: list[tuple[str, str, str]] = []
    for t in ("mountain", "desert", "jungle", "ocean"):
        entries.append(("terrain", t, name_of(f"ch.terrain.{t}", locale, t)))
    tokens = tr(
        "render.ch.legend.tokens",
        locale,
        war_party=tr("render.ch.token.war_party", locale),
        nest=tr("render.ch.token.nest", locale),
        tunnel=tr("render.ch.token.tunnel", locale),
    )
    entries += [
        ("crystals", "", tr("render.ch.legend.crystals", locale)),
        ("control", "", tr("render.ch.legend.control", locale)),
        ("units", "", tr("render.ch.legend.units", locale)),
        ("tokens", "", tokens),
        ("battle", "", tr("render.ch.legend.battle", locale)),
        ("structure", "", tr("render.ch.legend.structure", locale)),
        ("wall", "", tr("render.ch.legend.wall", locale)),
        ("arrow", "", tr("render.ch.legend.arrow", locale)),
    ]
    half = (width - 2 * PAD) / 2
    tokens_mark = trog_token(tr("render.ch.token.war_party", locale), trog_strength("war_party"))
    icon_w = max(112, tokens_mark.width + 16)  # the texts start past the widest mark
    wrapped = [wrap(text, 19, half - icon_w - 16, LEGEND_LINES) for _kind, _arg, text in entries]
    # a row is as tall as its longer text: three lines where a language needs them
    heights = [
        max(LEGEND_ROW, max(len(lines) for lines in wrapped[n : n + 2]) * 22 + 10)
        for n in range(0, len(entries), 2)
    ]
    height = 16 + sum(heights) + 8
    img, draw = _panel(width, height)
    for n, ((kind, arg, _text), lines) in enumerate(zip(entries, wrapped, strict=True)):
        col, row = n % 2, n // 2
        x = PAD + col * half
        cy = 16 + sum(heights[:row]) + heights[row] / 2
        if kind == "terrain":
            paste_centered(img, tile(arg, "land", 80, 44, None), (x + 40, cy))
        elif kind == "crystals":
            paste_centered(img, crystal_value(4, "yellow"), (x + 30, cy))
        elif kind == "control":
            box = (x, cy - 22, x + 80, cy + 22)
            draw.rounded_rectangle(box, radius=12, fill=(236, 231, 212))
            control_frame(draw, box, side_color(1))
            paste_centered(img, token("square", side_color(1), 22, "", True), (x + 64 - FRAME_BAND, cy))
        elif kind == "units":
            paste_centered(img, token("triangle", side_color(2), 26), (x + 13, cy))
            draw_text(draw, (x + 29, cy), "3", LABEL, INK, anchor="lc", bold=True)
            paste_centered(img, token("hexagon", side_color("trogs"), 26), (x + 59, cy))
            draw_text(draw, (x + 75, cy), "2", LABEL, INK, anchor="lc", bold=True)
        elif kind == "tokens":
            paste_centered(img, tokens_mark, (x + tokens_mark.width / 2, cy))
        elif kind == "battle":
            paste_centered(img, badge("1", HIGHLIGHT, INK, 28, INK), (x + 14, cy))
        elif kind == "structure":
            paste_centered(img, structure_mark("hu_barracks", 3, 28, locale), (x + 14, cy))
        elif kind == "wall":
            draw.rounded_rectangle(
                [x + 4, cy - 16, x + 76, cy + 16], radius=8, fill=(120, 98, 78), outline=(40, 32, 26), width=6
            )
        elif kind == "arrow":
            draw.line([(x + 2, cy), (x + 30, cy)], fill=(120, 110, 92), width=6)
            draw.polygon([(x + 40, cy), (x + 28, cy - 9), (x + 28, cy + 9)], fill=(120, 110, 92))
            draw.ellipse([x + 44, cy - 14, x + 72, cy + 14], fill=INK)
            draw_text(draw, (x + 58, cy), "A", LABEL - 1, WHITE, anchor="mc", bold=True)
        for k, line in enumerate(lines):
            at = (x + icon_w, cy + (k - (len(lines) - 1) / 2) * 22)
            draw_text(draw, at, line, 19, INK, anchor="lc")
    return img
