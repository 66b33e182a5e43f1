"""Time to apply, persist and render one move, end to end below the front ends.

Usage: python -m bench.move_latency [moves] [game]

Two players play a seeded random game through ``table.commands.Commands.play`` on a real
SQLite file (WAL, one transaction per move) with the real renderer, exactly the work a
Discord ``/play`` does after its interaction is deferred. Prints the median and the 90th
percentile.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import db
from engine.rng import Rng
from table.commands import Commands, Ctx
from table.tables import Table, Tables


def random_move(table: Table, chooser: Rng) -> tuple[str, str] | None:
    """A player to act and one of their legal moves, drawn by ``chooser``; None once the game is over."""
    acting = table.to_act()
    if not acting:
        return None
    player = acting[chooser.below(len(acting))]
    legal = table.game.legal_actions(table.state, player)
    return player, str(legal[chooser.below(len(legal))])


def _ctx(user: str) -> Ctx:
    return Ctx(channel_id="bench", user_id=user, user_name=user.title(), locale="en", channel_locale="en")


async def run(moves: int, game_name: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await db.open_store(Path(tmp) / "bench.sqlite3")
        try:
            tables = Tables(store)
            commands = Commands(tables)
            alice, bob = _ctx("alice"), _ctx("bob")
            await commands.new(alice, game_name)
            await commands.join(bob)
            await commands.start(alice)
            chooser = Rng(1)
            timings: list[float] = []
            for _ in range(moves):
                table = await tables.latest("bench")
                assert table is not None
                move = random_move(table, chooser)
                if move is None:
                    break
                player, action = move
                start = time.perf_counter()
                await commands.play(_ctx(player), action)
                timings.append(time.perf_counter() - start)
        finally:
            await store.close()
    timings.sort()
    p90 = timings[int(len(timings) * 0.9) - 1]
    print(
        f"{game_name}: {len(timings)} moves; apply+persist+render median "
        f"{statistics.median(timings) * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms"
    )


def main(argv: list[str]) -> None:
    moves = int(argv[0]) if argv else 100
    game_name = argv[1] if len(argv) > 1 else "warchest"
    asyncio.run(run(moves, game_name))


if __name__ == "__main__":
    main(sys.argv[1:])
