"""Start-up with many stored games: how long until the bot is ready, and where the time goes.

Usage: python -m bench.startup [games] [--runs N] [--against REV] [--warm] [--json]

A SQLite store is filled with ``games`` stored games (default 10,000, ``bench.seed_games``), and the
real bot (``bot.main()``, as ``make run`` starts it) is started on it again and again as a process of
its own against the fake Discord of the tests (three servers), after one start that syncs its
commands (a restart then finds them unchanged, as a redeploy does). Each start is timed from the
process's launch to:

- ``connected``: the fake has sent READY and every server (the gateway is connected);
- ``answer``: a ``/game status`` sent at that moment is answered;
- ``ready``: the bot's ``on_ready`` (its log's "connected as"): the first tick, the heartbeat and
  the health check wait for it;
- ``caught up``: the first tick's catch-up is done;

and, apart, ``store open``: opening (and migrating) that store and closing it, in a process of its own.
Each tree's modules are compiled first, as a deployed bot finds them (``make run`` writes their
bytecode at its first start, the image compiles them when it is built).
The start-up's own timeline (the bot's "start-up: ..." log lines: store and migrations, claims,
commands, sync, gateway) is printed from the last start, with the time before the bot was built
(the interpreter and the imports). The bot's memory is read at the end of each start: the main
process's peak (VmHWM) and the resident size of its children (the fork server and the drawing
workers); with ``--warm`` each start also waits for every drawing worker's warm-up to end (``warm``)
and reads the memory then.

With ``--against REV`` the same is measured for git revision ``REV`` (checked out with ``git
worktree add`` in a temporary folder, its store filled by the same helper through its own table
layer), starts of both interleaved, and the ratios are printed. ``--json`` prints the figures as one
JSON line (``python -m bench figures`` reads it). Figures depend on the machine's load: the load
(``uptime``) is printed with them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import take_option

ROOT = Path(__file__).resolve().parents[1]
TIMELINE = re.compile(
    r"start-up: (?P<what>.+) in (?P<took>[\d.]+) s \(at (?P<at>[\d.]+) s(, cpu (?P<cpu>[\d.]+) s)?\)"
)
READY = "connected as "
CAUGHT_UP = "start-up catch-up: "
WARM = "drawing worker "
LIMIT = 120.0
"""Seconds any one wait may take before the bench gives up (a hang, not a figure)."""


def launcher(api_prefix: str) -> str:
    """The program that starts the bot of the folder it runs in on the fake Discord: discord.py's two
    process-wide addresses pointed at the fake, then ``bot.main()`` exactly as ``make run`` calls it."""
    return (
        "import os, sys, yarl, discord.gateway, discord.http\n"
        f"discord.http.Route.BASE = os.environ['FAKE_DISCORD_URL'] + {api_prefix!r}\n"
        "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ['FAKE_DISCORD_GATEWAY'])\n"
        "import bot\n"
        "sys.exit(bot.main())\n"
    )


STORE_OPEN = """
import asyncio, sys, time
import db

async def main():
    began = time.perf_counter()
    store = await db.open_store(sys.argv[1])
    opened = time.perf_counter() - began
    await store.close()
    print(opened)

asyncio.run(main())
"""


@dataclass
class Start:
    """One start's figures, in seconds from the process's launch."""

    connected: float
    answer: float
    ready: float
    caught_up: float | None
    warm: float | None
    store_open: float
    timeline: list[tuple[str, float, float, float]] = field(default_factory=list)
    """The bot's own start-up steps: (what, how long, when it ended after the process's launch, the
    main process's CPU seconds by then)."""
    built: float | None = None
    """When the bot object was built (the interpreter and the imports before it)."""
    memory_kib: dict[str, int] = field(default_factory=dict)


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes), as ``uptime`` gives them."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


@contextlib.contextmanager
def checkout(revision: str) -> Iterator[Path]:
    """Revision ``revision`` of this repository, checked out in a temporary folder for as long as
    the block lasts (``git worktree add --detach``), then removed."""
    folder = Path(tempfile.mkdtemp(prefix="bench-rev-"))
    tree = folder / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), revision],
        check=True,
        capture_output=True,
    )
    try:
        yield tree
    finally:
        remove = ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)]
        subprocess.run(remove, check=False, capture_output=True)
        subprocess.run(["rm", "-rf", str(folder)], check=False)


def seed_store(tree: Path, database: Path, games: int) -> None:
    """Fill ``database`` through ``tree``'s own table layer and schema (``bench.seed_games``)."""
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "seed_games.py"), str(database), str(games)],
        check=True,
        capture_output=True,
        cwd=tree,
        env=dict(os.environ, PYTHONPATH=str(tree)),
    )


def compile_tree(tree: Path) -> None:
    """Compile ``tree``'s modules as a deployed bot finds them (``make run`` writes the bytecode at
    its first start, the image at its build), whatever ``PYTHONDONTWRITEBYTECODE`` says here."""
    names = [
        p.name
        for p in tree.iterdir()
        if p.name == "bot.py" or ((p / "__init__.py").exists() and p.name not in ("tests", "bench"))
    ]
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", *names], check=True, capture_output=True, cwd=tree
    )


def store_open_time(tree: Path, database: Path) -> float:
    done = subprocess.run(
        [sys.executable, "-c", STORE_OPEN, str(database)],
        check=True,
        capture_output=True,
        text=True,
        cwd=tree,
        env=dict(os.environ, PYTHONPATH=str(tree)),
    )
    return float(done.stdout.strip().splitlines()[-1])


def memory(pid: int) -> dict[str, int]:
    """The main process's peak resident size and its children's resident sizes, in KiB."""

    def field_of(path: str, name: str) -> int:
        with contextlib.suppress(OSError):
            for line in Path(path).read_text().splitlines():
                if line.startswith(name + ":"):
                    return int(line.split()[1])
        return 0

    children: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                children += [int(c) for c in (task / "children").read_text().split()]
    workers = 0
    seen = set()
    while children:  # the fork server's children (the workers) too
        child = children.pop()
        if child in seen:
            continue
        seen.add(child)
        workers += field_of(f"/proc/{child}/status", "VmRSS")
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{child}/task").iterdir():
                with contextlib.suppress(OSError):
                    children += [int(c) for c in (task / "children").read_text().split()]
    return {"main peak": field_of(f"/proc/{pid}/status", "VmHWM"), "children": workers}


class Bench:
    """The fake Discord and the trees whose bots start on it."""

    def __init__(self, fake: Any, folder: Path) -> None:
        from tests.fakediscord.rest import API_PREFIX

        self.fake = fake
        self.folder = folder
        self.program = launcher(API_PREFIX)
        guilds = [fake.add_guild(f"server {n}") for n in range(3)]
        self.channel = fake.add_channel(guilds[0], "bench")
        self.user = fake.add_user("alice")

    def environment(self, tree: Path, database: Path) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
        env.update(
            DISCORD_TOKEN=self.fake.token or "bench",
            DATABASE_PATH=str(database),
            HEARTBEAT_PATH=str(database.with_suffix(".heartbeat")),
            FAKE_DISCORD_URL=self.fake.base_url,
            FAKE_DISCORD_GATEWAY=self.fake.gateway_url,
            LOG_LEVEL="INFO",
            PYTHONPATH=str(tree),
            PYTHONUNBUFFERED="1",
        )
        return env

    async def start(self, tree: Path, database: Path, *, probe: bool = True, warm: bool = False) -> Start:
        """Start the bot of ``tree`` on ``database``, time it until it is ready and caught up (and,
        with ``warm``, until its workers are warm, for a bot that says so), then stop it with
        SIGTERM."""
        logs_warmth = warm and 'log.info(\n                    "drawing worker %s warm' in _read(
            tree / "table/core/drawing.py"
        )
        logs_catch_up = CAUGHT_UP in _read(tree / "cogs/service.py")
        workers = os.cpu_count() or 1
        sessions = self.fake.sessions_sent
        lines: list[tuple[float, str]] = []
        changed = asyncio.Event()
        began = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            self.program,
            cwd=tree,
            env=self.environment(tree, database),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )

        async def read() -> None:
            assert proc.stderr is not None
            while line := await proc.stderr.readline():
                lines.append((time.perf_counter() - began, line.decode(errors="replace").rstrip("\n")))
                changed.set()
            changed.set()

        reader = asyncio.create_task(read())

        async def seen(text: str, count: int = 1) -> float:
            while True:
                found = [at for at, line in lines if text in line]
                if len(found) >= count:
                    return found[count - 1]
                if reader.done():
                    raise RuntimeError(f"the bot ended before {text!r}:\n" + "\n".join(t for _a, t in lines))
                changed.clear()
                await changed.wait()

        try:
            while self.fake.sessions_sent == sessions:
                if reader.done():
                    raise RuntimeError("the bot ended before connecting:\n" + "\n".join(t for _a, t in lines))
                await asyncio.sleep(0.001)
            connected = time.perf_counter() - began
            answer = connected
            if probe:
                await self.fake.slash(self.user, self.channel, "game status", timeout=LIMIT)
                answer = time.perf_counter() - began
            ready = await asyncio.wait_for(seen(READY), LIMIT)
            caught_up = await asyncio.wait_for(seen(CAUGHT_UP), LIMIT) if logs_catch_up else None
            warmed = await asyncio.wait_for(seen(WARM, workers), LIMIT) if logs_warmth else None
            used = memory(proc.pid)
        finally:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), LIMIT)
            await asyncio.wait_for(reader, LIMIT)
        timeline = []
        built = None
        for arrived, line in lines:
            if (match := TIMELINE.search(line)) is not None:
                timeline.append((match["what"], float(match["took"]), arrived, float(match["cpu"] or 0)))
                built = arrived - float(match["at"]) if built is None else built
        return Start(connected, answer, ready, caught_up, warmed, 0.0, timeline, built, used)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def summary(starts: list[Start]) -> dict[str, Any]:
    """Medians over the starts, and the last start's timeline."""

    def median(values: list[float | None]) -> float | None:
        present = [v for v in values if v is not None]
        return statistics.median(present) if present else None

    last = starts[-1]
    return {
        "starts": len(starts),
        "connected": median([s.connected for s in starts]),
        "answer": median([s.answer for s in starts]),
        "ready": median([s.ready for s in starts]),
        "caught up": median([s.caught_up for s in starts]),
        "warm": median([s.warm for s in starts]),
        "store open": median([s.store_open for s in starts]),
        "built": last.built,
        "timeline": last.timeline,
        "memory KiB": {k: max(s.memory_kib.get(k, 0) for s in starts) for k in last.memory_kib},
    }


async def measure(
    games: int, runs: int, old: Path | None = None, *, warm: bool = False
) -> dict[str, dict[str, Any]]:
    """Figures of this tree's bot (``"new"``) and, with ``old`` (another revision's checkout), that
    one's (``"old"``), their starts interleaved."""
    from tests.fakediscord.server import FakeDiscord

    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        folder = Path(tmp)
        trees = {"new": ROOT} if old is None else {"old": old, "new": ROOT}
        databases = {}
        for name, tree in trees.items():
            databases[name] = folder / f"{name}.sqlite3"
            await asyncio.to_thread(seed_store, tree, databases[name], games)
            await asyncio.to_thread(compile_tree, tree)
        starts: dict[str, list[Start]] = {name: [] for name in trees}
        async with FakeDiscord() as fake:
            bench = Bench(fake, folder)
            for name, tree in trees.items():  # the first start syncs the commands; not counted
                await bench.start(tree, databases[name], probe=False)
            for _ in range(runs):
                for name, tree in trees.items():
                    opened = await asyncio.to_thread(store_open_time, tree, databases[name])
                    start = await bench.start(tree, databases[name], warm=warm)
                    start.store_open = opened
                    starts[name].append(start)
        return {name: summary(found) for name, found in starts.items()}


def show(name: str, figures: dict[str, Any]) -> None:
    def s(value: float | None) -> str:
        return "-" if value is None else f"{value:.2f} s"

    f = figures
    over = f["ready"] - f["store open"]
    print(
        f"{name}: {f['starts']} starts; connected {s(f['connected'])}, answer {s(f['answer'])},"
        f" ready {s(f['ready'])}, caught up {s(f['caught up'])}, workers warm {s(f['warm'])};"
        f" store open {s(f['store open'])}; ready - store open {over:.2f} s (target 1 s)"
    )
    if figures["built"] is not None:
        print(f"  {figures['built']:.3f} s  bot built (interpreter, imports)")
    for what, took, at, cpu in figures["timeline"]:
        print(f"  {at:.3f} s  {what} ({took:.3f} s; main process's CPU so far {cpu:.3f} s)")
    if figures["memory KiB"]:
        print("  memory: " + ", ".join(f"{k} {v / 1024:.0f} MiB" for k, v in figures["memory KiB"].items()))


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    revision = take_option(args, "--against")
    runs = int(take_option(args, "--runs") or 3)
    as_json, warm = "--json" in args, "--warm" in args
    numbers = [a for a in args if not a.startswith("--")]
    unknown = set(args) - {*numbers, "--json", "--warm"}
    if any(not a.isdigit() for a in numbers) or len(numbers) > 1 or unknown:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        raise SystemExit(2)
    games = int(numbers[0]) if numbers else 10_000
    with contextlib.ExitStack() as stack:
        old = None if revision is None else stack.enter_context(checkout(revision))
        figures = asyncio.run(measure(games, runs, old, warm=warm))
    if as_json:
        print(json.dumps(figures))
        return
    print(f"{games} stored games; load {load()}")
    for name, found in figures.items():
        show(revision if name == "old" and revision else name, found)
    if "old" in figures:
        before, now = figures["old"], figures["new"]
        ratios = ", ".join(f"{key} {now[key] / before[key]:.2f}" for key in ("ready", "answer", "store open"))
        print(f"new / {revision}: {ratios}")


if __name__ == "__main__":
    main()
