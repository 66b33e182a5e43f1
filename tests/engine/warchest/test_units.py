"""Unit abilities whose effect is immediate: tactics, restrictions and traits that change legality."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.warchest.state import State
from tests.engine.warchest.helpers import acting, do, keys, position, texts, unit_at

ARMY = (
    "archer",
    "crossbowman",
    "cavalry",
    "lancer",
    "light_cavalry",
    "ensign",
    "marshall",
    "knight",
    "scout",
)
FOES = ("pikeman", "knight", "swordsman", "scout")


def _pos(hand: str, board: dict[str, tuple[int, str, int]]) -> State:
    return position(units=(ARMY, FOES), hands=([hand], ["scout"]), board=board)


def tactics(st: State) -> set[str]:
    return {t for t in texts(st) if t.startswith("tactic")}


# -- Archer --------------------------------------------------------------------------------------


def test_archer_shoots_exactly_two_away_even_over_a_unit() -> None:
    st = _pos(
        "archer",
        {"d4": (0, "archer", 1), "e4": (0, "scout", 1), "f4": (1, "swordsman", 2), "e2": (1, "scout", 1)},
    )
    assert tactics(st) == {"tactic archer d4 f4", "tactic archer d4 e2"}
    st2, events = do(st, "tactic archer d4 f4")
    assert unit_at(st2, "f4") == (1, "swordsman", 1)
    assert keys(events) == ["wc.ev.tactic", "wc.ev.attack", "wc.ev.lost"]


def test_archer_cannot_attack_normally() -> None:
    st = _pos("archer", {"d4": (0, "archer", 1), "e4": (1, "swordsman", 2)})
    assert not any(t.startswith(("attack", "tactic")) for t in texts(st))
    with pytest.raises(IllegalAction):
        do(st, "attack archer d4 e4")


# -- Crossbowman ---------------------------------------------------------------------------------


def test_crossbowman_shoots_two_away_in_a_line_over_an_empty_hex() -> None:
    st = _pos(
        "crossbowman",
        {
            "d4": (0, "crossbowman", 1),
            "f4": (1, "swordsman", 1),
            "e2": (1, "scout", 1),
            "d6": (1, "pikeman", 1),
            "d5": (0, "scout", 1),
        },
    )
    # f4 is in line over empty e4; e2 is two away but not in a line; d6 is in line but d5 is occupied
    assert tactics(st) == {"tactic crossbowman d4 f4"}
    st2, _ = do(st, "tactic crossbowman d4 f4")
    assert unit_at(st2, "f4") is None


def test_crossbowman_may_also_attack_normally() -> None:
    st = _pos("crossbowman", {"d4": (0, "crossbowman", 1), "e4": (1, "swordsman", 2)})
    assert "attack crossbowman d4 e4" in texts(st)


# -- Cavalry -------------------------------------------------------------------------------------


def test_cavalry_moves_one_step_then_attacks() -> None:
    st = _pos("cavalry", {"d4": (0, "cavalry", 1), "f4": (1, "swordsman", 2)})
    assert tactics(st) == {"tactic cavalry d4 e4 f4"}
    st2, events = do(st, "tactic cavalry d4 e4 f4")
    assert unit_at(st2, "e4") == (0, "cavalry", 1) and unit_at(st2, "d4") is None
    assert unit_at(st2, "f4") == (1, "swordsman", 1)
    assert keys(events) == ["wc.ev.tactic", "wc.ev.move", "wc.ev.attack", "wc.ev.lost"]


def test_cavalry_tactic_needs_a_target_after_the_move() -> None:
    st = _pos("cavalry", {"d4": (0, "cavalry", 1), "g4": (1, "swordsman", 2)})
    assert tactics(st) == set()
    with pytest.raises(IllegalAction):
        do(st, "tactic cavalry d4 e4 f4")


# -- Lancer --------------------------------------------------------------------------------------


def test_lancer_charges_one_or_two_steps_in_a_line_then_attacks_along_it() -> None:
    st = _pos("lancer", {"d4": (0, "lancer", 1), "f4": (1, "swordsman", 2), "d7": (1, "scout", 1)})
    assert tactics(st) == {"tactic lancer d4 e4 f4", "tactic lancer d4 d6 d7"}
    st2, _ = do(st, "tactic lancer d4 d6 d7")
    assert unit_at(st2, "d6") == (0, "lancer", 1) and unit_at(st2, "d7") is None


def test_lancer_cannot_charge_through_units_nor_attack_normally() -> None:
    st = _pos(
        "lancer",
        {"d4": (0, "lancer", 1), "d5": (1, "scout", 1), "d6": (1, "swordsman", 2), "e3": (1, "pikeman", 1)},
    )
    # d6 is behind d5 (occupied); adjacent enemies cannot be attacked without a charge step
    assert tactics(st) == set()
    assert not any(t.startswith("attack") for t in texts(st))
    with pytest.raises(IllegalAction):
        do(st, "tactic lancer d4 d5 d6")


# -- Light Cavalry -------------------------------------------------------------------------------


def test_light_cavalry_moves_exactly_two_steps_through_empty_hexes() -> None:
    st = _pos("light_cavalry", {"d4": (0, "light_cavalry", 1)})
    ends = {t.split()[-1] for t in tactics(st)}
    assert "f4" in ends and "e2" in ends and "e4" not in ends and len(ends) == 12
    assert "move light_cavalry d4 e4" in texts(st)  # a normal step is still allowed
    st2, _ = do(st, "tactic light_cavalry d4 f4")
    assert unit_at(st2, "f4") == (0, "light_cavalry", 1)


def test_light_cavalry_cannot_pass_through_occupied_hexes() -> None:
    st = _pos("light_cavalry", {"d4": (0, "light_cavalry", 1), "e4": (1, "scout", 1)})
    assert "tactic light_cavalry d4 f4" not in texts(st)
    with pytest.raises(IllegalAction):
        do(st, "tactic light_cavalry d4 f4")


# -- Ensign --------------------------------------------------------------------------------------


def test_ensign_moves_a_friendly_unit_within_two_ending_within_two() -> None:
    st = _pos("ensign", {"d4": (0, "ensign", 1), "f4": (0, "knight", 1), "c4": (1, "scout", 1)})
    assert tactics(st) == {"tactic ensign d4 f4 e4", "tactic ensign d4 f4 f3", "tactic ensign d4 f4 e5"}
    st2, events = do(st, "tactic ensign d4 f4 f3")
    assert unit_at(st2, "f3") == (0, "knight", 1) and unit_at(st2, "d4") == (0, "ensign", 1)
    assert keys(events) == ["wc.ev.tactic", "wc.ev.move"]
    with pytest.raises(IllegalAction):
        do(st, "tactic ensign d4 f4 g4")  # would end three away from the Ensign
    with pytest.raises(IllegalAction):
        do(st, "tactic ensign d4 c4 b4")  # an enemy unit


# -- Marshall ------------------------------------------------------------------------------------


def test_marshall_lets_a_friendly_unit_within_two_attack() -> None:
    st = _pos(
        "marshall",
        {
            "d4": (0, "marshall", 1),
            "f4": (0, "knight", 1),
            "g4": (1, "swordsman", 2),
            "c4": (0, "archer", 1),
            "b4": (1, "scout", 1),
        },
    )
    # the Archer cannot attack normally, so it cannot be ordered to
    assert tactics(st) == {"tactic marshall d4 f4 g4"}
    st2, events = do(st, "tactic marshall d4 f4 g4")
    assert unit_at(st2, "g4") == (1, "swordsman", 1) and unit_at(st2, "f4") == (0, "knight", 1)
    assert st2.seats[0].discard_up == {"marshall": 1}
    assert keys(events) == ["wc.ev.tactic", "wc.ev.attack", "wc.ev.lost"]


# -- Knight --------------------------------------------------------------------------------------


def test_only_bolstered_units_may_attack_a_knight() -> None:
    for height, allowed in ((1, False), (2, True)):
        st = position(
            units=(("swordsman",), ("knight",)),
            hands=(["swordsman"], ["knight"]),
            board={"d4": (0, "swordsman", height), "e4": (1, "knight", 1)},
        )
        assert ("attack swordsman d4 e4" in texts(st)) is allowed


def test_the_knight_rule_covers_tactic_attacks() -> None:
    for height, allowed in ((1, False), (2, True)):
        st = _pos("archer", {"d4": (0, "archer", height), "f4": (1, "knight", 1)})
        assert ("tactic archer d4 f4" in texts(st)) is allowed


# -- Pikeman -------------------------------------------------------------------------------------


def test_pikeman_strikes_back_at_an_adjacent_attacker() -> None:
    st = _pos("cavalry", {"d4": (0, "cavalry", 1), "f4": (1, "pikeman", 2)})
    st2, events = do(st, "tactic cavalry d4 e4 f4")
    assert unit_at(st2, "e4") is None  # the one-coin Cavalry is gone
    assert unit_at(st2, "f4") == (1, "pikeman", 1)
    assert st2.seats[0].eliminated == {"cavalry": 1}
    assert "wc.ev.pikeman" in keys(events) and "wc.ev.removed" in keys(events)


def test_pikeman_counter_hits_a_knight_but_not_a_ranged_attacker() -> None:
    st = position(
        units=(("knight", "archer"), ("pikeman",)),
        hands=(["knight", "archer"], ["pikeman"]),
        board={"d4": (0, "knight", 2), "e4": (1, "pikeman", 3), "g4": (0, "archer", 1)},
    )
    st2, _ = do(st, "attack knight d4 e4")
    assert unit_at(st2, "d4") == (0, "knight", 1) and unit_at(st2, "e4") == (1, "pikeman", 2)
    st3, events = do(st, "tactic archer g4 e4")
    assert unit_at(st3, "g4") == (0, "archer", 1) and "wc.ev.pikeman" not in keys(events)


# -- Scout ---------------------------------------------------------------------------------------


def test_scout_deploys_next_to_a_friendly_unit_too() -> None:
    st = position(
        units=(("scout", "knight"), FOES),
        hands=(["scout"], ["scout"]),
        board={"d4": (0, "knight", 1), "e4": (1, "pikeman", 1)},
    )
    deploys = {t.split()[-1] for t in texts(st) if t.startswith("deploy")}
    assert deploys == {"e1", "g2", "c4", "d5", "d3", "e3", "c5"}
    st2, _ = do(st, "deploy scout c5")
    assert unit_at(st2, "c5") == (0, "scout", 1)
    st3 = position(units=(("knight",), FOES), hands=(["knight"], ["scout"]), board={"d4": (0, "scout", 1)})
    assert {t.split()[-1] for t in texts(st3) if t.startswith("deploy")} == {"e1", "g2"}


# -- Royal Guard ---------------------------------------------------------------------------------


def test_royal_guard_tactic_is_paid_with_the_royal_coin_and_ends_on_a_controlled_location() -> None:
    st = position(
        units=(("royal_guard",), FOES),
        hands=(["royal"], ["scout"]),
        board={"d4": (0, "royal_guard", 1)},
        control={"d3": 0, "f4": 0, "d5": 1},
    )
    assert tactics(st) == {"tactic royal_guard d4 d3", "tactic royal_guard d4 f4"}
    st2, _ = do(st, "tactic royal_guard d4 f4")
    assert unit_at(st2, "f4") == (0, "royal_guard", 1)
    assert st2.seats[0].discard_up == {"royal": 1} and st2.seats[0].hand == []
    st.seats[0].hand = ["royal_guard"]
    st.cache = {}
    assert tactics(st) == set()  # its own coins only manoeuvre normally
    blocked = position(
        units=(("royal_guard",), FOES),
        hands=(["royal"], ["scout"]),
        board={"d4": (0, "royal_guard", 1), "e4": (1, "scout", 1)},
        control={"f4": 0},
    )
    assert tactics(blocked) == set()


def test_acting_player_after_a_plain_action() -> None:
    st = _pos("scout", {"d4": (0, "scout", 1)})
    st2, _ = do(st, "move scout d4 d5")
    assert acting(st2) == "bob"
