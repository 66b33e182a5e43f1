"""A storm of moves while Discord refuses at random, then recovery: what is lost, doubled or left unshown.

The bot runs as in production (``tests/fakediscord/run_bot.py``: ``bot.main()``, its store on disk,
its drawing worker, every cog) in a process of its own, against the fake Discord of the tests served
from this process, with Discord's rate of posts per channel enforced. Two players per channel (and
in a thread) play random legal moves as fast as the bot answers, each pinned to the version it was
chosen at, while faults come at random moments:

- 429s (one of them global) and server errors (500, 502, 503) on a channel's posts;
- a permission taken from the bot (Attach Files) and given back a while later, the bot hearing of
  both; a refusal the bot does not hear the end of (Missing Permissions from Discord, lifted
  quietly: the bot finds out by trying again, or at a player's command there);
- the thread archived while a post waits, in a way a post does not reopen (the bot reopens it);
- a channel deleted in the middle of its game;
- the gateway closed resumably (4000), and a session invalidated (the bot identifies anew; moves
  sent meanwhile fail for their players, who send them again).

Then every fault is lifted, the players come back once to each channel, and the bench waits until
the store has nothing left to announce. Printed: moves confirmed and stored, moves lost (confirmed but
not stored) and doubled (confirmed twice, or a post made twice), games unannounced after recovery,
tracebacks in the bot's log, the longest gap between two ticks of the bot's timed loop (from its
heartbeat), and the most posts and edits any channel took within 5 seconds.

Usage: ``python -m bench.faults [channels] [--seconds S] [--seed N]`` (default 5 channels and a
thread, a storm of 60 s, seed 1).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RECOVERY = 300.0
"""Seconds the bench waits for the bot to catch up once the faults are lifted (a refusal it did not
hear the end of is tried again a minute later, then two...)."""
HEARTBEAT_POLL = 0.02
THINK = 0.2
"""Seconds at most a player takes over a move once the bot has answered the last one."""
READ_THE_END = 10.0
"""Seconds at most players wait to see a game's end posted before they open another table."""
POSTS = ("POST", "PATCH")
CONFIRMED = ("Done.", "C'est fait.")


@dataclass
class Room:
    """A channel (or thread) with its two players and the moves confirmed to them, as (game, version)."""

    chan: Any
    players: dict[str, Any]
    acked: list[tuple[int, int]] = field(default_factory=list)
    deleted: bool = False
    games: int = 0


@dataclass
class Tally:
    """What happened during the storm, as the players and the bench saw it."""

    sent: int = 0
    refused: int = 0
    lost: int = 0
    ticks: list[float] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)
    began: float = 0.0


async def mover(store: Any, room: Room, rng: random.Random) -> tuple[int, Any, str] | None:
    """The room's game, its player to act and one of their legal moves, pinned; None once it is over."""
    import engine

    record = await store.latest_game(room.chan.id)
    if record is None or record.status != "active" or record.state is None:
        return None
    game = engine.get_game(record.game)
    state = game.load(record.state)
    acting = game.to_act(state)
    if not acting:
        return None
    player = acting[0]
    action = rng.choice(game.legal_actions(state, player))
    return record.id, room.players[player], f"v{record.version}:{action}"


async def new_game(fake: Any, room: Room, seed: int) -> None:
    """The room's players open a War Chest table and start it."""
    first, second = room.players.values()
    await fake.slash(first, room.chan, "game new", game="warchest", options=f"seed={seed}")
    await fake.slash(second, room.chan, "game join")
    await fake.slash(first, room.chan, "game start")
    room.games += 1


async def storm(
    fake: Any, store: Any, room: Room, stop: asyncio.Event, rng: random.Random, tally: Tally
) -> None:
    """The room's players move as fast as the bot answers; a move that fails is sent again."""
    from tests.fakediscord.server import InteractionLost

    while not stop.is_set() and not room.deleted:
        if room.chan.archived:  # Discord takes no command in an archived thread
            await asyncio.sleep(0.1)
            continue
        chosen = await mover(store, room, rng)
        if chosen is None:  # the game is over: once its end is shown (or a while), another one
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ended_shown(store, room), READ_THE_END)
            try:
                await new_game(fake, room, rng.randrange(1_000_000))
            except (InteractionLost, ValueError, RuntimeError):
                await asyncio.sleep(0.2)
            continue
        game, user, value = chosen
        tally.sent += 1
        try:
            reply = await fake.slash(user, room.chan, "play", action=value, settle=False)
        except InteractionLost:  # "This interaction failed": sent again a little later
            tally.lost += 1
            await asyncio.sleep(0.2)
            continue
        except (ValueError, RuntimeError):  # archived meanwhile, or no connection at all
            await asyncio.sleep(0.1)
            continue
        if reply.content.startswith(CONFIRMED):
            room.acked.append((game, int(value[1 : value.index(":")]) + 1))
        else:
            tally.refused += 1  # a move made stale by nothing here is a bench error: counted
        await asyncio.sleep(rng.uniform(0.0, THINK))


async def ended_shown(store: Any, room: Room) -> None:
    """Until the room's last game's end is in its channel."""
    while True:
        record = await store.latest_game(room.chan.id)
        shown = None if record is None else await store.announcement(record.id)
        if record is None or (shown is not None and shown.status == record.status):
            return
        await asyncio.sleep(0.1)


async def heartbeat(path: Path, stop: asyncio.Event, tally: Tally) -> None:
    """The moments the bot's timed loop completed a tick, read from its heartbeat file."""
    seen = -1
    while not stop.is_set():
        with contextlib.suppress(OSError, ValueError):
            ticks = int(json.loads(path.read_text())["ticks"])
            if ticks != seen:
                seen = ticks
                tally.ticks.append(time.monotonic())
        await asyncio.sleep(HEARTBEAT_POLL)


async def faults(
    fake: Any, rooms: list[Room], thread: Room, seconds: float, rng: random.Random, tally: Tally
) -> None:
    """Discord's refusals at random moments of the storm; each lifted before it ends."""
    from tests.fakediscord.faults import MESSAGE, MESSAGES

    channels = [r for r in rooms if r is not thread]

    def somewhere() -> Room:
        return rng.choice([r for r in channels if not r.deleted])

    async def at(moment: float, what: str, act: Callable[[], Any]) -> None:
        await asyncio.sleep(moment)
        tally.faults.append(f"{moment:5.1f} s  {what}")
        done = act()
        if asyncio.iscoroutine(done):
            await done

    def inject(kind: str, **options: Any) -> Callable[[], Any]:
        return lambda: fake.inject(kind, channel=somewhere().chan, **options)

    def taken_then_given(room: Room, after: float) -> Callable[[], Any]:
        async def act() -> None:
            fake.deny_bot(room.chan, "attach_files")
            await asyncio.sleep(after)
            fake.allow_bot(room.chan)

        return act

    def refused_quietly(room: Room, after: float) -> Callable[[], Any]:
        async def act() -> None:
            injected = [
                fake.inject("missing_permissions", route=MESSAGES, channel=room.chan),
                fake.inject("missing_permissions", route=MESSAGE, method="PATCH", channel=room.chan),
            ]
            await asyncio.sleep(after)
            for fault in injected:
                fault.lift()

        return act

    async def archived() -> None:
        fake.hold_posts(thread.chan.id)
        held = fake.held_requests
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(until(lambda: fake.held_requests > held), 5.0)
        fake.set_archived(thread.chan, reopen_by_post=False)
        fake.release_posts(thread.chan.id)

    def deleted(room: Room) -> Callable[[], Any]:
        def act() -> None:
            room.deleted = True
            fake.delete_channel(room.chan)

        return act

    span = seconds * 0.7
    doomed = channels[-1]
    plan: list[tuple[float, str, Callable[[], Any]]] = [
        (
            rng.uniform(0, span),
            "429 twice on a channel's posts",
            inject("rate_limited", times=2, retry_after=0.8),
        ),
        (
            rng.uniform(0, span),
            "429 global",
            inject("rate_limited", times=1, retry_after=0.5, is_global=True),
        ),
        (rng.uniform(0, span), "500 once", inject("server_error", times=1)),
        (rng.uniform(0, span), "502 once", inject("bad_gateway", times=1)),
        (rng.uniform(0, span), "503 three times", inject("unavailable", times=3)),
        (rng.uniform(0, span), "Attach Files taken for 10 s", taken_then_given(channels[0], 10.0)),
        (
            rng.uniform(0, span),
            "Missing Permissions for 8 s, lifted unheard",
            refused_quietly(channels[1], 8.0),
        ),
        (rng.uniform(0, span), "thread archived, not reopened by a post", archived),
        (rng.uniform(span / 2, span), f"#{doomed.chan.name} deleted", deleted(doomed)),
        (rng.uniform(0, span / 2), "gateway closed (4000, resumable)", lambda: fake.close_gateway(4000)),
        (rng.uniform(span / 2, span), "session invalidated", lambda: fake.invalidate_session()),
    ]
    await asyncio.gather(*(at(moment, what, act) for moment, what, act in plan))


async def until(check: Callable[[], bool]) -> None:
    while not check():
        await asyncio.sleep(0.02)


async def main_async(channels: int, seconds: float, seed: int) -> None:
    import db
    from tests.fakediscord.process import BotProcess
    from tests.fakediscord.server import HANG_LIMIT, FakeDiscord

    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="faults-"))
    database, beat = folder / "bot.sqlite3", folder / "heartbeat"
    tally = Tally()
    store = await db.open_store(database)  # before the bot: opening a SQLite store clears claims
    try:
        async with FakeDiscord() as fake:
            fake.token = "test"
            guild = fake.add_guild("Tempête", locale="fr")
            rooms: list[Room] = []
            for n in range(channels):
                chan = fake.add_channel(guild, f"table-{n}")
                alice, bob = fake.add_user(f"alice{n}", locale="fr"), fake.add_user(f"bob{n}")
                rooms.append(Room(chan, {alice.id: alice, bob.id: bob}))
            wren, yann = fake.add_user("wren"), fake.add_user("yann", locale="fr")
            thread = Room(fake.add_thread(rooms[0].chan, "fil"), {wren.id: wren, yann.id: yann})
            rooms.append(thread)
            env = {"TICK_SECONDS": "0.5", "HEARTBEAT_PATH": str(beat)}
            bot = await BotProcess.start(fake, database, env)
            await bot.ready()
            for index, room in enumerate(rooms):
                await new_game(fake, room, seed + index)
            stop = asyncio.Event()
            beating = asyncio.ensure_future(heartbeat(beat, asyncio.Event(), tally))
            began = tally.began = time.monotonic()
            storms = [asyncio.ensure_future(storm(fake, store, r, stop, rng, tally)) for r in rooms]
            await faults(fake, rooms, thread, seconds, rng, tally)
            await asyncio.sleep(max(0.0, seconds - (time.monotonic() - began)))
            stop.set()
            await asyncio.gather(*storms)
            stormed = time.monotonic() - began
            for fault in fake.faults:
                fault.lift()
            for room in rooms:
                if room.deleted:
                    continue
                if room.chan.is_thread and room.chan.archived:
                    fake.set_archived(room.chan, False)
                elif not room.chan.is_thread:
                    fake.allow_bot(room.chan)
            for room in rooms:  # the players come back once to each channel
                if not room.deleted:
                    with contextlib.suppress(Exception):
                        await fake.slash(next(iter(room.players.values())), room.chan, "game status")
            recovering = time.monotonic()
            while await store.unannounced() and time.monotonic() - recovering < RECOVERY:
                await asyncio.sleep(0.2)
            recovered = time.monotonic() - recovering
            left = await store.unannounced()
            beating.cancel()
            await report(fake, store, rooms, tally, bot, stormed, recovered, left)
            bot.signal(signal.SIGTERM)
            await asyncio.wait_for(bot.exited(), HANG_LIMIT)
    finally:
        await store.close()


async def report(
    fake: Any,
    store: Any,
    rooms: list[Room],
    tally: Tally,
    bot: Any,
    stormed: float,
    recovered: float,
    left: list[Any],
) -> None:
    """Print the figures."""
    stored = lost = doubled = 0
    for room in rooms:
        moves = set()
        for game in {game for game, _version in room.acked}:
            moves |= {(game, a.seq) for a in await store.actions(game)}
        stored += len(moves)
        lost += len(set(room.acked) - moves)
        doubled += len(room.acked) - len(set(room.acked))
        posts = [
            m.nonce
            for m in fake.channel_log.get(room.chan.id, [])
            if m.author.id == fake.bot_user.id and m.interaction_id is None and m.nonce and not m.deleted
        ]
        doubled += len(posts) - len(set(posts))
    gaps = [b - a for a, b in zip(tally.ticks, tally.ticks[1:], strict=False)]
    log = fake.channel_requests
    worst = max((log.busiest(r.chan.id, 5.0, methods=POSTS, taken=True) for r in rooms), default=0)
    tried = max((log.busiest(r.chan.id, 5.0, methods=POSTS) for r in rooms), default=0)
    print("faults, in the order they came:")
    for line in sorted(tally.faults):
        print(f"  {line}")
    rejected = [r.status for r in fake.rejections]
    by_status = ", ".join(f"{status}: {rejected.count(status)}" for status in sorted(set(rejected)))
    confirmed = sum(len(r.acked) for r in rooms)
    games = sum(r.games for r in rooms)
    print(f"storm: {stormed:.0f} s in {len(rooms)} channels (one a thread), {games} games of War Chest")
    print(f"moves sent: {tally.sent}, confirmed {confirmed}, refused {tally.refused}")
    print(f"moves that failed for their players (no session) and were sent again: {tally.lost}")
    print(f"Discord's refusals: {len(rejected)} ({by_status})")
    print(f"moves stored: {stored}")
    print(f"lost (confirmed, not stored): {lost}")
    print(f"doubled (confirmed twice, or a post made twice): {doubled}")
    print(f"unannounced after recovery: {len(left)} (recovered in {recovered:.1f} s)")
    print(f"tracebacks in the bot's log: {bot.log.count('Traceback')}")
    longest = max(range(len(gaps)), key=gaps.__getitem__, default=None)
    when = "" if longest is None else f", from {tally.ticks[longest] - tally.began:.1f} s into the storm"
    gap = max(gaps, default=0.0)
    print(f"longest gap between ticks (every 0.5 s): {gap:.2f} s over {len(gaps)} ticks{when}")
    print(f"posts and edits one channel took within 5 s, at worst: {worst} ({tried} tried, refusals counted)")
    refusals = [
        line for line in bot.lines if "refuses the bot" in line or "takes the bot's posts again" in line
    ]
    print(f"channel faults the bot recorded and ended: {len(refusals)} log lines")


def main(argv: list[str]) -> None:
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__)
        sys.exit(0)
    channels = int(argv[0]) if argv and argv[0].isdigit() else 5
    seconds = float(argv[argv.index("--seconds") + 1]) if "--seconds" in argv else 60.0
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
    asyncio.run(main_async(max(3, channels), seconds, seed))


if __name__ == "__main__":
    main(sys.argv[1:])
