"""One game frozen for good holds up no other game: its board never comes, or Discord never answers
its posts, and the five other tables still get their moves posted, their reminders and their
deadlines, the timed loop keeps ticking, and a SIGTERM still ends the bot cleanly.

The first test runs the bot in this process with a clock the test moves (reminders and deadlines a
day apart pass in a moment) and a drawer that never draws the frozen game's boards; the second runs
the bot as a real process whose posts in one channel the fake Discord never answers, and stops it
with SIGTERM.
"""

from __future__ import annotations

import asyncio
import signal
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import db
from bot import build_bot
from cogs import ServiceCog
from launch import Settings
from table.core.clock import ManualClock
from table.core.drawing import Drawer, Outdated, ThreadDrawer
from tests.discord.support import CONFIRMED, current_board, tiny_png
from tests.discord.test_play_by_post import until
from tests.fakediscord.model import FakeChannel, FakeUser
from tests.fakediscord.process import BotProcess
from tests.fakediscord.server import HANG_LIMIT, FakeDiscord

T0 = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
TABLES = 6


class FreezingDrawer:
    """The bot's drawer, except that a board of a game where any of ``frozen`` sits is never drawn
    until ``thaw``: the drawing waits for ever, as one stuck beyond any worker's help would."""

    def __init__(self, inner: Drawer) -> None:
        self.inner = inner
        self.frozen: set[str] = set()
        self.stuck = 0
        self._thawed = asyncio.Event()

    async def draw(
        self,
        kind: str,
        view: dict[str, Any],
        *,
        names: dict[str, str],
        locale: str,
        outdated: Outdated | None = None,
    ) -> bytes:
        if self.frozen & set(names):
            self.stuck += 1
            await self._thawed.wait()
        return await self.inner.draw(kind, view, names=names, locale=locale, outdated=outdated)

    def idle(self) -> bool:
        return self.inner.idle()

    def thaw(self) -> None:
        self.frozen.clear()
        self._thawed.set()


@dataclass
class Seated:
    chan: FakeChannel
    players: dict[str, FakeUser]


def bot_posts(fake: FakeDiscord, chan: FakeChannel) -> list[Any]:
    return [m for m in fake.messages_in(chan) if m.author.id == fake.bot_user.id and m.interaction_id is None]


def seat_tables(fake: FakeDiscord) -> list[Seated]:
    """``TABLES`` channels of one server, two players each (before the bot connects: it learns of
    the server at connection)."""
    guild = fake.add_guild("Club", locale="en-US")
    tables = []
    for n in range(TABLES):
        chan = fake.add_channel(guild, f"table-{n}")
        a, b = fake.add_user(f"a{n}"), fake.add_user(f"b{n}")
        tables.append(Seated(chan, {a.id: a, b.id: b}))
    return tables


async def open_tables(fake: FakeDiscord, tables: list[Seated], options: str) -> None:
    """A War Chest game started at each table."""
    for seated in tables:
        a, b = seated.players.values()
        await fake.slash(a, seated.chan, "game new", game="warchest", options=f"seed=4 {options}")
        await fake.slash(b, seated.chan, "game join")
        await fake.slash(a, seated.chan, "game start")
    for seated in tables:
        await until(lambda s=seated: any(m.files for m in bot_posts(fake, s.chan)), "the start's board")


async def move(fake: FakeDiscord, seated: Seated) -> None:
    """The player the channel's last post calls plays their first legal move."""
    (mover,) = [seated.players[p] for p in current_board(fake, seated.chan).pinged_ids]
    choices = await fake.autocomplete(mover, seated.chan, "play", focused="action", action="")
    reply = await fake.slash(mover, seated.chan, "play", action=str(choices[0][1]))
    assert reply.content.startswith(CONFIRMED), reply.content


async def play_on(fake: FakeDiscord, tables: list[Seated]) -> None:
    """A move at each of ``tables``, each posted in its channel."""
    for seated in tables:
        await move(fake, seated)
    for seated in tables:
        await until(lambda s=seated: len(bot_posts(fake, s.chan)) >= 2, "the other moves' posts")


def texts(fake: FakeDiscord, chan: FakeChannel, start: str) -> list[str]:
    return [m.content for m in bot_posts(fake, chan) if m.content.startswith(start)]


async def test_a_game_whose_board_never_comes_holds_up_no_other(tmp_path: Path) -> None:
    settings = Settings(database_path=tmp_path / "bot.sqlite3", coalesce_seconds=0, tick_seconds=0.02)
    clock = ManualClock(T0)
    async with FakeDiscord() as fake:
        tables = seat_tables(fake)
        bot = build_bot(settings, clock=clock)
        await bot.prepare()
        assert bot.table is not None and bot.scheduler is not None
        drawer = FreezingDrawer(ThreadDrawer({"board": tiny_png, "private": tiny_png, "details": tiny_png}))
        bot.table.tables.drawer = drawer
        await fake.start_bot(bot)
        service = bot.get_cog("ServiceCog")
        assert isinstance(service, ServiceCog)
        await open_tables(fake, tables, "remind=1h deadline=3h on_deadline=forfeit")
        frozen, others = tables[0], tables[1:]

        drawer.frozen = set(frozen.players)
        # stored and confirmed to its player; its post waits for a board that never comes, and so
        # does the command's handler (it ends once its channel is shown the move)
        frozen_move = asyncio.ensure_future(move(fake, frozen))
        await until(lambda: drawer.stuck >= 1, "the frozen game's board is asked for")
        await play_on(fake, others)

        ticks = service.ticks
        clock.advance(timedelta(hours=1, minutes=1))
        for seated in others:
            await until(
                lambda s=seated: len(texts(fake, s.chan, "⏰")) == 1, "a reminder at every other table"
            )
        clock.advance(timedelta(hours=2))
        for seated in others:
            await until(
                lambda s=seated: any("the game is over" in m.content for m in bot_posts(fake, s.chan)),
                "the forfeit",
            )
        await until(lambda: service.ticks >= ticks + 5, "the timed loop ticking on")
        assert len(bot_posts(fake, frozen.chan)) == 1 and not texts(fake, frozen.chan, "⏰")

        drawer.thaw()
        await asyncio.wait_for(frozen_move, HANG_LIMIT)
        await until(lambda: len(bot_posts(fake, frozen.chan)) >= 2, "the frozen game's post, once thawed")
        await fake.stop_bot()
    store = await db.open_store(settings.database_path)
    try:
        assert await store.unannounced() == []
        for seated in others:
            record = await store.latest_game(seated.chan.id)
            assert record is not None and record.status == "over" and record.version == 1
        record = await store.latest_game(frozen.chan.id)
        assert record is not None and record.version == 1
    finally:
        await store.close()


async def test_a_channel_discord_never_answers_holds_up_no_other_and_sigterm_still_stops(
    tmp_path: Path,
) -> None:
    """The bot as a real process: Discord takes one channel's posts and never answers, the other five
    tables play on with their moves posted and the timed loop ticking, and a SIGTERM ends the bot
    cleanly once its grace is over, the stuck post cancelled (its move is caught up at the next
    start)."""
    database = tmp_path / "bot.sqlite3"
    env = {"SHUTDOWN_GRACE": "1", "TICK_SECONDS": "0.05", "HEARTBEAT_PATH": str(tmp_path / "heartbeat")}
    async with FakeDiscord() as fake:
        tables = seat_tables(fake)
        bot = await BotProcess.start(fake, database, env)
        await bot.ready()
        await open_tables(fake, tables, "")
        frozen, others = tables[0], tables[1:]
        held = fake.hold_posts(frozen.chan.id)  # released only once the bot is gone
        frozen_move = asyncio.ensure_future(move(fake, frozen))
        await until(lambda: fake.held_requests >= 1, "the frozen channel's post is held")
        await play_on(fake, others)
        ticked = (tmp_path / "heartbeat").read_text()
        await until(lambda: (tmp_path / "heartbeat").read_text() != ticked, "a later tick's heartbeat")
        bot.signal(signal.SIGTERM)
        assert await bot.exited() == 0, bot.log
        held.set()
        frozen_move.cancel()
    assert "stopped after" in bot.log and "were cancelled" in bot.log, bot.log
    assert "stopped cleanly" in bot.log and "Traceback" not in bot.log, bot.log
    store = await db.open_store(database)
    try:
        assert [r.channel for r in await store.unannounced()] == [frozen.chan.id]
    finally:
        await store.close()
