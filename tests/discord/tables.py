"""A running War Chest table on the fake Discord, for the tests of what Discord refuses and how fast it
takes posts: the real bot in this process (``bot.build_bot``), its timed loop ticking often on an
injected clock, its store read back by the test through a store of its own.

``Table.move`` has the player to act play the first legal move, pinned to the version it was chosen
at, as fast as the bot answers (``settle=False``: a player does not wait for the channel's post before
the next move); ``Table.shown`` says whether the channel shows every stored move.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import db
import engine
import i18n
from bot import TabletopBot, build_bot
from cogs import ServiceCog
from launch import Settings
from table.core.clock import ManualClock, Timer
from table.core.events import decode_msg
from tests.discord.support import CONFIRMED
from tests.fakediscord.model import FakeChannel, FakeGuild, FakeUser, InteractionResult, SentMessage
from tests.fakediscord.server import HANG_LIMIT, FakeDiscord

T0 = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


async def until(check: Callable[[], Awaitable[bool] | bool], what: str) -> None:
    """Wait until ``check`` (plain or async) is true, within the harness's hang limit."""

    async def loop() -> None:
        while True:
            seen = check()
            if await seen if isinstance(seen, Awaitable) else seen:
                return
            await asyncio.sleep(0.01)

    try:
        await asyncio.wait_for(loop(), HANG_LIMIT)
    except TimeoutError:
        raise AssertionError(f"never: {what}") from None


async def ticks(bot: TabletopBot, more: int = 2) -> None:
    """Wait until the bot's timed loop has run ``more`` further ticks."""
    cog = bot.get_cog("ServiceCog")
    assert isinstance(cog, ServiceCog)
    target = cog.ticks + more
    await until(lambda: cog.ticks >= target, f"{more} ticks")


@dataclass
class Table:
    fake: FakeDiscord
    settings: Settings
    clock: ManualClock
    store: db.Store
    guild: FakeGuild
    chan: FakeChannel
    players: dict[str, FakeUser]
    bot: TabletopBot | None = None
    acked: list[int] = field(default_factory=list)
    """The versions the players' moves made, as their confirmations said."""
    listing_timer: Timer | None = None
    """The clock and sleep of the cards' and lists' pace, which the test moves (each bot started
    here gets it)."""

    @property
    def alice(self) -> FakeUser:
        return next(iter(self.players.values()))

    @property
    def bob(self) -> FakeUser:
        return list(self.players.values())[1]

    async def start_bot(self) -> None:
        self.bot = build_bot(self.settings, clock=self.clock, listing_timer=self.listing_timer)
        await self.fake.start_bot(self.bot)

    async def restart(self) -> None:
        await self.fake.stop_bot()
        await self.start_bot()

    async def record(self) -> db.GameRecord:
        found = await self.store.latest_game(self.chan.id)
        assert found is not None
        return found

    async def open(self, *, options: str = "seed=4", players: tuple[FakeUser, ...] = ()) -> None:
        """A two-player War Chest table, started, its first post in the channel."""
        alice, bob = players or (self.alice, self.bob)
        await self.fake.slash(alice, self.chan, "game new", game="warchest", options=options)
        await self.fake.slash(bob, self.chan, "game join")
        await self.fake.slash(alice, self.chan, "game start")
        await until(self.shown, "the start is shown")

    async def mover(self) -> tuple[FakeUser, str]:
        """The player to act and their first legal move, pinned to the stored version."""
        record = await self.record()
        game = engine.get_game(record.game)
        state = game.load(record.state or {})
        (player, *_rest) = game.to_act(state)
        action = game.legal_actions(state, player)[0]
        return self.players[player], f"v{record.version}:{action}"

    async def move(self, *, settle: bool = True) -> InteractionResult:
        """The player to act plays; the move is confirmed to them (and counted in ``acked``)."""
        user, value = await self.mover()
        reply = await self.fake.slash(user, self.chan, "play", action=value, settle=settle)
        assert reply.content.startswith(CONFIRMED), reply.contents
        self.acked.append(int(value[1 : value.index(":")]) + 1)
        return reply

    async def shown(self) -> bool:
        """Whether the channel was shown the stored game (its announcement is up to date)."""
        record = await self.record()
        shown = await self.store.announcement(record.id)
        return shown is not None and (shown.version, shown.status) == (record.version, record.status)

    async def ticks(self, more: int = 2) -> None:
        assert self.bot is not None
        await ticks(self.bot, more)

    async def later(self, **delta: float) -> None:
        self.clock.advance(timedelta(**delta))
        await self.ticks()

    def posts(self, channel: FakeChannel | None = None) -> list[SentMessage]:
        """The bot's own posts in the channel (not interaction answers)."""
        return [
            m
            for m in self.fake.messages_in(channel or self.chan)
            if m.author.id == self.fake.bot_user.id and m.interaction_id is None
        ]

    async def unnamed_moves(self) -> list[int]:
        """The stored moves whose words no post of the channel shows (each post's summary names the
        moves of its turn, and a handover's those since the last one began)."""
        record = await self.record()
        names = {s.player: s.name for s in record.seats}
        shown = "\n".join(m.content for m in self.posts())
        locale = self.guild.locale
        missing = []
        for entry in await self.store.actions(record.id):
            words = " ".join(i18n.t(decode_msg(e), locale, names=names) for e in entry.events)
            if words not in shown:
                missing.append(entry.seq)
        return missing

    async def stored_moves(self) -> list[int]:
        record = await self.record()
        return [entry.seq for entry in await self.store.actions(record.id)]


@asynccontextmanager
async def table(
    tmp_path: Path,
    *,
    database: str | Path | None = None,
    message_rate: tuple[int, float] | None = (5, 5.0),
    listing_timer: Timer | None = None,
    **settings: Any,
) -> AsyncIterator[Table]:
    """A fake Discord with one French-speaking server, a channel and two players, and the bot (started)
    over ``database`` (a SQLite file in ``tmp_path`` by default), its loop ticking every 50 ms on a
    manual clock; ``settings`` replace the bot's, ``listing_timer`` paces the cards and lists."""
    where = database or tmp_path / "bot.sqlite3"
    base = Settings(
        database_path=tmp_path / "bot.sqlite3",
        database_url=where if isinstance(where, str) else None,
        coalesce_seconds=0,
        tick_seconds=0.05,
        warm_up=False,
    )
    store = await db.open_store(where)  # before the bot: opening a SQLite store clears its claims
    try:
        async with FakeDiscord(message_rate=message_rate) as fake:
            guild = fake.add_guild("Les Joueurs", locale="fr")
            chan = fake.add_channel(guild, "partie")
            people = [fake.add_user("alice", locale="fr"), fake.add_user("bob", locale="en-GB")]
            found = Table(
                fake,
                replace(base, **settings),
                ManualClock(T0),
                store,
                guild,
                chan,
                {u.id: u for u in people},
                listing_timer=listing_timer,
            )
            await found.start_bot()
            yield found
            assert fake.unknown_requests == []
    finally:
        await store.close()
