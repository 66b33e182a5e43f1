"""The per-game parts of the search: each game's observation, sampler, evaluation and action weights.

They live in a package per game beside the search (``ai/<game>/determinize.py`` and ``heuristics.py``),
over the rules of ``engine/<game>/``, which never use them; this module only binds them to a game name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

import engine
from engine import registry
from engine.contract import Game
from engine.rng import Rng


@dataclass(frozen=True)
class GameModel:
    """One game as the search sees it (satisfies ``ai.search.Model``)."""

    game: Game
    observe_fn: Callable[[Any, int], dict[str, Any]]
    determinize_fn: Callable[[dict[str, Any], Rng], Any]
    evaluate_fn: Callable[[Any], list[float]]
    weights_fn: Callable[[Any, int, Sequence[Any]], list[float]]
    step_fn: Callable[[Any, int, Any], Any]
    candidates_fn: Callable[[Any, int, list[Any]], list[Any]] | None = None
    prepare_fn: Callable[[dict[str, Any]], Any] | None = None
    sample_fn: Callable[[Any, Rng], Any] | None = None
    settled_fn: Callable[[Any, int, list[Any]], Any | None] | None = None

    def observe(self, state: Any, seat: int) -> dict[str, Any]:
        return self.observe_fn(state, seat)

    def determinize(self, observation: dict[str, Any], rng: Rng) -> Any:
        return self.determinize_fn(observation, rng)

    def prepare(self, observation: dict[str, Any]) -> Any:
        return observation if self.prepare_fn is None else self.prepare_fn(observation)

    def sample(self, prepared: Any, rng: Rng) -> Any:
        return self.determinize_fn(prepared, rng) if self.sample_fn is None else self.sample_fn(prepared, rng)

    def evaluate(self, state: Any) -> list[float]:
        return self.evaluate_fn(state)

    def weights(self, state: Any, seat: int, legal: Sequence[Any]) -> list[float]:
        return self.weights_fn(state, seat, legal)

    def step(self, state: Any, seat: int, action: Any) -> Any:
        return self.step_fn(state, seat, action)

    def candidates(self, state: Any, seat: int, legal: list[Any]) -> list[Any]:
        return legal if self.candidates_fn is None else self.candidates_fn(state, seat, legal)

    def settled(self, state: Any, seat: int, legal: list[Any]) -> Any | None:
        """The action to play without searching (a decision search buys nothing for), else None."""
        return None if self.settled_fn is None else self.settled_fn(state, seat, legal)


@cache
def model(name: str) -> GameModel:
    """The model of game ``name`` (``BadInput`` for an unknown game, as ``engine.get_game``)."""
    game = engine.get_game(name)
    package = _package(name)
    sampler = import_module(f"{package}.determinize")
    heuristics = import_module(f"{package}.heuristics")
    return GameModel(
        game=game,
        observe_fn=sampler.observation,
        determinize_fn=sampler.determinize,
        evaluate_fn=heuristics.evaluate,
        weights_fn=heuristics.weights,
        step_fn=sampler.step,
        candidates_fn=getattr(heuristics, "candidates", None),
        prepare_fn=getattr(sampler, "prepare", None),
        sample_fn=getattr(sampler, "sample", None),
        settled_fn=getattr(heuristics, "settled", None),
    )


def _package(name: str) -> str:
    """The ``ai`` package of game ``name`` (``engine.registry``)."""
    entry = registry.find(name)
    if entry is None or entry.ai is None:
        raise ValueError(f"{name!r} has no computer player")
    return entry.ai
