"""The board, the armies and the opening position."""

from __future__ import annotations

import pytest

from engine import BadInput, get_game
from engine.warchest import GAME
from engine.warchest.board import board_map, distance, label, parse_label
from engine.warchest.units import COINS, FIRST_GAME, ROYAL, UNIT_TYPES
from tests.engine.warchest.helpers import PLAYERS, hx


def test_registered_under_its_name() -> None:
    assert get_game("warchest") is GAME
    assert GAME.player_counts == (2, 4)
    (spec,) = GAME.option_specs
    assert (spec.name, spec.choices, spec.default) == ("armies", ("random", "first", "draft"), "random")


def test_board_has_37_hexes_and_10_locations() -> None:
    bm = board_map()
    assert len(bm.hexes) == 37
    assert all(0 <= x <= 6 and 0 <= y <= 6 and 3 <= x + y <= 9 for x, y in bm.hexes)
    assert len(bm.locations) == 10
    assert bm.start == ((hx("e1"), hx("g2")), (hx("a6"), hx("c7")))
    assert (0, 0) not in bm.hexes and (6, 6) not in bm.hexes and (3, 3) in bm.hexes


def test_labels_and_distance() -> None:
    assert label((4, 0)) == "e1" and label((2, 6)) == "c7"
    for name in ("2p", "4p"):
        assert all(parse_label(label(h)) == h for h in board_map(name).order)
    assert label((6, 11)) == "g12" and label([4, 0]) == "e1"  # beyond the ready labels; a list
    assert parse_label("E1") == (4, 0) and parse_label("z9") is None and parse_label("e") is None
    assert (
        distance(hx("d4"), hx("e3")) == 1
        and distance(hx("d4"), hx("f2")) == 2
        and distance(hx("a4"), hx("g4")) == 6
    )
    assert set(board_map().neighbours[hx("d4")]) == {hx(s) for s in ("e4", "c4", "d5", "d3", "e3", "c5")}
    assert len(board_map().neighbours[hx("d1")]) == 3  # an edge hex (3, 0): x+y = 3 is the border


def test_first_game_armies_bags_supply_and_markers() -> None:
    st = GAME.new_game(PLAYERS, 5, {"armies": "first"})
    assert [s.units for s in st.seats] == [FIRST_GAME[0], FIRST_GAME[1]]
    assert FIRST_GAME[0] == ("swordsman", "pikeman", "crossbowman", "light_cavalry")
    for seat in st.seats:
        coins = sorted(seat.bag + seat.hand)
        expected = sorted([ROYAL] + [u for u in seat.units for _ in range(2)])
        assert coins == expected
        assert len(seat.hand) == 3
        assert seat.supply == {u: COINS[u] - 2 for u in seat.units}
    assert st.markers == [4, 4]
    assert st.control[hx("e1")] == 0 and st.control[hx("g2")] == 0
    assert st.control[hx("a6")] == 1 and st.control[hx("c7")] == 1
    assert sum(1 for t in st.control.values() if t is None) == 6
    assert st.round == 1 and st.turn == st.initiative


def test_random_armies_are_four_distinct_cards_each_and_seeded() -> None:
    a = GAME.new_game(PLAYERS, 11)
    b = GAME.new_game(PLAYERS, 11)
    assert GAME.dump(a) == GAME.dump(b)
    cards = a.seats[0].units + a.seats[1].units
    assert len(cards) == 8 and len(set(cards)) == 8 and set(cards) <= set(UNIT_TYPES)
    seen = {GAME.new_game(PLAYERS, s).seats[0].units for s in range(10)}
    assert len(seen) > 1


def test_initiative_holder_is_drawn_by_the_generator() -> None:
    holders = {GAME.new_game(PLAYERS, s, {"armies": "first"}).initiative for s in range(20)}
    assert holders == {0, 1}


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (["a"], None),
        (["a", "b", "c"], None),
        (["a", "a"], None),
        (["a", "b"], {"armies": "best"}),
        (["a", "b"], {"x": "1"}),
    ],
)
def test_bad_setup_is_refused(players: list[str], options: dict[str, str] | None) -> None:
    with pytest.raises(BadInput) as err:
        GAME.new_game(players, 1, options)
    assert err.value.msg.key.startswith("wc.error.")


def test_option_value_is_forgiving_about_case() -> None:
    st = GAME.new_game(PLAYERS, 1, {"armies": " First "})
    assert st.seats[0].units == FIRST_GAME[0]
