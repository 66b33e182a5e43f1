"""Recomputing every rating of a store from its results (``python -m db recompute-ratings``).

Usage: python -m bench.ratings [games] [players]

A SQLite store is filled with ``games`` (default 10,000) finished, rated games among ``players``
(default 40) of one server, spread over the four pools as a server plays them: War Chest for two and
in teams, Batailles, Cry Havoc for two to four, a draw now and then, each game with a real engine
state (a fresh deal of its format). The rows are written straight into the tables (a bench of
recomputation, not of playing). The bench then times the store's ``recompute_ratings`` (read every
result, replay it through openskill, write every rating and change, one transaction), the replay
alone without the database, and, on results recorded without what each player played (as before
schema 8), ``fill_sides``: every game's state loaded by its engine for its ``sides``.

Figures depend on the machine's load; give them with the load (``uptime``) they were taken at.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import db
import engine
from db.ratings import Place, Rated, replay
from engine.registry import pools

FORMATS = (
    ("warchest", 2),
    ("warchest", 4),
    ("batailles", 2),
    ("cryhavoc", 2),
    ("cryhavoc", 3),
    ("cryhavoc", 4),
)


def places(rng: random.Random, game: str, seats: int, people: list[str]) -> list[Place]:
    """One game's seats and how they finished: sides of two in a War Chest for four."""
    players = rng.sample(people, seats)
    teams = game == "warchest" and seats == 4
    sides = [i % 2 for i in range(seats)] if teams else list(range(seats))
    count = 2 if teams else seats
    if rng.random() < 0.05:
        ranks = [1] * count
    else:
        order = rng.sample(range(count), count)
        ranks = [order.index(i) + 1 for i in range(count)]
    return [Place(p, side, ranks[side]) for p, side in zip(players, sides, strict=True)]


def deals() -> dict[tuple[str, int], tuple[str, list[list[str]]]]:
    """A fresh deal of each format (its engine dump as text) and what each seat plays in it."""
    out = {}
    for game, seats in FORMATS:
        rules = engine.get_game(game)
        state = rules.new_game([f"seat{n}" for n in range(seats)], seed=seats)
        out[(game, seats)] = (json.dumps(rules.dump(state)), rules.sides(state))
    return out


def fill(path: Path, games: int, players: int, seed: int = 1, *, sides: bool = True) -> list[Rated]:
    """Write ``games`` rated results into the store at ``path`` (without what each player played
    unless ``sides``); the results as a replay reads them."""
    rng = random.Random(seed)
    people = [f"{100000 + n}" for n in range(players)]
    dealt = deals()
    rows, results = [], []
    for n in range(1, games + 1):
        game, seats = rng.choice(FORMATS)
        placed = places(rng, game, seats, people)
        pool = "warchest-teams" if game == "warchest" and seats == 4 else game
        stamp = f"2026-01-01T00:00:00.{n % 1000:03d}+00:00"
        rows.append((n, game, seats, stamp, pool, json.dumps([p.to_json() for p in placed])))
        results.append(Rated(n, "g", pool, tuple(placed)))
    conn = sqlite3.connect(path)
    with conn:
        conn.executemany(
            "INSERT INTO games (id, channel, game, status, creator, players, seed, created_at, updated_at,"
            " guild, state) VALUES (?, 'c' || ?, ?, 'over', 'x', ?, 1, ?, ?, 'g', ?)",
            [
                (n, n, game, seats, stamp, stamp, dealt[(game, seats)][0])
                for n, game, seats, stamp, _pool, _places in rows
            ],
        )
        conn.executemany(
            "INSERT INTO seats (game_id, player, name) VALUES (?, ?, ?)",
            [(n, p["player"], p["player"]) for n, *_rest, text in rows for p in json.loads(text)],
        )
        conn.executemany(
            "INSERT INTO results (id, game_id, guild, pool, rated, places, finished_at, sides)"
            " VALUES (?, ?, 'g', ?, 1, ?, ?, ?)",
            [
                (n, n, pool, text, stamp, played(text, dealt[(game, seats)][1]) if sides else None)
                for n, game, seats, stamp, pool, text in rows
            ],
        )
    conn.close()
    return results


def played(places: str, sides: list[list[str]]) -> str:
    """The ``sides`` column of a result whose places are ``places`` (seat order)."""
    return json.dumps({p["player"]: side for p, side in zip(json.loads(places), sides, strict=True)})


async def run(games: int, players: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        store = await db.open_store(path)
        await store.close()
        results = fill(path, games, players)
        started = time.perf_counter()
        replay(results)
        alone = time.perf_counter() - started
        store = await db.open_store(path)
        try:
            started = time.perf_counter()
            rated = await store.recompute_ratings()
            whole = time.perf_counter() - started
            ranked = 0
            for pool in pools():
                ranked += len(await store.standings("g", pool))
        finally:
            await store.close()
        old = Path(folder) / "old.sqlite3"
        store = await db.open_store(old)
        await store.close()
        fill(old, games, players, sides=False)
        store = await db.open_store(old)
        try:
            started = time.perf_counter()
            filled = await store.fill_sides()
            sided = time.perf_counter() - started
        finally:
            await store.close()
    return {
        "games": rated,
        "players": ranked,
        "recompute": whole,
        "replay": alone,
        "filled": filled,
        "sides": sided,
    }


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if any(not a.isdigit() for a in args):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        raise SystemExit(2)
    games = int(args[0]) if args else 10_000
    players = int(args[1]) if len(args) > 1 else 40
    figures = asyncio.run(run(games, players))
    print(
        f"{int(figures['games'])} rated games, {int(figures['players'])} ratings in 4 pools:"
        f" recompute-ratings {figures['recompute']:.2f} s"
        f" (openskill's replay alone {figures['replay']:.2f} s);"
        f" sides of {int(figures['filled'])} results recorded before schema 8: {figures['sides']:.2f} s"
    )


if __name__ == "__main__":
    main()
