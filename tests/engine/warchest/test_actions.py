"""The nine actions, legal and illegal."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.warchest import GAME
from tests.engine.warchest.helpers import A, acting, do, hx, keys, position, texts, unit_at

SW = ("swordsman", "pikeman", "crossbowman", "light_cavalry")
AR = ("archer", "cavalry", "lancer", "scout")


def test_deploy_only_on_empty_locations_you_control() -> None:
    st = position(hands=(["swordsman"], ["archer"]), board={"e1": (0, "pikeman", 1)})
    deploys = {t for t in texts(st) if t.startswith("deploy")}
    assert deploys == {"deploy swordsman g2"}  # e1 is occupied, the other locations are not ours
    st2, events = do(st, "deploy swordsman g2")
    assert unit_at(st2, "g2") == (0, "swordsman", 1) and keys(events) == ["wc.ev.deploy"]
    assert st2.seats[0].hand == []
    assert unit_at(st, "g2") is None  # the input state is untouched
    for bad in ("deploy swordsman e1", "deploy swordsman d3", "deploy pikeman g2"):
        with pytest.raises(IllegalAction):
            do(st, bad)


def test_one_unit_of_each_type_on_the_board() -> None:
    st = position(hands=(["swordsman"], ["archer"]), board={"e1": (0, "swordsman", 1)})
    assert not any(t.startswith("deploy") for t in texts(st))
    assert "bolster swordsman e1" in texts(st)


def test_a_removed_unit_type_may_be_deployed_again() -> None:
    st = position(
        hands=(["swordsman"], ["archer", "archer"]),
        board={"d4": (0, "swordsman", 2), "d5": (1, "scout", 1)},
        turn=0,
        control={"d5": 1},
    )
    st, events = do(st, "attack swordsman d4 d5")
    assert unit_at(st, "d5") is None and "wc.ev.removed" in keys(events)
    assert st.seats[1].eliminated == {"scout": 1}
    st, _ = do(st, "skip")  # the Swordsman's free move
    st.seats[1].hand = ["scout"]
    st.cache = {}
    assert "deploy scout d5" in texts(st)


def test_bolster_has_no_height_limit() -> None:
    st = position(hands=(["swordsman", "swordsman"], ["archer"]), board={"e1": (0, "swordsman", 7)})
    st, events = do(st, "bolster swordsman e1")
    assert unit_at(st, "e1") == (0, "swordsman", 8)
    assert events[0].params["height"] == 8
    with pytest.raises(IllegalAction):
        do(st, "bolster pikeman e1")


def test_move_one_step_to_an_adjacent_empty_hex() -> None:
    st = position(hands=(["pikeman"], ["archer"]), board={"d4": (0, "pikeman", 2), "e4": (1, "archer", 1)})
    moves = {t for t in texts(st) if t.startswith("move")}
    assert moves == {f"move pikeman d4 {h}" for h in ("c4", "d5", "d3", "e3", "c5")}
    st2, _ = do(st, "move pikeman d4 d5")
    assert unit_at(st2, "d5") == (0, "pikeman", 2) and unit_at(st2, "d4") is None
    assert st2.seats[0].discard_up == {"pikeman": 1}  # a manoeuvre discards the coin face up
    for bad in ("move pikeman d4 e4", "move pikeman d4 d6"):
        with pytest.raises(IllegalAction):
            do(st, bad)


def test_control_neutral_then_enemy_location_returns_their_marker() -> None:
    st = position(hands=(["pikeman"], ["archer"]), board={"d3": (0, "pikeman", 1)})
    assert st.markers == [4, 4]
    st, events = do(st, "control pikeman d3")
    assert st.control[hx("d3")] == 0 and st.markers == [3, 4] and keys(events) == ["wc.ev.control"]
    st2 = position(hands=(["pikeman"], ["archer"]), board={"a6": (0, "pikeman", 1)})
    st2, events = do(st2, "control pikeman a6")
    assert st2.control[hx("a6")] == 0 and st2.markers == [3, 5] and keys(events) == ["wc.ev.control_from"]


def test_control_only_where_you_do_not_already_control_and_on_locations() -> None:
    st = position(hands=(["pikeman"], ["archer"]), board={"e1": (0, "pikeman", 1)})
    assert not any(t.startswith("control") for t in texts(st))
    st = position(hands=(["pikeman"], ["archer"]), board={"d4": (0, "pikeman", 1)})
    with pytest.raises(IllegalAction):
        do(st, "control pikeman d4")


def test_placing_the_last_marker_wins_at_once() -> None:
    st = position(
        hands=(["pikeman", "swordsman"], ["archer"]),
        board={"d3": (0, "pikeman", 1)},
        control={"c2": 0, "f4": 0, "b4": 0},
    )
    assert st.markers[0] == 1
    st, events = do(st, "control pikeman d3")
    assert GAME.is_over(st) and GAME.to_act(st) == []
    result = GAME.result(st)
    assert result is not None and result.winners == (A,) and not result.draw
    assert result.reason.key == "wc.result.markers" and keys(events)[-1] == "wc.ev.win"
    assert GAME.legal_actions(st, A) == []


def test_attack_removes_one_coin_from_the_game() -> None:
    st = position(hands=(["pikeman"], ["archer"]), board={"d4": (0, "pikeman", 1), "e4": (1, "cavalry", 3)})
    st, events = do(st, "attack pikeman d4 e4")
    assert unit_at(st, "e4") == (1, "cavalry", 2)
    assert st.seats[1].eliminated == {"cavalry": 1} and keys(events) == ["wc.ev.attack", "wc.ev.lost"]
    assert st.seats[1].supply["cavalry"] == 2  # the supply is not touched


def test_attack_needs_an_adjacent_enemy() -> None:
    st = position(
        hands=(["pikeman"], ["archer"]),
        board={"d4": (0, "pikeman", 1), "f4": (1, "cavalry", 1), "e4": (0, "swordsman", 1)},
    )
    assert not any(t.startswith("attack") for t in texts(st))
    for bad in ("attack pikeman d4 f4", "attack pikeman d4 e4"):
        with pytest.raises(IllegalAction):
            do(st, bad)


def test_recruit_takes_a_supply_coin_into_the_face_up_discard() -> None:
    st = position(hands=(["royal"], ["archer"]), units=(SW, AR))
    recruits = {t for t in texts(st) if t.startswith("recruit")}
    assert recruits == {f"recruit {u} royal" for u in SW}
    st2, events = do(st, "recruit crossbowman royal")
    seat = st2.seats[0]
    assert seat.supply["crossbowman"] == 2 and seat.discard_up == {"crossbowman": 1}
    assert seat.discard_down == ["royal"] and keys(events) == ["wc.ev.recruit"]
    assert events[0].params["unit"].key == "wc.unit.crossbowman"  # the recruited coin is shown
    with pytest.raises(IllegalAction):
        do(st, "recruit archer royal")  # not one of alice's unit types


def test_recruit_is_impossible_once_the_supply_is_empty() -> None:
    st = position(hands=(["royal"], ["archer"]), units=(("swordsman",), AR), supply=({"swordsman": 0}, {}))
    assert not any(t.startswith("recruit") for t in texts(st))


def test_pass_discards_any_coin_face_down() -> None:
    st = position(hands=(["swordsman", "royal"], ["archer"]))
    assert {"pass swordsman", "pass royal"} <= texts(st)
    st, events = do(st, "pass swordsman")
    assert st.seats[0].discard_down == ["swordsman"] and keys(events) == ["wc.ev.pass"]
    assert events[0].params == {"player": events[0].params["player"]}


def test_royal_coin_only_discards_face_down_without_a_royal_guard() -> None:
    st = position(hands=(["royal"], ["archer"]), board={"d4": (0, "swordsman", 1)})
    verbs = {t.split()[0] for t in texts(st)}
    assert verbs == {"recruit", "pass"}


def test_unit_coin_acts_only_for_its_own_type() -> None:
    st = position(hands=(["pikeman"], ["archer"]), board={"d4": (0, "swordsman", 1)})
    assert not any("swordsman" in t for t in texts(st) if not t.startswith("recruit"))
    with pytest.raises(IllegalAction):
        do(st, "move swordsman d4 d5")


def test_acting_player_is_the_one_whose_turn_it_is() -> None:
    st = position(hands=(["pikeman"], ["archer"]), turn=1)
    assert acting(st) == "bob"
