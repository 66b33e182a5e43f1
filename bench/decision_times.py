"""How long a computer player's decision takes at the full budget of its level, per game and table.

Usage: python -m bench.decision_times [positions] [--levels normal,hard] [--tables warchest:2,...]
[--jobs J]

The level-against-level bench (``bench.ai_levels``) plays whole games, which at the full budget of
``hard`` would take hours; this one times single decisions instead. For each table it plays seeded
random games and stops at ``positions`` (12 by default) positions spread over a game's course (seed
``k`` stops after ``k * 7 % 60`` moves, skipping positions where the player to act has one choice),
then times ``ai.search`` of every level on each, with no deadline: the search runs its whole budget.
Prints, per table and level, the median and the slowest decision and how many would have run into
the table layer's deadline (``table.bots.players.DECISION_SECONDS``, after which a bot plays the best move
found so far). Positions run in ``J`` worker processes (1 by default): with two, both cores search
at once, which is what a server with two games thinking at the same time sees.
"""

from __future__ import annotations

import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import ai
import engine
from ai.levels import budget
from bench.ai_levels import TABLES
from engine.rng import Rng
from table.bots.players import DECISION_SECONDS


def position(name: str, count: int, seed: int) -> tuple[dict[str, Any], int] | None:
    """A position of a seeded random game with a real choice to make: its saved state and the seat
    to decide; None when the game ended first."""
    game = engine.get_game(name)
    players = [f"p{i}" for i in range(count)]
    state = game.new_game(players, seed, {})
    chooser = Rng(seed ^ 0xD1CE)
    moves = seed * 7 % 60
    while True:
        if game.is_over(state):
            return None
        player = game.to_act(state)[0]
        legal = game.legal_actions(state, player)
        if moves <= 0 and len(legal) > 1:
            return game.dump(state), players.index(player)
        state, _events = game.apply(state, player, legal[chooser.below(len(legal))])
        moves -= 1


def timed(job: tuple[str, int, int, str]) -> float | None:
    """Seconds one full-budget decision of ``level`` takes at the ``seed``'s position."""
    name, count, seed, level = job
    found = position(name, count, seed)
    if found is None:
        return None
    state, seat = found
    start = time.perf_counter()
    ai.search(name, state, seat, budget(name, level), ai.seed_for(seed, 0, seat))
    return time.perf_counter() - start


def main(argv: list[str]) -> None:
    args = list(argv)
    options: dict[str, str] = {}
    for flag in ("--levels", "--tables", "--jobs"):
        if flag in args:
            at = args.index(flag)
            options[flag] = args[at + 1]
            del args[at : at + 2]
    positions = int(args[0]) if args else 12
    levels = options.get("--levels", "normal,hard").split(",")
    tables = (
        [(t.split(":")[0], int(t.split(":")[1])) for t in options["--tables"].split(",")]
        if "--tables" in options
        else list(TABLES)
    )
    jobs = int(options.get("--jobs", "1"))
    print("| game | players | level | decisions | p50 | slowest | over the deadline |", flush=True)
    print("|---|---|---|---|---|---|---|", flush=True)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for name, count in tables:
            for level in levels:
                work = [(name, count, seed, level) for seed in range(positions)]
                times = [t for t in pool.map(timed, work) if t is not None]
                over = sum(t > DECISION_SECONDS for t in times)
                print(
                    f"| {name} | {count} | {level} | {len(times)} | {statistics.median(times):.2f} s "
                    f"| {max(times):.2f} s | {over} |",
                    flush=True,
                )


if __name__ == "__main__":
    main(sys.argv[1:])
