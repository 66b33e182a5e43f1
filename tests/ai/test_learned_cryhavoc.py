"""The learned Cry Havoc evaluation: a softmax over the seats, fitted as one model with the two-sided
logistic fit, and judging positions the way a player would (``test_learned`` regenerates it)."""

from __future__ import annotations

import numpy as np
import pytest

import engine
from ai.cryhavoc import features, heuristics
from ai.learned import Weights
from ai.models import model
from engine.cryhavoc.state import St, clone
from engine.rng import Rng
from tests.ai.support import midgame
from training.fit import Positions, fit, fit_shares


def test_the_softmax_fit_over_two_sides_is_the_logistic_fit_of_their_difference() -> None:
    """The two fits are one model: on positions of two sides they find the same weights."""
    rng = Rng(5)
    kept = Positions([], [])
    for _ in range(400):
        rows = [[rng.below(7) - 3.0 for _ in range(3)] for _ in range(2)]
        lead = rows[0][0] - rows[1][0] + 0.5 * (rows[0][2] - rows[1][2])
        kept.sides.append(rows)
        kept.winners.append(0 if lead + rng.below(5) - 2 > 0 else 1)
    logistic = fit(*kept.differences())
    softmax = fit_shares(*kept.stacked(2, 3))
    assert np.allclose(logistic, softmax, atol=1e-9)
    assert logistic[0] > logistic[1]


def test_two_shares_are_the_chance_of_the_difference() -> None:
    """With two players the softmax is the two-sided model the War Chest evaluation uses."""
    weights = Weights(("a", "b"), (0.7, -0.2))
    first, second = [3.0, 1.0], [1.0, 4.0]
    assert weights.shares([first, second]) == pytest.approx(
        [weights.chance(first, second), weights.chance(second, first)]
    )


def _with_vp(st: St, seat: int, vp: int) -> St:
    changed = clone(st)
    changed["vp"][seat] += vp
    return changed


def _with_region(st: St, seat: int) -> St:
    """``st`` with a region nobody holds, nor fights over, held by ``seat`` with two crystals."""
    changed = clone(st)
    rid = next(
        r
        for r, reg in changed["regions"].items()
        if reg["control"] is None and reg["battle"] is None and r not in changed["hq"]
    )
    changed["regions"][rid]["control"] = seat
    changed["regions"][rid]["crystals"] = 2
    return changed


@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_shipped_weights_prefer_a_seat_with_more_vp_and_regions(count: int) -> None:
    """VP decide the game and held regions score them: more of either is worth more to the seat,
    and less to every other."""
    st = midgame("cryhavoc", count, seed=11, steps=60)
    assert not engine.get_game("cryhavoc").is_over(st)
    before = heuristics.evaluate(st)
    assert sum(before) == pytest.approx(1.0)
    for better in (_with_vp(st, 0, 5), _with_region(st, 0)):
        after = heuristics.evaluate(better)
        assert after[0] > before[0]
        assert all(after[s] < before[s] for s in range(1, count))


def test_the_evaluation_has_no_favourite_seat() -> None:
    """Seats with the same features get the same share, whatever their place at the table."""
    weights = features.weights()
    row = features.sides(midgame("cryhavoc", 3, seed=2, steps=50))[1]
    assert weights.shares([row, row, row]) == pytest.approx([1 / 3] * 3)


def test_the_players_score_rollouts_with_the_learned_evaluation() -> None:
    """The search's model binds ``evaluate``; a bench may ask for the hand-weighed one instead."""
    assert model("cryhavoc").evaluate_fn is heuristics.evaluate
    assert model("cryhavoc", "hand_evaluate").evaluate_fn is heuristics.hand_evaluate
