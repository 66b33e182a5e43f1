"""The Batailles panels: the status above the battlefield and the armies' strip under it; in the
details image, one roster per army and the legend.

The status says what the game waits for (phase, who acts, how many activations are left, the troop
acting now, the dice of an attack being resolved, the result). The strip holds the counts that
decide the game (advantage points, losses against the defeat threshold, troops in play). Each
army's roster lists every troop with its zone and its characteristics in large type: on the
battlefield a troop shows them only when it has two places to itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import cast

from PIL import Image, ImageDraw

from engine.batailles.view import BataillesView, CombatView, SeatView, TroopView
from render.alt import Glance
from render.batailles.board import profile_of, troop_state
from render.batailles.field import (
    FieldMap,
    Terrain,
    advantage_badge,
    empty_field,
    grid_for,
    zone_label,
    zone_of,
)
from render.batailles.sprites import (
    ACTIVE,
    DONE,
    die_face,
    facing_mark,
    hits_badge,
    removed_badge,
    troop_bar,
    zone_outline,
)
from render.batailles.style import ACTIVATIONS_PER_TURN, seat_color, seat_tint, stat_letters
from render.catalog import player_name, tr
from render.common import HIGHLIGHT, INK, MUTED, PANEL, PAPER, RULE, WHITE, paste_centered
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
    heading,
    icon_grid,
    last_action,
    last_text,
    phase_pills,
    result_lines,
    seat_header,
    status_box,
    status_height,
)
from render.text import draw_text, shrink, text_width

ROW_H = 38
CHIP_H = 58


def seat_label(view: BataillesView, names: Mapping[str, str], seat: int) -> str:
    seats = view.get("seats") or []
    if 0 <= seat < len(seats):
        return player_name(names, seats[seat].get("id"))
    return "?"


def _joined(view: BataillesView, names: Mapping[str, str], seats: Sequence[int]) -> str:
    return ", ".join(seat_label(view, names, int(i)) for i in seats)


def _deploy_rows(
    view: BataillesView, names: Mapping[str, str], seat: int, rows: Sequence[int], locale: str
) -> str:
    """A player still deploying and the rows they deploy in, as players count them ("alice in rows
    1-2"): which rows are whose is what a first deployment needs to know."""
    if not rows:
        return seat_label(view, names, seat)
    first, last = min(rows) + 1, max(rows) + 1
    count = last - first + 1
    return tr(
        "render.bt.deploy_rows",
        locale,
        name=seat_label(view, names, seat),
        first=first,
        last=last,
        count=count,
    )


def phase_key(view: BataillesView) -> str:
    """The phase as players think of it: a pending loss or morale test, or rerolls, are phases too."""
    phase = str(view.get("phase", "play"))
    if phase == "play":
        pending = view.get("pending")
        if pending and pending.get("kind") in ("loss", "morale"):
            return str(pending["kind"])
        if view.get("combat"):
            return "reroll"
    return phase


def status_lines(view: BataillesView, names: Mapping[str, str], locale: str) -> tuple[str, str]:
    """The main line (what the game waits for, or the result) and a second line (or "")."""
    result = view.get("result")
    if view.get("phase") == "over" or result:
        keys = ("render.bt.over.win", "render.bt.over.draw", "render.bt.over.aborted")
        return result_lines(result, keys, locale, names)
    to_act = [int(i) for i in view.get("to_act") or []]
    phase = phase_key(view)
    if phase == "deploy":  # each army hidden from the other side: the viewer's own, or counts only
        rows = (view.get("board") or {}).get("deploy") or {}
        placing = [_deploy_rows(view, names, seat, rows.get(str(seat)) or [], locale) for seat in to_act]
        own = "own" if view.get("private") else "hidden"
        return tr("render.bt.main.deploy", locale, players=placing), tr(f"render.bt.deploy.{own}", locale)
    if phase in ("build", "retrain"):
        return tr(f"render.bt.main.{phase}", locale, players=_joined(view, names, to_act)), ""
    pending = view.get("pending")
    if phase in ("loss", "morale"):
        return tr(
            f"render.bt.main.{phase}",
            locale,
            name=seat_label(view, names, pending["seat"] if pending else -1),
            count=pending["count"] if pending else 1,
            zone=(pending["label"] if pending else None) or "?",
        ), ""
    combat = view.get("combat")
    if phase == "reroll":
        key = "attack" if combat and combat.get("stage") == "attack_reroll" else "defence"
        who = to_act[0] if to_act else -1
        return tr(f"render.bt.main.reroll_{key}", locale, name=seat_label(view, names, who)), ""
    active = view.get("active")
    if active is None:
        return tr("render.bt.main.waiting", locale, players=_joined(view, names, to_act)), ""
    main = tr(
        "render.bt.main.play",
        locale,
        name=seat_label(view, names, int(active)),
        left=view.get("activations_left", 0),
        total=ACTIVATIONS_PER_TURN,
    )
    activation = view.get("activation")
    if not activation:
        return main, ""

    def points(values: Mapping[str, int]) -> str:
        found = [str(values[n]) for n in activation.get("troops") or [] if n in values]
        return found[0] if len(set(found)) == 1 else "/".join(found) if found else "0"

    sub = tr(
        "render.bt.acting",
        locale,
        troops=" + ".join(str(n) for n in activation.get("troops") or []),
        zone=activation.get("label") or "?",
        movement=points(activation.get("movement_left") or {}),
        attack=points(activation.get("attack_left") or {}),
    )
    return main, sub


def _acting_seat(view: BataillesView) -> int | None:
    to_act = {int(i) for i in view.get("to_act") or []}
    return to_act.pop() if len(to_act) == 1 else None


COMBAT_H = 44


def round_text(view: BataillesView, locale: str) -> str | None:
    """ "Round 4/15" once the battle has begun, else None."""
    if view.get("phase") in ("play", "retrain", "over") and view.get("round"):
        return tr("render.bt.round", locale, round=view["round"], max=view.get("max_rounds", "?"))
    return None


def status(view: BataillesView, names: Mapping[str, str], locale: str, width: int) -> Image.Image:
    """Title, round and phase; the box saying who acts (or the result); dice; the last action."""
    main, sub = status_lines(view, names, locale)
    combat = view.get("combat")
    extra = COMBAT_H if combat else 0
    box_h = box_height(bool(sub), extra)
    height = status_height(bool(sub), extra)
    img = Image.new("RGBA", (width, height), (*PAPER, 255))
    draw = ImageDraw.Draw(img)

    x = heading(draw, tr("render.bt.title", locale), round_text(view, locale))
    chips = [tr(f"render.bt.phase.{phase_key(view)}", locale)]
    if view.get("hardcore"):
        chips.insert(0, tr("render.bt.hardcore", locale))
    phase_pills(draw, chips, width, x)

    y = BOX_TOP
    over = view.get("phase") == "over" or bool(view.get("result"))
    seat = _acting_seat(view)
    fill = HIGHLIGHT if over else seat_tint(seat, 0.8)
    mark = facing_mark(seat, None, 36) if not over and seat is not None else None
    x0 = status_box(img, draw, (y, width, box_h), fill, mark, (main, sub))
    if combat:
        line_y = y + box_h - COMBAT_H / 2 - 6
        _combat_line(img, draw, combat, locale, x0, line_y, width - 18)
    y += box_h + 8

    keys = ("render.bt.last", "render.bt.last.none")
    told = (view.get("last"), keys, locale, lambda seat: seat_label(view, names, int(seat)))
    last_action(img, draw, y, zone_outline(18), told, 44)
    return img


def strip(view: BataillesView, names: Mapping[str, str], locale: str, width: int) -> Image.Image:
    """One chip per army under the battlefield: name and badges; advantage, losses against the
    defeat threshold, troops in play."""
    chips = []
    for seat in (0, 1):
        info = _seat_info(view, seat)
        name = player_name(names, info.get("id"))
        colors = (seat_tint(seat, 0.85), seat_color(seat))
        counts = seat_counts(view, seat, locale)
        chips.append(
            Chip(
                facing_mark(seat, None, 32),
                name,
                colors,
                (*_pills(view, seat, locale), *away_pill(info, locale)),
                counts,
            )
        )
    return chip_row(chips, width, 2)


def seat_counts(view: BataillesView, seat: int, locale: str) -> tuple[tuple[str, str], ...]:
    """An army's counts, as its chip shows them: advantage, losses against the defeat threshold,
    troops in play."""
    threshold = int(view.get("threshold") or 0)
    info = _seat_info(view, seat)
    troops = seat_troops(view, seat)
    losses = int(info.get("losses", 0))
    in_play = sum(1 for t in troops if not t.get("lost"))
    if view.get("phase") == "deploy":  # how far each army has got, where they stand being hidden
        placed = int(info.get("deployed", sum(1 for t in troops if t.get("zone") or t.get("hidden"))))
        troops_count = (tr("render.bt.count.deployed", locale), f"{placed}/{len(troops)}")
    else:
        troops_count = (tr("render.bt.count.troops", locale), f"{in_play}/{len(troops)}")
    return (
        (tr("render.bt.count.advantage", locale), str(info.get("advantage", 0))),
        (
            tr("render.bt.count.losses.short", locale),
            f"{losses}/{threshold}" if threshold else str(losses),
        ),
        troops_count,
    )


def glance(shown: Mapping[str, object], names: Mapping[str, str], locale: str) -> Glance:
    """What the battlefield's status and chips say, in words: for the image's alt text.
    ``render.describe`` hands every game's view alike, picked by its ``game``: this one is Batailles'."""
    view = cast("BataillesView", shown)
    keys = ("render.bt.last", "render.bt.last.none")
    seats = view.get("seats") or []
    return Glance(
        title=tr("render.bt.title", locale),
        round=round_text(view, locale),
        lines=(*status_lines(view, names, locale), tr(f"render.bt.phase.{phase_key(view)}", locale)),
        last=last_text(view.get("last"), keys, locale, lambda seat: seat_label(view, names, int(seat))),
        seats=tuple(
            (player_name(names, seats[s].get("id")), seat_counts(view, s, locale)) for s in range(len(seats))
        ),
    )


def _seat_info(view: BataillesView, seat: int) -> SeatView:
    """The public counts of ``seat``: in a view without seats, none (each ``get`` its default)."""
    return (view.get("seats") or [cast("SeatView", {}), cast("SeatView", {})])[seat]


def _pills(view: BataillesView, seat: int, locale: str) -> list[Pill]:
    info = _seat_info(view, seat)
    pills: list[Pill] = []
    result = view.get("result")
    if result and info.get("id") is not None and info.get("id") in (result.get("winners") or []):
        pills.append((tr("render.bt.badge.winner", locale), HIGHLIGHT, INK))
    if seat in (view.get("to_act") or []):
        pills.append((tr("render.bt.badge.to_act", locale), HIGHLIGHT, INK))
    elif view.get("phase") in ("build", "retrain") and info.get("ready"):
        pills.append((tr("render.bt.badge.ready", locale), INK, WHITE))
    return pills


def _combat_line(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    combat: CombatView,
    locale: str,
    x: float,
    cy: float,
    right: float,
) -> None:
    """The attack dice and, once rolled, the defence dice of the attack being resolved."""
    origin, target = zone_of({"zone": combat.get("origin")}), zone_of({"zone": combat.get("target")})
    text = tr(
        "render.bt.combat.attack",
        locale,
        origin=zone_label(origin) if origin else "?",
        target=zone_label(target) if target else "?",
    )
    x += draw_text(draw, (x, cy), text, LABEL, INK, anchor="lc", bold=True, max_width=right - x) + 10
    die = 36
    for face in combat.get("attack_faces") or []:
        if x + die > right:
            return
        paste_centered(img, die_face(int(face), die), (x + die / 2, cy))
        x += die + 5
    defence = combat.get("defence_faces") or []
    if combat.get("stage") != "defence_reroll" and not defence:
        return
    x += 16
    x += (
        draw_text(draw, (x, cy), tr("render.bt.combat.defence", locale), LABEL, INK, anchor="lc", bold=True)
        + 10
    )
    for face in defence:
        if x + die > right:
            return
        paste_centered(img, die_face(int(face), die), (x + die / 2, cy))
        x += die + 5
    if combat.get("cover"):
        cover = tr("render.bt.combat.cover", locale, cover=combat["cover"])
        draw_text(draw, (x + 8, cy), cover, LABEL, MUTED, anchor="lc", max_width=right - x - 8, words=True)


def seat_troops(view: BataillesView, seat: int) -> list[TroopView]:
    return [t for t in view.get("troops") or [] if int(t.get("seat", -1)) == seat]


def panel_height(view: BataillesView) -> int:
    rows = max([len(seat_troops(view, s)) for s in (0, 1)] + [1])
    return HEADER_H + 10 + 2 * (CHIP_H + 8) + 6 + 32 + rows * ROW_H + PAD


def seat_panel(
    view: BataillesView, seat: int, names: Mapping[str, str], locale: str, width: int, height: int
) -> Image.Image:
    """One army: name and badges, advantage and losses, then every troop with its characteristics."""
    info = _seat_info(view, seat)
    img, draw = framed(width, height)
    name = player_name(names, info.get("id"))
    mark = facing_mark(seat, None, 34)
    seat_header(img, draw, (seat_tint(seat, 0.8), seat_color(seat)), mark, name, _pills(view, seat, locale))

    # Counters: advantage and losses (against the threshold) first, they decide the game.
    troops = seat_troops(view, seat)
    threshold = int(view.get("threshold") or 0)
    losses = int(info.get("losses", 0))
    in_play = sum(1 for t in troops if not t.get("lost"))
    chips: list[tuple[str, str, bool]] = [
        (tr("render.bt.count.advantage", locale), str(info.get("advantage", 0)), False),
        (
            tr("render.bt.count.losses", locale, threshold=threshold)
            if threshold
            else tr("render.bt.count.losses.short", locale),
            f"{losses}/{threshold}" if threshold else str(losses),
            bool(threshold) and losses >= threshold,
        ),
        (tr("render.bt.count.troops", locale), f"{in_play}/{len(troops)}", False),
        (tr("render.bt.count.turns", locale), str(info.get("turns", 0)), False),
    ]
    y = HEADER_H + 10
    chip_w = (width - 2 * PAD - 8) / 2
    for i, (label, value, alarm) in enumerate(chips):
        x0 = PAD + (i % 2) * (chip_w + 8)
        y0 = y + (i // 2) * (CHIP_H + 8)
        draw.rounded_rectangle(
            [x0, y0, x0 + chip_w, y0 + CHIP_H],
            radius=8,
            fill=HIGHLIGHT if alarm else (243, 240, 232),
            outline=INK if alarm else RULE,
        )
        value_w = text_width(value, 32, bold=True)
        room = chip_w - value_w - 34
        size = shrink(label, 19, room, 16)
        draw_text(draw, (x0 + 12, y0 + CHIP_H / 2), label, size, MUTED, anchor="lc", max_width=room)
        draw_text(draw, (x0 + chip_w - 12, y0 + CHIP_H / 2), value, 32, INK, anchor="rc", bold=True)
        if i == 1 and threshold:
            _loss_bar(draw, x0 + 12, y0 + CHIP_H - 9, chip_w - value_w - 40, losses, threshold)
    y += 2 * (CHIP_H + 8) + 6

    # Roster: troop (facing mark and name), zone, then one column per characteristic.
    letters = stat_letters(locale)
    stat_w = 46
    first_stat = width - PAD - stat_w * 6
    zone_w = 112
    zone_x = first_stat - zone_w
    head = y + 16
    draw_text(draw, (PAD, head), tr("render.bt.col.troop", locale), 18, MUTED, anchor="lc", bold=True)
    draw_text(
        draw, (zone_x + zone_w / 2, head), tr("render.bt.col.zone", locale), 18, MUTED, anchor="mc", bold=True
    )
    for i, letter in enumerate(letters):
        draw_text(draw, (first_stat + stat_w * (i + 0.5), head), letter, 20, MUTED, anchor="mc", bold=True)
    y += 32
    for row, troop in enumerate(troops):
        if row % 2 == 0:
            draw.rectangle([2, y, width - 3, y + ROW_H], fill=(246, 243, 236))
        mid = y + ROW_H / 2
        state = troop_state(view, troop)
        lost = bool(troop.get("lost"))
        ink = MUTED if lost or state == DONE else INK
        if state == ACTIVE:
            draw.rectangle([2, y + 1, width - 3, y + ROW_H - 1], fill=HIGHLIGHT, outline=INK, width=2)
        facing = None if lost or zone_of(troop) is None else str(troop.get("facing", "n"))
        paste_centered(img, facing_mark(seat, facing, 28), (PAD + 14, mid))
        label = str(troop.get("name", "?"))
        w = draw_text(
            draw, (PAD + 36, mid), label, 22, ink, anchor="lc", bold=not lost, max_width=zone_x - PAD - 40
        )
        if lost:
            draw.line([(PAD + 34, mid), (PAD + 38 + w, mid)], fill=MUTED, width=2)
        if lost:
            where, size = tr("render.bt.zone.lost", locale), 20
        elif troop.get("hidden"):  # deployed where this view may not show yet
            where, size = tr("render.bt.zone.hidden", locale), 20
        elif troop.get("label"):
            where, size = str(troop["label"]), 22
        elif view.get("phase") == "build":
            where, size = "-", 22
        else:
            where = tr("render.bt.zone.none", locale)
            size = shrink(where, legible(), zone_w - 6, 16)  # smaller rather than cut ("à déployer")
        draw_text(
            draw,
            (zone_x + zone_w / 2, mid),
            where,
            size,
            ink,
            anchor="mc",
            bold=size == 22,
            max_width=zone_w - 6,
        )
        for i, stat in enumerate(profile_of(troop)):
            color = (
                MUTED if (stat == 0 or lost) and state != ACTIVE else ink
            )  # muted is faint on the highlight
            text = str(stat)
            if i in (4, 5) and not lost and view.get("phase") == "play":
                left = troop.get("command_left") if i == 4 else troop.get("logistics_left")
                if left is not None and stat and int(left) != stat:
                    text = f"{left}/{stat}"
            size = 24 if len(text) == 1 else LABEL
            at = (first_stat + stat_w * (i + 0.5), mid)
            draw_text(draw, at, text, size, color, anchor="mc", bold=len(text) == 1, role="stat")
        y += ROW_H
    return img


def _loss_bar(draw: ImageDraw.ImageDraw, x: float, y: float, w: float, losses: int, threshold: int) -> None:
    """Losses as filled boxes out of the threshold: how close the army is to breaking."""
    if w < 20 or threshold <= 0:
        return
    step = w / threshold
    for i in range(threshold):
        fill = INK if i < losses else WHITE
        draw.rectangle([x + i * step + 1, y - 4, x + (i + 1) * step - 1, y + 3], fill=fill, outline=MUTED)


@lru_cache(maxsize=8)
def stat_key(locale: str, width: int) -> Image.Image:
    """The line under the battlefield that names the characteristics' initials ("M A D R C L:
    Movement, Attack, ..."), so that "M1 A2 D2" on a troop reads without the details image, and
    says which three values a troop on one line shows ("1·2·2")."""
    img = Image.new("RGBA", (width, LABEL + 12), (*PAPER, 255))
    draw = ImageDraw.Draw(img)
    key = tr("render.bt.stats_board", locale, stats=tr("render.bt.stats", locale))
    middle = (0, img.height / 2)
    draw_text(draw, middle, key, LABEL, INK, anchor="lc", max_width=width, words=True, role="key")
    return img


@lru_cache(maxsize=8)
def legend(locale: str, width: int) -> Image.Image:
    """What the marks mean: sample troops, terrain, badges and outlines."""
    bar_w, bar_h = 140, 2 * LABEL + 10  # a bar of one line holds "cav2 3·2·0" whole
    letters = tuple(stat_letters(locale))
    items: list[tuple[Image.Image, str]] = [
        (
            troop_bar("inf1", 0, (1, 2, 2, 0, 0, 0), "n", bar_w, bar_h, letters=letters),
            tr("render.bt.legend.troop", locale),
        ),
        (troop_bar("cav2", 1, (3, 2, 0, 0, 0, 0), "e", bar_w, 30), tr("render.bt.legend.front", locale)),
        (
            troop_bar("cav1", 1, (3, 2, 0, 0, 0, 0), "s", bar_w, 30, ACTIVE),
            tr("render.bt.legend.acting", locale),
        ),
        (troop_bar("art1", 0, (1, 2, 0, 2, 0, 0), "n", bar_w, 30, DONE), tr("render.bt.legend.done", locale)),
        (_swatch("forest"), tr("render.bt.legend.forest", locale)),
        (_swatch("building"), tr("render.bt.legend.building", locale)),
        (_swatch("river"), tr("render.bt.legend.river", locale)),
        (_swatch("hill"), tr("render.bt.legend.hill", locale)),
        (_swatch("impassable"), tr("render.bt.legend.impassable", locale)),
        (advantage_badge(2, 30), tr("render.bt.legend.advantage", locale)),
        (hits_badge(3, 30), tr("render.bt.legend.hits", locale)),
        (zone_outline(40), tr("render.bt.legend.marked", locale)),
        (removed_badge(1, 30), tr("render.bt.legend.removed", locale)),
    ]
    per_row = 2
    rows = -(-len(items) // per_row)
    row_h = 64
    height = 16 + rows * row_h + 8 + 34 + 36 + 12
    img = Image.new("RGBA", (width, height), (*PANEL, 255))
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, width - 1, height - 1], outline=RULE, width=2)
    icon_grid(
        img, draw, items, top=16, per_row=per_row, row=(row_h, row_h / 2), offsets=(76, 156), size=LABEL
    )
    y = 16 + rows * row_h + 4
    draw.line([(16, y), (width - 16, y)], fill=RULE, width=2)
    stats = tr("render.bt.stats", locale)
    draw_text(draw, (16, y + 22), stats, LABEL, INK, anchor="lc", bold=True, max_width=width - 32, words=True)
    places = tr("render.bt.legend.places", locale)
    draw_text(draw, (16, y + 56), places, LABEL, MUTED, anchor="lc", max_width=width - 32, words=True)
    return img


@lru_cache(maxsize=8)
def _swatch(kind: str) -> Image.Image:
    """A zone with one kind of terrain, as the battlefield draws it, shrunk."""
    terrain = {
        "forest": Terrain(forest=2),
        "building": Terrain(building=2),
        "river": Terrain(river=2),
        "hill": Terrain(hill=True),
        "impassable": Terrain(forest=4),
    }[kind]
    fmap = FieldMap(1, 1, (((0, 0), terrain),), ((), ()))
    grid = grid_for(1, 1, 10 + 130, 130)
    field = empty_field(fmap, grid)
    x0, y0, x1, y1 = grid.zone_box((0, 0))
    tile = field.crop((round(x0), round(y0), round(x1) + 1, round(y1) + 1))
    return tile.resize((60, 60), Image.Resampling.LANCZOS)
