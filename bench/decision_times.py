"""How long a computer player's decision takes at the full budget of its level, per game and table.

Usage: python -m bench.decision_times [positions] [--levels normal,hard] [--tables warchest:2,...]
[--jobs J]
       python -m bench.decision_times --turns N [--games G] [--seed S] [--levels hard] [--tables ...]
[--json]

The level-against-level bench (``bench.ai_levels``) plays whole games, which at the full budget of
``hard`` would take hours; this one times single decisions instead. For each table it plays seeded
random games and stops at ``positions`` (12 by default) positions spread over a game's course (seed
``k`` stops after ``k * 7 % 60`` moves, skipping positions where the player to act has one choice),
then times ``ai.search`` of every level on each, with no deadline: the search runs its whole budget.
Prints, per table and level, the median and the slowest decision and how many would have run into
the table layer's deadline (``table.bots.players.DECISION_SECONDS``, after which a bot plays the best move
found so far). Positions run in ``J`` worker processes (1 by default): with two, both cores search
at once, which is what a server with two games thinking at the same time sees.

``--turns N`` times what a person waits for instead, in real games: in ``G`` games per table (2 by
default, seeds from ``S``, 0 by default) seat 0 plays the level and the other seats ``normal``, each
decision at its turn's share of the budget (``ai.levels.budget`` with the decision's step in the
turn, as the table reads it from the log) and with no deadline, until seat 0 has played ``N`` turns.
Prints per table and level the median and the 99th percentile (the slowest, with few) of its
searched decisions, of its turns (a run of decisions in a row) and, in Batailles, of its deployment
(the run that places its troops), with the load average before and after; ``--json`` prints the raw
times instead.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import ai
import engine
from ai.levels import budget
from bench import take_option
from bench.ai_levels import TABLES
from bench.bot_turns import percentile
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


def waits(name: str, count: int, level: str, turns: int, seed: int) -> dict[str, list[float]]:
    """Seconds per kind (``decision``, ``turn``, ``deployment``) of seat 0 playing ``level`` in one
    seeded game against ``normal``, until it has played ``turns`` turns."""
    game = engine.get_game(name)
    players = [f"p{i}" for i in range(count)]
    state = game.new_game(players, seed, {})
    out: dict[str, list[float]] = {"decision": [], "turn": [], "deployment": []}
    step, last, run, kind, decisions = 0, -1, 0.0, "turn", 0
    while not game.is_over(state) and len(out["turn"]) < turns:
        player = game.to_act(state)[0]
        seat = players.index(player)
        step = step + 1 if seat == last else 0
        if last == 0 and seat != 0:
            out[kind].append(run)
        if seat == 0 and step == 0:
            run, kind = 0.0, "deployment" if getattr(state, "phase", "") == "deploy" else "turn"
        last = seat
        plan = budget(name, level if seat == 0 else "normal", step=step)
        start = time.perf_counter()
        outcome = ai.search(name, game.dump(state), seat, plan, ai.seed_for(seed, decisions, seat))
        spent = time.perf_counter() - start
        if seat == 0:
            run += spent
            if outcome.iterations:
                out["decision"].append(spent)
        state, _events = game.apply(state, player, outcome.action)
        decisions += 1
    return out


def load() -> str:
    with open("/proc/loadavg", encoding="ascii") as f:
        return " ".join(f.read().split()[:3])


def turns_main(args: list[str], turns: int, levels: list[str], tables: list[tuple[str, int]]) -> None:
    games = int(take_option(args, "--games") or "2")
    first = int(take_option(args, "--seed") or "0")
    as_json = "--json" in args
    before = load()
    rows: list[dict[str, Any]] = []
    for name, count in tables:
        for level in levels:
            found: dict[str, list[float]] = {}
            for seed in range(first, first + games):
                for kind, times in waits(name, count, level, turns, seed).items():
                    found.setdefault(kind, []).extend(times)
            rows.append({"game": name, "players": count, "level": level, "times": found})
    if as_json:
        print(json.dumps(rows))
        return
    print(f"load average {before} before, {load()} after")
    print("| game | players | level | wait | count | p50 | p99 |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        for kind, times in row["times"].items():
            if times:
                print(
                    f"| {row['game']} | {row['players']} | {row['level']} | {kind} | {len(times)} "
                    f"| {statistics.median(times):.2f} s | {percentile(times, 0.99):.2f} s |"
                )


def main(argv: list[str]) -> None:
    args = list(argv)
    turns = take_option(args, "--turns")
    options: dict[str, str] = {}
    for flag in ("--levels", "--tables", "--jobs"):
        if flag in args:
            at = args.index(flag)
            options[flag] = args[at + 1]
            del args[at : at + 2]
    positions = int(args[0]) if args and args[0].isdigit() else 12
    levels = options.get("--levels", "normal,hard").split(",")
    tables = (
        [(t.split(":")[0], int(t.split(":")[1])) for t in options["--tables"].split(",")]
        if "--tables" in options
        else list(TABLES)
    )
    if turns is not None:
        turns_main(args, int(turns), options.get("--levels", "hard").split(","), tables)
        return
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
