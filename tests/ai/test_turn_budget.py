"""A turn's decisions share one budget, a Batailles deployment is placed without search below
``hard``, and both stay reproducible: the same position, seed and step give the same choice."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

import ai
import engine
from ai.batailles.heuristics import FORWARD
from ai.levels import LEVELS, TurnBudget, budget, turn_budget
from engine.batailles.actions import Deploy
from tests.ai.support import players

GAMES = ("warchest", "batailles", "cryhavoc")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_a_turns_decisions_share_its_budget(name: str, level: str) -> None:
    """The first decision searches like a decision alone; the later ones get less and less, never
    under the least; a long turn spends the turn's iterations and the least for each decision more.
    ``hard`` takes its time: every decision gets its whole budget, or in Batailles, whose turns run
    to fifteen decisions, at least half of it."""
    plan = turn_budget(name, level)
    shares = [plan.iterations(step) for step in range(40)]
    assert shares[0] == plan.most == budget(name, level).iterations
    assert all(later <= earlier for earlier, later in itertools.pairwise(shares))
    assert shares[-1] == plan.least <= plan.most
    if level == "hard":
        assert plan.least * 2 >= plan.most, "hard searches every decision with half its budget or more"
        assert (plan.least < plan.most) == (name == "batailles")
    else:
        assert plan.least < plan.most
    for n in (1, 6, 17, 40):
        assert sum(shares[:n]) <= plan.turn + plan.least * n
    assert [budget(name, level, step=step).iterations for step in range(40)] == shares


def test_the_share_counts_what_the_turn_has_left() -> None:
    plan = TurnBudget(turn=1000, most=200, least=10, spread=4)
    assert [plan.iterations(step) for step in range(8)] == [200, 200, 150, 112, 84, 63, 47, 36]
    assert plan.iterations(-1) == plan.iterations(0)


def deployment(seed: int) -> tuple[dict[str, object], int]:
    """A Batailles position where a seat deploys, with some of its troops placed already."""
    game = engine.get_game("batailles")
    names = players(2)
    state = game.new_game(names, seed, {})
    for _ in range(3):
        player = game.to_act(state)[0]
        state, _events = game.apply(state, player, game.legal_actions(state, player)[-1])
    assert state.phase == "deploy"
    return game.dump(state), names.index(game.to_act(state)[0])


@pytest.mark.parametrize("seed", (1, 2))
def test_a_batailles_deployment_is_placed_without_search(seed: int) -> None:
    """``easy`` and ``normal`` deploy the first troop still to place in the front row facing the
    enemy, at once (no iteration), and the same position gives the same placement."""
    dump, seat = deployment(seed)
    game = engine.get_game("batailles")
    state = game.load(dump)
    outcome = ai.search("batailles", dump, seat, budget("batailles", "normal"), seed=5)
    assert outcome.iterations == 0
    action = outcome.action
    assert isinstance(action, Deploy) and action.facing == FORWARD[seat]
    assert action.zone[1] == state.board.front_row(seat)
    assert action in game.legal_actions(state, game.to_act(state)[0])
    for level in ("easy", "normal"):
        assert ai.choose("batailles", dump, seat, level, seed=seed) == str(action)


def test_a_hard_batailles_deployment_is_searched() -> None:
    """``hard`` can afford to search where its troops stand: it runs iterations over the zones of
    the first troop still to place, facing the enemy, and repeats its choice for the same seed."""
    dump, seat = deployment(1)
    game = engine.get_game("batailles")
    state = game.load(dump)
    plan = budget("batailles", "hard", scale=0.05)
    outcome = ai.search("batailles", dump, seat, plan, seed=5)
    assert outcome.iterations > 0
    assert sum(outcome.visits.values()) == outcome.iterations
    action = outcome.action
    assert isinstance(action, Deploy) and action.facing == FORWARD[seat]
    assert action in game.legal_actions(state, game.to_act(state)[0])
    assert str(ai.search("batailles", dump, seat, plan, seed=5).action) == str(action)


def test_a_hard_batailles_turn_keeps_its_first_activations_in_full() -> None:
    """A ``hard`` Batailles turn searches its first five decisions (its first activations: which
    troop, where it goes, what it shoots) in full and the later follow-ups with nearly three
    quarters, a function of the step alone: a fifteen-decision turn searches about four fifths of
    what it did in full, which keeps it within its wait."""
    shares = [budget("batailles", "hard", step=step).iterations for step in range(15)]
    assert shares[:5] == [900] * 5
    assert shares[5:7] == [675, 650]
    assert shares[7:] == [650] * 8
    assert sum(shares) <= 0.82 * 15 * 900


def test_a_hard_batailles_deployment_searches_a_share() -> None:
    """A ``hard`` deployment searches three fifths of its decision's iterations
    (``Budget.unsettled``), a decision of play its whole share; both repeat their choice for the
    same seed."""
    dump, seat = deployment(2)
    plan = budget("batailles", "hard", scale=0.1)
    assert plan.unsettled == 0.6
    outcome = ai.search("batailles", dump, seat, plan, seed=3)
    assert outcome.iterations == round(plan.iterations * plan.unsettled)
    assert ai.search("batailles", dump, seat, plan, seed=3).action == outcome.action
    full = ai.search("batailles", dump, seat, replace(plan, unsettled=1.0), seed=3)
    assert full.iterations == plan.iterations
