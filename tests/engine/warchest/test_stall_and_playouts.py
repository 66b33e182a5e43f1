"""The no-progress draw, and seeded random games: they end, and no coin appears or vanishes."""

from __future__ import annotations

import random

from engine.warchest import GAME
from engine.warchest.rules import STALL_ROUNDS
from engine.warchest.state import State
from engine.warchest.units import COINS, ROYAL
from tests.engine.warchest.helpers import PLAYERS, acting, do, keys, position


def _royal_only() -> State:
    """Both sides have only their Royal Coin left to play; everything else is on the board."""
    return position(
        units=(("swordsman",), ("archer",)),
        hands=(["royal"], ["royal"]),
        board={"d4": (0, "swordsman", 5), "b6": (1, "archer", 4)},
        supply=({"swordsman": 0}, {"archer": 0}),
    )


def _play_round(st: State) -> tuple[State, list[str]]:
    start = st.round
    events: list[str] = []
    while st.round == start and st.phase == "play":
        st, ev = do(st, "pass royal")
        events += keys(ev)
    return st, events


def test_rounds_without_progress_end_in_a_draw() -> None:
    st = _royal_only()
    for n in range(1, STALL_ROUNDS):
        st, events = _play_round(st)
        assert st.stall == n and not GAME.is_over(st)
    st, events = _play_round(st)
    assert GAME.is_over(st) and events[-1] == "wc.ev.stall"
    result = GAME.result(st)
    assert result is not None and result.draw and result.winners == ()
    assert result.reason.key == "wc.result.stall"


def test_progress_resets_the_count() -> None:
    st = _royal_only()
    st.seats[0].supply = {"swordsman": 1}
    for _ in range(3):
        st, _ = _play_round(st)
    assert st.stall == 3
    st, _ = do(st, "recruit swordsman royal")
    st, _ = do(st, "pass royal")
    assert st.stall == 0


def test_moves_and_bolsters_alone_are_not_progress() -> None:
    st = position(
        units=(("swordsman",), ("archer",)),
        hands=(["swordsman"], ["royal"]),
        board={"d4": (0, "swordsman", 1)},
        supply=({"swordsman": 0}, {"archer": 0}),
    )
    st.stall = 4
    st, _ = do(st, "bolster swordsman d4")
    st, _ = do(st, "pass royal")
    assert st.stall == 5


def _coins(st: State, index: int) -> int:
    """Every coin of one seat, wherever it is (removed ones included)."""
    s = st.seats[index]
    on_board = sum(u[2] for u in st.board.values() if u[0] == index)
    return (
        len(s.bag)
        + len(s.hand)
        + len(s.discard_down)
        + sum(s.discard_up.values())
        + sum(s.supply.values())
        + sum(s.eliminated.values())
        + on_board
    )


def test_random_games_end_and_conserve_coins() -> None:
    endings = set()
    for seed in range(40):
        st = GAME.new_game(PLAYERS, seed, {"armies": ("random", "first", "draft")[seed % 3]})
        rnd = random.Random(seed)
        steps = 0
        while not GAME.is_over(st):
            who = acting(st)
            st, _ = GAME.apply(st, who, rnd.choice(GAME.legal_actions(st, who)))
            steps += 1
            if st.phase == "play" and steps % 17 == 0:
                for i, seat in enumerate(st.seats):
                    assert _coins(st, i) == 1 + sum(COINS[u] for u in seat.units)
                    assert ROYAL in seat.bag + seat.hand + seat.discard_down + list(seat.discard_up)
        assert steps < 5000
        result = GAME.result(st)
        assert result is not None
        endings.add(result.draw)
    assert False in endings  # random play does sometimes win by control markers
