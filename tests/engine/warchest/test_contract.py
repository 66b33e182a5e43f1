"""The engine contract: text round trips, errors, labels, dump/load, the view and hidden coins."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from engine import BadInput, GameOver, IllegalAction, NotYourTurn
from engine.text import Msg
from engine.warchest import GAME
from engine.warchest.actions import Initiative, Pass, Recruit
from engine.warchest.state import State
from i18n import catalog, fields, t
from tests.engine.french_typing import words
from tests.engine.warchest.helpers import PLAYERS, A, B, do, position, random_walk

PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


@pytest.fixture(scope="module")
def walk() -> list[tuple[State, str, Any]]:
    return (
        random_walk(PLAYERS, 7, "random", 400)
        + random_walk(PLAYERS, 8, "draft", 150)
        + random_walk(PLAYERS, 9, "first", 300)
    )


def test_every_legal_action_text_parses_back(walk: list[tuple[State, str, Any]]) -> None:
    for st, who, _ in walk[::3]:
        for action in GAME.legal_actions(st, who):
            assert GAME.parse_action(st, who, str(action), words(GAME)) == action
            assert (
                GAME.parse_action(st, who, "  " + str(action).upper().replace(" ", "   ") + " ", words(GAME))
                == action
            )


def test_labels_and_events_render_completely_in_both_languages(walk: list[tuple[State, str, Any]]) -> None:
    for st, who, action in walk:
        label = GAME.label(st, action)
        for lang in ("en", "fr"):
            assert len(t(label, lang)) <= 100  # Discord's limit for an autocomplete choice
        _, events = GAME.apply(st, who, action)
        for m in [label, *events]:
            for lang in ("en", "fr"):
                text = t(m, lang, names={A: "Alice", B: "Bob"})
                assert not PLACEHOLDER.search(text), (m, text)
                assert not text.startswith("wc."), text


def test_catalogs_have_the_same_keys_and_placeholders() -> None:
    en = {k: v for k, v in catalog("en").items() if k.startswith("wc.")}
    fr = {k: v for k, v in catalog("fr").items() if k.startswith("wc.")}
    assert set(en) == set(fr)
    for key in en:
        assert fields(en[key]) == fields(fr[key]), key


def test_forgiving_parse_fills_in_the_unambiguous_hex() -> None:
    st = position(
        units=(("swordsman", "light_cavalry"), ("archer",)),
        hands=(["swordsman"], ["archer"]),
        board={"d3": (0, "swordsman", 1)},
    )
    assert str(GAME.parse_action(st, A, "bolster Swordsman", words(GAME))) == "bolster swordsman d3"
    assert str(GAME.parse_action(st, A, "move swordsman d4", words(GAME))) == "move swordsman d3 d4"
    assert str(GAME.parse_action(st, A, "control swordsman", words(GAME))) == "control swordsman d3"
    assert str(GAME.parse_action(st, A, "passer soldat", words(GAME))) == "pass swordsman"
    st2 = position(
        units=(("light_cavalry",), ("archer",)),
        hands=(["light_cavalry"], ["archer"]),
        board={"d4": (0, "light_cavalry", 1)},
    )
    assert (
        str(GAME.parse_action(st2, A, "tactic light cavalry f4", words(GAME))) == "tactic light_cavalry d4 f4"
    )


def test_bad_text_is_refused_with_examples() -> None:
    st = position(hands=(["swordsman"], ["archer"]))
    with pytest.raises(BadInput) as err:
        GAME.parse_action(st, A, "dance wildly", words(GAME))
    assert err.value.msg.key == "wc.error.bad_input" and "deploy swordsman" in t(err.value.msg, "en")
    text = t(err.value.msg, "fr")
    assert "dance wildly" in text and "`déployer soldat" in text  # French texts for a French reader


def test_illegal_text_lists_legal_alternatives_of_the_same_kind() -> None:
    st = position(hands=(["swordsman"], ["archer"]))
    with pytest.raises(IllegalAction) as err:
        GAME.parse_action(st, A, "deploy swordsman d4", words(GAME))
    params = err.value.msg.params
    assert params["input"] == "deploy swordsman d4"
    assert "`deploy swordsman e1`" in t(err.value.msg, "en")
    assert "`déployer soldat e1`" in t(err.value.msg, "fr")


def test_apply_refuses_an_illegal_action_object() -> None:
    st = position(hands=(["swordsman"], ["archer"]))
    action = GAME.legal_actions(st, A)[0]
    other = position(hands=(["pikeman"], ["archer"]))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(other, A, action)
    assert str(action) in t(err.value.msg, "en")


def test_wrong_player_and_finished_game() -> None:
    st = position(hands=(["swordsman"], ["archer"]))
    with pytest.raises(NotYourTurn) as err:
        GAME.parse_action(st, B, "pass archer", words(GAME))
    assert t(err.value.msg, "en", names={A: "Alice"}).endswith("waiting for Alice.")
    with pytest.raises(NotYourTurn):
        GAME.apply(st, "carol", GAME.legal_actions(st, A)[0])
    assert GAME.legal_actions(st, B) == [] and GAME.legal_actions(st, "carol") == []
    st.phase = "over"
    st.result = {"winners": [], "reason": "stall", "draw": True}
    with pytest.raises(GameOver):
        GAME.parse_action(st, A, "pass swordsman", words(GAME))


def test_apply_never_mutates_its_input(walk: list[tuple[State, str, Any]]) -> None:
    for st, who, action in walk[::5]:
        before = json.dumps(GAME.dump(st))
        GAME.apply(st, who, action)
        assert json.dumps(GAME.dump(st)) == before


def test_dump_load_round_trip_is_exact_and_json_safe(walk: list[tuple[State, str, Any]]) -> None:
    for st, who, action in walk[::7]:
        data = json.loads(json.dumps(GAME.dump(st)))
        loaded = GAME.load(data)
        assert GAME.dump(loaded) == GAME.dump(st)
        # the loaded copy plays on identically, random draws included
        a, ev_a = GAME.apply(st, who, action)
        b, ev_b = GAME.apply(loaded, who, action)
        assert GAME.dump(a) == GAME.dump(b) and ev_a == ev_b


def test_load_refuses_garbage() -> None:
    with pytest.raises(BadInput):
        GAME.load({"players": ["a"]})


VIEW_KEYS = {
    "game",
    "viewer",
    "board",
    "units",
    "seats",
    "round",
    "initiative",
    "to_act",
    "pending",
    "phase",
    "draft",
    "last",
    "since",
    "result",
    "private",
}
SEAT_KEYS = {
    "id",
    "team",
    "units",
    "supply",
    "discard_up",
    "discard_down",
    "bag",
    "hand",
    "eliminated",
    "markers_left",
}


def test_view_follows_the_architecture_schema(walk: list[tuple[State, str, Any]]) -> None:
    for st, who, _ in walk[::11]:
        for viewer in (None, A, B):
            v = GAME.view(st, viewer)
            json.dumps(v)
            assert set(v) == VIEW_KEYS and v["game"] == "warchest" and v["viewer"] == viewer
            assert len(v["board"]["hexes"]) == 37 and len(v["board"]["locations"]) == 10
            assert all(set(s) == SEAT_KEYS for s in v["seats"])
            for u in v["units"]:
                assert set(u) == {"hex", "label", "seat", "team", "type", "height"}
                assert u["label"] == "abcdefg"[u["hex"][0]] + str(u["hex"][1] + 1)
            assert v["to_act"] == [PLAYERS.index(who)]
            if viewer is None:
                assert v["private"] is None
            else:
                seat = PLAYERS.index(viewer)
                assert v["private"]["seat"] == seat
                assert sorted(v["private"]["hand"]) == sorted(st.seats[seat].hand)
                assert sum(v["private"]["bag"].values()) == v["seats"][seat]["bag"]


def test_view_of_a_draft_and_of_a_finished_game() -> None:
    st = GAME.new_game(PLAYERS, 3, {"armies": "draft"})
    v = GAME.view(st, None)
    assert (
        v["phase"] == "draft" and len(v["draft"]["pool"]) == 8 and v["draft"]["picks"] == {"0": [], "1": []}
    )
    done = position(
        hands=(["pikeman"], ["archer"]), board={"d3": (0, "pikeman", 1)}, control={"c2": 0, "f4": 0, "b4": 0}
    )
    done, _ = do(done, "control pikeman d3")
    v = GAME.view(done, A)
    assert v["phase"] == "over" and v["to_act"] == [] and v["result"]["winners"] == [A]
    assert v["last"] == {
        "seat": 0,
        "text": "control pikeman d3",
        "hexes": [[3, 2]],
        "path": None,
        "struck": [],
        "label": {
            "key": "wc.did.control",
            "params": {"unit": {"$msg": {"key": "wc.unit.pikeman", "params": {}}}, "hex": "d3"},
        },
        "outcome": [],
    }
    said = t(Msg("wc.did.control", {"unit": Msg("wc.unit.pikeman"), "hex": "d3"}), "en", player="Alice")
    assert said == "Alice takes control of d3 with their Pikeman"


def _unit_msgs(value: Any) -> list[str]:
    if isinstance(value, Msg):
        found = [value.key] if value.key.startswith("wc.unit.") else []
        return found + [k for p in value.params.values() for k in _unit_msgs(p)]
    return []


def test_face_down_coins_never_appear_in_events_or_the_public_view(
    walk: list[tuple[State, str, Any]],
) -> None:
    checked = 0
    for st, who, action in walk:
        if not isinstance(action, (Initiative, Pass, Recruit)):
            continue
        new, events = GAME.apply(st, who, action)
        shown = [k for e in events for k in _unit_msgs(e)]
        if isinstance(action, Recruit):
            shown.remove(f"wc.unit.{action.unit}")  # the recruited coin is shown on purpose
        assert not any(k for k in shown if k != "wc.unit.none"), (action, events)
        v = GAME.view(new, None)
        expected = f"recruit {action.unit}" if isinstance(action, Recruit) else action.verb
        assert new.last is not None and new.last[1] == expected
        # the board names the action, or the move on the board before it by the same player
        assert v["last"]["text"] in {expected, *(m["text"] for m in v["since"])}
        checked += 1
    assert checked > 20


def test_public_view_does_not_depend_on_hidden_coins() -> None:
    st = GAME.new_game(PLAYERS, 4, {"armies": "first"})
    other = GAME.load(GAME.dump(st))
    seat = other.seats[1]
    pool = sorted(seat.hand + seat.bag)
    seat.hand, seat.bag = pool[: len(seat.hand)], pool[len(seat.hand) :]
    other.seats[1].discard_down = []
    assert GAME.view(other, None) == GAME.view(st, None)
    assert GAME.view(other, A) == GAME.view(st, A)


def test_warrior_priest_coin_is_hidden_in_the_pending_view() -> None:
    views = []
    for drawn in ("pikeman", "royal"):
        st = position(
            units=(("warrior_priest", "pikeman"), ("scout",)),
            hands=(["warrior_priest"], ["scout"]),
            bags=([drawn], []),
            board={"d4": (0, "warrior_priest", 1), "e4": (1, "scout", 2)},
        )
        st, events = do(st, "attack warrior_priest d4 e4")
        assert GAME.view(st, None)["pending"] == {"seat": 0, "kind": "priest"}
        assert GAME.view(st, A)["private"]["hand"] == [drawn]
        views.append((GAME.view(st, None), GAME.view(st, B), events))
    assert views[0] == views[1]
