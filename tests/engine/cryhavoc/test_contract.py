"""The engine contract for Cry Havoc: random playouts, text forms, hidden hands, catalog coverage."""

from __future__ import annotations

import json
from typing import Any

import pytest

import i18n
from engine.cryhavoc import GAME
from engine.cryhavoc.actions import act
from engine.cryhavoc.parse import match
from engine.cryhavoc.state import clone
from engine.errors import BadInput, GameError, IllegalAction
from engine.rng import Rng
from engine.text import Msg
from tests.engine.french_typing import words
from tests.test_conformance import _play

from .helpers import P2, P3, P4, duel, legal, new, play, set_hand

LEXICON = words(GAME)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_follow_the_contract(players: int) -> None:
    for index, skills in enumerate(("basic", "random", "all")):
        _play(GAME, index + 10 * players, players, {"skills": skills}, deep=index == 0)  # type: ignore[arg-type]


def _keys(m: Msg, out: set[str]) -> None:
    out.add(m.key)
    for v in m.params.values():
        if isinstance(v, Msg):
            _keys(v, out)
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, Msg):
                    _keys(x, out)


def test_every_event_and_label_has_a_catalog_entry_in_both_languages() -> None:
    used: set[str] = set()
    for seed in range(9):
        players = [P2, P3, P4][seed % 3]
        st = GAME.new_game(players, seed=seed, options={"skills": "all"})
        rng = Rng(seed)
        while not GAME.is_over(st):
            p = GAME.to_act(st)[0]
            options = GAME.legal_actions(st, p)
            for a in options:
                _keys(GAME.label(st, a), used)
            st, events = GAME.apply(st, p, options[rng.below(len(options))])
            for e in events:
                _keys(e, used)
        result = GAME.result(st)
        assert result is not None
        _keys(result.reason, used)
    for lang in ("en", "fr"):
        missing = sorted(k for k in used if k not in i18n.catalog(lang))
        assert not missing, (lang, missing)
    assert {"ch.ev.battle_start", "ch.ev.control_won", "ch.ev.game_over"} <= used


def _words(value: Any) -> str:
    return json.dumps(value)


def test_views_show_a_hand_only_to_its_owner() -> None:
    st = duel()
    set_hand(st, 0, "hu_muster", "pi_chant")
    set_hand(st, 1, "ma_printer")
    public = GAME.view(st, None)
    assert public["private"] is None and "hu_muster" not in _words(public)
    bob = GAME.view(st, "bob")
    assert bob["private"]["hand"] == ["ma_printer"] and "pi_chant" not in _words(bob)
    alice = GAME.view(st, "alice")
    assert alice["private"]["hand"] == ["hu_muster", "pi_chant"]
    assert alice["seats"][1]["hand"] == 1
    assert public["terrain_decks"] == {"mountain": 8, "desert": 8, "jungle": 8, "ocean": 8}
    assert "mo_quarry" not in _words(public), "terrain decks are face down"
    json.dumps(alice)


def test_events_never_name_cards_drawn_into_a_hand() -> None:
    st = duel()
    st["terrain"]["ocean"] = ["oc_pearl.1", "oc_tide.1"]
    st, ev = play(st, 0, "draw ocean")
    st, ev2 = play(st, 0, "keep oc_tide")
    text = " ".join(i18n.t(e, "en") for e in ev + ev2)
    assert "Tide" not in text and "Pearl" not in text


def test_text_forms_parse_back_and_french_verbs_and_prefixes_are_read() -> None:
    st = duel()
    set_hand(st, 0, "hu_forced_march")
    for a in GAME.legal_actions(st, "alice"):
        assert GAME.parse_action(st, "alice", str(a), words(GAME)) == a
    assert GAME.parse_action(st, "alice", "Déplacer hu_forced_march", words(GAME)) == act(
        "move", "hu_forced_march"
    )
    assert GAME.parse_action(st, "alice", "passer", words(GAME)) == act("pass")
    st, _ = play(st, 0, "move hu_forced_march")
    with pytest.raises(IllegalAction) as err:
        GAME.parse_action(st, "alice", "go highgate", words(GAME))
    assert err.value.msg.key == "ch.error.ambiguous"
    with pytest.raises(BadInput):
        GAME.parse_action(st, "alice", "fly away", words(GAME))
    with pytest.raises(IllegalAction) as err2:
        GAME.parse_action(st, "alice", "go highgate lowgate", words(GAME))
    assert "`go highgate" in i18n.t(err2.value.msg, "en")
    assert "`aller Hauteporte" in i18n.t(err2.value.msg, "fr")  # the French player is shown French texts


def test_a_name_cut_short_is_enough_when_one_action_fits() -> None:
    """ "A prefix that fits a single legal action is enough": a card, structure, skill or region may be
    named by the start of its id or of its name in either language, word by word."""
    legal = [act("pay", "ma_protocol"), act("pay", "ma_treads"), act("end")]
    assert match("pay Harvest", legal, LEXICON) == act("pay", "ma_protocol")
    assert match("pay harv prot", legal, LEXICON) == act("pay", "ma_protocol")
    assert match("payer Chenilles", legal, LEXICON) == act("pay", "ma_treads")
    with pytest.raises(IllegalAction) as err:
        match("pay ma", legal, LEXICON)
    assert err.value.msg.key == "ch.error.ambiguous"
    steps = [act("go", "vineholt", "hollowgrove"), act("go", "vineholt", "fernvale"), act("end")]
    assert match("go vineholt hollow", steps, LEXICON) == act("go", "vineholt", "hollowgrove")
    assert match("go vine fern", steps, LEXICON) == act("go", "vineholt", "fernvale")
    assert match("aller Bois-des-Vignes Bosquet", steps, LEXICON) == act("go", "vineholt", "hollowgrove")
    with pytest.raises(IllegalAction):
        match("go vineholt hollow fernvale", steps, LEXICON)
    exact = [act("go", "dunes", "sandsea"), act("go", "dunesx", "sandsea")]
    assert match("go dunes sandsea", exact, LEXICON) == act("go", "dunes", "sandsea"), "whole words first"


def test_apply_refuses_illegal_actions_and_never_mutates_its_input() -> None:
    st = duel()
    before = json.dumps(GAME.dump(st), sort_keys=True)
    with pytest.raises(IllegalAction):
        GAME.apply(st, "alice", act("move", "hu_muster"))
    new_st, _ = GAME.apply(st, "alice", act("pass"))
    assert json.dumps(GAME.dump(st), sort_keys=True) == before and new_st["done"] == 1
    with pytest.raises(GameError):
        GAME.apply(st, "zoe", act("pass"))


def test_dump_and_load_round_trip_and_bad_saves_are_refused() -> None:
    st = new(P4, seed=4, skills="random")
    data = json.loads(json.dumps(GAME.dump(st)))
    assert GAME.dump(GAME.load(data)) == GAME.dump(st)
    with pytest.raises(BadInput):
        GAME.load({"fmt": 1})
    with pytest.raises(BadInput):
        GAME.load({**data, "phase": "brunch"})


def test_action_lists_stay_short() -> None:
    longest = 0
    for seed in range(6):
        players = [P2, P3, P4][seed % 3]
        st = GAME.new_game(players, seed=seed, options={"skills": "all"})
        rng = Rng(seed + 100)
        while not GAME.is_over(st):
            p = GAME.to_act(st)[0]
            options = GAME.legal_actions(st, p)
            longest = max(longest, len(options))
            st, _ = GAME.apply(st, p, options[rng.below(len(options))])
    assert longest <= 60
    assert legal(duel(), 1) == []


def _containers(value: Any) -> list[int]:
    """The ids of every dict and list in ``value``, checking on the way that it holds JSON values
    only: string keys, no tuples, sets or objects."""
    if isinstance(value, dict):
        assert all(type(k) is str for k in value), value
        return [id(value), *(i for v in value.values() for i in _containers(v))]
    if isinstance(value, list):
        return [id(value), *(i for v in value for i in _containers(v))]
    assert value is None or type(value) in (str, int, bool), value
    return []


def test_clone_equals_a_json_round_trip_and_shares_nothing_over_playouts() -> None:
    """``clone`` copies the state directly; it is only right while the state holds JSON values alone,
    which every position of these playouts checks (with the dealt hands and events of every setup)."""
    for seed, (players, skills) in enumerate([(P2, "basic"), (P3, "random"), (P4, "all"), (P4, "basic")]):
        st = GAME.new_game(players, seed=seed, options={"skills": skills})
        rng = Rng(seed + 200)
        while True:
            copy = clone(st)
            assert copy == json.loads(json.dumps(st))
            ids = _containers(copy)
            assert len(set(ids)) == len(ids) and not set(ids) & set(_containers(st))
            if GAME.is_over(st):
                break
            p = GAME.to_act(st)[0]
            options = GAME.legal_actions(st, p)
            st, _ = GAME.apply(st, p, options[rng.below(len(options))])
