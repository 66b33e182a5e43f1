"""A burst: many channels each make one move at the same instant.

Measures, for each way of drawing, in one run on the same machine: moves per second until every
move is announced (board drawn and posted), the p50/p99 of a move's time to its announcement, how
late the event loop runs (p99 of a 10 ms sleep's overshoot) and the slowest autocomplete answer
during the burst. Compared: drawing in threads over a single store connection (the bot before its
worker pool) and drawing in worker processes over a store with its own read connection.

Usage: ``python -m bench.burst [channels] [--against REV]`` (default 500 channels). With ``--against``
the burst is also run as the bot of git revision ``REV`` drew it (its renderer, in threads, over one
store connection), in a subprocess, and the figures are compared with it as well.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import db
from db.migrate import migrate
from db.sqlite import SqliteStore, connect
from table.core.drawing import ProcessDrawer, ThreadDrawer, draw_now
from table.core.posts import Ctx, Post
from table.core.tables import Tables
from table.play.commands import Commands
from table.posting.announce import Announcer

ROOT = Path(__file__).resolve().parents[1]


class NullOutlet:
    async def send(self, channel: str, post: Post) -> str:
        return channel

    async def edit(self, channel: str, message: str, post: Post) -> bool:
        return True

    async def direct(self, user: str, post: Post) -> bool:
        return True


class QuickDrawer:
    """For setting the games up fast: no image."""

    async def draw(self, kind: str, view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
        return b""

    def idle(self) -> bool:
        return True


def ctx(channel: str, player: str) -> Ctx:
    return Ctx(channel, player, player, "en", "en")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


async def lateness(stop: asyncio.Event, out: list[float]) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        out.append(time.perf_counter() - start - 0.01)


async def probe_autocomplete(
    commands: Commands, channel: str, player: str, stop: asyncio.Event, out: list[float]
) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        await commands.autocomplete(ctx(channel, player), "")
        out.append(time.perf_counter() - start)
        await asyncio.sleep(0.1)


async def scenario(label: str, channels: int, *, processes: bool) -> dict[str, float]:
    folder = Path(tempfile.mkdtemp())
    if processes:
        store: Any = await db.open_store(folder / "burst.sqlite3")
    else:
        conn = await connect(folder / "burst.sqlite3")
        await migrate(conn)
        store = SqliteStore(conn)  # one connection: reads wait behind writes
    tables = Tables(store, drawer=QuickDrawer(), seed_source=lambda: 11)
    commands = Commands(tables, Announcer(tables, NullOutlet(), coalesce=0))
    names = [f"chan{i}" for i in range(channels)]
    for channel in names:
        await commands.new(ctx(channel, "alice"), "warchest")
        await commands.join(ctx(channel, "bob"))
        await commands.start(ctx(channel, "alice"))
    await commands.announcer.drain()
    moves: dict[str, tuple[str, str]] = {}
    for channel in names:
        table = await tables.open(channel)
        assert table is not None and table.state is not None
        player = table.to_act()[0]
        moves[channel] = (player, str(table.game.legal_actions(table.state, player)[0]))
    if processes:
        pool = ProcessDrawer()
        await pool.draw(
            "board",
            (await tables.open(names[0])).game.view((await tables.open(names[0])).state, None),
            names={},
            locale="en",
        )  # type: ignore[union-attr]
        tables.drawer = pool
    else:
        tables.drawer = ThreadDrawer(
            {
                kind: (lambda view, kind=kind, **kw: draw_now(kind, view, kw["names"], kw["locale"]))
                for kind in ("board", "private")
            }
        )
    stop = asyncio.Event()
    late: list[float] = []
    answers: list[float] = []
    watchers = [
        asyncio.create_task(lateness(stop, late)),
        asyncio.create_task(probe_autocomplete(commands, names[-1], moves[names[-1]][0], stop, answers)),
    ]
    latencies: list[float] = []

    async def one(channel: str) -> None:
        start = time.perf_counter()
        player, action = moves[channel]
        await commands.play(ctx(channel, player), action)
        await commands.announcer.drain(channel)
        latencies.append(time.perf_counter() - start)

    began = time.perf_counter()
    await asyncio.gather(*(one(channel) for channel in names))
    took = time.perf_counter() - began
    stop.set()
    await asyncio.gather(*watchers)
    if processes:
        pool.close()
    await store.close()
    result = {
        "moves/s": channels / took,
        "p50 s": statistics.median(latencies),
        "p99 s": percentile(latencies, 0.99),
        "loop late p99 ms": 1000 * percentile(late, 0.99),
        "slowest autocomplete s": max(answers, default=0.0),
    }
    print(label, {k: round(v, 3) for k, v in result.items()}, flush=True)
    return result


def old_bot(revision: str, channels: int) -> dict[str, float]:
    """The burst as the bot of ``revision`` drew it: its renderer, in threads, over one connection
    (run in a subprocess whose ``render`` package is that revision's)."""
    from bench.render_bench import renderer_of

    with renderer_of(revision) as (tmp, env):
        done = subprocess.run(
            [sys.executable, "-m", "bench.burst", str(channels), "--threads-only", revision],
            check=True,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp,  # first on the path: the old ``render`` package
        )
    print(done.stdout.strip().splitlines()[0], flush=True)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


async def main(argv: list[str]) -> None:
    channels = int(argv[0]) if argv and argv[0].isdigit() else 500
    if "--threads-only" in argv:
        revision = argv[argv.index("--threads-only") + 1]
        label = f"threads, one store connection, the renderer of {revision}"
        print(json.dumps(await scenario(label, channels, processes=False)))
        return
    revision = argv[argv.index("--against") + 1] if "--against" in argv else None
    old = old_bot(revision, channels) if revision else None
    before = await scenario("threads, one store connection", channels, processes=False)
    after = await scenario("worker processes, a read connection", channels, processes=True)
    for name, base in (("threads", before), (revision, old)):
        if base is not None:
            print(
                f"against {name}: throughput x{after['moves/s'] / base['moves/s']:.2f}, loop lateness p99 "
                f"{base['loop late p99 ms']:.0f} -> {after['loop late p99 ms']:.0f} ms, move p99 "
                f"{base['p99 s']:.1f} -> {after['p99 s']:.1f} s"
            )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
