"""What a decision weighed (``ai.decide``, ``ai.explain``): reproducible, naming no secret of the seat's."""

from __future__ import annotations

import pytest

import ai
import engine
from ai.explain import HAND, PLACE, masked, revealed, secret, weighed
from ai.search import Budget, Outcome
from engine.batailles.actions import Deploy as BtDeploy
from engine.cryhavoc.actions import act
from engine.warchest.actions import Attack, Deploy, Initiative, Move, Pass, Pick, Recruit
from tests.ai.support import TABLES, decision


@pytest.mark.parametrize(("name", "count"), TABLES)
def test_the_same_seed_gives_the_same_explanation(name: str, count: int) -> None:
    state, seat = decision(name, count, seed=6, steps=30)
    dump = engine.get_game(name).dump(state)
    first = ai.decide(name, dump, seat, "easy", seed=41)
    assert first == ai.decide(name, dump, seat, "easy", seed=41)
    assert first["action"] == ai.choose(name, dump, seat, "easy", seed=41)
    listed = first["weighed"]
    assert listed[0][0] == first["action"], "the move played comes first"
    assert 1 <= len(listed) <= 4 and len({text for text, _v, _s in listed}) == len(listed)
    if first["iterations"]:
        assert all(0.0 <= value <= 1.0 and 0.0 < share <= 1.0 for _t, value, share in listed)
        assert sum(share for _t, _v, share in listed) <= 1.0 + 1e-9


def test_the_weighed_are_the_most_visited_then_the_better_mean() -> None:
    visits = {"a": 2, "b": 4, "c": 2, "d": 1, "e": 1, "f": 0}
    outcome = Outcome("b", 10, visits, {"a": 0.4, "b": 0.6, "c": 0.5, "d": 0.1, "e": 0.2})
    found = weighed(outcome)
    assert [row[0] for row in found["weighed"]] == ["b", "c", "a", "e"], "of two as visited, the better mean"
    assert found["weighed"][0] == ["b", 0.6, 0.4]
    quick = weighed(Outcome("x", 0, {"x": 0}))
    assert quick["weighed"] == [["x", None, None]], "a move played without a search weighed nothing"


def test_war_chest_secrets_are_the_coins_of_the_hand() -> None:
    game = engine.get_game("warchest")
    state = game.new_game(["a", "b"], 3, {})
    chosen = Move("archer", (2, 2), (2, 3))
    assert secret("warchest", state, 0, chosen, chosen) is None, "a move played face up shows its coin"
    assert secret("warchest", state, 0, Attack("archer", (2, 2), (3, 3)), chosen) is None, "the same coin"
    assert secret("warchest", state, 0, Deploy("knight", (4, 0)), chosen) == HAND, "another coin of the hand"
    for face_down in (Pass("royal"), Initiative("knight"), Recruit("archer", "knight")):
        assert secret("warchest", state, 0, face_down, face_down) == HAND, "played face down"
        assert secret("warchest", state, 0, Move("knight", (1, 1), (1, 2)), face_down) == HAND
    assert secret("warchest", state, 0, Pick("archer"), Pick("knight")) is None, "the draft is public"
    told = masked("warchest", Recruit("archer", "knight"))
    assert told is not None and told.key == "why.wc.recruit"
    assert [str(v.key) for v in told.params.values()] == ["wc.unit.archer"], (
        "the unit recruited, not the coin"
    )
    assert not revealed("warchest", state, HAND, over=False) and revealed("warchest", state, HAND, over=True)


def test_cry_havoc_secrets_are_the_cards_of_the_hand() -> None:
    chosen = act("move", "hu_muster")
    assert secret("cryhavoc", None, 0, chosen, chosen) is None, "a card spent is shown"
    assert secret("cryhavoc", None, 0, act("recruit", "hu_muster"), chosen) is None, "the same card"
    assert secret("cryhavoc", None, 0, act("build", "hu_other"), chosen) == HAND
    assert secret("cryhavoc", None, 0, act("keep", "hu_muster"), act("keep", "hu_muster")) == HAND
    assert secret("cryhavoc", None, 0, act("go", "a", "b"), chosen) is None


def test_batailles_places_are_secret_while_the_armies_deploy() -> None:
    game = engine.get_game("batailles")
    state = game.new_game(["a", "b"], 3, {})
    assert state.phase == "deploy"
    action = next(a for a in game.legal_actions(state, game.to_act(state)[0]) if isinstance(a, BtDeploy))
    assert secret("batailles", state, 0, action, action) == PLACE
    assert not revealed("batailles", state, PLACE, over=False)
    assert revealed("batailles", state, PLACE, over=True)


def test_a_budget_of_nothing_still_names_its_move() -> None:
    state, seat = decision("warchest", 2, seed=2, steps=10)
    dump = engine.get_game("warchest").dump(state)
    found = ai.search("warchest", dump, seat, Budget(iterations=8, rollout=2), seed=1)
    assert found.values and set(found.values) <= set(found.visits)
