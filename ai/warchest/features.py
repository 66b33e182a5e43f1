"""What a War Chest position is to the learned evaluation (``ai.learned``): a few numbers per team.

Each number is something a player counts when judging a position: locations held and how close the
team is to its last marker, the units on the board, how tall they stand and how far they are from
the locations still to take, the coins still to play (bag, hand, discards) and to recruit (supply),
the units an enemy beside them could remove with one attack, and the initiative. The weights that
turn them into a chance of winning are fitted by self-play (``training/``) and shipped in
``weights.json``; ``heuristics.evaluate`` reads them.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ai.learned import Weights, load
from engine.warchest.board import Hex, board_map, distance
from engine.warchest.manoeuvres import bmap
from engine.warchest.state import State

NAMES = (
    "control",
    "last_marker",
    "units",
    "board_coins",
    "tall_coins",
    "on_location",
    "distance",
    "exposed",
    "bag",
    "hand",
    "discard",
    "supply",
    "initiative",
)
"""The features of a team, in the order ``sides`` lists them."""
TALL = 3
"""Coins of a unit beyond this many count as ``tall_coins``: strength that takes no location."""
WEIGHTS = Path(__file__).with_name("weights.json")
"""The fitted weights (``training/``)."""


@lru_cache(maxsize=1024)
def nearest(board_name: str, targets: tuple[Hex, ...]) -> dict[Hex, int]:
    """Per hex of the map, its distance to the nearest of ``targets`` (0 everywhere if none).

    The locations a team has yet to take change a few times a game, while the search asks for these
    distances for every move it weighs; working them out once per set of targets keeps the policy
    cheap.
    """
    hexes = board_map(board_name).order
    if not targets:
        return dict.fromkeys(hexes, 0)
    return {h: min(distance(h, t) for t in targets) for h in hexes}


def open_locations(st: State, team: int) -> tuple[Hex, ...]:
    """The control locations ``team`` does not hold, in map order."""
    return tuple(h for h in bmap(st).locations if st.control.get(h) != team)


def sides(st: State) -> list[list[float]]:
    """The features of team 0 and team 1, in the order of ``NAMES``."""
    bm = bmap(st)
    rows = [[0.0] * len(NAMES) for _ in range(2)]
    for team in (0, 1):
        rows[team][0] = float(sum(1 for t in st.control.values() if t == team))
        rows[team][1] = 1.0 if st.markers[team] == 1 else 0.0
    near = [nearest(st.board_name, open_locations(st, team)) for team in (0, 1)]
    board = st.board
    for h, (seat, _kind, height) in board.items():
        team = st.seats[seat].team
        row = rows[team]
        row[2] += 1.0
        row[3] += height
        row[4] += max(0, height - TALL)
        if h in bm.location_set and st.control.get(h) != team:
            row[5] += 1.0
        row[6] += near[team][h]
        if height == 1 and any(
            (other := board.get(n)) is not None and st.seats[other[0]].team != team for n in bm.neighbours[h]
        ):
            row[7] += 1.0
    for s in st.seats:
        row = rows[s.team]
        row[8] += len(s.bag)
        row[9] += len(s.hand)
        row[10] += len(s.discard_down) + sum(s.discard_up.values())
        row[11] += sum(s.supply.values())
    rows[st.seats[st.initiative].team][12] = 1.0
    return rows


def weights() -> Weights:
    """The shipped weights, read once."""
    return load(WEIGHTS, NAMES)


def side(st: State, seat: int) -> int:
    """The team ``seat`` plays for: the side its features are listed under."""
    return st.seats[seat].team
