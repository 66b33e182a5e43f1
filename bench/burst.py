"""A burst: many channels each make one move at the same instant, through the whole bot.

The bot runs as it does in production (``tests/fakediscord/run_bot.py``: ``bot.main()``, its store on
disk, its drawing workers, every cog) in a process of its own, against the fake Discord of the tests
served from this process. Every channel has a running two-player War Chest game; at once, the player
to act in each channel sends ``/play`` with a legal move. Measured, for each bot:

- moves per second, until every move's handover post (its board) has reached the channel;
- a move's post latency, p50 and p99: from its ``/play`` to its post in the channel;
- the share of interactions acknowledged within Discord's 3 seconds (the fake refuses later answers
  with 10062, as Discord does) and the acknowledgement's p99;
- how late the bot's event loop runs (p99 of a 10 ms sleep's overshoot, measured inside the bot);
- the slowest autocomplete answer during the burst (a player typing every 0.1 s).

Usage: ``python -m bench.burst [channels] [--against REV | --old PATH] [--rounds N]`` (default 500
channels, 1 round). With ``--against`` (a git worktree of ``REV`` is made for the run) or ``--old`` (a
checkout of an older revision), the older bot runs the same burst, on the same games, interleaved
with this one (new, old, new, old...), and each figure is given beside its ratio, with the machine's
load. Each bot plays games made by its own revision's table layer (the same
seeds), since an older engine refuses a newer save format.
With ``BURST_PROFILE=PATH`` in the environment, the bot's event loop is profiled (cProfile) over the
burst and its statistics written to PATH (the figures are then not comparable); with
``BURST_STEPS=PATH``, each pass of the bot's loop over 8 ms and each collection of its garbage
collector over 2 ms during the burst are written to PATH (JSON: what made a timer late). With ``--json`` the
figures end in one JSON line, ``{"new": {...}, "old": {...} or null}`` (medians over the rounds),
which ``python -m bench figures`` reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import os
import shutil
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

ROOT = Path(__file__).resolve().parents[1]
DEADLINE = 3.0
"""Discord's window for the first answer to an interaction."""
LOG_TAIL = 30
"""Lines of a bot's log shown when some of its posts never came."""
STALL = 120.0
"""Seconds without a new post after which a bot's round ends with the posts it made."""
HANG = 900.0
"""Seconds any wait of the bench allows (a bot that hangs ends the bench, never a figure)."""

PROBE = r"""
import asyncio, json, logging, os, signal, sys, time

samples = []
dumps = []
profile = os.environ.get("BURST_PROFILE")
if profile:
    import cProfile

    profiler = cProfile.Profile()
steps = os.environ.get("BURST_STEPS")
long_steps = []
if steps:
    # Each pass of the loop (the callbacks it runs between two waits on the selector) over 8 ms,
    # as {"pass": ms, "callbacks": n, "longest": [[ms, what], ...]} (a task's coroutine and where
    # it waits next), and each collection of the garbage collector over 2 ms, as {"gc": ms,
    # "cpu": ms, "generation": g}. A timer is late by the pass under way when it falls due.
    import asyncio.events
    import gc

    plain_run = asyncio.events.Handle._run
    current = []
    collecting = {}

    def name_of(handle):
        owner = getattr(handle._callback, "__self__", None)
        if isinstance(owner, asyncio.Task):
            frames = owner.get_stack(limit=2)
            where = " < ".join(f"{f.f_code.co_name}:{f.f_lineno}" for f in frames)
            return f"{getattr(owner.get_coro(), '__qualname__', '?')} at {where}"
        return repr(handle._callback)[:120]

    def timed_run(handle):
        began = time.perf_counter()
        plain_run(handle)
        took = time.perf_counter() - began
        current.append((took, handle if took > 0.002 else None))

    def pass_ended():
        total = sum(t for t, _ in current)
        if total > 0.008:
            top = sorted(((t, h) for t, h in current if h is not None), key=lambda x: -x[0])[:3]
            longest = [[round(t * 1000, 1), name_of(h)] for t, h in top]
            long_steps.append({"pass": round(total * 1000, 1), "callbacks": len(current), "longest": longest})
        current.clear()

    def collected(phase, info):
        if phase == "start":
            collecting.update(began=time.perf_counter(), cpu=time.thread_time())
        elif "began" in collecting:
            took = time.perf_counter() - collecting.pop("began")
            cpu = time.thread_time() - collecting.pop("cpu")
            if took > 0.002:
                took, cpu = round(took * 1000, 1), round(cpu * 1000, 1)
                long_steps.append({"gc": took, "cpu": cpu, "generation": info["generation"]})

    asyncio.events.Handle._run = timed_run
    gc.callbacks.append(collected)


async def probe():
    loop = asyncio.get_running_loop()
    if steps:
        selector = loop._selector
        plain_select = selector.select

        def select(timeout=None):
            pass_ended()
            return plain_select(timeout)

        selector.select = select

    def dump():
        path = os.environ["BURST_LATENESS"]
        with open(path + ".tmp", "w") as out:
            json.dump(samples, out)
        os.replace(path + ".tmp", path)
        if steps:  # the first dump starts the burst, the second ends it
            dumps.append(path)
            if len(dumps) == 1:
                long_steps.clear()
            else:
                with open(steps, "w") as out:
                    json.dump(long_steps, out)
        if profile:  # the first dump starts the burst, the second ends it: the loop's profile of it
            dumps.append(path)
            if len(dumps) == 1:
                profiler.enable()
            else:
                profiler.disable()
                profiler.dump_stats(profile)
        samples.clear()

    loop.add_signal_handler(signal.SIGUSR1, dump)
    while True:
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        samples.append(time.perf_counter() - start - 0.01)


run = asyncio.run


def with_probe(main, **options):
    async def both():
        task = asyncio.ensure_future(probe())
        try:
            return await main
        finally:
            task.cancel()

    return run(both(), **options)


asyncio.run = with_probe
logging.getLogger("table.core.drawing").setLevel(logging.DEBUG)  # each worker's end of warm-up
from tests.fakediscord import run_bot

sys.exit(run_bot.main())
"""
"""Run in the bot's process: its event loop's lateness, sent to a file on SIGUSR1 (and cleared)."""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def load() -> str:
    """The machine's load averages, as ``uptime`` gives them."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


@dataclass
class Burst:
    """What one bot did with the burst."""

    label: str
    moves: int
    seconds: float
    posts: list[float]
    acks: list[float | None]
    """Each interaction's first answer, seconds after it was sent; None when refused or never made."""
    late: list[float]
    typing: list[float]
    load: str = ""
    notes: list[str] = field(default_factory=list)

    def figures(self) -> dict[str, float]:
        made = [a for a in self.acks if a is not None]
        return {
            "moves/s": self.moves / self.seconds,
            "post p50 s": statistics.median(self.posts) if self.posts else 0.0,
            "post p99 s": percentile(self.posts, 0.99),
            "acked in 3 s %": 100.0 * sum(1 for a in made if a <= DEADLINE) / max(1, len(self.acks)),
            "ack p99 s": percentile([a if a is not None else float("inf") for a in self.acks], 0.99),
            "loop late p99 ms": 1000 * percentile(self.late, 0.99),
            "slowest autocomplete s": max(self.typing, default=0.0),
        }

    def line(self) -> str:
        shown = ", ".join(f"{k} {v:.3g}" for k, v in self.figures().items())
        return f"{self.label}: {shown} (load {self.load})"


# ---- the games --------------------------------------------------------------------------------------


@dataclass
class Table:
    channel: Any
    players: dict[str, Any]
    to_act: Any
    value: str


async def make_games(
    fake: Any,
    folder: Path,
    channels: int,
    games: tuple[str, ...] = ("warchest",),
    trees: tuple[Path, ...] = (ROOT,),
    unannounced: int = 0,
) -> dict[Path, tuple[Path, list[Table]]]:
    """``channels`` channels of the fake, each with two players, and for each tree a database in
    ``folder`` where every channel has a started game (of ``games`` in turn, seeded by its channel's
    number), made by that tree's own table layer so that its bot reads it (an older engine refuses a
    newer save format), with the move its player to act will make. The first ``unannounced`` games
    have that move already stored and not announced (``deal``)."""
    guild = fake.add_guild("Burst")
    seats = []
    for index in range(channels):
        chan = fake.add_channel(guild, f"table-{index}")
        alice, bob = fake.add_user(f"alice{index}"), fake.add_user(f"bob{index}")
        seats.append((chan, alice, bob))
    spec = {
        "guild": {"id": guild.id, "locale": guild.locale},
        "games": list(games),
        "unannounced": unannounced,
        "seats": [
            {"channel": c.id, "players": [{"id": u.id, "name": u.name, "locale": u.locale} for u in (a, b)]}
            for c, a, b in seats
        ],
    }
    made: dict[Path, tuple[Path, list[Table]]] = {}
    for n, tree in enumerate(trees):
        database = folder / f"games-{n}.sqlite3"
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--deal", str(database)],
            input=json.dumps(spec),
            capture_output=True,
            text=True,
            check=True,
            cwd=tree,
            env=dict(os.environ, PYTHONPATH=str(tree)),
        )
        moves = json.loads(done.stdout.splitlines()[-1])
        tables = []
        for (chan, alice, bob), (player, value) in zip(seats, moves, strict=True):
            who = alice if player == alice.id else bob
            tables.append(Table(chan, {alice.id: alice, bob.id: bob}, who, value))
        made[tree] = (database, tables)
    return made


async def deal(database: Path, spec: dict[str, Any]) -> list[tuple[str, str]]:
    """The games of ``make_games``, made by the table layer first on the path (run as
    ``burst.py --deal DATABASE`` with the spec on standard input, in the tree whose bot will read
    them; ``seed_games`` bridges the table layer's revisions): for each channel, the player to act
    and the move they will send."""
    import db

    # this script's sibling, found first on the path (before the other tree's own bench package)
    seed_games = importlib.import_module("seed_games")

    seeds = iter(range(1, len(spec["seats"]) + 1))
    store = await db.open_store(database)
    ctx_of = seed_games.table_module("table.core.posts", "table.posts").Ctx
    guild = spec["guild"]
    try:
        commands = await seed_games.commands_over(
            store,
            seed_source=lambda: next(seeds),
            message_id="{}0".format,  # as the fake numbers it
        )
        moves = []
        for index, seat in enumerate(spec["seats"]):

            def ctx(n: int, seat: dict[str, Any] = seat) -> Any:
                # the languages the fake's interactions give, so that no move has to store a new one
                user = seat["players"][n]
                names = (seat["channel"], user["id"], user["name"], user["locale"], guild["locale"])
                return ctx_of(*names, guild_id=guild["id"])

            await commands.new(ctx(0), spec["games"][index % len(spec["games"])])
            await commands.join(ctx(1))
            await commands.start(ctx(0))
            table = await commands.tables.open(seat["channel"])
            assert table is not None and table.state is not None
            player = table.to_act()[0]
            n = [p["id"] for p in seat["players"]].index(player)
            (_label, value), *_ = await commands.autocomplete(ctx(n), "")
            moves.append((player, value))
        await seed_games.drain(commands)
        for seat, (player, value) in list(zip(spec["seats"], moves, strict=True))[: spec["unannounced"]]:
            # played into the store and not announced: what a bot killed between storing moves and
            # posting them leaves for its next start's catch-up
            opened = await commands.tables.open(seat["channel"])
            assert opened is not None
            text = value.split(":", 1)[1]
            await commands.tables.apply(opened, player, text, version=opened.record.version)
        return moves
    finally:
        await store.close()


# ---- one bot --------------------------------------------------------------------------------------------


async def start_bot(fake: Any, tree: Path, database: Path, lateness: Path, workers: int) -> Any:
    """The bot of ``tree`` in a process of its own, connected and caught up, its drawing workers warm."""
    from tests.fakediscord.process import BotProcess

    environment = {
        "BURST_LATENESS": str(lateness),
        **{name: os.environ[name] for name in ("BURST_PROFILE", "BURST_STEPS") if name in os.environ},
        "DRAW_WORKERS": str(workers),
        "RENDER_WORKERS": str(workers),  # the older name, for an older bot
        "RENDER_WARMUP": "1",  # as in production (the harness leaves it out)
        "TICK_SECONDS": "3600",  # no timed work in the middle of the burst
        "HEARTBEAT_PATH": str(database.parent / "heartbeat"),
    }
    bot = await BotProcess.start(fake, database, environment, tree=tree, program=("-c", PROBE))
    await bot.wait_for_log("connected as ", timeout=HANG)
    with contextlib.suppress(AssertionError):  # an older bot may not report its catch-up
        await bot.wait_for_log("start-up catch-up: ", timeout=30)
    with contextlib.suppress(AssertionError):  # a bot that does not report its warm-up is not waited for
        await bot.wait_for_log(" warm: ", count=workers, timeout=120)
    return bot


async def lateness_of(bot: Any, path: Path) -> list[float]:
    """The bot loop's lateness samples since the last call (which cleared them)."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    bot.signal(signal.SIGUSR1)
    for _ in range(int(HANG / 0.05)):
        if path.exists():
            return list(json.loads(path.read_text()))
        await asyncio.sleep(0.05)
    raise TimeoutError("the bot did not report its loop's lateness")


async def interaction(fake: Any, payload: dict[str, Any], channel: Any) -> Any:
    """Send ``payload`` as Discord would, without waiting (the fake records the answers); its record."""
    from tests.fakediscord.model import InteractionResult
    from tests.fakediscord.world import PendingInteraction

    result = InteractionResult(interaction_id=payload["id"], token=payload["token"])
    record = PendingInteraction(payload, result, channel, time.monotonic())
    fake._interactions[payload["token"]] = record
    await fake.dispatch("INTERACTION_CREATE", payload)
    record.sent = True
    return record


async def typing(fake: Any, table: Table, stop: asyncio.Event, out: list[float]) -> None:
    """A player typing a move every 0.1 s; how long each autocomplete answer took Discord to get."""
    while not stop.is_set():
        payload = await fake._command_interaction(
            4, table.to_act, table.channel, "play", {"action": ""}, None, focused="action"
        )
        record = await interaction(fake, payload, table.channel)
        answered = asyncio.ensure_future(record.answered.wait())
        refused = asyncio.ensure_future(record.refused.wait())
        await asyncio.wait({answered, refused}, timeout=HANG, return_when=asyncio.FIRST_COMPLETED)
        answered.cancel()
        refused.cancel()
        took = record.result.response_delay
        out.append(took if took is not None else time.monotonic() - record.created)
        await asyncio.sleep(0.1)


def forget_newer_migrations(database: Path, tree: Path) -> None:
    """An older bot refuses a store with migrations it does not know: their records are taken out of
    its copy (the tables and columns they added stay, unread by it). The games' states must still
    be ones its engines load."""
    import sqlite3

    known = [int(path.name[:4]) for path in (tree / "db" / "migrations").glob("*.sql")]
    if not known:
        return
    with contextlib.closing(sqlite3.connect(database)) as conn, conn:
        marks = ",".join("?" * len(known))
        conn.execute(f"DELETE FROM schema_migrations WHERE version NOT IN ({marks})", known)


async def burst(
    fake: Any, label: str, tree: Path, template: Path, tables: list[Table], workers: int
) -> Burst:
    folder = Path(tempfile.mkdtemp(prefix="burst-"))
    database = folder / "bot.sqlite3"
    shutil.copy(template, database)
    forget_newer_migrations(database, tree)
    lateness = folder / "lateness.json"
    fake._nonces.clear()  # the same games again: Discord's nonce window is not what is measured
    bot = await start_bot(fake, tree, database, lateness, workers)
    try:
        payloads = [
            await fake._command_interaction(2, t.to_act, t.channel, "play", {"action": t.value}, None)
            for t in tables
        ]
        posted: dict[str, float] = {}
        make, edit = fake._new_message, fake._edit

        def noted(channel_id: str, kind: str, data: Any, files: Any, record: Any) -> Any:
            message = make(channel_id, kind, data, files, record)
            if files and not message.ephemeral:  # the board, made in the channel
                posted.setdefault(channel_id, time.monotonic())
            return message

        def filled(message: Any, data: Any, files: Any) -> None:
            edit(message, data, files)
            if files and not message.ephemeral:  # the board, as an older bot shows it: in its
                posted.setdefault(message.channel_id, time.monotonic())  # deferred answer

        fake._new_message = noted
        fake._edit = filled
        await lateness_of(bot, lateness)  # from now on
        stop = asyncio.Event()
        typed: list[float] = []
        typist = asyncio.ensure_future(typing(fake, tables[-1], stop, typed))
        began = time.monotonic()
        sent_at: dict[str, float] = {}
        records = []
        for table, payload in zip(tables, payloads, strict=True):
            sent_at[table.channel.id] = time.monotonic()
            records.append(await interaction(fake, payload, table.channel))
        progress = (0, time.monotonic())  # posts seen, and when the last new one came
        while len(posted) < len(tables) and time.monotonic() - progress[1] < STALL:
            if len(posted) > progress[0]:
                progress = (len(posted), time.monotonic())
            await asyncio.sleep(0.05)
        took = max(posted.values(), default=time.monotonic()) - began
        stop.set()
        await typist
        late = await lateness_of(bot, lateness)
        result = Burst(
            label,
            len(posted),
            took,
            [posted[c] - sent_at[c] for c in posted],
            [r.result.response_delay if r.result.answered else None for r in records],
            late,
            typed,
            load(),
        )
        if len(posted) < len(tables):
            result.notes.append(f"{len(tables) - len(posted)} move(s) never posted; the bot's log ends:")
            result.notes.extend(bot.lines[-LOG_TAIL:])
        return result
    finally:
        fake._new_message, fake._edit = make, edit
        bot.signal(signal.SIGTERM)
        with contextlib.suppress(Exception):
            await bot.exited()
        shutil.rmtree(folder, ignore_errors=True)


def medians(runs: list[Burst]) -> dict[str, float]:
    """Each figure's median over the rounds of one bot."""
    figures = [r.figures() for r in runs]
    return {key: statistics.median(f[key] for f in figures) for key in figures[0]}


@contextlib.contextmanager
def worktree(revision: str) -> Iterator[Path]:
    """A temporary git worktree of ``revision``."""
    where = Path(tempfile.mkdtemp(prefix="burst-old-"))
    subprocess.run(["git", "worktree", "add", "--detach", str(where), revision], cwd=ROOT, check=True)
    runner = Path("tests", "fakediscord", "run_bot.py")
    if not (where / runner).exists():  # a revision from before the bot ran as a process in tests
        shutil.copy(ROOT / runner, where / runner)
    try:
        yield where
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT, check=False)


async def main_async(
    channels: int, old: Path | None, rounds: int, workers: int, *, as_json: bool = False
) -> None:
    from tests.fakediscord.server import FakeDiscord

    folder = Path(tempfile.mkdtemp(prefix="burst-games-"))
    try:
        async with FakeDiscord(response_deadline=DEADLINE) as fake:
            fake.token = "test"
            trees = (ROOT,) if old is None else (ROOT, old)
            made = await make_games(fake, folder, channels, trees=trees)
            print(f"{channels} channels, {workers} drawing worker(s), load {load()}", flush=True)
            runs: dict[str, list[Burst]] = {"new": [], "old": []}
            for round_ in range(rounds):
                for name, tree in (("new", ROOT), ("old", old)):
                    if tree is None:
                        continue
                    database, tables = made[tree]
                    done = await burst(fake, f"{name} #{round_ + 1}", tree, database, tables, workers)
                    runs[name].append(done)
                    print(done.line(), *done.notes, sep="\n  ", flush=True)
            if as_json:
                print(json.dumps({name: medians(done) if done else None for name, done in runs.items()}))
            elif runs["old"]:
                news = [r.figures() for r in runs["new"]]
                olds = [r.figures() for r in runs["old"]]
                print("new / old, medians over the rounds:")
                for key in news[0]:
                    new = statistics.median(f[key] for f in news)
                    was = statistics.median(f[key] for f in olds)
                    ratio = new / was if was else float("inf")
                    print(f"  {key}: {new:.3g} against {was:.3g} (x{ratio:.2f})")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str]) -> None:
    if argv[:1] == ["--deal"]:
        print(json.dumps(asyncio.run(deal(Path(argv[1]), json.load(sys.stdin)))))
        return
    channels = int(argv[0]) if argv and argv[0].isdigit() else 500
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 1
    workers = int(argv[argv.index("--workers") + 1]) if "--workers" in argv else 0
    if not workers:
        from table.core.drawing import default_workers

        workers = default_workers()
    as_json = "--json" in argv
    if "--against" in argv:
        with worktree(argv[argv.index("--against") + 1]) as old:
            asyncio.run(main_async(channels, old, rounds, workers, as_json=as_json))
    else:
        older = Path(argv[argv.index("--old") + 1]).resolve() if "--old" in argv else None
        asyncio.run(main_async(channels, older, rounds, workers, as_json=as_json))


if __name__ == "__main__":
    main(sys.argv[1:])
