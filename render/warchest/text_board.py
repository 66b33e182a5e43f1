"""War Chest's text board: each unit by hex, then the locations' control.

Read by ``render.text_board`` after the board's alt text, through ``RENDERER.text_lines``; only the
public view is read.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.warchest.view import WarChestView
from render.alt import field
from render.board_text import seat_name
from render.catalog import player_name, tr
from render.warchest.style import unit_name


def board_lines(view: WarChestView, names: Mapping[str, str], locale: str) -> list[str]:
    """Each unit by hex (type, owner, coins in the stack), then who holds which location."""
    lines = [tr("render.tb.units", locale)]
    for unit in view.get("units") or []:
        lines.append(
            tr(
                "render.tb.wc.unit",
                locale,
                hex=unit.get("label", "?"),
                unit=unit_name(str(unit.get("type")), locale),
                name=seat_name(view, names, unit.get("seat")),
                count=int(unit.get("height", 1)),
            )
        )
    if len(lines) == 1:
        lines.append(tr("render.tb.none", locale))
    held: dict[int | None, list[str]] = {}
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
