"""Triggered choices offered as pending follow-ups: Swordsman, Berserker, Warrior Priest,
Mercenary, Footman and the Royal Guard's defence."""

from __future__ import annotations

import pytest

from engine import IllegalAction, NotYourTurn
from engine.warchest import GAME
from engine.warchest.state import State
from tests.engine.warchest.helpers import A, B, acting, do, keys, position, texts, unit_at

FOES = ("pikeman", "knight", "swordsman", "scout")


def pending_kind(st: State) -> str | None:
    view = GAME.view(st, None)
    return None if view["pending"] is None else str(view["pending"]["kind"])


# -- Swordsman -----------------------------------------------------------------------------------


def test_swordsman_may_move_for_free_after_attacking() -> None:
    st = position(
        units=(("swordsman",), FOES),
        hands=(["swordsman"], ["scout"]),
        board={"d4": (0, "swordsman", 1), "e4": (1, "scout", 2)},
    )
    st, _ = do(st, "attack swordsman d4 e4")
    assert pending_kind(st) == "swordsman" and acting(st) == A
    assert texts(st) == {"skip"} | {f"move swordsman d4 {h}" for h in ("c4", "d5", "d3", "e3", "c5")}
    st2, events = do(st, "move swordsman d4 d5")
    assert unit_at(st2, "d5") == (0, "swordsman", 1) and keys(events) == ["wc.ev.free_move"]
    assert st2.seats[0].discard_up == {"swordsman": 1}  # no second coin was spent
    assert acting(st2) == B and pending_kind(st2) is None
    st3, events = do(st, "skip")
    assert unit_at(st3, "d4") == (0, "swordsman", 1) and keys(events) == ["wc.ev.skip"]
    with pytest.raises(IllegalAction):
        do(st, "attack swordsman d4 e4")


def test_swordsman_gets_no_free_move_after_a_plain_move() -> None:
    st = position(
        units=(("swordsman",), FOES), hands=(["swordsman"], ["scout"]), board={"d4": (0, "swordsman", 1)}
    )
    st, _ = do(st, "move swordsman d4 d5")
    assert pending_kind(st) is None and acting(st) == B


# -- Berserker -----------------------------------------------------------------------------------


def test_berserker_repeats_by_paying_with_its_own_stack() -> None:
    st = position(
        units=(("berserker",), FOES), hands=(["berserker"], ["scout"]), board={"d4": (0, "berserker", 3)}
    )
    st, _ = do(st, "move berserker d4 d5")
    assert pending_kind(st) == "berserker"
    assert "skip" in texts(st) and "move berserker d5 d6" in texts(st)
    st, events = do(st, "move berserker d5 d6")
    assert unit_at(st, "d6") == (0, "berserker", 2)
    assert st.seats[0].discard_up == {"berserker": 2}  # the hand coin and one stacked coin
    assert keys(events) == ["wc.ev.berserker", "wc.ev.move"]
    assert pending_kind(st) == "berserker"  # still two coins: it may go again
    st, _ = do(st, "move berserker d6 d7")
    assert unit_at(st, "d7") == (0, "berserker", 1)
    assert pending_kind(st) is None and acting(st) == B  # it must keep one coin


def test_berserker_may_stop_and_a_single_coin_berserker_is_offered_nothing() -> None:
    st = position(
        units=(("berserker",), FOES), hands=(["berserker"], ["scout"]), board={"d4": (0, "berserker", 2)}
    )
    st2, events = do(st, "move berserker d4 d5")
    st2, events = do(st2, "skip")
    assert unit_at(st2, "d5") == (0, "berserker", 2) and keys(events) == ["wc.ev.skip"]
    one = position(
        units=(("berserker",), FOES), hands=(["berserker"], ["scout"]), board={"d4": (0, "berserker", 1)}
    )
    one, _ = do(one, "move berserker d4 d5")
    assert pending_kind(one) is None


def test_berserker_repeat_is_lower_when_it_attacks_a_knight() -> None:
    st = position(
        units=(("berserker",), FOES),
        hands=(["berserker"], ["scout"]),
        board={"d4": (0, "berserker", 2), "e5": (1, "knight", 1)},
    )
    st, _ = do(st, "move berserker d4 d5")  # now next to the Knight at e5 with two coins
    assert "attack berserker d5 e5" not in texts(st)  # paying for the repeat leaves only one coin


def test_berserker_repeats_after_a_manoeuvre_granted_by_an_ensign() -> None:
    st = position(
        units=(("berserker", "ensign"), FOES),
        hands=(["ensign"], ["scout"]),
        board={"d4": (0, "ensign", 1), "e4": (0, "berserker", 2)},
    )
    st, _ = do(st, "tactic ensign d4 e4 e3")
    assert pending_kind(st) == "berserker" and acting(st) == A


# -- Warrior Priest ------------------------------------------------------------------------------


def test_warrior_priest_draws_a_coin_after_attacking_and_must_use_it() -> None:
    st = position(
        units=(("warrior_priest", "pikeman"), FOES),
        hands=(["warrior_priest"], ["scout"]),
        bags=(["pikeman"], []),
        board={"d4": (0, "warrior_priest", 1), "e4": (1, "scout", 2)},
    )
    st, events = do(st, "attack warrior_priest d4 e4")
    assert "wc.ev.priest" in keys(events)
    assert pending_kind(st) == "priest" and acting(st) == A and st.seats[0].hand == ["pikeman"]
    legal = texts(st)
    assert "skip" not in legal and all("pikeman" in t for t in legal)
    assert {"deploy pikeman e1", "pass pikeman"} <= legal
    st, _ = do(st, "deploy pikeman e1")
    assert unit_at(st, "e1") == (0, "pikeman", 1) and acting(st) == B


def test_warrior_priest_draws_after_taking_control_refilling_the_bag() -> None:
    st = position(
        units=(("warrior_priest", "pikeman"), FOES),
        hands=(["warrior_priest"], ["scout"]),
        board={"d3": (0, "warrior_priest", 1)},
    )
    st.seats[0].discard_down = ["royal"]
    st, _ = do(st, "control warrior_priest d3")
    assert pending_kind(st) == "priest"
    seat = st.seats[0]
    # the empty bag took back both discards: the face-down Royal Coin and the face-up priest coin
    assert seat.discard_down == [] and seat.discard_up == {}
    assert sorted(seat.hand + seat.bag) == ["royal", "warrior_priest"] and len(seat.hand) == 1


def test_warrior_priest_draws_nothing_after_moving() -> None:
    st = position(
        units=(("warrior_priest",), FOES),
        hands=(["warrior_priest"], ["scout"]),
        bags=(["royal"], []),
        board={"d4": (0, "warrior_priest", 1)},
    )
    st, _ = do(st, "move warrior_priest d4 d5")
    assert pending_kind(st) is None and st.seats[0].hand == []


# -- Mercenary -----------------------------------------------------------------------------------


def test_recruiting_a_mercenary_coin_gives_the_mercenary_a_free_manoeuvre() -> None:
    st = position(
        units=(("mercenary",), FOES),
        hands=(["royal"], ["scout"]),
        board={"d4": (0, "mercenary", 1), "e4": (1, "scout", 1)},
    )
    st, events = do(st, "recruit mercenary royal")
    assert keys(events) == ["wc.ev.recruit", "wc.ev.mercenary"]
    assert pending_kind(st) == "mercenary" and acting(st) == A
    assert {"skip", "move mercenary d4 d5", "attack mercenary d4 e4"} <= texts(st)
    st2, _ = do(st, "attack mercenary d4 e4")
    assert unit_at(st2, "e4") is None and acting(st2) == B
    assert st2.seats[0].discard_up == {"mercenary": 1}  # only the recruited coin


def test_no_free_manoeuvre_without_a_mercenary_on_the_board() -> None:
    st = position(units=(("mercenary",), FOES), hands=(["royal"], ["scout"]))
    st, _ = do(st, "recruit mercenary royal")
    assert pending_kind(st) is None and acting(st) == B


# -- Footman -------------------------------------------------------------------------------------


def test_two_footmen_may_be_deployed_but_not_three() -> None:
    st = position(units=(("footman",), FOES), hands=(["footman"], ["scout"]), board={"e1": (0, "footman", 1)})
    assert "deploy footman g2" in texts(st)
    st.board[(3, 3)] = (0, "footman", 1)
    st.cache = {}
    assert not any(t.startswith("deploy") for t in texts(st))
    assert {"bolster footman e1", "bolster footman d4"} <= texts(st)


def test_footman_tactic_gives_each_footman_a_manoeuvre_in_any_order() -> None:
    st = position(
        units=(("footman",), FOES),
        hands=(["footman"], ["scout"]),
        board={"d4": (0, "footman", 1), "b4": (0, "footman", 1), "e4": (1, "scout", 2)},
    )
    assert "tactic footman" in texts(st)
    st, _ = do(st, "tactic footman")
    assert pending_kind(st) == "footman"
    legal = texts(st)
    assert {"attack footman d4 e4", "control footman b4", "move footman b4 a4", "skip"} <= legal
    st, _ = do(st, "control footman b4")  # the second footman goes first
    assert pending_kind(st) == "footman"
    assert all("b4" not in t for t in texts(st))
    st, _ = do(st, "attack footman d4 e4")
    assert unit_at(st, "e4") == (1, "scout", 1) and st.control[(1, 3)] == 0
    assert pending_kind(st) is None and acting(st) == B


def test_footman_tactic_with_one_footman_is_a_plain_manoeuvre_of_it() -> None:
    """As in the online game: the tactic is allowed with a single Footman on the board."""
    st = position(
        units=(("footman",), FOES),
        hands=(["footman"], ["scout"]),
        board={"d3": (0, "footman", 1), "e3": (1, "scout", 2)},
    )
    assert "tactic footman" in texts(st)
    st, _ = do(st, "tactic footman")
    assert pending_kind(st) == "footman" and acting(st) == A
    steps = {f"move footman d3 {h}" for h in ("c3", "c4", "d2", "d4", "e2")}
    assert texts(st) == steps | {"control footman d3", "attack footman d3 e3", "skip"}
    st, _ = do(st, "attack footman d3 e3")
    assert unit_at(st, "e3") == (1, "scout", 1) and st.seats[0].discard_up == {"footman": 1}
    assert pending_kind(st) is None and acting(st) == B


def test_footman_tactic_needs_a_footman_on_the_board() -> None:
    st = position(units=(("footman",), FOES), hands=(["footman"], ["scout"]))
    assert "tactic footman" not in texts(st)


# -- Royal Guard's defence -----------------------------------------------------------------------


def _guard_attacked(supply: int) -> State:
    return position(
        units=(("royal_guard",), ("swordsman",)),
        hands=(["royal"], ["swordsman"]),
        board={"d4": (0, "royal_guard", 1), "e4": (1, "swordsman", 1)},
        supply=({"royal_guard": supply}, {"swordsman": 3}),
        turn=1,
    )


def test_royal_guard_owner_may_pay_from_the_supply_when_attacked() -> None:
    st = _guard_attacked(2)
    st, _ = do(st, "attack swordsman e4 d4")
    assert pending_kind(st) == "guard" and GAME.to_act(st) == [A]  # the defender decides
    assert texts(st, A) == {"guard supply", "guard stack"}
    with pytest.raises(NotYourTurn):
        do(st, "skip", player=B)
    st2, events = do(st, "guard supply")
    assert unit_at(st2, "d4") == (0, "royal_guard", 1)
    assert st2.seats[0].supply == {"royal_guard": 1} and st2.seats[0].eliminated == {"royal_guard": 1}
    assert keys(events) == ["wc.ev.guard_supply"]
    # then the attacker's own follow-up: the Swordsman's free move
    assert pending_kind(st2) == "swordsman" and acting(st2) == B
    st3, _ = do(st, "guard stack")
    assert unit_at(st3, "d4") is None


def test_royal_guard_with_an_empty_supply_loses_a_stacked_coin_at_once() -> None:
    st = _guard_attacked(0)
    st, events = do(st, "attack swordsman e4 d4")
    assert unit_at(st, "d4") is None and "wc.ev.removed" in keys(events)
    assert pending_kind(st) == "swordsman"


# -- Follow-ups triggered by manoeuvres that other units grant -----------------------------------


def test_an_attack_granted_by_the_marshall_triggers_the_swordsman_move() -> None:
    st = position(
        units=(("marshall", "swordsman"), FOES),
        hands=(["marshall"], ["scout"]),
        board={"d4": (0, "marshall", 1), "f4": (0, "swordsman", 1), "g4": (1, "scout", 2)},
    )
    st, _ = do(st, "tactic marshall d4 f4 g4")
    assert pending_kind(st) == "swordsman" and "move swordsman f4 e4" in texts(st)
    label = GAME.label(st, GAME.parse_action(st, A, "move swordsman f4 e4"))
    assert label.key == "wc.label.followup.swordsman" and label.params["action"].key == "wc.label.move"


def test_warrior_priest_draws_even_when_a_pikeman_removes_it() -> None:
    st = position(
        units=(("warrior_priest",), FOES),
        hands=(["warrior_priest"], ["scout"]),
        bags=(["royal"], []),
        board={"d4": (0, "warrior_priest", 1), "e4": (1, "pikeman", 2)},
    )
    st, events = do(st, "attack warrior_priest d4 e4")
    assert unit_at(st, "d4") is None and unit_at(st, "e4") == (1, "pikeman", 1)
    assert pending_kind(st) == "priest" and st.seats[0].hand == ["royal"]
    assert keys(events) == ["wc.ev.attack", "wc.ev.pikeman", "wc.ev.removed", "wc.ev.lost", "wc.ev.priest"]


def test_swordsman_removed_by_a_pikeman_gets_no_free_move() -> None:
    st = position(
        units=(("swordsman",), FOES),
        hands=(["swordsman"], ["scout"]),
        board={"d4": (0, "swordsman", 1), "e4": (1, "pikeman", 2)},
    )
    st, _ = do(st, "attack swordsman d4 e4")
    assert unit_at(st, "d4") is None and pending_kind(st) is None and acting(st) == B
