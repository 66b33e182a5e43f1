"""Hosting figures: a burst of moves in many games at once, on SQLite and on PostgreSQL.

Usage: python -m bench.hosting [games] [moves_per_game] [--postgres URL]

``games`` War Chest tables (default 20) play at the same time, each in its own channel, through the
table layer exactly as ``/play`` does (load, apply, one transaction per move, then the channel's
post recorded by the announcer). Boards are drawn by a stand-in that returns a tiny PNG, so the
figures are the store's and the table layer's; drawing a real board adds what ``bench.render_bench``
reports, per move, in a worker. Every move's time is from ``play`` to its post being recorded.

A second burst writes the same number of moves straight to the store (``apply_action`` with a real
War Chest state): what the database itself takes. Printed per store: moves per second over the
burst, the median and 99th percentile of one move, and the database's size per game (and per move)
once the burst is stored. Without ``--postgres`` the embedded server of the test extra runs on this
machine with PostgreSQL's default, durable settings (each commit waits for the disk); SQLite runs as
the bot runs it (WAL, synchronous=NORMAL: a commit does not wait for the disk, a checkpoint does).
"""

from __future__ import annotations

import asyncio
import io
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
from PIL import Image

import db
import engine
from bench.move_latency import random_move
from engine.rng import Rng
from table.commands import Commands, Ctx
from table.tables import Tables

TABLES = ("games", "seats", "actions", "votes", "announcements", "notes", "guild_settings", "notify", "meta")


def tiny_png(view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), "green").save(buf, format="PNG")
    return buf.getvalue()


@dataclass(frozen=True)
class Figures:
    store: str
    games: int
    moves: int
    seconds: float
    p50: float
    p99: float
    size: int

    def line(self) -> str:
        return (
            f"{self.store:<11} {self.games:>5} {self.moves:>6} {self.moves / self.seconds:>8.0f}"
            f" {self.p50 * 1000:>7.1f} {self.p99 * 1000:>7.1f} {self.size / self.games / 1024:>9.1f}"
            f" {self.size / self.moves:>9.0f}"
        )


HEADER = (
    f"{'store':<11} {'games':>5} {'moves':>6} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7}"
    f" {'KiB/game':>9} {'B/move':>9}"
)


def _ctx(user: str, channel: str) -> Ctx:
    return Ctx(channel_id=channel, user_id=user, user_name=user.title(), locale="fr", channel_locale="fr")


async def _game(commands: Commands, channel: str, moves: int, seed: int, timings: list[float]) -> None:
    """One table: open, fill, start, then up to ``moves`` random legal moves, one after another."""
    alice, bob = f"{channel}-a", f"{channel}-b"
    await commands.new(_ctx(alice, channel), "warchest", options=f"seed={seed}")
    await commands.join(_ctx(bob, channel))
    await commands.start(_ctx(alice, channel))
    await commands.announcer.drain(channel)
    chooser = Rng(seed)
    for _ in range(moves):
        table = await commands.tables.latest(channel)
        assert table is not None
        move = random_move(table, chooser)
        if move is None:
            return
        player, action = move
        start = time.perf_counter()
        await commands.play(_ctx(player, channel), f"v{table.record.version}:{action}")
        await commands.announcer.drain(channel)  # as the front ends do after each command
        timings.append(time.perf_counter() - start)


async def _size(target: str | Path) -> int:
    """Bytes the store's tables take (PostgreSQL: with indexes and TOAST; SQLite: the whole file)."""
    if isinstance(target, str):
        conn = await asyncpg.connect(target)
        try:
            return int(
                await conn.fetchval(
                    "SELECT sum(pg_total_relation_size(oid)) FROM pg_class WHERE relname = ANY($1::text[])",
                    list(TABLES),
                )
            )
        finally:
            await conn.close()
    return Path(target).stat().st_size


async def _writes(
    store: db.Store, channel: str, moves: int, state: dict[str, Any], timings: list[float]
) -> None:
    """One game's moves as the store sees them: each a new action row, version and whole state."""
    rec = await store.create_game(
        channel=channel, game="warchest", creator=db.Seat("a", "A"), players=2, options={}, seed=1
    )
    await store.add_seat(rec.id, db.Seat("b", "B"))
    rec = await store.start_game(rec.id, state=state)
    events = [{"key": "wc.ev.deploy", "params": {"player": {"ref": "a"}, "unit": "archer", "hex": "d4"}}]
    for n in range(moves):
        start = time.perf_counter()
        await store.apply_action(
            rec.id,
            version=n,
            player="a",
            action="deploy archer d4",
            events=events,
            state=state,
            status="active",
        )
        timings.append(time.perf_counter() - start)


async def burst(name: str, target: str | Path, games: int, moves: int, *, store_only: bool) -> Figures:
    await (await db.open_store(target)).close()  # the schema alone, folded into the file
    empty = await _size(target)
    store = await db.open_store(target)
    timings: list[float] = []
    try:
        if store_only:
            game = engine.get_game("warchest")
            state = game.dump(game.new_game(players=["a", "b"], seed=1, options={}))
            work = [_writes(store, f"c{i}", moves, state, timings) for i in range(games)]
        else:
            commands = Commands(Tables(store, render=tiny_png, render_private=tiny_png))
            work = [_game(commands, f"c{i}", moves, 1000 + i, timings) for i in range(games)]
        began = time.perf_counter()
        await asyncio.gather(*work)
        seconds = time.perf_counter() - began
    finally:
        await store.close()  # SQLite folds its log into the file when the last connection closes
    timings.sort()
    p99 = timings[max(0, int(len(timings) * 0.99) - 1)]
    size = await _size(target) - empty
    return Figures(name, games, len(timings), seconds, statistics.median(timings), p99, size)


async def run(games: int, moves: int, url: str | None, *, store_only: bool) -> list[Figures]:
    """The burst on a fresh SQLite file, then on PostgreSQL (``url``, or an embedded server's new
    database; a given ``url`` must name an empty database, which the burst fills)."""
    with tempfile.TemporaryDirectory() as tmp:
        results = [await burst("sqlite", Path(tmp) / "bench.sqlite3", games, moves, store_only=store_only)]
        if url is not None:
            results.append(await burst("postgresql", url, games, moves, store_only=store_only))
            return results
        from tests.postgres import Server

        server = Server(Path(tmp), durable=True)
        try:
            target = await server.create_database()
            results.append(await burst("postgresql", target, games, moves, store_only=store_only))
        finally:
            server.stop()
    return results


def main(argv: list[str]) -> None:
    url = None
    if "--postgres" in argv:
        at = argv.index("--postgres")
        url = argv[at + 1]
        argv = argv[:at] + argv[at + 2 :]
    games = int(argv[0]) if argv else 20
    moves = int(argv[1]) if len(argv) > 1 else 60
    for store_only, what in ((False, "moves through the table layer"), (True, "the store's writes alone")):
        results = asyncio.run(run(games, moves, url, store_only=store_only))
        print(f"hosting, {what}: a burst of War Chest moves in {games} games at once")
        print(HEADER)
        for figures in results:
            print(figures.line())


if __name__ == "__main__":
    main(sys.argv[1:])
