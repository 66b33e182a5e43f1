"""Victory: the defeat threshold, the end "so that both have played as often", the round limit,
and the hardcore variant's reassignment of characteristics."""

from __future__ import annotations

import pytest

from engine.batailles import GAME
from engine.batailles.rules import MAX_RETRAINED
from engine.errors import GameOver, IllegalAction
from tests.engine.batailles.helpers import A, B, battle, event, legal_texts, play


def _armies(size_a: int, size_b: int, active: str = A) -> object:
    troops = [(A, f"a{k}", "1 2 2 0 0 0", "abcdefgh"[k % 8] + str(1 + k // 8), "n") for k in range(size_a)]
    troops += [(B, f"b{k}", "1 2 2 0 0 0", "abcdefgh"[k % 8] + str(9 - k // 8), "s") for k in range(size_b)]
    return battle(troops, active=active)


@pytest.mark.parametrize(("smaller", "threshold"), [(10, 8), (8, 7), (6, 5), (4, 4), (1, 1)])
def test_the_threshold_is_more_than_three_quarters_of_the_smaller_army(smaller: int, threshold: int) -> None:
    assert _armies(smaller, 16).threshold == threshold
    assert _armies(16, smaller).threshold == threshold


def _lose(s: object, seat: int, count: int) -> None:
    for t in [t for t in s.army(seat) if not t.lost][:count]:  # type: ignore[attr-defined]
        t.lost = True
    s.losses[seat] += count  # type: ignore[attr-defined]


def test_ten_troops_break_at_eight_losses_once_both_have_played_as_often() -> None:
    s = _armies(10, 10)
    _lose(s, 1, 7)
    # Alice (first this round) inflicts the 8th loss: bob still plays his turn of the round.
    s.hits = {(7, 8): 5}
    s, _ = play(s, A, "end")
    assert s.losses == [0, 8] and not GAME.is_over(s)
    assert GAME.to_act(s) == [B]
    s, _ = play(s, B, "end")
    assert GAME.is_over(s) and GAME.to_act(s) == [] and legal_texts(s, A) == []
    result = GAME.result(s)
    assert result is not None and result.winners == (A,) and not result.draw
    assert result.reason.key == "bt.result.broken" and result.scores == {A: 8, B: 0}
    with pytest.raises(GameOver):
        play(s, A, "end")


def test_seven_losses_out_of_ten_do_not_end_the_game() -> None:
    s = _armies(10, 10)
    _lose(s, 1, 6)
    s.hits = {(7, 8): 5}
    s, _ = play(s, A, "end")
    s, _ = play(s, B, "end")
    assert s.losses == [0, 7] and not GAME.is_over(s) and s.round == 2


def test_breaking_the_enemy_in_the_second_turn_of_a_round_ends_at_once() -> None:
    s = _armies(10, 10)
    _lose(s, 0, 7)
    s, _ = play(s, A, "end")
    s.hits = {(7, 0): 5}  # a7, alice's eighth troop
    s, _ = play(s, B, "end")
    assert GAME.is_over(s) and GAME.result(s).winners == (B,)  # type: ignore[union-attr]


def test_both_armies_broken_in_the_same_round_is_a_draw() -> None:
    s = _armies(4, 4)
    _lose(s, 1, 3)
    s.hits = {(3, 8): 5}
    s, _ = play(s, A, "end")
    _lose(s, 0, 3)
    s.hits = {(3, 0): 5}
    s, _ = play(s, B, "end")
    result = GAME.result(s)
    assert result is not None and result.draw and result.winners == ()
    assert result.reason.key == "bt.result.both_broken"


def test_the_round_limit_ends_the_game_on_losses() -> None:
    s = _armies(6, 6)
    s.max_rounds = 2
    _lose(s, 0, 1)
    for _ in range(2):
        s, _ = play(s, A, "end")
        assert not GAME.is_over(s)
        s, _ = play(s, B, "end")
    result = GAME.result(s)
    assert result is not None and result.winners == (B,) and result.reason.key == "bt.result.rounds"
    s = _armies(6, 6)
    s.max_rounds = 1
    s, _ = play(s, A, "end")
    s, _ = play(s, B, "end")
    assert GAME.result(s).draw  # type: ignore[union-attr]


def _hardcore() -> object:
    s = _armies(8, 8)
    s.hardcore = True
    s, _ = play(s, A, "end")
    s, events = play(s, B, "end")
    assert event(events, "bt.ev.retrain_phase").params["round"] == 2
    return s


def test_hardcore_reassigns_up_to_six_troops_between_rounds_then_rerolls_initiative() -> None:
    s = _hardcore()
    assert s.phase == "retrain" and GAME.to_act(s) == [A, B]
    for k in range(MAX_RETRAINED):
        s, events = play(s, A, f"retrain a{k}", "profile 0 0 5 0 0 0")
        assert event(events, "bt.ev.retrain").params["profile"] == "0 0 5 0 0 0"
    assert s.troop(0, "a0").profile == (0, 0, 5, 0, 0, 0)  # type: ignore[union-attr]
    assert legal_texts(s, A) == ["ready"]
    with pytest.raises(IllegalAction):
        play(s, A, "retrain a6")
    s, _ = play(s, A, "ready")
    assert GAME.to_act(s) == [B]
    s, _ = play(s, B, "retrain b0")
    assert len(legal_texts(s, B)) == 252
    s, events = play(s, B, "profile 1 2 2 0 0 0")  # unchanged: it does not count
    assert event(events, "bt.ev.retrain_same") and s.retrained[1] == []
    s, events = play(s, B, "ready")
    keys = [e.key for e in events]
    assert "bt.ev.initiative_roll" in keys and keys[-1] == "bt.ev.turn"
    assert s.phase == "play" and s.round == 2


def test_without_hardcore_the_first_player_keeps_the_lead() -> None:
    s = _armies(8, 8, active=B)
    s, _ = play(s, B, "end")
    s, events = play(s, A, "end")
    assert "bt.ev.initiative_roll" not in [e.key for e in events]
    assert s.phase == "play" and GAME.to_act(s) == [B] and s.round == 2
