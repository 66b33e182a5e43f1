"""Batailles' text board: each troop by zone with its facing and characteristics.

Read by ``render.text_board`` after the board's alt text, through ``RENDERER.text_lines``; only the
public view is read.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.batailles.view import BataillesView
from render.batailles.style import STATS, stat_letters
from render.board_text import seat_name
from render.catalog import tr


def board_lines(view: BataillesView, names: Mapping[str, str], locale: str) -> list[str]:
    """Each troop in play by zone (army, facing, characteristics), then the troops lost or waiting."""
    letters = stat_letters(locale)
    placed, others = [], []
    for troop in view.get("troops") or []:
        profile = troop.get("profile") or {}
        stats = " ".join(
            f"{letter}{profile.get(stat, 0)}" for letter, stat in zip(letters, STATS, strict=False)
        )
        owner = seat_name(view, names, troop.get("seat"))
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
