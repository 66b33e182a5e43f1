"""Cry Havoc's text board: each region with units, control, crystals, structures and tokens.

Read by ``render.text_board`` after the board's alt text, through ``RENDERER.text_lines``; only the
public view is read.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.cryhavoc.view import CryHavocView
from render.alt import field
from render.board_text import seat_name
from render.catalog import player_name, tr
from render.cryhavoc.style import faction_name, name_of, region_name


def board_lines(view: CryHavocView, names: Mapping[str, str], locale: str) -> list[str]:
    """Each region with something in it: units by side, control, crystals, structures, tokens."""
    lines = [tr("render.tb.regions", locale)]
    for region in view.get("regions") or []:
        parts = []
        units = region.get("units") or {}
        for side, count in sorted(units.items()):
            who = tr("render.tb.ch.trogs", locale) if side == "trogs" else seat_name(view, names, side)
            parts.append(tr("render.tb.ch.units", locale, name=who, count=int(count)))
        if region.get("control") is not None:
            parts.append(tr("render.tb.ch.control", locale, name=seat_name(view, names, region["control"])))
        if region.get("hq") is not None:
            parts.append(tr("render.tb.ch.hq", locale, name=seat_name(view, names, region["hq"])))
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
                    name=seat_name(view, names, built.get("seat")),
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
