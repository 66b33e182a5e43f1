"""Each game's sampler: what a seat knows, and full states drawn consistent with it.

The computer player believes only what its seat could know, so every sampled state must show that
seat exactly the view the real game shows it, offer it the same legal actions, and the in-place
``step`` the search uses must land where ``apply`` does.
"""

from __future__ import annotations

import json

import pytest

import engine
from ai.models import model
from engine.playout import random_steps
from engine.rng import Rng
from tests.ai.support import TABLES, players

OPTIONS = {
    "warchest": [{}, {"armies": "draft"}],
    "batailles": [{}, {"hardcore": "on"}],
    "cryhavoc": [{}, {"skills": "all"}],
}


def _positions(name: str, count: int, options: dict[str, str], games: int, every: int):  # type: ignore[no-untyped-def]
    """States along seeded random games, every ``every`` actions."""
    game = engine.get_game(name)
    for seed in range(games):
        steps = random_steps(game, players(count), seed, Rng(seed + 1000), options=options, limit=600)
        for number, step in enumerate(steps):
            if number % every == 0:
                yield step.before


@pytest.mark.parametrize(("name", "count"), TABLES)
@pytest.mark.parametrize("variant", [0, 1])
def test_a_sample_shows_the_seat_its_own_view_and_legal_actions(name: str, count: int, variant: int) -> None:
    m = model(name)
    game = m.game
    checked = 0
    for state in _positions(name, count, OPTIONS[name][variant], games=3, every=11):
        acting = game.to_act(state)
        for seat, player in enumerate(players(count)):
            sample = m.determinize(m.observe(state, seat), Rng(checked))
            assert game.view(sample, player) == game.view(state, player)
            if player in acting:
                wanted = [str(a) for a in game.legal_actions(state, player)]
                assert [str(a) for a in game.legal_actions(sample, player)] == wanted
            checked += 1
    assert checked > 50


@pytest.mark.parametrize(("name", "count"), TABLES)
def test_samples_differ_in_what_the_seat_cannot_see(name: str, count: int) -> None:
    """Two samples of one observation agree on the view but not on everything (the dice to come at
    least): the sampler really draws the hidden parts instead of copying them."""
    m = model(name)
    game = m.game
    for state in _positions(name, count, {}, games=1, every=40):
        obs = m.observe(state, 0)
        first, second = m.determinize(obs, Rng(1)), m.determinize(obs, Rng(2))
        assert game.view(first, players(count)[0]) == game.view(second, players(count)[0])
        assert game.dump(first) != game.dump(second)


@pytest.mark.parametrize(("name", "count"), TABLES)
def test_an_observation_is_json_and_holds_no_generator(name: str, count: int) -> None:
    m = model(name)
    for state in _positions(name, count, {}, games=1, every=50):
        obs = m.observe(state, count - 1)
        assert json.loads(json.dumps(obs)) == obs
        assert "rng" not in obs["public"]


@pytest.mark.parametrize(("name", "count"), TABLES)
def test_step_lands_where_apply_does(name: str, count: int) -> None:
    m = model(name)
    game = m.game
    steps = 0
    for state in _positions(name, count, {}, games=2, every=1):
        player = game.to_act(state)[0]
        seat = players(count).index(player)
        for action in game.legal_actions(state, player)[:3]:
            expected, _ = game.apply(state, player, action)
            owned = game.load(game.dump(state))
            moved = m.step(owned, seat, action)
            assert game.dump(moved) == game.dump(expected), str(action)
            steps += 1
    assert steps > 100


@pytest.mark.parametrize(("name", "count"), TABLES)
def test_samples_of_one_prepared_observation_share_nothing(name: str, count: int) -> None:
    """The search prepares an observation once and samples it every iteration, then plays on the
    sample in place: playing on one sample must leave the next as a fresh preparation draws it."""
    m = model(name)
    game = m.game
    compared = 0
    for state in _positions(name, count, {}, games=2, every=23):
        for seat in range(count):
            obs = m.observe(state, seat)
            prepared = m.prepare(obs)
            first = m.sample(prepared, Rng(5))
            assert game.dump(first) == game.dump(m.determinize(obs, Rng(5)))
            for _ in range(12):
                if game.is_over(first):
                    break
                acting = game.to_act(first)[0]
                first = m.step(first, players(count).index(acting), game.legal_actions(first, acting)[-1])
            again = m.sample(prepared, Rng(7))
            assert game.dump(again) == game.dump(m.determinize(obs, Rng(7)))
            compared += 1
    assert compared >= 4
