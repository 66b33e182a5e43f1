"""What the games' position scores and policies reward, where the computer players' strength comes
from (``ai/<game>/heuristics.py``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import engine
from ai.batailles import heuristics as batailles
from ai.warchest import heuristics as warchest
from engine.batailles.board import parse_map
from engine.batailles.state import State, clone
from engine.rng import Rng
from engine.warchest.board import board_map, distance
from tests.ai.support import players


def _batailles_in_play(seed: int) -> State:
    """A seeded Batailles game, both armies deployed at random, at the first player's first turn."""
    game = engine.get_game("batailles")
    state = game.new_game(players(2), seed, {})
    chooser = Rng(seed)
    while state.phase != "play":
        player = game.to_act(state)[0]
        legal = game.legal_actions(state, player)
        state, _ = game.apply(state, player, legal[chooser.below(len(legal))])
    return state


def _without_advantage(st: State) -> State:
    """The same position on the same battlefield with no advantage zones."""
    rows = [
        " ".join("".join(c for c in token if not c.isdigit()) or "." for token in row.split())
        for row in st.board.to_text().split("/")
    ]
    plain = clone(st)
    plain.board = parse_map("/".join(rows))
    assert plain.board.advantage_zones() == [] and st.board.advantage_zones()
    return plain


@pytest.mark.parametrize("seat", [0, 1])
def test_batailles_a_side_holding_an_advantage_zone_is_ahead(seat: int) -> None:
    """An advantage zone pays points every turn, which buy morale tests: a side that holds one is
    better off than the same side beside an empty plain, so the players contest the zones instead
    of waiting behind their lines until the round limit calls a draw."""
    st = _batailles_in_play(seed=5)
    zone, _value = st.board.advantage_zones()[0]
    assert st.occupant(zone) is None
    mover = next(i for i, t in enumerate(st.troops) if t.seat == seat and t.zone is not None)
    st.troops[mover] = replace(st.troops[mover], zone=zone)
    held = batailles.evaluate(st)[seat]
    plain = batailles.evaluate(_without_advantage(st))[seat]
    assert held > plain + 0.05


def test_war_chest_distances_to_open_locations_are_the_nearest_ones() -> None:
    """The policy's table of distances (kept per set of open locations) is the plain minimum."""
    for name in ("2p", "4p"):
        bm = board_map(name)
        rng = Rng(len(name))
        for _ in range(20):
            targets = tuple(h for h in bm.locations if rng.below(3) == 0)
            table = warchest.nearest(name, targets)
            for h in bm.order:
                wanted = min((distance(h, t) for t in targets), default=0)
                assert table[h] == wanted


@pytest.mark.parametrize("seat", [0, 1])
def test_batailles_ground_taken_counts(seat: int) -> None:
    """A troop standing forward of its deployment rows is worth more to its side than the same
    troop at home: without it, a searching player facing one that keeps away (or plays at random)
    waited where it stood and the round limit called most such games a draw."""
    st = _batailles_in_play(seed=5)
    board = st.board
    home_row = board.front_row(seat)
    ahead_row = home_row + 2 if seat == 0 else home_row - 2
    zoned = {z for z, _ in board.advantage_zones()}
    column = next(
        x
        for x in range(board.width)
        if all(
            st.occupant((x, y)) is None and (x, y) not in zoned and not board.at((x, y)).impassable
            for y in (home_row, ahead_row)
        )
    )
    # a troop that cannot attack, so that no line of fire changes with it
    mover = next(
        i for i, t in enumerate(st.troops) if t.seat == seat and t.zone is not None and t.attack == 0
    )
    home, ahead = clone(st), clone(st)
    home.troops[mover] = replace(st.troops[mover], zone=(column, home_row))
    ahead.troops[mover] = replace(st.troops[mover], zone=(column, ahead_row))
    assert batailles.evaluate(ahead)[seat] > batailles.evaluate(home)[seat]
