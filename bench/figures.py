"""The figures the bot is held to, each as a ratio to its floor, its target or an older revision.

Usage: python -m bench figures [--against REV] [--only move,burst,startup]
                               [--moves N] [--channels N] [--games N] [--runs N]

One command for every figure of a move, a burst and a start-up, each printed with the machine's load
(the 1, 5 and 15 minute averages ``uptime`` shows) at the moment it was taken, since a figure taken on
a busy machine says little without it:

- **move** (``bench.move_latency``, ``--moves`` moves, default 60, per game and table size it plays):
  a move's p50 against its floor's p50 (that same image encoded once plus one SQLite commit);
  target 1.3.
- **burst** (``bench.burst --json``, ``--channels`` channels at once, default 500): moves per second,
  a move's p50 and p99 until posted, the event loop's lateness p99 (target 20 ms) and the slowest
  autocomplete (target 1 s).
- **startup** (``bench.startup``, ``--games`` stored games, default 10,000, ``--runs`` starts, default
  3): ready against its floor, 1 s plus the store's open time.

With ``--against REV`` the figures of revision ``REV`` are taken too, in the same run (REV is checked
out with ``git worktree add`` in a temporary folder, and removed after), and each figure is also given
as a ratio to REV's. REV's own bench modules are run where they give JSON (``--json``); where they do
not, this tree's modules run REV's renderer, as their own ``--against`` does (move, burst).

The benches are called, never rewritten here: each figure is what its module measures.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import take_option

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("move", "burst", "startup")
TABLES = (("warchest", 2), ("warchest", 4), ("batailles", 2), ("cryhavoc", 2), ("cryhavoc", 4))
"""The games and table sizes a move is measured at (where the move bench can seat that many)."""
MOVE_TARGET = 1.3
ACK_DEADLINE = 3.0  # Discord's limit for the first answer to an interaction
LATENESS_TARGET = 0.020
AUTOCOMPLETE_TARGET = 1.0
STARTUP_ALLOWANCE = 1.0
"""Seconds a start may take beyond opening the store."""


@dataclass
class Figure:
    """One measured figure and what it is held to."""

    name: str
    value: float
    unit: str
    load: str
    floor: float | None = None
    floor_label: str = "floor"
    old: float | None = None

    def cells(self, revision: str | None) -> list[str]:
        def shown(value: float | None) -> str:
            if value is None:
                return "-"
            return f"{value * 1000:.0f} ms" if self.unit == "s" and value < 1 else f"{value:.2f} {self.unit}"

        to_floor = "-" if self.floor is None or not self.floor else f"{self.value / self.floor:.2f}"
        row = [self.name, shown(self.value), f"{self.floor_label} {shown(self.floor)}", to_floor]
        if revision is not None:
            ratio = "-" if self.old is None or not self.old else f"{self.value / self.old:.2f}"
            row += [shown(self.old), ratio]
        return [*row, self.load]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def last_json(args: list[str], cwd: Path) -> dict[str, Any] | None:
    """Run ``python -m <args>`` in ``cwd`` (that tree first on the path) and read the JSON line it
    ends with; None when it gives none."""
    done = subprocess.run(
        [sys.executable, "-m", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=dict(os.environ, PYTHONPATH=str(cwd)),
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        why = done.stderr.strip().splitlines()[-1:]
        print(f"  ({' '.join(args)} in {cwd} failed: {why})", file=sys.stderr)
        return None
    try:
        found = json.loads(lines[-1])
    except json.JSONDecodeError:
        return None
    return found if isinstance(found, dict) else None


def gives_json(tree: Path, module: str) -> bool:
    path = tree / "bench" / f"{module}.py"
    return path.exists() and "--json" in path.read_text(encoding="utf-8")


def move_figures(moves: int, old: Path | None, revision: str | None) -> list[Figure]:
    from bench import move_latency

    seats = "players" in inspect.signature(move_latency.run).parameters
    figures = []
    for game, players in TABLES:
        if players != 2 and not seats:
            continue  # the move bench seats two players only
        kwargs = {"players": players} if seats else {}
        previous = None
        if old is not None and players == 2:
            if gives_json(old, "move_latency"):
                previous = last_json(["bench.move_latency", str(moves), game, "--json"], old)
            elif revision is not None:
                previous = move_latency.against(revision, moves, game)
        taken = load()
        result = asyncio.run(move_latency.run(moves, game, **kwargs))
        figures.append(
            Figure(
                f"move {game} {players}p p50",
                result["p50"],
                "s",
                taken,
                floor=result["floor"],
                old=None if previous is None else previous["p50"],
            )
        )
    return figures


def burst_figures(channels: int, old: Path | None) -> list[Figure]:
    """The burst of this tree's bot and, given an older tree, of that bot on the same games,
    interleaved in one run (``bench.burst --old``)."""
    taken = load()
    args = ["bench.burst", str(channels), "--json"]
    if old is not None:
        args += ["--old", str(old)]
    both = last_json(args, ROOT)
    if both is None or both.get("new") is None:
        return []
    now, previous = both["new"], both.get("old")

    def was(key: str) -> float | None:
        return None if previous is None else float(previous[key])

    return [
        Figure("burst moves/s", now["moves/s"], "/s", taken, old=was("moves/s")),
        Figure("burst move p50 until posted", now["post p50 s"], "s", taken, old=was("post p50 s")),
        Figure("burst move p99 until posted", now["post p99 s"], "s", taken, old=was("post p99 s")),
        Figure(
            "burst loop lateness p99",
            now["loop late p99 ms"] / 1000,
            "s",
            taken,
            floor=LATENESS_TARGET,
            floor_label="target",
            old=None if (late := was("loop late p99 ms")) is None else late / 1000,
        ),
        Figure(
            "burst slowest autocomplete",
            now["slowest autocomplete s"],
            "s",
            taken,
            floor=AUTOCOMPLETE_TARGET,
            floor_label="target",
            old=was("slowest autocomplete s"),
        ),
        Figure(
            "burst acknowledgement p99",
            now["ack p99 s"],
            "s",
            taken,
            floor=ACK_DEADLINE,
            floor_label="target",
            old=was("ack p99 s"),
        ),
        Figure("burst acknowledged within 3 s", now["acked in 3 s %"], "%", taken, old=was("acked in 3 s %")),
    ]


def startup_figures(games: int, runs: int, old: Path | None) -> list[Figure]:
    from bench.startup import measure

    taken = load()
    found = asyncio.run(measure(games, runs, old))
    new, before = found["new"], found.get("old")

    def was(key: str) -> float | None:
        return None if before is None or before.get(key) is None else float(before[key])

    return [
        Figure(
            f"start-up ready, {games} games",
            new["ready"],
            "s",
            taken,
            floor=STARTUP_ALLOWANCE + new["store open"],
            floor_label="1 s + store open",
            old=was("ready"),
        ),
        Figure("start-up first answer", new["answer"], "s", taken, old=was("answer")),
        Figure("start-up store open", new["store open"], "s", taken, old=was("store open")),
    ]


def table(figures: list[Figure], revision: str | None) -> str:
    header = ["figure", "value", "held to", "ratio"]
    if revision is not None:
        header += [revision, f"ratio to {revision}"]
    header.append("load (1, 5, 15 min)")
    rows = [header, *(f.cells(revision) for f in figures)]
    lines = ["| " + " | ".join(row) + " |" for row in rows]
    lines.insert(1, "|" + "---|" * len(header))
    return "\n".join(lines)


def run(
    parts: list[str],
    *,
    revision: str | None = None,
    moves: int = 60,
    channels: int = 500,
    games: int = 10_000,
    runs: int = 3,
    out: Callable[[str], None] = print,
) -> list[Figure]:
    """Take the figures of ``parts`` (and of ``revision`` beside them) and print their table."""
    from bench.startup import checkout

    figures: list[Figure] = []
    with contextlib.ExitStack() as stack:
        old = None if revision is None else stack.enter_context(checkout(revision))
        if "move" in parts:
            figures += move_figures(moves, old, revision)
        if "burst" in parts:
            figures += burst_figures(channels, old)
        if "startup" in parts:
            figures += startup_figures(games, runs, old)
    out(table(figures, revision))
    return figures


def main(argv: list[str]) -> None:
    args = list(argv)
    revision = only = None
    sizes: dict[str, str | None] = {}
    try:
        revision = take_option(args, "--against")
        only = take_option(args, "--only")
        sizes = {name: take_option(args, f"--{name}") for name in ("moves", "channels", "games", "runs")}
    except IndexError:
        args = ["--help"]
    parts = PARTS if only is None else tuple(p.strip() for p in only.split(","))
    if args or set(parts) - set(PARTS) or any(v is not None and not v.isdigit() for v in sizes.values()):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        raise SystemExit(2)
    numbers = {name: int(value) for name, value in sizes.items() if value is not None}
    run(
        list(parts),
        revision=revision,
        moves=numbers.get("moves", 60),
        channels=numbers.get("channels", 500),
        games=numbers.get("games", 10_000),
        runs=numbers.get("runs", 3),
    )
