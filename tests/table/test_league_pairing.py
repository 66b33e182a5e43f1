"""Who plays whom in a league's rounds: Swiss, round robin, groups and knockout, tables of three and four."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from table.leagues.pairing import (
    Entrant,
    History,
    Round,
    bracket_order,
    fewest_rematches,
    group_round,
    group_rounds,
    groups,
    knockout,
    multi_tables,
    next_knockout,
    qualifiers,
    round_robin,
    round_robin_rounds,
    swiss,
    table_sizes,
)


def play_swiss(count: int, rounds: int, seed: int) -> tuple[list[Round], History]:
    """A Swiss of ``count`` players over ``rounds`` rounds, each game's result drawn at random."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(1, count + 1)]
    history = History()
    played: list[Round] = []
    for number in range(1, rounds + 1):
        entrants = [history.entrant(p, i) for i, p in enumerate(players, start=1)]
        found = swiss(entrants, number)
        assert found.players == set(players), "everyone is paired or has the bye"
        for table in found.tables:
            roll = rng.random()
            first, second = table
            points = {first: 1.0, second: 0.0} if roll < 0.45 else {first: 0.0, second: 1.0}
            if roll > 0.9:
                points = {first: 0.5, second: 0.5}
            history.table(table, points)
        for player in found.byes:
            history.bye(player, 1.0)
        played.append(found)
    return played, history


@pytest.mark.parametrize("count", [8, 9])
@pytest.mark.parametrize("seed", range(6))
def test_a_swiss_of_four_rounds_pairs_nobody_twice_gives_one_bye_at_most_and_balances_seats(
    count: int, seed: int
) -> None:
    played, history = play_swiss(count, 4, seed)
    met = Counter(frozenset(t) for r in played for t in r.tables)
    assert max(met.values()) == 1, "no rematch"
    byes = Counter(p for r in played for p in r.byes)
    assert all(n <= 1 for n in byes.values()), byes
    assert sum(byes.values()) == (4 if count % 2 else 0)
    for player, seats in history.colours.items():
        firsts, seconds = seats.count("w"), seats.count("b")
        assert abs(firsts - seconds) <= 2, (player, seats)
        assert "www" not in seats and "bbb" not in seats, (player, seats)


def test_the_bye_goes_to_the_lowest_placed_player_without_one() -> None:
    entrants = [Entrant(f"p{i}", i, points=float(5 - i)) for i in range(1, 6)]
    entrants[-1] = Entrant("p5", 5, points=0.0, had_bye=True)
    found = swiss(entrants, 2)
    assert found.byes == ("p4",)


def test_the_first_round_pairs_the_top_half_against_the_bottom_half() -> None:
    found = swiss([Entrant(f"p{i}", i) for i in range(1, 7)], 1)
    assert {frozenset(t) for t in found.tables} == {
        frozenset({"p1", "p4"}),
        frozenset({"p2", "p5"}),
        frozenset({"p3", "p6"}),
    }


def test_when_every_pairing_repeats_a_game_the_fewest_rematches_are_played() -> None:
    """Six players whose unplayed opponents make two triangles: no pairing avoids a rematch, so the
    round pairs with one rematch per triangle, never refusing to start."""
    left = {"a": "bc", "b": "ac", "c": "ab", "d": "ef", "e": "df", "f": "de"}
    everyone = set(left)
    entrants = [
        Entrant(p, i, opponents=frozenset(everyone - set(left[p]) - {p}))
        for i, p in enumerate(sorted(left), 1)
    ]
    found = swiss(entrants, 4)
    assert len(found.tables) == 3 and not found.byes
    rematches = sum(1 for a, b in found.tables if b in next(e for e in entrants if e.player == a).opponents)
    assert rematches == 1
    assert fewest_rematches(entrants).tables


def test_a_double_round_robin_of_five_meets_everyone_twice_once_in_each_seat() -> None:
    players = ["a", "b", "c", "d", "e"]
    rounds = round_robin_rounds(5, 2)
    assert rounds == 10
    seats: Counter[tuple[str, str]] = Counter()
    byes: Counter[str] = Counter()
    for number in range(1, rounds + 1):
        found = round_robin(players, number, 2)
        assert found.players == set(players) and len(found.byes) == 1
        seats.update((a, b) for a, b in found.tables)
        byes.update(found.byes)
    for a, b in combinations(players, 2):
        assert seats[(a, b)] == 1 and seats[(b, a)] == 1, (a, b)
    assert set(byes.values()) == {2}


def test_groups_are_dealt_like_a_snake_and_play_their_round_robins_side_by_side() -> None:
    players = [f"s{i}" for i in range(1, 9)]
    dealt = groups(players, 4)
    assert dealt == [["s1", "s4", "s5", "s8"], ["s2", "s3", "s6", "s7"]]
    assert group_rounds(dealt) == 3
    met: set[frozenset[str]] = set()
    for number in range(1, 4):
        found = group_round(dealt, number)
        met |= {frozenset(t) for t in found.tables}
        assert not found.byes
    assert met == {frozenset(pair) for group in dealt for pair in combinations(group, 2)}


def test_the_knockout_seeds_the_groups_best_so_the_top_two_meet_only_in_the_final() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    field = qualifiers([["a1", "a2", "a3"], ["b1", "b2", "b3"]], 2)
    assert field == ["a1", "b1", "a2", "b2"]
    first = knockout(field)
    assert first == [("a1", "b2"), ("b1", "a2")]
    assert next_knockout(["a1", "b1"]) == [("a1", "b1")]
    # three qualifiers: the best seed has a bye into the final
    assert knockout(["x", "y", "z"]) == [("x", None), ("y", "z")]


def test_tables_of_four_use_tables_of_three_rather_than_leave_players_out() -> None:
    assert table_sizes(10, 4, (2, 3, 4)) == [4, 3, 3]
    assert table_sizes(8, 4, (2, 3, 4)) == [4, 4]
    assert table_sizes(7, 3, (2, 3, 4)) == [3, 3]
    assert table_sizes(10, 4, (2, 4)) == [4, 4], "War Chest in teams seats four or nobody"


def test_tables_of_four_group_by_points_and_keep_repeat_opponents_apart() -> None:
    players = [f"p{i}" for i in range(1, 17)]
    history = History()
    for first in range(0, 16, 4):
        table = tuple(players[first : first + 4])
        history.table(table, {table[0]: 1.0})
    entrants = [history.entrant(p, i) for i, p in enumerate(players, start=1)]
    found = multi_tables(entrants, 4, (2, 3, 4))
    assert len(found.tables) == 4 and not found.byes
    for table in found.tables:
        for a, b in combinations(table, 2):
            assert b not in history.opponents[a], f"{a} and {b} meet again at {table}"
    # the four winners of the first round sit at the top table
    assert set(found.tables[0]) == {"p1", "p5", "p9", "p13"}


def test_tables_of_three_give_the_byes_to_the_lowest_without_one() -> None:
    entrants = [Entrant(f"p{i}", i, points=float(10 - i)) for i in range(1, 9)]
    entrants[7] = Entrant("p8", 8, points=0.0, had_bye=True)
    found = multi_tables(entrants, 3, (2, 3, 4))
    assert [len(t) for t in found.tables] == [3, 3] and found.byes == ("p7", "p6")
