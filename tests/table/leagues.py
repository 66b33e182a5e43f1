"""A league at the table layer: the real commands, announcer and store, a stand-in renderer, a manual
clock, and places that record the threads, forum posts, tags and events a league asks for."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import db
from launch import DISCORD_LIMITS
from table.core.clock import ManualClock
from table.core.posts import Ctx, Post
from table.core.tables import Tables
from table.leagues.places import CHANNEL, FORUM, Home
from table.leagues.service import Leagues
from table.play.commands import Commands
from table.posting.announce import Announcer, RecordingOutlet
from table.posting.schedule import Scheduler
from tests.discord.support import tiny_png

T0 = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
HALL = "hall"
GUILD = "g1"


@dataclass
class RecordingPlaces:
    """Threads (and forum posts with their tags) and events, as a front end would make them."""

    outlet: RecordingOutlet
    forum: bool = False
    events_allowed: bool = True
    threads: dict[str, tuple[str, Post]] = field(default_factory=dict)
    tags: dict[str, list[str]] = field(default_factory=dict)
    events: list[tuple[str, datetime, datetime]] = field(default_factory=list)

    async def home(self, channel: str) -> Home:
        return Home(FORUM if self.forum else CHANNEL, f"{channel}-parent" if self.forum else channel)

    async def open_thread(self, home: Home, name: str, first: Post, tags: Sequence[str] = ()) -> str:
        thread = f"t{len(self.threads) + 1}"
        self.threads[thread] = (name, first)
        if home.forum:
            self.tags[thread] = list(tags)
        assert self.outlet.sent is not None
        self.outlet.sent.append((thread, first))
        return thread

    async def set_tags(self, home: Home, thread: str, tags: Sequence[str]) -> None:
        if home.forum:
            self.tags[thread] = list(tags)

    async def schedule(
        self, guild: str | None, name: str, start: datetime, end: datetime, where: str
    ) -> str | None:
        if not self.events_allowed:
            return None
        self.events.append((name, start, end))
        return f"e{len(self.events)}"


@dataclass
class Hall:
    """A league's channel and everything behind it."""

    store: db.Store
    commands: Commands
    leagues: Leagues
    outlet: RecordingOutlet
    places: RecordingPlaces
    clock: ManualClock

    def ctx(self, user: str, channel: str = HALL, *, moderator: bool = False) -> Ctx:
        return Ctx(channel, user, user.capitalize(), "en", "en", guild_id=GUILD, moderator=moderator)

    async def settle(self) -> None:
        await self.commands.announcer.drain()

    async def later(self, **delta: float) -> None:
        """Time passes and the scheduler ticks (the leagues' timed work with it)."""
        self.clock.advance(timedelta(**delta))
        await Scheduler(self.commands.announcer).tick()
        await self.settle()

    async def league(self) -> db.LeagueRecord:
        found = await self.store.leagues(("signup", "running", "over"))
        assert found
        return found[-1]

    async def games(self, round_: int | None = None) -> list[db.GameRecord]:
        from table.leagues.book import Book

        book = Book.load((await self.league()).doc)
        out = []
        for table in book.tables:
            if table.game is not None and (round_ is None or table.round == round_):
                record = await self.store.get_game(table.game)
                assert record is not None
                out.append(record)
        return out

    async def finish(self, record: db.GameRecord, loser: str | None) -> None:
        """End a league game: ``loser`` resigns, or (None) both agree to a draw."""
        if loser is not None:
            await self.commands.resign(self.ctx(loser, record.channel))
        else:
            for player in record.player_ids:
                await self.commands.draw(self.ctx(player, record.channel))
        await self.settle()

    def posts_in(self, channel: str) -> list[Post]:
        assert self.outlet.sent is not None
        return [post for where, post in self.outlet.sent if where == channel]


@asynccontextmanager
async def hall(tmp_path: Path, *, forum: bool = False, events: bool = True) -> AsyncIterator[Hall]:
    store = await db.open_store(tmp_path / "league.sqlite3")
    seeds = iter(range(1000, 100000))
    tables = Tables(
        store,
        limits=DISCORD_LIMITS,
        render=tiny_png,
        render_private=tiny_png,
        seed_source=lambda: next(seeds),
    )
    clock = ManualClock(T0)
    outlet = RecordingOutlet()
    announcer = Announcer(tables, outlet, clock=clock, coalesce=0)
    commands = Commands(tables, announcer)
    places = RecordingPlaces(outlet, forum=forum, events_allowed=events)
    leagues = Leagues(commands, places)
    try:
        yield Hall(store, commands, leagues, outlet, places, clock)
    finally:
        await announcer.drain()
        await store.close()
