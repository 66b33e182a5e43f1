"""A league's standings on scripted results: points, the record, and each tiebreak in its order."""

from __future__ import annotations

from table.leagues.standings import Scored, standings, tiebreak_names


def game(round_: int, first: str, second: str, winner: str | None, **measure: float) -> Scored:
    """A two-player game: ``winner`` None is a draw."""
    if winner is None:
        points = {first: 0.5, second: 0.5}
    else:
        points = {first: 1.0 if winner == first else 0.0, second: 1.0 if winner == second else 0.0}
    return Scored(round_, (first, second), points, dict(measure))


def bye(round_: int, player: str, points: float = 1.0) -> Scored:
    return Scored(round_, (player,), {player: points}, bye=True)


def test_points_and_the_record_count_wins_draws_losses_and_byes() -> None:
    rows = standings(
        ["a", "b", "c"],
        [game(1, "a", "b", "a"), bye(1, "c"), game(2, "b", "c", None), bye(2, "a")],
        swiss=True,
    )
    assert [(r.place, r.player, r.points, r.wins, r.draws, r.losses, r.byes) for r in rows] == [
        (1, "a", 2.0, 1, 0, 0, 1),
        (2, "c", 1.5, 0, 1, 0, 1),
        (3, "b", 0.5, 0, 1, 1, 0),
    ]


def test_head_to_head_comes_first() -> None:
    """b and c both have 2 points; b beat c, so b is ahead though c's opponents scored more."""
    scored = [
        game(1, "b", "c", "b"),
        game(1, "a", "d", "a"),
        game(2, "c", "a", "c"),
        game(2, "b", "d", "d"),
        game(3, "c", "d", "c"),
        game(3, "b", "a", "b"),
    ]
    rows = standings(["a", "b", "c", "d"], scored, swiss=True)
    tied = [r.player for r in rows if r.points == 2.0]
    assert tied == ["b", "c"]
    assert rows[0].tiebreaks[0] == 1.0 and rows[1].tiebreaks[0] == 0.0


def test_buchholz_then_sonneborn_berger_order_swiss_players_who_did_not_meet() -> None:
    scored = [
        # round 1: a beats x, b beats y; round 2: a beats z (who has 1 point), b beats w (0 points)
        game(1, "a", "x", "a"),
        game(1, "b", "y", "b"),
        game(1, "z", "w", "z"),
        game(2, "a", "z", "a"),
        game(2, "b", "w", "b"),
        game(2, "x", "y", None),
    ]
    rows = standings(["a", "b", "x", "y", "z", "w"], scored, swiss=True)
    assert [r.player for r in rows[:2]] == ["a", "b"]
    names = tiebreak_names(True, False)
    assert names == ("head_to_head", "buchholz", "sonneborn_berger")
    a, b = rows[0], rows[1]
    assert a.tiebreaks[1] > b.tiebreaks[1], "a's opponents scored more (Buchholz)"
    assert a.place == 1 and b.place == 2


def test_sonneborn_berger_decides_when_buchholz_is_equal() -> None:
    """a and b: 1.5 points each, both against p (2 points) and q (1 point): a beat p and drew q, b drew
    p and beat q. Same Buchholz; a's win was over the stronger player."""
    scored = [
        game(1, "a", "p", "a"),
        game(1, "b", "q", "b"),
        game(2, "a", "q", None),
        game(2, "b", "p", None),
        game(3, "p", "x", "p"),
        game(3, "q", "z", None),
        game(4, "p", "y", None),
    ]
    rows = standings(["b", "a", "p", "q", "x", "y", "z"], scored, swiss=True)
    top = [r for r in rows if r.player in ("a", "b")]
    assert [r.player for r in top] == ["a", "b"] and top[0].points == top[1].points == 1.5
    assert top[0].tiebreaks[1] == top[1].tiebreaks[1] == 3.0, "same Buchholz"
    assert top[0].tiebreaks[2] == 2.5 and top[1].tiebreaks[2] == 2.0, "Sonneborn-Berger"


def test_the_games_own_measure_comes_last_and_equal_players_share_a_place() -> None:
    scored = [
        game(1, "a", "b", None, a=3, b=3),
        game(1, "c", "d", None, c=5, d=2),
    ]
    rows = standings(["a", "b", "c", "d"], scored, swiss=False, measured=True)
    assert tiebreak_names(False, True) == ("head_to_head", "measure")
    assert [(r.place, r.player) for r in rows] == [(1, "c"), (2, "a"), (2, "b"), (4, "d")]


def test_tables_of_four_count_everyone_at_the_table_as_an_opponent() -> None:
    table = Scored(1, ("a", "b", "c", "d"), {"a": 1.0, "b": 0.0, "c": 0.0, "d": 0.0}, {"a": 12, "b": 9})
    rows = standings(["a", "b", "c", "d"], [table], swiss=True, measured=True)
    assert rows[0].player == "a" and rows[0].wins == 1
    assert rows[1].player == "b", "the victory points order the losers"
    assert rows[1].losses == 1 and rows[1].tiebreaks[1] == 1.0, "Buchholz: a's point"


def test_a_dropped_player_keeps_their_results() -> None:
    rows = standings(["a", "b"], [game(1, "a", "b", "b")], swiss=True, dropped=["b"])
    assert rows[0].player == "b" and rows[0].dropped and rows[0].points == 1.0
