"""Troops and armies: the five-point rule, army building as actions, presets and deployment."""

from __future__ import annotations

import pytest

from engine.batailles import GAME
from engine.batailles.troops import PRESET_ARMIES, all_profiles, preset_army
from engine.errors import BadInput, IllegalAction, NotYourTurn
from tests.engine.batailles.helpers import legal_texts, play
from tests.engine.french_typing import words

A, B = "a", "b"


def build_game() -> object:
    return GAME.new_game([A, B], seed=5, options={"armies": "build"})


def test_every_profile_spreads_exactly_five_points() -> None:
    profiles = all_profiles()
    assert len(profiles) == 252 == len(set(profiles))
    assert all(sum(p) == 5 and len(p) == 6 for p in profiles)


def test_a_profile_that_does_not_add_up_to_five_is_explained() -> None:
    s = build_game()
    with pytest.raises(BadInput) as err:
        GAME.parse_action(s, A, "recruit cannon 1 2 0 2 0 1", words(GAME))
    assert err.value.msg.key == "bt.err.profile_sum"
    assert err.value.msg.params["total"] == 6
    with pytest.raises(BadInput) as err:
        GAME.parse_action(s, A, "recruit cannon 1 2 0 2", words(GAME))
    assert err.value.msg.key == "bt.err.parse_args"


def test_both_players_build_their_army_with_named_troops() -> None:
    s = build_game()
    assert s.phase == "build" and GAME.to_act(s) == [A, B]
    assert "ready" not in legal_texts(s, A)
    assert "recruit t1 5 0 0 0 0 0" in legal_texts(s, A)
    s, events = play(s, A, "recruit cannon1 1 2 0 2 0 0", "recruit t2 3 2 0 0 0 0")
    assert events[0].key == "bt.ev.recruit"
    assert [t.name for t in s.army(0)] == ["cannon1", "t2"]
    assert "recruit t1 5 0 0 0 0 0" in legal_texts(s, A)
    with pytest.raises(IllegalAction) as err:
        play(s, A, "recruit cannon1 1 2 0 2 0 0")
    assert err.value.msg.key == "bt.err.name_taken"
    s, _ = play(s, A, "dismiss t2", "ready")
    assert GAME.to_act(s) == [B]
    with pytest.raises(NotYourTurn):
        play(s, A, "recruit late 1 1 1 1 1 0")
    s, events = play(s, B, "recruit x 0 0 5 0 0 0", "ready")
    assert s.phase == "deploy" and events[-1].key == "bt.ev.deploy_phase"


def test_an_army_is_capped_by_the_free_places_of_its_deployment_rows() -> None:
    # Seven rows deep: each army deploys on one row of two zones, 4 places each, less one
    # taken by a wood (north) or a building (south).
    board = "/".join([". f"] + [". ."] * 5 + ["b ."])
    s = GAME.new_game([A, B], seed=5, options={"armies": "build", "custom_map": board})
    for k in range(7):
        s, _ = play(s, A, f"recruit r{k} 1 1 1 1 1 0")
    assert not any(t.startswith("recruit") for t in legal_texts(s, A))
    with pytest.raises(IllegalAction) as err:
        play(s, A, "recruit extra 1 1 1 1 1 0")
    assert err.value.msg.key == "bt.err.army_full" and err.value.msg.params["most"] == 7
    assert any(t.startswith("recruit") for t in legal_texts(s, B))


def test_a_preset_army_too_big_for_a_custom_map_is_refused() -> None:
    board = "/".join(["ffff ffff b"] + [". . ."] * 5 + [". . ."])
    with pytest.raises(BadInput) as err:
        GAME.new_game([A, B], seed=5, options={"armies": "classic", "custom_map": board})
    assert err.value.msg.key == "bt.err.army_too_big" and err.value.msg.params["most"] == 3


def test_the_rulebooks_ten_against_twenty_five_is_built_and_deployed() -> None:
    """« Stéphane joue 10 troupes, Damien 25 [...] 3/4 X 10 = plus de 7 »: the defeat comes at 8."""
    s = GAME.new_game(["stephane", "damien"], seed=5, options={"armies": "build"})
    for k in range(10):
        s, _ = play(s, "stephane", f"recruit s{k} 1 2 2 0 0 0")
    for k in range(25):
        s, _ = play(s, "damien", f"recruit d{k} 1 1 1 1 1 0")
    s, _ = play(s, "stephane", "ready")
    s, _ = play(s, "damien", "ready")
    assert s.phase == "deploy" and (len(s.army(0)), len(s.army(1))) == (10, 25)
    while s.phase == "deploy":
        player = GAME.to_act(s)[-1]
        s, _ = GAME.apply(s, player, GAME.legal_actions(s, player)[0])
    assert s.phase == "play" and s.threshold == 8
    assert all(t.on_field for t in s.troops)
    rows = {t.zone[1] for t in s.army(1) if t.zone is not None}
    assert rows <= {7, 8}, "Damien's 25 troops stand in his own rows"
    first = GAME.to_act(s)[0]
    activations = [a for a in GAME.legal_actions(s, first) if str(a).startswith(("activate", "coordinate"))]
    assert activations and max(len(str(a).split()[1].split("+")) for a in activations) == 4


@pytest.mark.parametrize("name", PRESET_ARMIES)
def test_preset_armies_follow_the_five_point_rule(name: str) -> None:
    army = preset_army(name)
    assert army and all(sum(p) == 5 for _, p in army)
    s = GAME.new_game([A, B], seed=1, options={"armies": name})
    assert s.phase == "deploy" and len(s.army(0)) == len(s.army(1)) == len(army)


def test_the_classic_army_has_the_rulebook_cannons() -> None:
    assert ("art1", (1, 2, 0, 2, 0, 0)) in preset_army("classic")
    assert len(preset_army("classic")) == 10


def test_deployment_is_in_each_players_own_rows() -> None:
    s = GAME.new_game([A, B], seed=2, options={"armies": "raiders", "map": "open_field"})
    rows_a = {a.zone[1] for a in GAME.legal_actions(s, A)}
    rows_b = {a.zone[1] for a in GAME.legal_actions(s, B)}
    assert rows_a == {0, 1} and rows_b == {7, 8}
    with pytest.raises(IllegalAction):
        play(s, A, "deploy horse1 c5 n")
    s, events = play(s, A, "deploy horse1 c2 e")
    assert events[0].key == "bt.ev.deploy_hidden" and "c2" not in str(events[0])
    t = s.troop(0, "horse1")
    assert t is not None and t.zone == (2, 1) and t.facing == "e"


def test_a_full_deployment_zone_refuses_a_fifth_troop() -> None:
    s = GAME.new_game([A, B], seed=2, options={"armies": "raiders"})
    s, _ = play(s, A, *[f"deploy {n} a1 n" for n in ("horse1", "horse2", "horse3", "bow1")])
    assert not any(" a1 " in t for t in legal_texts(s, A))


def test_the_battle_starts_with_the_threshold_and_initiative_once_all_are_deployed() -> None:
    s = GAME.new_game([A, B], seed=2, options={"armies": "raiders"})
    names = [n for n, _ in preset_army("raiders")]
    s, _ = play(s, A, *[f"deploy {n} {c}1 n" for n, c in zip(names, "abcdef", strict=True)])
    s, events = play(s, B, *[f"deploy {n} {c}9 s" for n, c in zip(names, "abcdef", strict=True)])
    keys = [e.key for e in events]
    assert "bt.ev.threshold" in keys and "bt.ev.initiative" in keys and keys[-1] == "bt.ev.turn"
    assert s.phase == "play" and s.threshold == 5 and s.round == 1
    assert GAME.to_act(s) == [[A, B][s.order[0]]]


def test_a_troop_may_be_named_with_accents_in_any_script() -> None:
    """French players name their troops in French: ``élite`` is a name, typed in lower case; ``+``, a
    space or a leading digit is not."""
    s = build_game()
    s, _events = play(s, A, "recruter Élite 1 1 1 1 1 0", "recruit ωμέγα 5 0 0 0 0 0")
    assert [t.name for t in s.army(0)] == ["élite", "ωμέγα"]
    assert str(GAME.parse_action(s, A, "renvoyer élite", words(GAME))) == "dismiss élite"
    for bad in ("a+b", "1re", "x y"):
        with pytest.raises(BadInput):
            GAME.parse_action(s, A, f"recruit {bad} 1 1 1 1 1 0", words(GAME))
