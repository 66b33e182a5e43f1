"""A restart under a storm: how soon a bot that just started answers the players.

A bot starts (as in production: its drawing workers warm up, its first tick catches up the games
whose moves were stored but not posted before the restart) while players keep playing: from the
moment its gateway is ready, a move arrives every ``1/rate`` seconds in a channel of its own, and
one player types in the move box every 0.1 s. Measured, for each interaction sent in the first
``--seconds`` after the gateway was ready: how long Discord waited for its first answer (the fake
refuses an answer after 3 s, as Discord does), the share answered within 3 s, and the slowest
autocomplete; and how long the start-up's catch-up took.

Usage: ``python -m bench.restart [moves] [--caught-up N] [--rate R] [--seconds S] [--rounds K]
[--against REV]`` (default 200 moves at 20 a second, 12 games to catch up, 10 s, 1 round). With
``--against``, the bot of ``REV`` starts on the same games, interleaved with this one's.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.burst import (
    DEADLINE,
    HANG,
    ROOT,
    Table,
    forget_newer_migrations,
    interaction,
    load,
    make_games,
    percentile,
    typing,
    worktree,
)

GAMES = ("warchest", "batailles", "cryhavoc")
"""The games of the channels, in turn: a start's first moves of each game load its rules."""


@dataclass
class Start:
    label: str
    acks: list[float | None]
    typing: list[float]
    catch_up: float | None
    load: str

    def figures(self) -> dict[str, float]:
        made = [a if a is not None else float("inf") for a in self.acks]
        return {
            "answered in 3 s %": 100.0 * sum(1 for a in made if a <= DEADLINE) / max(1, len(made)),
            "first answer p50 s": statistics.median(made) if made else 0.0,
            "first answer p99 s": percentile(made, 0.99),
            "first answer max s": max(made, default=0.0),
            "slowest autocomplete s": max(self.typing, default=0.0),
            "catch-up s": self.catch_up if self.catch_up is not None else float("nan"),
        }

    def line(self) -> str:
        shown = ", ".join(f"{k} {v:.3g}" for k, v in self.figures().items())
        return f"{self.label}: {shown} ({len(self.acks)} interactions, load {self.load})"


async def one_start(
    fake: Any, label: str, tree: Path, template: Path, storm: list[Table], rate: float, seconds: float
) -> Start:
    from tests.fakediscord.process import BotProcess

    folder = Path(tempfile.mkdtemp(prefix="restart-"))
    database = folder / "bot.sqlite3"
    shutil.copy(template, database)
    forget_newer_migrations(database, tree)
    fake._nonces.clear()
    environment = {
        "RENDER_WARMUP": "1",
        "DRAW_WORKERS": "2",
        "RENDER_WORKERS": "2",
        "HEARTBEAT_PATH": str(folder / "heartbeat"),
    }
    bot = await BotProcess.start(fake, database, environment, tree=tree)
    try:
        await bot.wait_for_log("connected as ", timeout=HANG)
        ready = time.monotonic()
        stop = asyncio.Event()
        typed: list[float] = []
        typist = asyncio.ensure_future(typing(fake, storm[-1], stop, typed))
        records = []
        for table in storm[:-1]:
            if time.monotonic() - ready > seconds:
                break
            payload = await fake._command_interaction(
                2, table.to_act, table.channel, "play", {"action": table.value}, None
            )
            records.append(await interaction(fake, payload, table.channel))
            await asyncio.sleep(1 / rate)
        stop.set()
        await typist
        for record in records:  # every answer in, or refused
            done = asyncio.ensure_future(record.answered.wait())
            refused = asyncio.ensure_future(record.refused.wait())
            await asyncio.wait({done, refused}, timeout=HANG, return_when=asyncio.FIRST_COMPLETED)
            done.cancel()
            refused.cancel()
        catch_up = None
        with contextlib.suppress(AssertionError):
            line = await bot.wait_for_log("start-up catch-up: ", timeout=HANG)
            catch_up = float(line.rsplit("(in ", 1)[1].split(" s)")[0])
        return Start(
            label,
            [r.result.response_delay if r.result.answered else None for r in records],
            typed,
            catch_up,
            load(),
        )
    finally:
        bot.signal(signal.SIGTERM)
        with contextlib.suppress(Exception):
            await bot.exited()
        shutil.rmtree(folder, ignore_errors=True)


async def main_async(
    moves: int, caught_up: int, rate: float, seconds: float, rounds: int, old: Path | None
) -> None:
    from tests.fakediscord.server import FakeDiscord

    folder = Path(tempfile.mkdtemp(prefix="restart-games-"))
    try:
        async with FakeDiscord(response_deadline=DEADLINE) as fake:
            fake.token = "test"
            trees = (ROOT,) if old is None else (ROOT, old)
            made = await make_games(fake, folder, moves + caught_up + 1, GAMES, trees, unannounced=caught_up)
            print(f"{moves} moves at {rate:g}/s, {caught_up} games to catch up, load {load()}", flush=True)
            runs: dict[str, list[Start]] = {"new": [], "old": []}
            for round_ in range(rounds):
                for name, tree in (("new", ROOT), ("old", old)):
                    if tree is None:
                        continue
                    games, tables = made[tree]
                    storm = tables[caught_up:]
                    done = await one_start(fake, f"{name} #{round_ + 1}", tree, games, storm, rate, seconds)
                    runs[name].append(done)
                    print(done.line(), flush=True)
            if runs["old"]:
                print("new / old, medians over the rounds:")
                for key in runs["new"][0].figures():
                    new = statistics.median(r.figures()[key] for r in runs["new"])
                    was = statistics.median(r.figures()[key] for r in runs["old"])
                    print(f"  {key}: {new:.3g} against {was:.3g}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str]) -> None:
    def option(name: str, default: float) -> float:
        return float(argv[argv.index(name) + 1]) if name in argv else default

    moves = int(argv[0]) if argv and argv[0].isdigit() else 200
    caught_up = int(option("--caught-up", 12))
    rate, seconds, rounds = option("--rate", 20.0), option("--seconds", 10.0), int(option("--rounds", 1))
    if "--against" in argv:
        with worktree(argv[argv.index("--against") + 1]) as old:
            asyncio.run(main_async(moves, caught_up, rate, seconds, rounds, old))
    else:
        asyncio.run(main_async(moves, caught_up, rate, seconds, rounds, None))


if __name__ == "__main__":
    main(sys.argv[1:])
