"""The first board of a new process against the first board of a new game in a running one.

Usage: python -m bench.first_image [rounds] [--against REV] | --parts

The bot runs as users run it without a token: ``python bot.py`` (the console), lines written to its
standard input one at a time, two drawing workers (``RENDER_WORKERS=2``). For each game, a table is
opened, joined and started; the time from writing ``/game start`` to the console printing the board's
path is the *first image of the process*. Both players then abort, a new game of the same title with
another seed is started, and its board's time is the *first image of a running process* (its static
layers are built anew where they depend on the deal, as for any new game). Three ways of starting:

- ``cold``: ``RENDER_WARMUP=0``, each worker started when the first drawing needs it (as before);
- ``at once``: the warm-up under way, ``/game start`` written as soon as the console answers;
- ``warm``: ``/game start`` written once every worker has reported its warm-up done (a Discord bot
  spends seconds connecting to the gateway before its first command).

Each figure is the median of ``rounds`` processes (default 3), with the first/running ratio and the
difference. ``--against REV`` adds the same measure of git revision ``REV``'s tree (unpacked into a
temporary folder; it has no warm-up, so only its ``cold`` row is taken). Figures depend on the
machine's load: give them with ``uptime``.

``--parts`` says where a cold worker's first board goes instead, in a new process: importing the
renderer and the computer players (what the fork server imports), importing the bot's script (what
every worker imported again before the fork server did it once), then for each game the first board
of a new game, a board of another new game, and the part of the first spent building static layers
(board, battlefield, map; drawn large and scaled down) and encoding the PNG.
"""

from __future__ import annotations

import asyncio
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from bench import take_option

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"warchest": (11, 12), "batailles": (11, 12), "cryhavoc": (11, 12)}
"""Each game's two seeds: the first game of the process, then the new game of the running one."""
WORKERS = 2
LIMIT = 600.0
"""Seconds a reply may take before the bench gives up (a loaded machine is slow, not stuck)."""


class Console:
    """``python bot.py`` in ``tree`` as a console, fed one line at a time."""

    def __init__(self, tree: Path, folder: Path, warm: bool) -> None:
        self.tree, self.folder, self.warm = tree, folder, warm
        self.warmed = asyncio.Event()
        self._reports = 0
        self.proc: asyncio.subprocess.Process | None = None
        self._stderr: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Console:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
        env.update(
            DATABASE_PATH=str(self.folder / "bot.sqlite3"),
            CONSOLE_OUT=str(self.folder / "out"),
            RENDER_WORKERS=str(WORKERS),
            RENDER_WARMUP="1" if self.warm else "0",
            LOG_LEVEL="DEBUG",
            PYTHONPATH=str(self.tree),
        )
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "bot.py",
            cwd=self.tree,
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        self._stderr = asyncio.create_task(self._read_stderr())
        return self

    async def _read_stderr(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        while line := await self.proc.stderr.readline():
            if b"table.core.drawing" in line and b" warm: " in line:
                self._reports += 1
                if self._reports >= WORKERS:
                    self.warmed.set()

    async def __aexit__(self, *exc: object) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.close()
        await asyncio.wait_for(self.proc.wait(), LIMIT)
        if self._stderr is not None:
            await self._stderr

    async def say(self, line: str, until: str | None = None) -> str:
        """Write ``line``; read the console's output until a line starting with ``until`` (default:
        the echo of the next line, i.e. everything ``line`` printed)."""
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        marker = "> __mark__"
        self.proc.stdin.write((line + "\n").encode())
        if until is None:
            self.proc.stdin.write(b"__mark__\n")  # an unknown line, echoed once the line is done
        await self.proc.stdin.drain()
        out: list[str] = []
        while True:
            raw = await asyncio.wait_for(self.proc.stdout.readline(), LIMIT)
            if not raw:
                raise RuntimeError(f"the console ended while answering {line!r}:\n{''.join(out)}")
            text = raw.decode()
            out.append(text)
            if text.startswith(until or marker):
                if until is None:  # the unknown line's own answer follows its echo
                    await asyncio.wait_for(self.proc.stdout.readline(), LIMIT)
                return "".join(out)


async def _first_boards(tree: Path, game: str, warm: bool, wait_warm: bool) -> tuple[float, float]:
    """Seconds to the first board of a new process, then to the first board of a new game in it."""
    first_seed, second_seed = GAMES[game]
    with tempfile.TemporaryDirectory() as tmp:
        async with Console(tree, Path(tmp), warm) as console:
            times = []
            for seed in (first_seed, second_seed):
                await console.say(f"alice: /game new game:{game} options:seed={seed}")
                await console.say("bob: /game join")
                if seed == first_seed and wait_warm:
                    await asyncio.wait_for(console.warmed.wait(), LIMIT)
                start = time.perf_counter()
                await console.say("alice: /game start", until="image: ")
                times.append(time.perf_counter() - start)
                await console.say("alice: /game abort")
                await console.say("bob: /game abort")
            return times[0], times[1]


def _row(label: str, pairs: list[tuple[float, float]]) -> str:
    first = statistics.median(p[0] for p in pairs)
    running = statistics.median(p[1] for p in pairs)
    return (
        f"  {label:26} first {first:6.2f} s   running {running:6.2f} s   "
        f"ratio {first / running:5.1f}   difference {first - running:+6.2f} s"
    )


def measure(tree: Path, rounds: int, modes: list[tuple[str, bool, bool]]) -> None:
    for game in GAMES:
        print(f"{game}:", flush=True)
        for label, warm, wait_warm in modes:
            pairs = [asyncio.run(_first_boards(tree, game, warm, wait_warm)) for _ in range(rounds)]
            print(_row(label, pairs), flush=True)


def unpacked(revision: str, folder: Path) -> Path:
    """The tree of git revision ``revision`` in ``folder``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")
    return folder


_PARTS = """
import cProfile, pstats, sys, time
start = time.perf_counter()
import render, ai
print(f"import render, ai: {time.perf_counter() - start:.2f} s")
start = time.perf_counter()
import bot
print(f"import bot.py (discord.py, the table layer): {time.perf_counter() - start:.2f} s")
import engine
names = {"a": "Alice", "b": "Bob"}
for name in engine.GAMES:
    game = engine.get_game(name)
    views = [game.view(game.new_game(["a", "b"], seed, {}), None) for seed in (11, 12)]
    profile = cProfile.Profile()
    start = time.perf_counter()
    profile.runcall(render.render, views[0], names=names, locale="en")
    first = time.perf_counter() - start
    start = time.perf_counter()
    render.render(views[1], names=names, locale="en")
    other = time.perf_counter() - start
    stats = pstats.Stats(profile).stats
    def spent(*words):
        return sum(v[3] for k, v in stats.items() if any(w == k[2] for w in words))
    static = spent("empty_board", "empty_field", "empty_map")
    encode = spent("to_png")
    print(f"{name}: first board {first:.2f} s (static layers {static:.2f} s, PNG {encode:.2f} s), "
          f"another new game's board {other:.2f} s")
"""


def parts() -> None:
    subprocess.run([sys.executable, "-c", _PARTS], cwd=ROOT, check=True)


MODES = [
    ("cold (RENDER_WARMUP=0)", False, False),
    ("warm-up, asked at once", True, False),
    ("warm-up, asked once warm", True, True),
]


def main(argv: list[str]) -> None:
    args = list(argv)
    if "--parts" in args:
        parts()
        return
    revision = take_option(args, "--against")
    rounds = int(args[0]) if args else 3
    if revision is not None:
        with tempfile.TemporaryDirectory() as tmp:
            print(f"revision {revision}:", flush=True)
            measure(unpacked(revision, Path(tmp)), rounds, MODES[:1])
    print("this tree:", flush=True)
    measure(ROOT, rounds, MODES)


if __name__ == "__main__":
    main(sys.argv[1:])
