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
Each store is measured with one bot process, then with two processes sharing the games (``x2``: as
two shards would), whose moves per second count both over the burst's whole span.
"""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
from PIL import Image

import db
import engine
from bench.move_latency import random_move
from engine.rng import Rng
from launch import DISCORD_LIMITS
from table.core.tables import Tables
from table.play.commands import Commands, Ctx

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
            f"{self.store:<13} {self.games:>5} {self.moves:>6} {self.moves / self.seconds:>8.0f}"
            f" {self.p50 * 1000:>7.1f} {self.p99 * 1000:>7.1f} {self.size / self.games / 1024:>9.1f}"
            f" {self.size / self.moves:>9.0f}"
        )


HEADER = (
    f"{'store':<13} {'games':>5} {'moves':>6} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7}"
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


async def _part(
    target: str | Path, first: int, games: int, moves: int, store_only: bool
) -> tuple[list[float], float, float]:
    """Games ``first``..``first + games - 1`` of a burst on the store at ``target``, in this process:
    each move's time, and when the burst began and ended (on the machine's monotonic clock, which all
    processes share)."""
    store = await db.open_store(target)
    timings: list[float] = []
    try:
        if store_only:
            game = engine.get_game("warchest")
            state = game.dump(game.new_game(players=["a", "b"], seed=1, options={}))
            work = [_writes(store, f"c{i}", moves, state, timings) for i in range(first, first + games)]
        else:
            commands = Commands(
                Tables(store, limits=DISCORD_LIMITS, render=tiny_png, render_private=tiny_png)
            )
            work = [_game(commands, f"c{i}", moves, 1000 + i, timings) for i in range(first, first + games)]
        began = time.monotonic()
        await asyncio.gather(*work)
        ended = time.monotonic()
    finally:
        await store.close()  # SQLite folds its log into the file when the last connection closes
    return timings, began, ended


def _part_in_process(target: str | Path, first: int, games: int, moves: int, store_only: bool) -> Any:
    return asyncio.run(_part(target, first, games, moves, store_only))


async def burst(
    name: str, target: str | Path, games: int, moves: int, *, store_only: bool, processes: int = 1
) -> Figures:
    """The burst of ``games`` games, shared out between ``processes`` bot processes on one store."""
    await (await db.open_store(target)).close()  # the schema alone, folded into the file
    empty = await _size(target)
    shares = [games // processes + (1 if i < games % processes else 0) for i in range(processes)]
    firsts = [sum(shares[:i]) for i in range(processes)]
    if processes == 1:
        parts = [await _part(target, 0, games, moves, store_only)]
    else:
        loop = asyncio.get_running_loop()
        with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
            parts = await asyncio.gather(
                *(
                    loop.run_in_executor(pool, _part_in_process, target, first, share, moves, store_only)
                    for first, share in zip(firsts, shares, strict=True)
                )
            )
    timings = sorted(t for part in parts for t in part[0])
    seconds = max(part[2] for part in parts) - min(part[1] for part in parts)
    p99 = timings[max(0, int(len(timings) * 0.99) - 1)]
    size = await _size(target) - empty
    label = name if processes == 1 else f"{name} x{processes}"
    return Figures(label, games, len(timings), seconds, statistics.median(timings), p99, size)


async def run(games: int, moves: int, url: str | None, *, store_only: bool) -> list[Figures]:
    """The burst on fresh SQLite files, then on PostgreSQL (``url``, or an embedded server's new
    databases; a given ``url`` must name an empty database, which the first burst fills), each by
    one bot process and then by two sharing the games."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for processes in (1, 2):
            target = Path(tmp) / f"bench{processes}.sqlite3"
            results.append(
                await burst("sqlite", target, games, moves, store_only=store_only, processes=processes)
            )
        if url is not None:
            results.append(await burst("postgresql", url, games, moves, store_only=store_only))
            return results
        from tests.postgres import Server

        server = Server(Path(tmp), durable=True)
        try:
            for processes in (1, 2):
                database = await server.create_database()
                results.append(
                    await burst(
                        "postgresql", database, games, moves, store_only=store_only, processes=processes
                    )
                )
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
