"""How long a player waits for the computer players: from their action until it is their turn again.

Usage: python -m bench.bot_turns [waits] [--levels normal,hard] [--tables warchest:2,...]
[--against REV] [--json]

One person (``alice``) sits with computer players at every table of ``bench.ai_levels.TABLES`` (with
three Cry Havoc players, two bots), through the table layer as a Discord player lives it: a real
SQLite file, the real renderer in its worker process, the bots thinking in theirs (one each, as
``BOT_WORKERS`` and the drawing pool default to) and the announcer folding edits as the bot does
(``coalesce`` 3 s), once a first game in another channel has started the worker processes. Alice
plays a seeded random legal action; the wait is timed from her command until the post that hands her
the turn again is handed to the channel. The first wait starts at ``/game start`` (a Batailles bot
deploying its troops, a bot moving first).

Each wait is filed by what the bots did in it: ``deployment`` when they deployed Batailles troops,
``turn`` otherwise, and prints per table, level and kind the count, median and 99th percentile
(with few waits, the 99th percentile is the slowest). ``waits`` (6 by default) counts the waits
per table and level (Alice's actions that the bots answered at once are not waits).

``--against REV`` plays the same tables first with the code of git revision ``REV`` (a temporary
worktree, in a subprocess) and prints both, with the ratio of the medians: measured in the same run,
under the same load (``uptime`` is printed with them).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench import take_option
from bench.ai_levels import TABLES
from launch import DISCORD_LIMITS

ROOT = Path(__file__).resolve().parents[1]
COALESCE = 3.0
"""The bot's own folding of edits (``bot.py``'s ``coalesce_seconds``)."""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(
    name: str, count: int, level: str, waits: int, seed: int = 7, *, coalesce: float = COALESCE
) -> dict[str, list[float]]:
    """The waits of one table: seconds per kind (``turn``, ``deployment``). ``coalesce`` is the
    announcer's folding of edits: each action Alice makes that hands the turn to nobody else
    (a Batailles deployment) waits that long for its post, which a check of the bench itself can
    leave out (0)."""
    import db
    from engine.rng import Rng
    from table.bots.thinkers import ProcessThinker
    from table.core.drawing import ProcessDrawer
    from table.core.posts import Post
    from table.core.tables import Tables
    from table.play.commands import Commands, Ctx
    from table.posting.announce import Announcer, RecordingOutlet

    class TimedOutlet(RecordingOutlet):
        """Notes when the last new post was handed to the channel."""

        handed = 0.0

        async def send(self, channel: str, post: Post) -> str:
            self.handed = time.perf_counter()
            return await super().send(channel, post)

    def ctx(user: str, channel: str = "bench") -> Ctx:
        return Ctx(channel_id=channel, user_id=user, user_name=user, locale="en", channel_locale="en")

    out: dict[str, list[float]] = defaultdict(list)
    drawer = ProcessDrawer(workers=1)
    thinker = ProcessThinker(1)
    with tempfile.TemporaryDirectory() as tmp:
        store = await db.open_store(Path(tmp) / "bench.sqlite3")
        try:
            outlet = TimedOutlet()
            tables = Tables(
                store, limits=DISCORD_LIMITS, drawer=drawer, thinker=thinker, seed_source=lambda: seed
            )
            announcer = Announcer(tables, outlet, coalesce=coalesce)
            commands = Commands(tables, announcer)
            # a game in another channel first starts the workers and fills the drawing caches, which
            # a running bot has done long before (the first image of a process is timed elsewhere)
            await commands.new(ctx("alice", "warm"), name, count, bots=count - 1, level="easy")
            await commands.start(ctx("alice", "warm"))
            await announcer.drain("warm")
            alice = ctx("alice")
            await commands.new(alice, name, count, bots=count - 1, level=level)
            chooser = Rng(seed)
            opened = await tables.latest("bench")
            assert opened is not None
            before = await store.count_actions(opened.record.id)
            start = time.perf_counter()
            await commands.start(alice)
            for _ in range(waits * 60):
                await announcer.drain("bench")
                table = await tables.latest("bench")
                assert table is not None
                done = await store.actions(table.record.id, offset=before)
                if any(a.player != "alice" for a in done):
                    deployed = name == "batailles" and any(a.action.startswith("deploy ") for a in done)
                    kind = "deployment" if deployed else "turn"
                    out[kind].append(outlet.handed - start)
                if table.record.status != "active" or sum(map(len, out.values())) >= waits:
                    break
                if "alice" not in table.to_act():
                    raise RuntimeError(f"alice waits for {table.to_act()} at version {table.record.version}")
                legal = table.game.legal_actions(table.state, "alice")
                action = str(legal[chooser.below(len(legal))])
                before = await store.count_actions(table.record.id)
                start = time.perf_counter()
                await commands.play(alice, action)
        finally:
            await announcer.drain()
            await store.close()
            drawer.close()
            thinker.close()
    return dict(out)


def measure(waits: int, levels: list[str], tables: list[tuple[str, int]]) -> list[dict[str, Any]]:
    rows = []
    for name, count in tables:
        for level in levels:
            found = asyncio.run(run(name, count, level, waits))
            for kind, times in sorted(found.items()):
                rows.append({"game": name, "players": count, "level": level, "kind": kind, "times": times})
    return rows


def against(revision: str, argv: list[str]) -> list[dict[str, Any]]:
    """The same run with the code of ``revision``, in a temporary worktree."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "old"
        add = ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), revision]
        subprocess.run(add, check=True)
        try:
            (tree / "bench" / "bot_turns.py").write_text(Path(__file__).read_text())
            done = subprocess.run(
                [sys.executable, "-m", "bench.bot_turns", *argv, "--json"],
                check=True,
                capture_output=True,
                text=True,
                cwd=tree,
            )
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True)
    rows: list[dict[str, Any]] = json.loads(done.stdout.strip().splitlines()[-1])
    return rows


def show(rows: list[dict[str, Any]], old: list[dict[str, Any]] | None) -> None:
    before = {(r["game"], r["players"], r["level"], r["kind"]): r["times"] for r in old or []}
    extra = " before p50 | before p99 | p50 ratio |" if old is not None else ""
    print(f"| game | players | level | wait | count | p50 | p99 |{extra}")
    print("|---" * (7 + (3 if old is not None else 0)) + "|")
    for r in rows:
        t = r["times"]
        line = (
            f"| {r['game']} | {r['players']} | {r['level']} | {r['kind']} | {len(t)} "
            f"| {statistics.median(t):.2f} s | {percentile(t, 0.99):.2f} s |"
        )
        if old is not None:
            was = before.get((r["game"], r["players"], r["level"], r["kind"]))
            if was:
                ratio = statistics.median(was) / statistics.median(t)
                line += f" {statistics.median(was):.2f} s | {percentile(was, 0.99):.2f} s | {ratio:.1f} |"
            else:
                line += " - | - | - |"
        print(line, flush=True)


def main(argv: list[str]) -> None:
    args = list(argv)
    options = {flag: take_option(args, flag) for flag in ("--levels", "--tables", "--against")}
    as_json = "--json" in args
    numbers = [a for a in args if a != "--json"]
    if len(numbers) > 1 or not all(n.isdigit() for n in numbers):
        # a run takes minutes: a mistyped option (or --help) shows the usage rather than starting one
        print(__doc__)
        raise SystemExit(2)
    waits = int(numbers[0]) if numbers else 6
    levels = (options["--levels"] or "normal,hard").split(",")
    tables = (
        [(t.split(":")[0], int(t.split(":")[1])) for t in options["--tables"].split(",")]
        if options["--tables"]
        else list(TABLES)
    )
    if as_json:
        print(json.dumps(measure(waits, levels, tables)))
        return
    revision = options["--against"]
    passed = [a for a in argv if a not in ("--against", revision)]
    old = against(revision, passed) if revision else None
    rows = measure(waits, levels, tables)
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    show(rows, old)


if __name__ == "__main__":
    main(sys.argv[1:])
