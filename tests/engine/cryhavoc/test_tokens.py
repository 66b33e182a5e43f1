"""Events, exploration tokens, Trog tokens with a Trog player, and the Trog skills."""

from __future__ import annotations

import pytest

from engine.cryhavoc import GAME
from engine.cryhavoc.content import BOARDS, FACTIONS, WAR_PARTIES
from engine.cryhavoc.effects import apply_simple, reveal_event
from engine.cryhavoc.state import St
from engine.text import Msg

from .helpers import P4, clear_map, duel, legal, new, play, set_hand, to_actions


def _crystals(st: St) -> dict[str, int]:
    return {r: reg["crystals"] for r, reg in st["regions"].items()}


@pytest.mark.parametrize(
    ("event", "changes"),
    [
        ("ev_bloom", {"dunes": 4, "basalt": 2, "saltmarsh": 2}),
        ("ev_tremor", {"basalt": 0}),
        (
            "ev_monsoon",
            {r: 1 for r in ("thornwood", "mirewood", "fernvale", "vinegrove", "brinemarsh", "emberflat")},
        ),
        ("ev_sandstorm", {"dunes": 2}),
        ("ev_stirring", {"basalt": 2}),
    ],
)
def test_events_change_crystals(event: str, changes: dict[str, int]) -> None:
    st = duel()
    st["regions"]["dunes"]["crystals"] = 3
    st["regions"]["basalt"]["crystals"] = 1
    st["regions"]["saltmarsh"]["crystals"] = 1
    st["regions"]["basalt"]["token"] = {"kind": "war_party", "id": "wp_band"}
    before = _crystals(st)
    ev: list[Msg] = []
    reveal_event(st, event, ev)
    after = _crystals(st)
    assert {r: v for r, v in after.items() if v != before[r]} == {
        r: v for r, v in changes.items() if v != before[r]
    }
    assert ev[0].key == "ch.ev.event"


def test_supplies_event_draws_a_card_for_everyone() -> None:
    st = duel()
    reveal_event(st, "ev_supplies", [])
    assert [len(s["hand"]) for s in st["seats"]] == [1, 1]


def test_exploration_effects() -> None:
    st = duel()
    ev: list[Msg] = []
    apply_simple(st, 0, [{"do": "units_here", "n": 1}, {"do": "crystal_here", "n": 1}], "dunes", ev)
    apply_simple(st, 0, [{"do": "recruit", "n": 2}, {"do": "vp", "n": 3}], None, ev)
    assert st["regions"]["dunes"]["units"][0] == 1 and st["regions"]["dunes"]["crystals"] == 1
    assert st["regions"]["highgate"]["units"][0] == 6 and st["vp"][0] == 3
    assert st["seats"][0]["reserve"] == 5


def _trog_table() -> tuple[St, int, int]:
    st = new(P4, seed=3)
    t = st["factions"].index("trogs")
    other = (t + 1) % 4
    clear_map(st)
    for s in st["seats"]:
        s["hand"] = []
    to_actions(st, other)
    return st, t, other


def test_with_a_trog_player_war_parties_bring_out_its_units_and_it_defends() -> None:
    st, t, other = _trog_table()
    hq = st["hq"][other]
    target = BOARDS[st["side"]].adj[hq][0]
    st["regions"][target]["token"] = {"kind": "war_party", "id": "wp_raiders"}
    set_hand(st, other, "hu_forced_march")
    st, _ = play(st, other, "move hu_forced_march")
    st, _ = play(st, other, f"go {hq} {target}")
    raiders = WAR_PARTIES["wp_raiders"]["trogs"]
    trogs = FACTIONS["trogs"]
    assert st["regions"][target]["units"][t] == raiders
    assert st["seats"][t]["reserve"] == trogs["units"] - trogs["start_units"] - raiders
    assert st["battles"] == [[1, target, other, t]]


def test_trog_skills_burrow_and_nest() -> None:
    st, t, _ = _trog_table()
    to_actions(st, t)
    st["seats"][t]["skills"] = ["tr_burrow", "tr_nest"]
    st["regions"]["mossdeep"]["control"] = t
    burrows = [m for m in legal(st, t) if m.startswith("skill tr_burrow")]
    assert sorted(burrows) == [
        "skill tr_burrow deepwell",
        "skill tr_burrow hive",
        "skill tr_burrow rootmaze",
        "skill tr_burrow sunpit",
    ]
    st, _ = play(st, t, "skill tr_burrow sunpit")
    assert st["regions"]["sunpit"]["units"][t] == 1
    assert legal(st, t).count("skill tr_nest mossdeep") == 1
    st, _ = play(st, t, "skill tr_nest mossdeep")
    assert st["regions"]["mossdeep"]["token"] == {"kind": "nest", "id": "nest"}
    assert not any(m.startswith("skill") for m in legal(st, t))


def test_the_public_record_of_a_keep_hides_the_card() -> None:
    st = duel()
    st["terrain"]["jungle"] = ["ju_tribe.1", "ju_vines.1"]
    st, _ = play(st, 0, "draw jungle")
    st, _ = play(st, 0, "keep ju_vines")
    assert GAME.view(st, None)["last"] == {
        "seat": 0,
        "text": "keep",
        "label": {"key": "ch.did.keep_hidden", "params": {}},
        "regions": [],
        "path": None,
    }
