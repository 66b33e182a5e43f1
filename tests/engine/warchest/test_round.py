"""Rounds: drawing, refilling the bag, coin shortage, turn order and the initiative."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.warchest.state import State
from tests.engine.warchest.helpers import A, B, acting, do, keys, pass_any, position, texts


def _passing_order(st: State) -> list[str]:
    """Who acts, turn by turn, while everyone passes until the first round ends."""
    order = []
    while st.round == 1:
        order.append(acting(st))
        st = pass_any(st)
    return order


def test_round_alternates_one_coin_at_a_time_from_the_initiative_holder() -> None:
    st = position(
        hands=(["royal", "swordsman"], ["royal", "archer"]), turn=1, units=(("swordsman",), ("archer",))
    )
    assert _passing_order(st) == [B, A, B, A]


def test_the_other_player_keeps_playing_alone_when_one_runs_out() -> None:
    st = position(
        hands=(["royal"], ["royal", "archer", "archer"]), turn=0, units=(("swordsman",), ("archer",))
    )
    assert _passing_order(st) == [A, B, B, B]


def test_bag_running_dry_mid_draw_is_refilled_from_both_discards() -> None:
    st = position(
        hands=(["royal"], []),
        bags=(["swordsman"], ["archer", "archer", "cavalry"]),
        units=(("swordsman", "pikeman", "crossbowman"), ("archer", "cavalry")),
    )
    st.seats[0].discard_up = {"pikeman": 1}
    st.seats[0].discard_down = ["crossbowman"]
    st, events = do(st, "pass royal")
    assert st.round == 2 and "wc.ev.round" in keys(events)
    seat = st.seats[0]
    assert len(seat.hand) == 3 and "swordsman" in seat.hand
    assert sorted(seat.hand + seat.bag) == ["crossbowman", "pikeman", "royal", "swordsman"]
    assert seat.discard_up == {} and seat.discard_down == []
    assert sorted(st.seats[1].hand) == ["archer", "archer", "cavalry"]


def test_coin_shortage_means_fewer_coins_and_fewer_actions() -> None:
    st = position(
        hands=(["royal"], []),
        bags=(["swordsman"], ["archer", "archer", "cavalry", "royal"]),
        units=(("swordsman",), ("archer", "cavalry")),
    )
    st, events = do(st, "pass royal")
    assert sorted(st.seats[0].hand) == ["royal", "swordsman"]
    short = [e for e in events if e.key == "wc.ev.short"]
    assert len(short) == 1 and short[0].params["count"] == 2
    assert len(st.seats[1].hand) == 3


def test_claim_initiative_rules() -> None:
    st = position(
        hands=(["royal", "swordsman"], ["royal", "archer"]), turn=0, units=(("swordsman",), ("archer",))
    )
    # the holder cannot claim it
    assert not any(t.startswith("initiative") for t in texts(st))
    with pytest.raises(IllegalAction):
        do(st, "initiative royal")
    st, _ = do(st, "pass swordsman")
    assert {"initiative royal", "initiative archer"} <= texts(st)
    st, events = do(st, "initiative archer")
    assert st.initiative == 1 and keys(events) == ["wc.ev.initiative"]
    assert "archer" not in str(events[0].params)  # face down: the coin stays hidden
    # alice held it at the start of the round: she cannot take it back this round
    assert not any(t.startswith("initiative") for t in texts(st))
    st, _ = do(st, "pass royal")
    st, _ = do(st, "pass royal")
    # the holder at the end of the round starts the next one
    assert st.round == 2 and st.initiative == 1 and acting(st) == B
