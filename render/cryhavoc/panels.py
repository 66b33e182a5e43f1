"""The Cry Havoc panels around the map: status, tracks, battle board, one panel per player, legend.

The status says what the game waits for (phase, whose action, what is pending, the result) and the
last action. The tracks show the score track with its event stacks, the initiative and upcoming
initiative orders and the revealed events. While a battle is being resolved the battle board shows
each objective in resolution order with both sides' units and bonuses and who has folded.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.catalog import has_key, player_name, tr
from render.common import HIGHLIGHT, INK, MUTED, PANEL, PAPER, RULE, WHITE, paste_centered
from render.cryhavoc.board import structure_mark
from render.cryhavoc.style import (
    badge,
    crystal,
    faction_name,
    name_of,
    seat_label,
    side_color,
    side_shape,
    tint,
    token,
)
from render.panels import (
    HEADER_H,
    PAD,
    framed,
    header_band,
    heading,
    last_action,
    last_text,
    phase_pills,
    result_lines,
    status_box,
)
from render.text import draw_text, fit, shrink, text_width

OBJECTIVES = ("control", "prisoners", "attrition")
ROUNDS = 5


def acting_seat(view: Mapping[str, Any]) -> int | None:
    to_act = [int(i) for i in view.get("to_act") or []]
    return to_act[0] if len(to_act) == 1 else None


def phase_key(view: Mapping[str, Any]) -> str:
    """The phase as players name it; a battle step or a pending choice counts as its own phase."""
    phase = str(view.get("phase", "actions"))
    battle = view.get("battle")
    if phase == "battle" and battle:
        return f"battle_{battle.get('step', 'cards')}"
    return phase


def status_lines(view: Mapping[str, Any], names: Mapping[str, str], locale: str) -> tuple[str, str]:
    """The main line (what the game waits for, or the result) and a second line (or "")."""
    result = view.get("result")
    if view.get("phase") == "over" or result:
        keys = ("render.ch.over.win", "render.ch.over.draw")
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


def status(view: Mapping[str, Any], names: Mapping[str, str], locale: str, width: int) -> Image.Image:
    """Title, round and phase; the box saying who acts (or the result); the last action."""
    main, sub = status_lines(view, names, locale)
    box_h = 64 + (36 if sub else 0)
    height = 50 + box_h + 12 + 40
    img = Image.new("RGBA", (width, height), (*PAPER, 255))
    draw = ImageDraw.Draw(img)
    rnd = tr("render.ch.round", locale, round=view.get("round", 1), max=ROUNDS)
    if view.get("final"):
        rnd += " · " + tr("render.ch.final", locale)
    x = heading(draw, tr("render.ch.title", locale), rnd)
    phase_pills(draw, [tr(f"render.ch.phase.{view.get('phase', 'actions')}", locale)], width, x)
    y = 50
    over = view.get("phase") == "over" or bool(view.get("result"))
    pending = view.get("pending") or {}
    seat = pending.get("seat") if pending else acting_seat(view)
    fill = HIGHLIGHT if over else tint(side_color(seat), 0.8) if seat is not None else PANEL
    mark = token(side_shape(seat), side_color(seat), 36) if not over and seat is not None else None
    status_box(img, draw, (y, width, box_h), fill, mark, (main, sub))
    y += box_h + 12
    keys = ("render.ch.last", "render.ch.last.none")
    text = last_text(view.get("last"), keys, locale, lambda seat: seat_label(view, seat, names, locale))
    draw.rectangle([6, y + 9, 24, y + 27], outline=INK, width=2)
    draw.rectangle([8, y + 11, 22, y + 25], outline=HIGHLIGHT, width=3)
    last_action(img, draw, y, None, text, 40)
    return img


def _panel(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A white panel with a rule edge, on the page colour (opaque, so it is pasted, not blended)."""
    return framed(width, height, (*PAPER, 255))


def _order_row(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
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
    room = _widest_allowed([text_width(label, 19) for label in labels], right - x - 52 * len(labels) + 22)
    for seat, label in zip(seats, labels, strict=True):
        paste_centered(img, token(side_shape(seat), side_color(seat), 24), (x + 12, cy))
        x += 30 + draw_text(draw, (x + 30, cy), label, 19, INK, anchor="lc", max_width=room) + 22


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


def tracks(view: Mapping[str, Any], names: Mapping[str, str], locale: str, width: int) -> Image.Image:
    """Score track with event stacks and VP markers; initiative and upcoming orders; events; pools."""
    height = 266
    img, draw = _panel(width, height)
    draw_text(draw, (PAD, 22), tr("render.ch.score_track", locale), 21, INK, anchor="lc", bold=True)
    seats = view.get("seats") or []
    top = max([50] + [int(s.get("vp", 0)) + 5 for s in seats])
    top = (top + 9) // 10 * 10
    x0, x1, ty = PAD + 14, width - PAD - 14, 104

    def at(v: float) -> float:
        return x0 + (x1 - x0) * min(v, top) / top

    draw.rounded_rectangle([x0 - 6, ty - 7, x1 + 6, ty + 7], radius=7, fill=(236, 231, 212), outline=RULE)
    for v in range(0, top + 1, 5):
        draw.line([(at(v), ty - 7), (at(v), ty + 7)], fill=RULE if v % 10 else MUTED, width=1)
        if v % 10 == 0:
            draw_text(draw, (at(v), ty + 20), str(v), 15, MUTED, anchor="mc")
    for stack in (view.get("events") or {}).get("track") or []:
        pos = float(stack.get("pos", 0))
        paste_centered(img, badge(f"E{stack.get('count', 1)}", (90, 70, 110), WHITE, 22), (at(pos), ty))
    placed: dict[int, int] = {}
    for i, s in enumerate(seats):
        vp = int(s.get("vp", 0))
        k = placed.get(vp, 0)
        placed[vp] = k + 1
        paste_centered(img, token(side_shape(i), side_color(i), 22, ""), (at(vp), ty - 20 - k * 14))
    row = 156
    draw_text(draw, (PAD, row), tr("render.ch.initiative", locale), 19, MUTED, anchor="lc", bold=True)
    label_w = max(
        text_width(tr("render.ch.initiative", locale), 19, bold=True),
        text_width(tr("render.ch.upcoming", locale), 19, bold=True),
    )
    _order_row(
        img,
        draw,
        view,
        [int(s) for s in view.get("initiative") or []],
        names,
        locale,
        PAD + label_w + 16,
        row,
        width - PAD,
    )
    draw_text(draw, (PAD, row + 32), tr("render.ch.upcoming", locale), 19, MUTED, anchor="lc", bold=True)
    _order_row(
        img,
        draw,
        view,
        [int(s) for s in view.get("upcoming") or []],
        names,
        locale,
        PAD + label_w + 16,
        row + 32,
        width - PAD,
    )
    revealed = [name_of(f"ch.event.{e}", locale, e) for e in (view.get("events") or {}).get("revealed") or []]
    decks = ", ".join(
        f"{name_of(f'ch.terrain.{t}', locale, t)} {n}" for t, n in (view.get("terrain_decks") or {}).items()
    )
    line = tr("render.ch.events", locale, events=", ".join(revealed) or "-")
    draw_text(draw, (PAD, row + 64), line, 17, MUTED, anchor="lc", max_width=width - 2 * PAD)
    line = tr("render.ch.pools", locale, trogs=view.get("neutral_trogs", 0), decks=decks)
    draw_text(draw, (PAD, row + 88), line, 17, MUTED, anchor="lc", max_width=width - 2 * PAD)
    return img


def _units_row(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    side: Any,
    count: int,
    bonus: int,
    x: float,
    cy: float,
    right: float,
) -> None:
    """One side's units on an objective: a mark per unit (a count past eight), then the bonus."""
    size = 26
    if count > 8:
        paste_centered(
            img, token(side_shape(side), side_color(side), size + 4, str(count)), (x + size / 2, cy)
        )
        x += size + 10
    else:
        for _ in range(count):
            paste_centered(img, token(side_shape(side), side_color(side), size), (x + size / 2, cy))
            x += size + 3
    if bonus:
        x += 6
        text = f"+{bonus}"
        w = text_width(text, 19, bold=True) + 16
        draw.rounded_rectangle([x, cy - 14, x + w, cy + 14], radius=14, fill=HIGHLIGHT, outline=INK, width=2)
        draw_text(draw, (x + w / 2, cy), text, 19, INK, anchor="mc", bold=True)
    if not count and not bonus:
        draw_text(draw, (x, cy), "-", 20, MUTED, anchor="lc")


def battle_board(view: Mapping[str, Any], names: Mapping[str, str], locale: str, width: int) -> Image.Image:
    """The battle board of the battle being resolved: objectives in resolution order, both sides."""
    battle = view["battle"]
    height = 76 + 3 * 50 + 46
    img, draw = _panel(width, height)
    att, dfn = battle.get("attacker"), battle.get("defender")
    region = name_of(f"ch.region.{battle.get('region')}", locale, str(battle.get("region")))
    region = region[:1].upper() + region[1:]
    head = tr("render.ch.battle.title", locale, number=battle.get("number", 1), region=region)
    draw.rounded_rectangle([0, 0, width - 1, 44], radius=12, fill=(236, 231, 212))
    draw.rectangle([0, 32, width - 1, 44], fill=(236, 231, 212))
    step = tr(f"render.ch.step.{battle.get('step', 'cards')}", locale)
    w = text_width(step, 19, bold=True) + 24
    draw_text(draw, (PAD, 22), head, 24, INK, anchor="lc", bold=True, max_width=width - 2 * PAD - w - 12)
    draw.rounded_rectangle([width - PAD - w, 8, width - PAD, 36], radius=14, fill=INK)
    draw_text(draw, (width - PAD - w / 2, 22), step, 19, WHITE, anchor="mc", bold=True)
    order = list(OBJECTIVES)
    if battle.get("reversed"):
        order.reverse()
    titles = [f"{n + 1}. {name_of(f'ch.objective.{obj}', locale, obj)}" for n, obj in enumerate(order)]
    widest = max(text_width(title, 20, bold=True) for title in titles)
    name_w = round(max(250, min(width / 3, widest + 16)))  # the objectives' column, as wide as they need
    col = (width - name_w - 2 * PAD) // 2
    folded = list(battle.get("folded") or [False, False])
    for i, (side, role) in enumerate(((att, "attacker"), (dfn, "defender"))):
        x = PAD + name_w + i * col
        paste_centered(img, token(side_shape(side), side_color(side), 24), (x + 12, 62))
        label = tr(f"render.ch.battle.{role}", locale, name=seat_label(view, side, names, locale))
        if i < len(folded) and folded[i]:
            label += " · " + tr("render.ch.battle.folded", locale)
        draw_text(draw, (x + 30, 62), label, 19, INK, anchor="lc", bold=True, max_width=col - 40)
    objectives = battle.get("objectives") or {}
    y = 84
    for n, (obj, title) in enumerate(zip(order, titles, strict=True)):
        data = objectives.get(obj) or {}
        cy = y + 22
        draw.rounded_rectangle(
            [PAD - 6, y, width - PAD + 6, y + 44], radius=8, fill=(248, 245, 236) if n % 2 == 0 else PANEL
        )
        draw_text(draw, (PAD, cy), title, 20, INK, anchor="lc", bold=True, max_width=name_w - 10)
        for i, (side, role) in enumerate(((att, "attacker"), (dfn, "defender"))):
            x = PAD + name_w + i * col
            _units_row(
                img,
                draw,
                side,
                int(data.get(role, 0)),
                int(data.get(f"bonus_{role}", 0)),
                x,
                cy,
                x + col - 10,
            )
        y += 50
    note = tr("render.ch.battle.reversed" if battle.get("reversed") else "render.ch.battle.order", locale)
    draw_text(draw, (PAD, y + 16), note, 18, MUTED, anchor="lc", max_width=width - 2 * PAD)
    return img


PANEL_H = 262


def _chip(draw: ImageDraw.ImageDraw, x: float, y: float, w: float, label: str, value: str) -> None:
    draw.rounded_rectangle([x, y, x + w, y + 40], radius=10, fill=(244, 240, 230))
    value_w = draw_text(draw, (x + w - 10, y + 20), value, 23, INK, anchor="rc", bold=True)
    room = w - value_w - 28
    draw_text(draw, (x + 10, y + 20), label, shrink(label, 17, room, 15), MUTED, anchor="lc", max_width=room)


def _row_label(draw: ImageDraw.ImageDraw, cy: float, text: str) -> float:
    """The grey label that starts a row of a seat panel; returns where the row's items begin."""
    return PAD + draw_text(draw, (PAD, cy), text, 18, MUTED, anchor="lc", bold=True) + 10


def seat_panel(
    view: Mapping[str, Any], seat: int, names: Mapping[str, str], locale: str, width: int
) -> Image.Image:
    """One player: name, faction and VP; hand, deck, reserve; skills; structures left; prisoners."""
    info = (view.get("seats") or [])[seat]
    img, draw = _panel(width, PANEL_H)
    color = side_color(seat)
    header_band(draw, width, tint(color, 0.8))
    draw.line([(0, HEADER_H), (width - 1, HEADER_H)], fill=color, width=3)
    paste_centered(img, token(side_shape(seat), color, 34), (PAD + 17, HEADER_H / 2))
    vp = tr("render.ch.vp", locale, vp=info.get("vp", 0))
    vp_w = draw_text(draw, (width - PAD, HEADER_H / 2), vp, 28, INK, anchor="rc", bold=True)
    right = width - PAD - vp_w - 12
    if seat in [int(s) for s in view.get("to_act") or []] and view.get("phase") != "over":
        text = tr("render.ch.badge.to_act", locale)
        w = text_width(text, 16, bold=True) + 20
        draw.rounded_rectangle(
            [right - w, HEADER_H / 2 - 14, right, HEADER_H / 2 + 14],
            radius=14,
            fill=HIGHLIGHT,
            outline=INK,
            width=2,
        )
        draw_text(draw, (right - w / 2, HEADER_H / 2), text, 16, INK, anchor="mc", bold=True)
        right -= w + 10
    name = player_name(names, info.get("id"))
    x: float = PAD + 44
    x += draw_text(
        draw, (x, HEADER_H / 2), name, 24, INK, anchor="lc", bold=True, max_width=max(40, right - x - 120)
    )
    faction = faction_name(str(info.get("faction")), locale)
    draw_text(
        draw, (x + 12, HEADER_H / 2), faction, 20, MUTED, anchor="lc", max_width=max(20, right - x - 16)
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
    cy = y + 16
    x = _row_label(draw, cy, tr("render.ch.skills", locale))
    for skill in info.get("skills") or []:
        label = name_of(f"ch.skill.{skill.get('id')}", locale, str(skill.get("id")))
        tired = bool(skill.get("exhausted"))
        if tired:
            label += " (" + tr("render.ch.exhausted", locale) + ")"
        w = text_width(label, 17) + 20
        if x + w > width - PAD:
            break
        draw.rounded_rectangle(
            [x, cy - 14, x + w, cy + 14],
            radius=14,
            fill=(230, 226, 218) if tired else tint(color, 0.75),
            outline=MUTED if tired else color,
            width=2,
        )
        draw_text(draw, (x + 10, cy), label, 17, MUTED if tired else INK, anchor="lc")
        x += w + 8
    y += 40
    cy = y + 16
    x = _row_label(draw, cy, tr("render.ch.structures", locale))
    kinds = list((info.get("structures_left") or {}).items())
    kind_names = [name_of(f"ch.structure.{kind}", locale, kind) for kind, _left in kinds]
    suffixes = [f" ×{left}" for _kind, left in kinds]
    fixed = sum(28 + text_width(suffix, 17) + 12 for suffix in suffixes)
    room = _widest_allowed([text_width(n, 17) for n in kind_names], width - PAD - x - fixed + 12)
    for (kind, left), kind_name, suffix in zip(kinds, kind_names, suffixes, strict=True):
        label = (kind_name if room is None else fit(kind_name, 17, room)) + suffix
        paste_centered(img, structure_mark(str(kind), seat, 24, locale), (x + 12, cy))
        x += 28 + draw_text(draw, (x + 28, cy), label, 17, INK if left else MUTED, anchor="lc") + 12
    y += 40
    cy = y + 16
    x = _row_label(draw, cy, tr("render.ch.prisoners", locale)) + 2
    held = [(k, int(v)) for k, v in (info.get("prisoners_held") or {}).items() if int(v) > 0]
    if not held:
        draw_text(draw, (x, cy), tr("render.ch.none", locale), 17, MUTED, anchor="lc")
    sides: list[int | str] = [int(key) if key.isdigit() else "trogs" for key, _count in held]
    labels = [seat_label(view, who, names, locale) for who in sides]
    widths = [min(160, text_width(label, 17)) for label in labels]
    shared = _widest_allowed(widths, width - PAD - x - 46 * len(labels) + 14)
    room = 160 if shared is None else shared
    for (_key, count), who, label in zip(held, sides, labels, strict=True):
        paste_centered(img, token(side_shape(who), side_color(who), 26, str(count)), (x + 13, cy))
        x += 32 + draw_text(draw, (x + 32, cy), label, 17, INK, anchor="lc", max_width=room) + 14
    return img


@lru_cache(maxsize=8)
def legend(locale: str, width: int) -> Image.Image:
    """What the marks mean: terrain, crystals, tokens, control, structures, walls and edge arrows."""
    rows = 6
    height = 24 + rows * 40 + 10
    img, draw = _panel(width, height)
    half = (width - 2 * PAD) / 2
    entries: list[tuple[Any, str]] = []
    for t in ("mountain", "desert", "jungle", "ocean"):
        entries.append((("terrain", t), name_of(f"ch.terrain.{t}", locale, t)))
    entries.append((("crystals", ""), tr("render.ch.legend.crystals", locale)))
    entries.append((("control", ""), tr("render.ch.legend.control", locale)))
    entries.append((("units", ""), tr("render.ch.legend.units", locale)))
    entries.append(
        (
            ("tokens", ""),
            tr(
                "render.ch.legend.tokens",
                locale,
                war_party=tr("render.ch.token.war_party", locale),
                nest=tr("render.ch.token.nest", locale),
                tunnel=tr("render.ch.token.tunnel", locale),
            ),
        )
    )
    entries.append((("battle", ""), tr("render.ch.legend.battle", locale)))
    entries.append((("structure", ""), tr("render.ch.legend.structure", locale)))
    entries.append((("wall", ""), tr("render.ch.legend.wall", locale)))
    entries.append((("arrow", ""), tr("render.ch.legend.arrow", locale)))
    from render.cryhavoc.board import tile

    for n, (icon, text) in enumerate(entries):
        col, row = n % 2, n // 2
        x = PAD + col * half
        cy = 24 + row * 40 + 10
        kind, arg = icon
        icon_w = 64
        if kind == "terrain":
            paste_centered(img, tile(arg, "land", 56, 34 + 10, None).crop((0, 10, 56, 44)), (x + 28, cy))
        elif kind == "crystals":
            for k, c in enumerate(("green", "yellow", "red")):
                paste_centered(img, crystal(c, 22), (x + 11 + k * 21, cy))
        elif kind == "control":
            paste_centered(img, token("circle", side_color(0), 24, "", True), (x + 14, cy))
            paste_centered(img, token("square", side_color(1), 24, "", True), (x + 42, cy))
        elif kind == "units":
            paste_centered(img, token("triangle", side_color(2), 26, "3"), (x + 14, cy))
            paste_centered(img, token("hexagon", side_color("trogs"), 26, "2"), (x + 44, cy))
        elif kind == "tokens":
            paste_centered(img, badge("?", (250, 240, 200), INK, 22), (x + 12, cy))
            paste_centered(
                img, badge(tr("render.ch.token.war_party", locale), (110, 80, 60), WHITE, 22), (x + 44, cy)
            )
        elif kind == "battle":
            paste_centered(img, badge("1", HIGHLIGHT, INK, 24, INK), (x + 14, cy))
        elif kind == "structure":
            paste_centered(img, structure_mark("hu_barracks", 3, 26, locale), (x + 14, cy))
        elif kind == "wall":
            draw.rounded_rectangle(
                [x + 4, cy - 14, x + 54, cy + 14], radius=8, fill=(120, 98, 78), outline=(40, 32, 26), width=6
            )
        elif kind == "arrow":
            draw.line([(x + 2, cy), (x + 28, cy)], fill=(120, 110, 92), width=5)
            draw.polygon([(x + 36, cy), (x + 26, cy - 8), (x + 26, cy + 8)], fill=(120, 110, 92))
            draw.ellipse([x + 38, cy - 12, x + 62, cy + 12], fill=INK)
            draw_text(draw, (x + 50, cy), "A", 15, WHITE, anchor="mc", bold=True)
        draw_text(draw, (x + icon_w + 8, cy), text, 17, INK, anchor="lc", max_width=half - icon_w - 16)
    return img
