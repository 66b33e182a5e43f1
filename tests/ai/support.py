"""Positions for the computer player's tests: seeded random games stopped part-way, in every game."""

from __future__ import annotations

from typing import Any

import engine
from bench.ai_levels import TABLES as BENCH_TABLES
from engine.playout import random_steps
from engine.rng import Rng

TABLES = list(BENCH_TABLES)
"""Every game at every table size, as the benchmark plays them."""


def players(count: int) -> list[str]:
    return [f"p{i}" for i in range(count)]


def midgame(name: str, count: int, seed: int, steps: int, options: dict[str, str] | None = None) -> Any:
    """The state after ``steps`` uniformly random actions of a seeded game (earlier if it ends)."""
    game = engine.get_game(name)
    state = game.new_game(players(count), seed, options or {})
    chooser = Rng(seed ^ 0x7E57)
    for step in random_steps(game, players(count), seed, chooser, options=options, limit=steps):
        state = step.after
    return state


def decision(name: str, count: int, seed: int, steps: int) -> tuple[Any, int]:
    """A state part-way through a game where someone has a real choice, and that seat's index.

    Plays on from ``steps`` random actions until the acting seat has at least two legal actions.
    """
    game = engine.get_game(name)
    state = midgame(name, count, seed, steps)
    chooser = Rng(seed)
    while True:
        assert not game.is_over(state), "the game ended before a decision with a choice"
        player = game.to_act(state)[0]
        legal = game.legal_actions(state, player)
        if len(legal) >= 2:
            return state, players(count).index(player)
        state, _ = game.apply(state, player, legal[chooser.below(len(legal))])
