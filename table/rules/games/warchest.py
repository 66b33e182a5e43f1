"""War Chest's rulebook: a topic per unit, the royal coin, the draft and teams, with the numbers the
engine plays by (its boards, hand size, stall rounds, first-game units). Texts: ``rules_warchest.json``.
"""

from __future__ import annotations

from engine.text import Msg
from engine.warchest import rules as wc_rules
from engine.warchest import setup as wc_setup
from engine.warchest.board import board_map
from engine.warchest.units import COINS, FIRST_GAME, FIRST_GAME_4, ROYAL
from table.rules.rule_topics import make_book, msgs_of, summary_pages, topic
from table.rules.rulebook import Rulebook, Topic


def _board_numbers(board: str, players: int, suffix: str = "") -> dict[str, int]:
    """What the War Chest pages show of a board and its set-up, named with ``suffix``."""
    bm = board_map(board)
    numbers = {
        "hexes": len(bm.hexes),
        "locations": len(bm.locations),
        "markers": bm.markers,
        "start": len(bm.start[0]),
        "cards": wc_setup.CARDS_PER_SEAT[players],
        "pool": wc_setup.DRAFT_POOL[players],
    }
    return {name + suffix: value for name, value in numbers.items()}


def book() -> Rulebook:
    """The rulebook, built from the engine's data."""
    in_bag = 2  # coins of each unit type that start in the bag, as engine.warchest.setup deals them
    numbers = {
        **_board_numbers("2p", 2),
        **_board_numbers("4p", 4, "4"),
        "bag": in_bag,
        "hand": wc_rules.HAND_SIZE,
        "rounds": wc_rules.STALL_ROUNDS,
        "first_a": msgs_of("wc.unit", FIRST_GAME[0]),
        "first_b": msgs_of("wc.unit", FIRST_GAME[1]),
        **{f"seat{i}": msgs_of("wc.unit", cards) for i, cards in enumerate(FIRST_GAME_4, start=1)},
    }
    units = [
        Topic(
            unit,
            "unit",
            Msg(f"wc.unit.{unit}"),
            (
                Msg("rules.warchest.coins", {"coins": coins, "bag": in_bag, "supply": coins - in_bag}),
                Msg(f"rules.warchest.unit.{unit}"),
            ),
        )
        for unit, coins in sorted(COINS.items())
    ]
    others = [
        topic("warchest", "coin", ROYAL, title=Msg(f"wc.unit.{ROYAL}")),
        topic("warchest", "rule", "draft", params=numbers),
        topic("warchest", "rule", "teams", params=numbers),
    ]
    return make_book(
        "warchest",
        [*summary_pages("warchest", numbers), *units, *others],
        [("units", [u.id for u in units]), ("topics", [o.id for o in others])],
        alphabetical=["units"],
    )
