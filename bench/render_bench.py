"""Board image speed: the first (cold) render, then the median of warm renders of a mid-game view.

Usage: python -m bench.render_bench [runs]

The view comes from a seeded random War Chest game stopped after 60 actions, which has units,
stacks, controlled locations and a last action: what players see after a typical move.
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

import engine
import render
from engine.rng import Rng

NAMES = {"111": "Alice", "222": "Bérénice"}


def typical_view(actions: int = 60, seed: int = 7) -> dict[str, Any]:
    """A War Chest view after ``actions`` random moves, seen by the first player."""
    game = engine.get_game("warchest")
    state = game.new_game(["111", "222"], seed=seed, options={})
    chooser = Rng(seed)
    for _ in range(actions):
        if game.is_over(state):
            break
        player = game.to_act(state)[0]
        legal = game.legal_actions(state, player)
        state, _events = game.apply(state, player, legal[chooser.below(len(legal))])
    return game.view(state, "111")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main(argv: list[str]) -> None:
    runs = int(argv[0]) if argv else 20
    view = typical_view()
    start = time.perf_counter()
    size = len(render.render(view, names=NAMES, locale="en"))
    cold = time.perf_counter() - start

    def timed(fn: Any, locale: str) -> float:
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            fn(view, names=NAMES, locale=locale)
            times.append(time.perf_counter() - t0)
        return statistics.median(times)

    print(f"render warchest: first {_ms(cold)} (empty board and sprites drawn), PNG {size // 1024} KiB")
    print(f"render warchest: median of {runs} warm renders {_ms(timed(render.render, 'en'))} (en)")
    print(f"render warchest: median of {runs} warm renders {_ms(timed(render.render, 'fr'))} (fr)")
    print(f"render_private warchest: median of {runs} {_ms(timed(render.render_private, 'en'))}")


if __name__ == "__main__":
    main(sys.argv[1:])
