"""Prisoners phase, scoring, event stacking, the final round and the winner's tie-breakers."""

from __future__ import annotations

from engine.cryhavoc import GAME, flow
from engine.cryhavoc.state import St
from engine.text import Msg

from .helpers import P4, clear_map, duel, keys, legal, new, play


def _prisoners_phase(st: St) -> list[Msg]:
    ev: list[Msg] = []
    st["phase"] = "battle"
    st["done"] = 6
    flow.start_prisoners(st, ev)
    return ev


def test_prisoners_score_each_round_and_can_be_bought_back_for_two_vp() -> None:
    st = duel()
    st["prisoners"][0][1] = 2
    st["vp"] = [0, 5]
    ev = _prisoners_phase(st)
    assert st["vp"] == [2, 5] and "ch.ev.prisoner_vp" in keys(ev)
    assert st["phase"] == "prisoners" and GAME.to_act(st) == ["bob"]
    assert legal(st, 1) == ["ransom " + st["factions"][0], "done"]
    st, _ = play(st, 1, "ransom " + st["factions"][0])
    assert st["vp"] == [2, 3] and st["prisoners"][0][1] == 1 and st["seats"][1]["reserve"] == 9
    st, _ = play(st, 1, "ransom " + st["factions"][0])
    assert st["vp"][1] == 1 and st["prisoners"][0][1] == 0
    assert st["phase"] != "prisoners", "nothing left to buy back: the round moves on"


def test_no_ransom_without_two_vp_and_trogs_hold_prisoners_for_nobody() -> None:
    st = duel()
    st["prisoners"][2][0] = 1
    st["vp"] = [1, 0]
    _prisoners_phase(st)
    assert st["vp"] == [1, 0] and st["phase"] != "prisoners"
    st = duel()
    st["prisoners"][2][0] = 1
    st["vp"] = [2, 0]
    _prisoners_phase(st)
    assert legal(st, 0) == ["ransom trogs", "done"]
    st, _ = play(st, 0, "done")
    assert st["prisoners"][2][0] == 1


def _score(st: St) -> list[Msg]:
    ev: list[Msg] = []
    st["ransom"] = len(st["players"])
    flow.scoring(st, ev)
    return ev


def test_enabled_scoring_gives_the_enabler_regions_and_everyone_crystals() -> None:
    st = duel()
    for rid, owner, value in (("dunes", 0, 3), ("glassfield", 0, 5), ("sandsea", 1, 4)):
        st["regions"][rid]["control"] = owner
        st["regions"][rid]["crystals"] = value
    st["scoring_by"] = 0
    ev = _score(st)
    assert st["vp"] == [3 + 8, 4], "alice: 3 regions with her HQ, crystals 3 + 5; bob: crystals only"
    assert "ch.ev.score_regions" in keys(ev)


def test_without_enable_scoring_nobody_scores() -> None:
    st = duel()
    st["regions"]["dunes"]["control"] = 0
    st["regions"]["dunes"]["crystals"] = 3
    _score(st)
    assert st["vp"] == [0, 0]


def test_trog_crystals_are_halved_rounded_up() -> None:
    st = new(P4)
    clear_map(st)
    t = st["factions"].index("trogs")
    other = (t + 1) % 4
    for rid, owner in (("skyforge", t), ("sunpit", other)):
        st["regions"][rid]["control"] = owner
        st["regions"][rid]["crystals"] = 5
    assert flow.crystal_score(st, t) == 3 and flow.crystal_score(st, other) == 5


def test_a_score_past_the_next_event_token_stacks_it_on_the_following_one() -> None:
    st = duel()
    st["track"] = [
        {"pos": 10, "ids": ["ev_bloom"]},
        {"pos": 20, "ids": ["ev_tremor"]},
        {"pos": 30, "ids": ["ev_supplies"]},
    ]
    st["vp"] = [10, 3]
    ev: list[Msg] = []
    flow.stack_events(st, ev)
    assert len(st["track"]) == 3 and ev == [], "reaching the token is not passing it"
    st["vp"] = [11, 3]
    flow.stack_events(st, ev)
    assert st["track"] == [{"pos": 20, "ids": ["ev_bloom", "ev_tremor"]}, {"pos": 30, "ids": ["ev_supplies"]}]
    assert "ch.ev.stacked" in keys(ev)
    st["vp"] = [40, 3]
    flow.stack_events(st, ev)
    assert len(st["track"]) == 1, "the last token cannot stack further"
    flow.start_round(st, ev)
    assert st["final"] and st["revealed"][-3:] == ["ev_bloom", "ev_tremor", "ev_supplies"]


def test_the_final_round_scores_crystals_only_and_ends_the_game() -> None:
    st = duel()
    st["final"] = True
    st["regions"]["dunes"]["control"] = 1
    st["regions"]["dunes"]["crystals"] = 4
    st["vp"] = [5, 0]
    ev = _score(st)
    assert st["vp"] == [5, 4] and "ch.ev.score_regions" not in keys(ev)
    assert GAME.is_over(st) and GAME.legal_actions(st, "alice") == []
    result = GAME.result(st)
    assert result is not None and result.winners == ("alice",) and result.scores == {"alice": 5, "bob": 4}


def test_ties_go_to_most_prisoners_then_later_on_the_initiative_track() -> None:
    st = duel()
    st["vp"] = [6, 6]
    st["init"] = [0, 1]
    assert flow.ranking(st) == [1, 0], "bob is later on the initiative track"
    st["prisoners"][0][1] = 1
    assert flow.ranking(st) == [0, 1], "alice holds more prisoners"
    st["vp"] = [6, 7]
    assert flow.ranking(st) == [1, 0]


def test_five_rounds_without_stacking() -> None:
    st = duel()
    st["vp"] = [0, 0]
    rounds = set()
    while not GAME.is_over(st):
        seat = st["players"].index(GAME.to_act(st)[0])
        rounds.add(st["round"])
        options = legal(st, seat)
        choice = "pass" if "pass" in options else ("done" if "done" in options else options[0])
        st, _ = play(st, seat, choice)
    assert rounds == {1, 2, 3, 4, 5}
