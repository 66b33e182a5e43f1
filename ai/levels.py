"""The three levels of every game: a search budget each (iterations, rollout length, policy).

Budgets are iteration counts, never seconds, so that a game with computer players replays exactly on
any machine. They were sized from ``bench/ai_levels.py``'s timings on a two-core machine, where
``hard`` stays well inside the table's deadline (``bench/decision_times.py``: ``normal`` takes 0.1 to
0.4 s at full budget, ``hard`` 0.7 to 1.8 s, a Batailles ``hard`` 3 s at the slowest). A decision
with a single legal action, and a search whose favourite can no longer be overtaken, end sooner.

War Chest's ``hard`` plays half of its rollout moves greedily (the policy's heaviest action): with
four players, four times ``normal``'s iterations and longer rollouts alone won 55 % of 96 games
against ``normal``, with rollouts as long as ``normal``'s 36 %, and with half-greedy rollouts 72 % of
99 (``bench/ai_levels.py``, a quarter of the iterations). Noisy rollouts over two teams' moves blur
the difference between the root's choices; more iterations only widen the root among them.
"""

from __future__ import annotations

from dataclasses import replace

from ai.search import Budget

LEVELS = ("easy", "normal", "hard")

_BUDGETS: dict[str, dict[str, Budget]] = {
    "warchest": {
        "easy": Budget(iterations=60, rollout=4),
        "normal": Budget(iterations=400, rollout=6),
        "hard": Budget(iterations=1600, rollout=8, greedy=0.5),
    },
    "batailles": {
        "easy": Budget(iterations=40, rollout=6),
        "normal": Budget(iterations=250, rollout=10),
        "hard": Budget(iterations=900, rollout=14),
    },
    "cryhavoc": {
        "easy": Budget(iterations=40, rollout=6),
        "normal": Budget(iterations=250, rollout=10),
        "hard": Budget(iterations=900, rollout=14),
    },
}


def budget(game: str, level: str, scale: float = 1.0) -> Budget:
    """The budget of ``level`` in ``game``; ``scale`` shrinks the iterations (benchmarks only)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
    found = _BUDGETS[game][level]
    if scale == 1.0:
        return found
    return replace(found, iterations=max(1, round(found.iterations * scale)))
