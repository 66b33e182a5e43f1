"""The actions phase: move, recruit, build/activate, draw two keep one, Enable Scoring, skills."""

from __future__ import annotations

import pytest

from engine.cryhavoc import GAME, flow
from engine.cryhavoc.content import FACTIONS
from engine.cryhavoc.state import St
from engine.errors import IllegalAction, NotYourTurn

from .helpers import P4, clear_map, duel, give, keys, legal, new, play, set_hand, to_actions


def test_a_unit_takes_several_steps_and_only_the_end_region_is_taken_and_explored() -> None:
    st = duel()
    st["regions"]["dunes"]["explore"] = "ex_relic"
    st["regions"]["thornwood"]["explore"] = "ex_idol"
    set_hand(st, 0, "hu_forced_march")
    st, _ = play(st, 0, "move hu_forced_march")
    assert st["pending"]["points"] == 2
    st, _ = play(st, 0, "go highgate thornwood")
    st, _ = play(st, 0, "go thornwood dunes")
    assert "go dunes glassfield" not in legal(st, 0), "no movement point left"
    st, ev = play(st, 0, "end")
    regs = st["regions"]
    assert regs["dunes"]["units"][0] == 1 and regs["highgate"]["units"][0] == 3
    assert regs["dunes"]["control"] == 0 and regs["thornwood"]["control"] is None
    assert regs["dunes"]["explore"] is None and regs["thornwood"]["explore"] == "ex_idol"
    assert st["vp"][0] == 2 and "ch.ev.explore" in keys(ev)
    assert st["done"] == 1 and GAME.to_act(st) == ["bob"]


def test_several_units_move_in_one_action_and_the_hand_card_is_spent() -> None:
    st = duel()
    set_hand(st, 0, "pi_stride")
    st, _ = play(st, 0, "move pi_stride")
    for _ in range(2):
        st, _ = play(st, 0, "go highgate greyspire")
    st, _ = play(st, 0, "end")
    assert st["regions"]["greyspire"]["units"][0] == 2
    assert st["seats"][0]["hand"] == [] and st["seats"][0]["discard"] == ["pi_stride.t0"]


def test_no_entry_into_another_hq_and_paying_uses_one_point_type() -> None:
    st = duel()
    st["regions"]["ironspire"]["units"][0] = 1
    set_hand(st, 0, "hu_forced_march", "hu_standard", "hu_volley")
    st, _ = play(st, 0, "move hu_forced_march")
    moves = legal(st, 0)
    assert "go ironspire lowgate" not in moves and "go ironspire mirewood" in moves
    assert "pay hu_standard" not in moves, "a recruit-only card gives no movement"
    st, _ = play(st, 0, "pay hu_volley")
    assert st["pending"]["points"] == 4, "Volley's two movement points, not its recruitment point"
    with pytest.raises(IllegalAction):
        play(st, 0, "go ironspire lowgate")


def test_entering_enemy_units_opens_a_battle_only_the_same_move_may_join() -> None:
    st = duel()
    st["regions"]["greyspire"]["units"][1] = 2
    st["regions"]["saltmarsh"]["units"][1] = 1
    set_hand(st, 0, "pi_stride")
    st, ev = play(st, 0, "move pi_stride")
    st, ev = play(st, 0, "go highgate greyspire")
    assert "ch.ev.battle" in keys(ev)
    assert st["regions"]["greyspire"]["battle"] == 1 and st["battles"] == [[1, "greyspire", 0, 1]]
    moves = legal(st, 0)
    assert not any(m.startswith("go greyspire") for m in moves), "nobody leaves a battle region"
    assert "go highgate greyspire" in moves, "units of the same move may still enter"
    st, _ = play(st, 0, "go highgate greyspire")
    st, _ = play(st, 0, "end")
    assert st["regions"]["greyspire"]["control"] is None, "control waits for the battle"
    set_hand(st, 1, "pi_stride")
    st, _ = play(st, 1, "move pi_stride")
    assert "go saltmarsh greyspire" not in legal(st, 1), "a later move may not enter a battle region"


def test_a_defender_leaves_only_with_the_units_beyond_twice_the_attackers() -> None:
    st = duel()
    st["regions"]["greyspire"]["units"][1] = 5
    set_hand(st, 0, "hu_forced_march")
    st, _ = play(st, 0, "move hu_forced_march")
    st, _ = play(st, 0, "go highgate greyspire")
    st, _ = play(st, 0, "end")
    set_hand(st, 1, "pi_stride", "pi_stride")
    st, _ = play(st, 1, "move pi_stride")
    st, _ = play(st, 1, "pay pi_stride")
    for _ in range(3):
        st, _ = play(st, 1, "go greyspire saltmarsh")
    assert st["regions"]["greyspire"]["units"] == [1, 2, 0]
    assert "go greyspire saltmarsh" not in legal(st, 1)


def test_a_war_party_stops_the_unit_brings_trogs_and_crystals_and_a_battle() -> None:
    st = duel()
    st["regions"]["dunes"]["units"][0] = 2
    st["regions"]["glassfield"]["token"] = {"kind": "war_party", "id": "wp_raiders"}
    set_hand(st, 0, "hu_forced_march")
    st, ev = play(st, 0, "move hu_forced_march")
    st, ev = play(st, 0, "go dunes glassfield")
    reg = st["regions"]["glassfield"]
    assert reg["units"] == [1, 0, 2] and reg["crystals"] == 3 and reg["token"] is None
    assert st["neutral"] == 10 and st["battles"] == [[1, "glassfield", 0, 2]]
    assert "ch.ev.token_war_party" in keys(ev)


def test_with_no_trog_left_the_entering_unit_goes_back_to_the_reserve() -> None:
    st = duel()
    st["neutral"] = 0
    st["regions"]["dunes"]["units"][0] = 1
    st["regions"]["glassfield"]["token"] = {"kind": "war_party", "id": "wp_band"}
    set_hand(st, 0, "hu_forced_march")
    st, _ = play(st, 0, "move hu_forced_march")
    st, ev = play(st, 0, "go dunes glassfield")
    assert st["regions"]["glassfield"]["units"] == [0, 0, 0] and st["regions"]["glassfield"]["crystals"] == 1
    assert st["seats"][0]["reserve"] == 9 and st["battles"] == []
    assert "ch.ev.turned_back" in keys(ev)


def _trog_table() -> tuple[St, int]:
    st = new(P4, seed=2)
    t = st["factions"].index("trogs")
    clear_map(st)
    for s in st["seats"]:
        s["hand"] = []
    to_actions(st, t)
    return st, t


def test_the_trog_player_uses_tunnels_and_keeps_moving_through_its_tokens() -> None:
    st, t = _trog_table()
    st["regions"]["skyforge"]["token"] = {"kind": "war_party", "id": "wp_band"}
    set_hand(st, t, "tr_scuttle", "tr_scuttle")
    st, _ = play(st, t, "move tr_scuttle")
    st, _ = play(st, t, "pay tr_scuttle")
    assert "go hive rootmaze" in legal(st, t) and "go hive skyforge" not in legal(st, t)
    st, _ = play(st, t, "go hive rootmaze")
    st, _ = play(st, t, "go rootmaze skyforge")
    assert st["regions"]["skyforge"]["units"][t] == 3 and st["battles"] == []
    st, _ = play(st, t, "go skyforge flintpeak")
    st, _ = play(st, t, "end")
    assert st["regions"]["flintpeak"]["control"] == t and st["regions"]["skyforge"]["control"] == t


def test_other_players_cannot_use_tunnels_or_cross_into_the_hive() -> None:
    st, t = _trog_table()
    other = (t + 1) % 4
    st["regions"]["rootmaze"]["units"][other] = 1
    to_actions(st, other)
    set_hand(st, other, "hu_forced_march")
    st, _ = play(st, other, "move hu_forced_march")
    dests = {m.split()[2] for m in legal(st, other) if m.startswith("go rootmaze")}
    assert "hive" not in dests and "sunpit" not in dests


def test_recruiting_is_limited_by_the_reserve() -> None:
    st = duel()
    st["seats"][0]["reserve"] = 1
    set_hand(st, 0, "hu_muster", "hu_muster")
    st, _ = play(st, 0, "recruit hu_muster")
    assert st["regions"]["highgate"]["units"][0] == 5 and st["seats"][0]["reserve"] == 0
    assert legal(st, 0) == ["end"], "an empty reserve takes no more cards"
    st["seats"][0]["reserve"] = 0
    st["pending"] = None
    assert not any(a.startswith("recruit") for a in legal(st, 0))


def test_symbols_initiative_draw_draw_one_and_star() -> None:
    st = duel()
    st["upcoming"] = [1, 0]
    set_hand(st, 0, "hu_command", "mo_summit")
    st, _ = play(st, 0, "move hu_command")
    assert st["upcoming"] == [0, 1] and len(st["seats"][0]["hand"]) == 2
    st, _ = play(st, 0, "end")
    st, _ = play(st, 1, "pass")
    st, _ = play(st, 0, "build mo_summit")
    assert st["vp"][0] == 1 and st["pending"]["points"] == 1
    st2 = duel()
    set_hand(st2, 0, "ma_logic", "ma_logic")
    before = len(st2["seats"][0]["deck"])
    st2, _ = play(st2, 0, "build ma_logic")
    st2, _ = play(st2, 0, "pay ma_logic")
    assert len(st2["seats"][0]["deck"]) == before - 1, "draw-one draws once per action"


def _structures(st: St, seat: int) -> list[str]:
    return list(FACTIONS[st["factions"][seat]]["structures"])


def test_building_needs_a_controlled_region_outside_hqs_and_battles_once_per_type() -> None:
    st = duel()
    s1, s2, _ = _structures(st, 0)
    for rid in ("thornwood", "greyspire"):
        st["regions"][rid]["control"] = 0
    st["regions"]["greyspire"]["battle"] = 1
    set_hand(st, 0, "mo_quarry", "mo_quarry", "mo_quarry")
    st, _ = play(st, 0, "build mo_quarry")
    st, _ = play(st, 0, "pay mo_quarry")
    st, _ = play(st, 0, "pay mo_quarry")
    places = {m.split()[2] for m in legal(st, 0) if m.startswith("construct")}
    assert places == {"thornwood"}
    st, _ = play(st, 0, f"construct {s1} thornwood")
    assert f"construct {s1} thornwood" not in legal(st, 0)
    assert st["regions"]["thornwood"]["structures"] == [[s1, 0]]
    if f"construct {s2} thornwood" in legal(st, 0):
        st, _ = play(st, 0, f"construct {s2} thornwood")
        assert len(st["regions"]["thornwood"]["structures"]) == 2


def test_activation_costs_points_once_per_action_and_not_where_an_enemy_stands() -> None:
    st = duel()
    sid = _structures(st, 0)[0]
    cost = FACTIONS[st["factions"][0]]["structures"][sid]["activate"]
    st["regions"]["thornwood"]["control"] = 0
    st["regions"]["thornwood"]["structures"] = [[sid, 0]]
    st["regions"]["greyspire"]["structures"] = [[sid, 0]]
    st["regions"]["greyspire"]["units"][1] = 1
    set_hand(st, 0, "mo_quarry", "mo_quarry", "mo_quarry")
    st, _ = play(st, 0, "build mo_quarry")
    st, _ = play(st, 0, "pay mo_quarry")
    assert f"activate {sid} greyspire" not in legal(st, 0)
    st, ev = play(st, 0, f"activate {sid} thornwood")
    assert st["pending"]["points"] == 4 - cost and "ch.ev.activate" in keys(ev)
    assert f"activate {sid} thornwood" not in legal(st, 0)


def test_draw_two_keep_one_terrain_cards_join_the_players_deck() -> None:
    st = duel()
    st["terrain"]["mountain"] = ["mo_quarry.1", "mo_pass.1", "mo_summit.1"]
    st, _ = play(st, 0, "draw mountain")
    assert legal(st, 0) == ["keep mo_pass", "keep mo_quarry"]
    assert GAME.view(st, "alice")["private"]["drawn"] == ["mo_quarry", "mo_pass"]
    assert GAME.view(st, "bob")["private"]["drawn"] == []
    st, _ = play(st, 0, "keep mo_pass")
    assert st["seats"][0]["hand"] == ["mo_pass.1"]
    assert st["terrain"]["mountain"] == ["mo_summit.1", "mo_quarry.1"]
    assert st["done"] == 1
    st2 = duel()
    deck = list(st2["seats"][0]["deck"])
    st2, _ = play(st2, 0, "draw deck")
    kept = str(legal(st2, 0)[0]).split()[1]
    st2, _ = play(st2, 0, f"keep {kept}")
    assert len(st2["seats"][0]["hand"]) == 1 and len(st2["seats"][0]["discard"]) == 1
    assert sorted(st2["seats"][0]["hand"] + st2["seats"][0]["discard"]) == sorted(deck[:2])


def test_enable_scoring_once_per_round_and_never_in_the_final_round() -> None:
    st = duel()
    set_hand(st, 0, "hu_standard")
    set_hand(st, 1, "ma_protocol")
    st, ev = play(st, 0, "score")
    assert st["scoring_by"] == 0 and "ch.ev.score" in keys(ev)
    assert "score" not in legal(st, 1)
    st["scoring_by"] = None
    st["final"] = True
    assert "score" not in legal(st, 1)
    st["final"] = False
    st["seats"][1]["hand"] = []
    give(st, 1, "ma_treads")
    assert "score" not in legal(st, 1), "the card is needed"


def test_skills_are_free_once_a_round_and_refresh() -> None:
    st = duel(skills="all")
    options = [m for m in legal(st, 0) if m.startswith("skill")]
    sid = options[0].split()[1]
    st, ev = play(st, 0, options[0])
    if st["pending"] is not None:
        st, _ = play(st, 0, "end")
    assert st["done"] == 0 and GAME.to_act(st) == ["alice"], "a skill is not one of the three actions"
    assert not any(m.startswith(f"skill {sid}") for m in legal(st, 0))
    assert "ch.ev.skill" in keys(ev)
    ev2: list = []
    flow.start_round(st, ev2)
    assert st["seats"][0]["exhausted"] == []


def test_free_move_skill_takes_no_cards() -> None:
    st = duel(skills="all")
    mover = next(s for s in st["seats"][0]["skills"] if s.endswith(("_drill", "_servos", "_wander", "_gnaw")))
    set_hand(st, 0, "pi_stride")
    st, _ = play(st, 0, f"skill {mover}")
    assert st["pending"]["points"] == 1 and not any(m.startswith("pay") for m in legal(st, 0))


def test_hand_limit_discards_down_to_seven_after_drawing() -> None:
    st = duel()
    set_hand(st, 0, *["hu_muster"] * 6)
    ev: list = []
    flow.start_round(st, ev)
    assert st["phase"] == "discard" and len(st["seats"][0]["hand"]) == 10
    first = st["init"][0]
    assert GAME.to_act(st) == [st["players"][0]]
    while st["phase"] == "discard":
        st, _ = play(st, 0, legal(st, 0)[0])
    assert len(st["seats"][0]["hand"]) == 7 and st["phase"] == "actions"
    assert GAME.to_act(st) == [st["players"][first]]


def test_three_actions_each_in_initiative_order() -> None:
    st = duel()
    to_actions(st, 1)
    order = []
    while st["phase"] == "actions" and st["round"] == 1:
        seat = st["players"].index(GAME.to_act(st)[0])
        order.append(seat)
        st, _ = play(st, seat, "pass")
    assert order == [1, 0, 1, 0, 1, 0]
    with pytest.raises(NotYourTurn):
        play(duel(), 1, "pass")


def test_with_all_eight_battle_tokens_out_no_new_battle_opens() -> None:
    st = duel()
    st["regions"]["greyspire"]["units"][1] = 1
    st["tokens_used"] = 8
    set_hand(st, 0, "hu_forced_march")
    st, _ = play(st, 0, "move hu_forced_march")
    moves = legal(st, 0)
    assert "go highgate greyspire" not in moves and "go highgate thornwood" in moves


def test_the_scoring_card_spent_for_points_does_not_enable_scoring() -> None:
    st = duel()
    set_hand(st, 0, "hu_standard")
    st, _ = play(st, 0, "recruit hu_standard")
    st, _ = play(st, 0, "end")
    assert st["scoring_by"] is None and st["regions"]["highgate"]["units"][0] == 6
