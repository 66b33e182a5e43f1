"""A month of play-by-post, simulated: do players' own times hold over weeks of real tables?

Usage: python -m bench.month [days] [tables] [--seed N]

``tables`` tables (default 20) of War Chest (two and four players), Batailles and Cry Havoc (two and
three) are played for ``days`` days (default 30, from 1 March 2026: Europe and North America change to
summer time within it) through the table layer, with an injected clock that moves a quarter of an hour
at a time and the timed loop run at each step, as the bot's loop would. Forty players live in five
time zones (Paris, New York, Kolkata, Tokyo, Auckland), each with quiet hours (22:00-07:00, or
23:00-08:00); two of them are away for a week each (``/away for:7d``). A player answers their turn
after a random delay (most within hours, some after a day or two, a few not for days: the tables'
deadlines then act), plays their whole turn once they sit down, and does nothing while away. The
tables mix the deadline policies (forfeit, skip, bot, wait) and what they do for an away player
(pause, bot, off). Boards are a tiny stand-in image; computer players (stand-ins) play a random legal
move.

It prints what went out and the two figures that must be 0:

- pings (a channel post's mentions, a direct message) and deadline actions (forfeit, skip, bot,
  the wait notice) that fell inside the quiet hours of a player they concerned;
- forfeits of players who were away, at tables whose ``away`` option is ``pause``.

The replies to a player's own command (a lobby filling up, a draw offered) are theirs, not the bot's,
and are not counted.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import db
import engine
from bench.hosting import tiny_png
from launch import DISCORD_LIMITS
from table import Commands, Ctx, Post, Tables
from table.bots.players import stand_ins
from table.bots.thinkers import ThreadThinker
from table.core.clock import ManualClock
from table.core.hours import PlayerTime, parse_quiet
from table.core.posts import is_bot
from table.core.settings import TableSettings
from table.core.tables import Decision, Table
from table.posting.announce import Announcer, RecordingOutlet
from table.posting.schedule import Scheduler

START = datetime(2026, 3, 1, tzinfo=UTC)
STEP = timedelta(minutes=15)
GUILD = "bench"
ZONES = ("Europe/Paris", "America/New_York", "Asia/Kolkata", "Asia/Tokyo", "Pacific/Auckland")
PLAYERS = 40
AWAY = ((4, 5), (8, 15))
"""Who goes away for a week, and on which day of the month: the last player of tables 4 and 8, which
forfeit at their deadline and pause it for an away player."""
KINDS = (("warchest", 2), ("batailles", 2), ("cryhavoc", 2), ("warchest", 4), ("cryhavoc", 3))
POLICIES = ("forfeit", "skip", "bot", "wait")
AWAY_OPTIONS = ("pause", "pause", "bot", "off")
USAGE = __doc__.split("\n\n")[1]


def random_legal(decision: Decision) -> str:
    """A stand-in that plays any legal move (seeded by the position, as the real ones are)."""
    game = engine.get_game(decision.game)
    state = game.load(decision.state)
    player = state_players(game, state)[decision.seat]
    legal = game.legal_actions(state, player)
    return str(random.Random(decision.seed).choice(legal))


def state_players(game: Any, state: Any) -> list[str]:
    return [seat["id"] for seat in game.view(state, None)["seats"]]


@dataclass
class Seen:
    """Everything the bench watched go out, with the clock's time."""

    posts: list[tuple[datetime, str, Post]] = field(default_factory=list)
    dms: list[tuple[datetime, str, Post]] = field(default_factory=list)
    actions: list[tuple[datetime, str, int, tuple[str, ...]]] = field(default_factory=list)
    """Deadline actions: when, which policy, which game, on whom."""


class Watched(RecordingOutlet):
    def __init__(self, clock: ManualClock, seen: Seen) -> None:
        super().__init__()
        self.clock, self.seen = clock, seen

    async def send(self, channel: str, post: Post) -> str:
        self.seen.posts.append((self.clock(), channel, post))
        return await super().send(channel, post)

    async def direct(self, user: str, post: Post) -> bool:
        self.seen.dms.append((self.clock(), user, post))
        return await super().direct(user, post)


class WatchedScheduler(Scheduler):
    """The timed loop, noting each deadline action as it is taken."""

    seen: Seen

    async def _take_over(self, table: Table, absent: list[str]) -> None:
        self._noted("bot", table, absent)
        await super()._take_over(table, absent)

    async def _skip(self, table: Table, absent: list[str]) -> bool:
        self._noted("skip", table, absent)
        return await super()._skip(table, absent)

    async def _forfeit(self, table: Table, absent: list[str]) -> None:
        self._noted("forfeit", table, absent)
        await super()._forfeit(table, absent)

    async def _notice(self, table: Table, absent: list[str], policy: str) -> None:
        self._noted(policy, table, absent)
        await super()._notice(table, absent, policy)

    def _noted(self, policy: str, table: Table, absent: list[str]) -> None:
        self.seen.actions.append((self.announcer.clock(), policy, table.record.id, tuple(absent)))


@dataclass
class Figures:
    days: int
    tables: int
    games: int = 0
    finished: int = 0
    moves: int = 0
    pings: int = 0
    dms: int = 0
    reminders: int = 0
    held_pings: int = 0
    told_away: int = 0
    """Posts telling a channel that a player it waits for is away."""
    actions: Counter[str] = field(default_factory=Counter)
    quiet_pings: int = 0
    quiet_actions: int = 0
    away_forfeits: int = 0
    seconds: float = 0.0

    def lines(self) -> list[str]:
        by_policy = ", ".join(f"{k} {v}" for k, v in sorted(self.actions.items())) or "none"
        return [
            f"a month of play-by-post: {self.days} days, {self.tables} tables, {PLAYERS} players in"
            f" {len(ZONES)} zones ({self.seconds:.0f} s)",
            f"games started {self.games}, finished {self.finished}, moves {self.moves}",
            f"pings {self.pings} (of which held to the end of quiet hours {self.held_pings}), reminders"
            f" {self.reminders}, direct messages {self.dms}",
            f"deadline actions: {by_policy}; posts telling that an awaited player is away {self.told_away}",
            f"pings and direct messages inside the quiet hours of whom they reach: {self.quiet_pings}"
            " (goal 0)",
            f"deadline actions inside the quiet hours of a player they fall on: {self.quiet_actions}"
            " (goal 0)",
            f"forfeits of away players at away=pause tables: {self.away_forfeits} (goal 0)",
        ]


def ctx(player: str, channel: str) -> Ctx:
    return Ctx(channel, player, player.upper(), "en", "en", guild_id=GUILD)


class Month:
    """The simulated month over one store (see the module's description)."""

    def __init__(self, store: db.Store, days: int, tables: int, seed: int) -> None:
        self.store, self.days, self.count = store, days, tables
        self.rng = random.Random(seed)
        self.clock = ManualClock(START)
        self.seen = Seen()
        self.tables = Tables(
            store,
            limits=DISCORD_LIMITS,
            render=tiny_png,
            render_private=tiny_png,
            seed_source=lambda: self.rng.randrange(2**40),
            thinker=ThreadThinker(random_legal),
        )
        announcer = Announcer(self.tables, Watched(self.clock, self.seen), clock=self.clock, coalesce=0)
        self.commands = Commands(self.tables, announcer)
        self.scheduler = WatchedScheduler(announcer)
        self.scheduler.seen = self.seen
        self.times = {
            f"p{n:02d}": PlayerTime(
                ZONES[n % len(ZONES)], parse_quiet("22:00-07:00" if n % 3 else "23:00-08:00")
            )
            for n in range(PLAYERS)
        }
        self.due: dict[tuple[str, str], datetime] = {}
        self.seats: dict[str, list[str]] = {}
        self.figures = Figures(days, tables)

    async def setup(self) -> None:
        for player, mine in self.times.items():
            assert mine.quiet is not None
            await self.commands.notify(
                ctx(player, "lobby"),
                dm=player.endswith(("1", "5")),
                timezone=mine.zone,
                quiet=str(mine.quiet),
            )
        for n in range(self.count):
            game, players = KINDS[n % len(KINDS)]
            seats = [f"p{(n * 3 + k * 7) % PLAYERS:02d}" for k in range(players)]
            self.seats[f"t{n:02d}"] = seats
            await self.open(f"t{n:02d}", game, seats, n)

    async def open(self, channel: str, game: str, seats: list[str], n: int) -> None:
        options = (
            f"remind=12h deadline=2d on_deadline={POLICIES[n % len(POLICIES)]}"
            f" away={AWAY_OPTIONS[n % len(AWAY_OPTIONS)]}"
        )
        if game == "batailles":
            options += " armies=classic map=open_field"
        await self.commands.new(ctx(seats[0], channel), game, len(seats), options)
        for seat in seats[1:]:
            await self.commands.join(ctx(seat, channel))
        await self.commands.start(ctx(seats[0], channel))
        await self.commands.announcer.drain()
        self.figures.games += 1

    def delay(self) -> timedelta:
        """How long a player takes to sit down to their turn."""
        roll = self.rng.random()
        if roll < 0.7:
            return timedelta(minutes=self.rng.uniform(10, 600))
        if roll < 0.95:
            return timedelta(hours=self.rng.uniform(10, 30))
        return timedelta(days=self.rng.uniform(2, 4))

    async def away_now(self, player: str) -> datetime | None:
        now = self.clock()
        stamp = now.isoformat(timespec="seconds")
        for period in await self.store.away(GUILD, [player], stamp):
            if period.since <= stamp:
                return datetime.fromisoformat(period.until)
        return None

    async def step(self) -> None:
        now = self.clock()
        for table, day in AWAY:
            seats = self.seats.get(f"t{table:02d}")
            if seats and now == START + timedelta(days=day):
                await self.commands.away(ctx(seats[-1], "lobby"), "7d")
        await self.scheduler.tick()
        await self.commands.announcer.drain()
        for (channel, player), due in sorted(self.due.items(), key=lambda item: item[1]):
            if due > now:
                continue
            back = await self.away_now(player)
            if back is not None:
                self.due[(channel, player)] = back + self.delay()
                continue
            del self.due[(channel, player)]
            await self.play(channel, player)
        for channel in self.seats:
            await self.look(channel)

    async def play(self, channel: str, player: str) -> None:
        """The player sits down: they play their whole turn (each decision a few minutes apart)."""
        table = await self.tables.open(channel)
        if table is None or table.state is None or player not in table.to_act():
            return
        legal = table.game.legal_actions(table.state, player)
        await self.commands.play(ctx(player, channel), f"v{table.record.version}:{self.rng.choice(legal)}")
        await self.commands.announcer.drain()
        self.figures.moves += 1
        after = await self.tables.open(channel)
        if after is not None and player in after.to_act():
            self.due[(channel, player)] = self.clock() + timedelta(minutes=self.rng.uniform(1, 5))

    async def look(self, channel: str) -> None:
        """Who the table waits for gets a time to answer; a finished table is opened again."""
        table = await self.tables.open(channel)
        if table is None:
            latest = await self.tables.latest(channel)
            self.figures.finished += 1
            seats = self.seats[channel]
            assert latest is not None
            await self.open(channel, latest.record.game, seats, int(channel[1:]) + self.figures.finished)
            return
        standing = await stand_ins(self.store, table.record)
        for player in table.to_act():
            if not is_bot(player) and player not in standing and (channel, player) not in self.due:
                self.due[(channel, player)] = self.clock() + self.delay()

    async def run(self) -> Figures:
        began = time.perf_counter()
        await self.setup()
        end = START + timedelta(days=self.days)
        while self.clock() < end:
            self.clock.advance(STEP)
            await self.step()
        await self.commands.announcer.drain()
        await self.tally()
        self.figures.seconds = time.perf_counter() - began
        return self.figures

    async def tally(self) -> None:
        f = self.figures
        for moment, _channel, post in self.seen.posts:
            f.pings += len(post.mentions)
            f.reminders += post.text.startswith("⏰")
            f.held_pings += post.text.startswith("🔔")
            f.told_away += "⏸" in post.text
            f.quiet_pings += sum(self.times[p].is_quiet(moment) for p in post.mentions if p in self.times)
        for moment, user, _post in self.seen.dms:
            f.dms += 1
            f.quiet_pings += user in self.times and self.times[user].is_quiet(moment)
        for moment, policy, game_id, absent in self.seen.actions:
            f.actions[policy] += 1
            f.quiet_actions += any(self.times[p].is_quiet(moment) for p in absent if p in self.times)
            record = await self.store.get_game(game_id)
            if policy != "forfeit" or record is None or TableSettings.of(record).away != "pause":
                continue
            stamp = moment.isoformat(timespec="seconds")
            periods = await self.store.away(GUILD, list(absent), stamp)
            f.away_forfeits += any(p.since <= stamp for p in periods)


async def simulate(days: int = 30, tables: int = 20, seed: int = 1, path: Path | None = None) -> Figures:
    with tempfile.TemporaryDirectory() as folder:
        store = await db.open_store(path or Path(folder) / "month.sqlite3")
        try:
            return await Month(store, days, tables, seed).run()
        finally:
            await store.close()


def main(argv: list[str]) -> None:
    numbers = [a for a in argv if a.isdigit()]
    seed = 1
    if "--seed" in argv:
        at = argv.index("--seed")
        if at + 1 >= len(argv) or not argv[at + 1].isdigit():
            print(USAGE)
            raise SystemExit(2)
        seed = int(argv[at + 1])
        numbers = [a for i, a in enumerate(argv) if a.isdigit() and i != at + 1]
    unknown = [a for a in argv if not a.isdigit() and a != "--seed"]
    if unknown or len(numbers) > 2:
        print(USAGE)
        raise SystemExit(2)
    days = int(numbers[0]) if numbers else 30
    tables = int(numbers[1]) if len(numbers) > 1 else 20
    figures = asyncio.run(simulate(days, tables, seed))
    print("\n".join(figures.lines()))


if __name__ == "__main__":
    main(sys.argv[1:])
