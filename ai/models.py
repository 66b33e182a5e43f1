"""The per-game parts of the search: each game's observation, sampler, evaluation and action weights.

They live in a package per game beside the search (``ai/<game>/determinize.py`` and ``heuristics.py``),
over the rules of ``engine/<game>/``, which never use them; this module only binds them to a game name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any, Generic, cast

import engine
from ai.search import A, Obs, S
from engine import registry
from engine.contract import Game
from engine.rng import Rng


@dataclass(frozen=True)
class GameModel(Generic[S, A, Obs]):
    """One game as the search sees it (satisfies ``ai.search.Model``), over states ``S``, actions
    ``A`` and observations ``Obs``. A game without ``prepare`` samples from the observation itself,
    so what is prepared is left as ``object`` here: only the game's own sampler reads it."""

    game: Game[S, A]
    observe_fn: Callable[[S, int], Obs]
    determinize_fn: Callable[[Obs, Rng], S]
    evaluate_fn: Callable[[S], list[float]]
    weights_fn: Callable[[S, int, Sequence[A]], list[float]]
    step_fn: Callable[[S, int, A], S]
    candidates_fn: Callable[[S, int, list[A]], list[A]] | None = None
    prepare_fn: Callable[[Obs], object] | None = None
    sample_fn: Callable[[object, Rng], S] | None = None
    settled_fn: Callable[[S, int, list[A]], A | None] | None = None

    def observe(self, state: S, seat: int) -> Obs:
        return self.observe_fn(state, seat)

    def determinize(self, observation: Obs, rng: Rng) -> S:
        return self.determinize_fn(observation, rng)

    def prepare(self, observation: Obs) -> object:
        return observation if self.prepare_fn is None else self.prepare_fn(observation)

    def sample(self, prepared: object, rng: Rng) -> S:
        if self.sample_fn is None:
            return self.determinize_fn(cast(Obs, prepared), rng)  # no prepare_fn: the observation
        return self.sample_fn(prepared, rng)

    def evaluate(self, state: S) -> list[float]:
        return self.evaluate_fn(state)

    def weights(self, state: S, seat: int, legal: Sequence[A]) -> list[float]:
        return self.weights_fn(state, seat, legal)

    def step(self, state: S, seat: int, action: A) -> S:
        return self.step_fn(state, seat, action)

    def candidates(self, state: S, seat: int, legal: list[A]) -> list[A]:
        return legal if self.candidates_fn is None else self.candidates_fn(state, seat, legal)

    def settled(self, state: S, seat: int, legal: list[A]) -> A | None:
        """The action to play without searching (a decision search buys nothing for), else None."""
        return None if self.settled_fn is None else self.settled_fn(state, seat, legal)


@cache
def model(name: str, evaluation: str = "evaluate") -> GameModel[Any, Any, Any]:
    """The model of game ``name`` (``BadInput`` for an unknown game, as ``engine.get_game``): its state
    and action types are the ones of the game registered under that name, known only at run time.

    ``evaluation`` names the heuristics' function that scores a rollout's last position: the players
    use ``evaluate``; a bench may name another one the game keeps (``hand_evaluate``) to measure what
    ``evaluate`` is worth against it."""
    game = engine.get_game(name)
    package = _package(name)
    sampler = import_module(f"{package}.determinize")
    heuristics = import_module(f"{package}.heuristics")
    return GameModel(
        game=game,
        observe_fn=sampler.observation,
        determinize_fn=sampler.determinize,
        evaluate_fn=getattr(heuristics, evaluation),
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
