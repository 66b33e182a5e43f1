"""Battles: placement, tactics cards, the three objectives, retreat, neutral Trogs, order."""

from __future__ import annotations

import pytest

from engine.cryhavoc import GAME, flow
from engine.cryhavoc.content import STRUCTURES, TOKENS, WAR_PARTIES

from .helpers import duel, fight, keys, legal, play, set_hand, start_fight


def _place(st, seat: int, *objectives: str):  # type: ignore[no-untyped-def]
    for o in objectives:
        st, _ = play(st, seat, f"place {o}")
    return st


def test_the_seeds_example_two_on_prisoners_beat_one_and_capture_from_attrition() -> None:
    st = duel()
    ev = start_fight(st, "greyspire", 0, 1, 3, 2)
    assert "ch.ev.battle_start" in keys(ev) and st["regions"]["greyspire"]["crystals"] == 1
    assert legal(st, 0) == ["place control", "place prisoners", "place attrition"]
    st = _place(st, 0, "control", "prisoners", "prisoners")
    st = _place(st, 1, "prisoners", "attrition")
    assert fight(st)["step"] == "capture" and legal(st, 0) == ["capture prisoners", "capture attrition"]
    st, ev = play(st, 0, "capture attrition")
    assert st["prisoners"][0][1] == 1
    assert "ch.ev.kill" not in keys(ev), "the captured unit no longer kills on Attrition"
    assert st["vp"] == [2, 0] and st["regions"]["greyspire"]["control"] == 0
    assert fight(st)["num"] == 8, "the next battle starts"
    assert st["regions"]["greyspire"]["units"] == [3, 0, 0]
    assert st["regions"]["highgate"]["units"][0] == 4
    assert st["seats"][1]["reserve"] == 9, "bob's survivor had nowhere to retreat"


@pytest.mark.parametrize("crystals", [0, 8, 9, 10, 23])
def test_every_battle_adds_a_crystal_to_its_region_however_many_it_holds(crystals: int) -> None:
    st = duel()
    st["regions"]["greyspire"]["crystals"] = crystals
    start_fight(st, "greyspire", 0, 1, 1, 1)
    assert st["regions"]["greyspire"]["crystals"] == crystals + 1
    shown = next(r for r in GAME.view(st, None)["regions"] if r["id"] == "greyspire")
    assert shown["crystals"] == crystals + 1


def test_region_control_ties_and_an_empty_objective_go_to_the_defender() -> None:
    st = duel()
    start_fight(st, "greyspire", 0, 1, 1, 1)
    st = _place(st, 0, "control")
    st = _place(st, 1, "control")
    assert st["regions"]["greyspire"]["control"] == 1 and st["vp"] == [0, 2]
    assert st["regions"]["highgate"]["units"][0] == 5, "the attacker retreated to its HQ"
    st = duel()
    start_fight(st, "greyspire", 0, 1, 1, 1)
    st = _place(st, 0, "attrition")
    st = _place(st, 1, "prisoners")
    assert st["regions"]["greyspire"]["control"] == 1


def test_take_prisoners_tie_takes_nobody_and_attrition_is_simultaneous() -> None:
    st = duel()
    start_fight(st, "greyspire", 0, 1, 4, 4)
    st = _place(st, 0, "control", "prisoners", "attrition", "attrition")
    st = _place(st, 1, "control", "control", "prisoners", "attrition")
    assert st["prisoners"] == [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert st["vp"] == [2, 3], "bob: control 2 + one kill; alice: two kills"
    assert st["regions"]["greyspire"]["units"] == [0, 2, 0], "kills took bob's Attrition, then Prisoners"
    assert st["seats"][0]["reserve"] == 9 and st["seats"][1]["reserve"] == 10


def test_retreat_with_no_legal_region_sends_units_to_the_reserve_else_the_loser_picks() -> None:
    st = duel()
    start_fight(st, "glassfield", 0, 1, 2, 2)
    st = _place(st, 0, "control", "prisoners")
    st, ev = play(st, 1, "place control")
    st, ev = play(st, 1, "place control")
    assert "ch.ev.retreat_reserve" in keys(ev) and st["seats"][0]["reserve"] == 10
    st = duel()
    st["regions"]["dunes"]["control"] = 0
    st["regions"]["vinegrove"]["control"] = 0
    st["regions"]["vinegrove"]["units"][1] = 1
    st["regions"]["dunes"]["battle"] = 7
    start_fight(st, "glassfield", 0, 1, 2, 2)
    st["battles"] = []
    st = _place(st, 0, "control", "attrition")
    st = _place(st, 1, "control")
    st, ev = play(st, 1, "place control")
    assert "ch.ev.retreat_reserve" in keys(ev), "dunes is a battle region and vinegrove holds an enemy"
    st = duel()
    st["regions"]["dunes"]["control"] = 0
    st["regions"]["vinegrove"]["control"] = 0
    start_fight(st, "glassfield", 0, 1, 2, 2)
    st = _place(st, 0, "control", "prisoners")
    st = _place(st, 1, "control", "control")
    assert legal(st, 0) == ["retreat dunes", "retreat vinegrove"]
    st, _ = play(st, 0, "retreat vinegrove")
    assert st["regions"]["vinegrove"]["units"][0] == 2 and fight(st)["num"] == 8


def test_cards_alternate_attacker_first_and_folding_is_final() -> None:
    st = duel()
    set_hand(st, 0, "pi_blessing", "pi_blessing")
    set_hand(st, 1, "pi_blessing", "pi_blessing")
    start_fight(st, "greyspire", 0, 1, 1, 1)
    st = _place(st, 0, "control")
    st = _place(st, 1, "control")
    assert GAME.to_act(st) == ["alice"] and "fold" in legal(st, 0)
    st, _ = play(st, 0, "play pi_blessing")
    assert GAME.to_act(st) == ["bob"]
    st, _ = play(st, 1, "fold")
    assert GAME.to_act(st) == ["alice"]
    st, _ = play(st, 0, "play pi_blessing")
    assert fight(st)["num"] == 8, "alice has no card left, bob folded: the battle resolved"
    assert len(st["seats"][1]["hand"]) == 2
    assert st["vp"] == [2, 2], "two Blessings for alice; Region Control (a tie) for bob"


def test_terrain_cards_work_only_in_their_terrain() -> None:
    st = duel()
    set_hand(st, 0, "de_sandstorm", "mo_avalanche")
    start_fight(st, "greyspire", 0, 1, 1, 1)
    st = _place(st, 0, "control")
    st = _place(st, 1, "attrition")
    assert legal(st, 0) == ["play mo_avalanche attrition", "fold"]
    st, _ = play(st, 0, "play mo_avalanche attrition")
    assert st["seats"][1]["reserve"] == 9 and st["regions"]["greyspire"]["control"] == 0


def test_a_reversed_order_lets_attrition_decide_region_control() -> None:
    st = duel()
    set_hand(st, 0, "hu_command")
    start_fight(st, "greyspire", 0, 1, 2, 2)
    st = _place(st, 0, "control", "attrition")
    st = _place(st, 1, "control", "prisoners")
    st, _ = play(st, 0, "play hu_command")
    assert fight(st)["reversed"] and fight(st)["queue"] == ["attrition", "prisoners", "control"]
    assert legal(st, 0) == ["kill control", "kill prisoners"]
    st, _ = play(st, 0, "kill control")
    assert legal(st, 1) == ["capture control", "capture attrition"]
    st, _ = play(st, 1, "capture attrition")
    assert st["regions"]["greyspire"]["control"] == 0 and st["vp"][0] == 3
    assert st["prisoners"][1][0] == 1


def test_bonus_shift_and_reinforce_cards() -> None:
    st = duel()
    set_hand(st, 0, "hu_muster", "hu_forced_march")
    set_hand(st, 1, "hu_sappers")
    start_fight(st, "greyspire", 0, 1, 1, 1)
    st = _place(st, 0, "attrition")
    st = _place(st, 1, "control")
    st, _ = play(st, 0, "play hu_forced_march attrition control")
    st, _ = play(st, 1, "play hu_sappers")
    assert fight(st)["bonus"][1] == [1, 0, 0]
    st, _ = play(st, 0, "play hu_muster control")
    assert st["seats"][0]["reserve"] == 7, "Muster brought one unit from the reserve"
    assert fight(st)["num"] == 8 and st["regions"]["greyspire"]["control"] == 1, "2 against 1 + 1: a tie"


def test_a_structure_guard_adds_to_its_owners_region_control() -> None:
    st = duel()
    guard = next(s for s, d in STRUCTURES.items() if d["guard"] and d["faction"] == st["factions"][1])
    st["regions"]["greyspire"]["structures"] = [[guard, 1]]
    start_fight(st, "greyspire", 0, 1, 2, 1)
    st = _place(st, 0, "control", "control")
    st = _place(st, 1, "control")
    assert st["regions"]["greyspire"]["control"] == 1


def test_neutral_trogs_fight_by_fixed_rules_and_a_win_places_a_war_party() -> None:
    st = duel()
    st["neutral"] -= 3
    start_fight(st, "basalt", 0, 2, 1, 3)
    st, ev = play(st, 0, "place control")
    assert "ch.ev.place" in keys(ev)
    token = st["regions"]["basalt"]["token"]
    assert token is not None and token["kind"] == "war_party" and token["id"] in WAR_PARTIES
    assert st["regions"]["basalt"]["control"] is None and "ch.ev.control_trogs" in keys(ev)
    assert "ch.ev.trogs_retreat" not in keys(ev), "the winners do not retreat"
    assert st["neutral"] == 12 and st["vp"] == [0, 0]


def test_the_war_party_placed_is_drawn_from_the_tokens_left_off_the_map() -> None:
    drawn = set()
    for seed in range(12):
        st = duel(seed)
        for rid in ("greyspire", "ironspire", "saltmarsh", "brinemarsh"):
            st["regions"][rid]["token"] = {
                "kind": "war_party",
                "id": "wp_band" if "marsh" in rid else "wp_horde",
            }
        st["neutral"] -= 3
        start_fight(st, "basalt", 0, 2, 1, 3)
        st, _ = play(st, 0, "place control")
        drawn.add(st["regions"]["basalt"]["token"]["id"])
    assert drawn == {"wp_scouts", "wp_raiders", "wp_warband"}, "both Bands and the Horde are on the map"


def test_with_every_war_party_on_the_map_a_trog_win_places_none() -> None:
    st = duel()
    ids = [t["id"] for t in TOKENS["war_party"]]
    for rid, wp in zip(
        ("greyspire", "ironspire", "saltmarsh", "brinemarsh", "dunes", "sandsea"), ids, strict=True
    ):
        st["regions"][rid]["token"] = {"kind": "war_party", "id": wp}
    st["neutral"] -= 3
    start_fight(st, "basalt", 0, 2, 1, 3)
    st, ev = play(st, 0, "place control")
    assert st["regions"]["basalt"]["token"] is None and "ch.ev.control_trogs_no_token" in keys(ev)


def test_neutral_trogs_that_must_retreat_leave_a_trog_nest() -> None:
    st = duel()
    st["neutral"] -= 2
    start_fight(st, "basalt", 0, 2, 3, 2)
    st, ev = _place_and_events(st, 0, "control", "control", "control")
    assert st["regions"]["basalt"]["control"] == 0 and st["vp"] == [2, 0]
    assert st["regions"]["basalt"]["token"] == {"kind": "nest", "id": "nest"}
    assert "ch.ev.trogs_retreat" in keys(ev)
    assert st["regions"]["basalt"]["units"] == [2, 0, 0], "the Trog on Attrition killed one"
    assert st["neutral"] == 12, "the retreating Trog went back to the neutral pool"


def test_neutral_trogs_with_no_survivor_have_nothing_to_retreat_and_leave_no_nest() -> None:
    st = duel()
    st["neutral"] -= 1
    start_fight(st, "basalt", 0, 2, 3, 1)
    st, ev = _place_and_events(st, 0, "control", "control", "attrition")
    assert st["regions"]["basalt"]["control"] == 0 and st["regions"]["basalt"]["token"] is None
    assert "ch.ev.trogs_retreat" not in keys(ev) and st["neutral"] == 12


def _place_and_events(st, seat: int, *objectives: str):  # type: ignore[no-untyped-def]
    events = []
    for o in objectives:
        st, ev = play(st, seat, f"place {o}")
        events += ev
    return st, events


def test_a_trog_prisoner_scores_once_for_its_captor_and_returns_to_the_pool() -> None:
    st = duel()
    st["neutral"] -= 1
    start_fight(st, "basalt", 0, 2, 3, 1, hold=False)
    st = _place(st, 0, "control", "control", "prisoners")
    assert st["prisoners"][0][2] == 0 and st["neutral"] == 12
    assert st["vp"][0] == 2 + 1, "2 for control, 1 in the prisoners phase for the Trog"


def test_battles_resolve_in_battle_token_order() -> None:
    st = duel()
    st["regions"]["greyspire"]["units"][0:2] = [1, 1]
    st["regions"]["sandsea"]["units"][0:2] = [1, 1]
    st["regions"]["greyspire"]["battle"] = 2
    st["regions"]["sandsea"]["battle"] = 1
    st["battles"] = [[2, "greyspire", 0, 1], [1, "sandsea", 0, 1]]
    st["phase"] = "battle"
    ev: list = []
    flow.after_battle(st, ev)
    assert fight(st)["region"] == "sandsea" and fight(st)["num"] == 1
    assert GAME.view(st, None)["battle"]["region"] == "sandsea"
