"""Batailles' rulebook: the troops' characteristics, the terrain pieces and the rules a battle turns
on, with the numbers the engine plays by. Texts: ``rules_batailles.json``.
"""

from __future__ import annotations

import dataclasses

from engine.batailles import DEFAULT_MAX_ROUNDS
from engine.batailles import board as bt_board
from engine.batailles import combat as bt_combat
from engine.batailles import rules as bt_rules
from engine.batailles import troops as bt_troops
from table.rules.rule_topics import make_book, summary_pages, topic
from table.rules.rulebook import Rulebook

BT_TERRAIN = tuple(f.name for f in dataclasses.fields(bt_board.Terrain) if f.name != "advantage")
"""Batailles' terrain pieces, as the engine's ``Terrain`` names them (the advantage value aside)."""

BT_RULES = ("facing", "coordination", "hits", "morale", "advantage", "threshold", "hardcore", "maps")


def book() -> Rulebook:
    """The rulebook, built from the engine's data."""
    numbers = {
        "points": bt_troops.POINTS,
        "troops": bt_rules.ACTIVATIONS_PER_TURN,
        "hit": bt_combat.HIT,
        "dice": bt_combat.MAX_TROOP_DEFENCE,
        "cost": bt_rules.MORALE_COST,
        "places": bt_board.PLACES,
        "gap": bt_board.GAP,
        "rounds": DEFAULT_MAX_ROUNDS,
        "retrained": bt_rules.MAX_RETRAINED,
        "most": bt_board.MAX_ADVANTAGE,
    }
    pages = summary_pages("batailles", numbers)
    stats = [topic("batailles", "stat", s, params=numbers) for s in bt_troops.STATS]
    terrain = [topic("batailles", "terrain", t, params=numbers) for t in BT_TERRAIN]
    rules = [topic("batailles", "rule", r, params=numbers) for r in BT_RULES]
    return make_book(
        "batailles",
        [*pages, *stats, *terrain, *rules],
        [
            ("characteristics", bt_troops.STATS),
            ("terrain", BT_TERRAIN),
            ("topics", BT_RULES),
        ],
    )
