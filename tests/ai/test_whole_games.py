"""Every level plays whole games of every game to their end, against a uniformly random player.

Budgets here are each level's own, cut down to a few iterations: the test is that the player
copes with everything a game can ask of it (drafts, deployments, battles, follow-ups, ransoms),
not how well it plays (``bench/ai_levels.py`` measures that).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import ai
import engine
from ai.levels import LEVELS, budget
from engine.rng import Rng
from tests.ai.support import TABLES, players

OPTIONS = {"warchest": {"armies": "draft"}, "batailles": {"max_rounds": "4"}, "cryhavoc": {}}
"""War Chest starts with its draft; Batailles is cut to four rounds to keep the test short."""


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("name", "count"), TABLES)
def test_a_level_finishes_a_game_against_random(name: str, count: int, level: str) -> None:
    game = engine.get_game(name)
    seed = 31 * count + LEVELS.index(level)
    state = game.new_game(players(count), seed, OPTIONS[name])
    plan = replace(budget(name, level), iterations=3, rollout=min(3, budget(name, level).rollout))
    bot = seed % count
    chooser = Rng(seed)
    searched = 0
    for version in range(5000):
        if game.is_over(state):
            break
        player = game.to_act(state)[0]
        seat = players(count).index(player)
        legal = game.legal_actions(state, player)
        if seat == bot:
            action = ai.search(name, game.dump(state), seat, plan, ai.seed_for(seed, version, seat)).action
            assert action in legal
            searched += 1
        else:
            action = legal[chooser.below(len(legal))]
        state, _ = game.apply(state, player, action)
    assert game.is_over(state)
    assert game.result(state) is not None
    assert searched > 5
