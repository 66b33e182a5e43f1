"""The text board: the whole position as lines a screen reader follows, from the public view.

It opens with the board's alt text (game, round, whose turn or the result, the last action, each
seat's counts), then goes through the position the way each game is read: War Chest by hex and unit
and the locations' control, Batailles by zone and troop with facing and characteristics, Cry Havoc by
region with units, control, crystals, structures and tokens. Only the public view is read here; a
player's own hidden part is added by ``render.describe("private", ...)`` for that player alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from render.alt import Glance, board_words, field, sentence
from render.batailles.style import STATS, stat_letters
from render.catalog import player_name, tr
from render.cryhavoc.style import faction_name, name_of, region_name
from render.warchest.style import unit_name

Lines = Callable[[Mapping[str, Any], Mapping[str, str], str], list[str]]


def _seat(view: Mapping[str, Any], names: Mapping[str, str], seat: Any) -> str:
    seats = view.get("seats") or []
    if isinstance(seat, str) and seat.isdigit():
        seat = int(seat)
    if isinstance(seat, int) and 0 <= seat < len(seats):
        return player_name(names, seats[seat].get("id"))
    return "?"


def warchest_lines(view: Mapping[str, Any], names: Mapping[str, str], locale: str) -> list[str]:
    """Each unit by hex (type, owner, coins in the stack), then who holds which location."""
    lines = [tr("render.tb.units", locale)]
    for unit in view.get("units") or []:
        lines.append(
            tr(
                "render.tb.wc.unit",
                locale,
                hex=unit.get("label", "?"),
                unit=unit_name(str(unit.get("type")), locale),
                name=_seat(view, names, unit.get("seat")),
                count=int(unit.get("height", 1)),
            )
        )
    if len(lines) == 1:
        lines.append(tr("render.tb.none", locale))
    held: dict[Any, list[str]] = {}
    for location in (view.get("board") or {}).get("locations") or []:
        held.setdefault(location.get("team"), []).append(str(location.get("label")))
    lines.append(tr("render.tb.locations", locale))
    seats = view.get("seats") or []
    for team, labels in sorted(held.items(), key=lambda item: (item[0] is None, item[0] or 0)):
        if team is None:
            owner = tr("render.tb.wc.free", locale)
        else:
            players = [
                player_name(names, s.get("id")) for i, s in enumerate(seats) if s.get("team", i) == team
            ]
            owner = tr("render.tb.wc.held", locale, players=players)
        lines.append(field(owner, ", ".join(sorted(labels)), locale))
    return lines


def batailles_lines(view: Mapping[str, Any], names: Mapping[str, str], locale: str) -> list[str]:
    """Each troop in play by zone (army, facing, characteristics), then the troops lost or waiting."""
    letters = stat_letters(locale)
    placed, others = [], []
    for troop in view.get("troops") or []:
        profile = troop.get("profile") or {}
        stats = " ".join(
            f"{letter}{profile.get(stat, 0)}" for letter, stat in zip(letters, STATS, strict=False)
        )
        owner = _seat(view, names, troop.get("seat"))
        if troop.get("lost") or not troop.get("label"):
            state = "lost" if troop.get("lost") else "hidden" if troop.get("hidden") else "waiting"
            others.append(tr(f"render.tb.bt.{state}", locale, troop=troop.get("name"), name=owner))
            continue
        placed.append(
            tr(
                "render.tb.bt.troop",
                locale,
                zone=troop.get("label"),
                troop=troop.get("name"),
                name=owner,
                facing=tr(f"bt.dir.{troop.get('facing', 'n')}", locale),
                stats=stats,
            )
        )
    return [tr("render.tb.troops", locale), *(sorted(placed) or [tr("render.tb.none", locale)]), *others]


def cryhavoc_lines(view: Mapping[str, Any], names: Mapping[str, str], locale: str) -> list[str]:
    """Each region with something in it: units by side, control, crystals, structures, tokens."""
    lines = [tr("render.tb.regions", locale)]
    for region in view.get("regions") or []:
        parts = []
        units = region.get("units") or {}
        for side, count in sorted(units.items()):
            who = tr("render.tb.ch.trogs", locale) if side == "trogs" else _seat(view, names, side)
            parts.append(tr("render.tb.ch.units", locale, name=who, count=int(count)))
        if region.get("control") is not None:
            parts.append(tr("render.tb.ch.control", locale, name=_seat(view, names, region["control"])))
        if region.get("hq") is not None:
            parts.append(tr("render.tb.ch.hq", locale, name=_seat(view, names, region["hq"])))
        if int(region.get("crystals") or 0):
            parts.append(tr("render.tb.ch.crystals", locale, count=int(region["crystals"])))
        for built in region.get("structures") or []:
            kind = str(built.get("type"))
            structure = name_of(f"ch.structure.{kind}", locale, kind)
            parts.append(
                tr(
                    "render.tb.ch.structure",
                    locale,
                    what=structure,
                    name=_seat(view, names, built.get("seat")),
                )
            )
        if region.get("token"):
            parts.append(tr(f"render.tb.ch.token.{region['token']}", locale))
        if region.get("battle") is not None:
            parts.append(tr("render.tb.ch.battle", locale, number=region["battle"]))
        if not parts:
            continue
        place = region_name(str(region.get("id")), locale)
        terrain = region.get("terrain")
        if terrain:
            place = f"{place} ({name_of(f'ch.terrain.{terrain}', locale, str(terrain))})"
        lines.append(field(place, ", ".join(parts), locale))
    seats = view.get("seats") or []
    lines.append(tr("render.tb.factions", locale))
    lines += [
        field(player_name(names, s.get("id")), faction_name(str(s.get("faction")), locale), locale)
        for s in seats
    ]
    return lines


LINES: dict[str, Lines] = {
    "warchest": warchest_lines,
    "batailles": batailles_lines,
    "cryhavoc": cryhavoc_lines,
}


def text_board(glance: Glance, view: Mapping[str, Any], names: Mapping[str, str], locale: str) -> str:
    """The position in lines: the board's alt text first, then the game's own walk through it."""
    lines = [board_words(glance, locale, limit=None)]
    lines += [
        sentence(line) if not line.endswith(":") else line
        for line in LINES[str(view["game"])](view, names, locale)
    ]
    return "\n".join(lines)
