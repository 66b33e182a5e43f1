"""Time-driven work over the store: catch-up posts, reminders and deadlines.

One ``tick`` does everything that is due at the clock's current time, reading only what is stored,
so it can run from any loop (discord.py's ``tasks.loop`` in the bot, ``/clock advance`` in the
console, a test's own calls with an injected clock) and a restart neither drops nor repeats work:

- games whose stored version is ahead of their channel get their catch-up post (a post failed);
- a player waiting longer than the table's reminder pace is reminded, once per due time (the next
  due time is claimed in the store before the reminder is sent, so it is never sent twice);
  with several processes on one store, each game's posts and reminders are made under its claim
  (``Announcer.claimed``), so one process at a time does them;
- at a table's deadline its policy applies once: ``wait`` keeps reminding, ``skip`` plays the
  pending decision's neutral default where the game has one, ``forfeit`` makes the absent side lose,
  ``bot`` has a computer player play for the absent player until they return;
- every running game where a bot is to act gets its move played (one left pending by a restart);
- every kept listing (a player's card, a server's list of games) left behind is brought up to date.

Computer players are never reminded, and nothing is due at a deadline for them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from functools import partial

from db import Announcement, GameRecord, Status
from engine.contract import Result
from engine.errors import GameError
from engine.text import Msg, PlayerRef, msg
from table.bots.players import stand_in_id, stand_ins, takeover_note
from table.core.clock import discord_time, parse_stamp, stamp
from table.core.events import encode_msg, encode_result
from table.core.posts import Post, post_nonce
from table.core.settings import TableSettings, public_locale
from table.core.tables import Table, Tables
from table.core.text import mentions, pings
from table.core.workers import in_background
from table.posting.announce import Announcer, OutletError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TickReport:
    """What one tick did, for logs and tests."""

    caught_up: int = 0
    reminders: int = 0
    deadlines: int = 0


GAME_SECONDS = 20.0
"""How long the timed loop waits for one game's work (its catch-up post, a reminder, a deadline)
before going on to the next game: far longer than a post takes, even with a slow board. The work
itself goes on in the background, and the game is left out of later ticks until it ends."""
GIVE_UP_SECONDS = 600.0
"""How long one game's timed work may go on in the background before it is cancelled (the next tick
does it again from what is stored: a post cancelled half-way is made once, by its nonce)."""


class Scheduler:
    """Runs what is due, over the announcer's tables, outlet and clock.

    One game never holds up another: each game's work runs as a task of its own, waited for at most
    ``game_seconds``; a game whose work is still running (its board slow to draw, Discord slow to
    answer, its announcement stuck) is skipped, with its id in the log, and the tick goes on to the
    next. ``progress`` is called as the tick goes from game to game (the bot's heartbeat: it goes
    stale only when the loop itself is stuck)."""

    def __init__(
        self,
        announcer: Announcer,
        *,
        game_seconds: float = GAME_SECONDS,
        give_up_seconds: float = GIVE_UP_SECONDS,
        progress: Callable[[], None] | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.announcer = announcer
        self._monotonic = monotonic
        self.game_seconds = game_seconds
        self.give_up_seconds = give_up_seconds
        self._progress = progress
        self._work: dict[int, tuple[asyncio.Task[int], float]] = {}
        """Each game's timed work still running after its tick went on: the task and when it began."""

    @property
    def tables(self) -> Tables:
        return self.announcer.tables

    async def tick(self) -> TickReport:
        with in_background():  # what players ask for meanwhile is drawn first
            return await self._tick()

    async def _tick(self) -> TickReport:
        caught_up = await self.announcer.catch_up(within=self._within)
        await self.announcer.bots.resume()
        await self.announcer.listings.resume()
        now = self.announcer.clock()
        reminders = deadlines = 0
        for record, current in await self.tables.store.due(stamp(now)):
            if (
                current.deadline is not None
                and not current.deadline_done
                and parse_stamp(current.deadline) <= now
            ):
                deadlines += await self._within(record, "deadline", partial(self._deadline, record, current))
            elif current.next_reminder is not None and parse_stamp(current.next_reminder) <= now:
                reminders += await self._within(record, "reminder", partial(self._remind, record, current))
        return TickReport(caught_up, reminders, deadlines)

    async def _within(self, record: GameRecord, what: str, work: Callable[[], Awaitable[int]]) -> int:
        """One game's timed work, waited for at most ``game_seconds``; 0 when it is skipped: the
        game's earlier work, or an announcement of it, is still under way (that one brings its
        channel up to date), or this work runs past its time (it goes on in the background)."""
        if self._progress is not None:
            self._progress()
        running = self._work.get(record.id)
        if running is not None:
            task, began = running
            if not task.done():
                seconds = self._monotonic() - began
                if seconds > self.give_up_seconds:
                    log.warning("game #%s: timed work stuck for %.0f s, cancelled", record.id, seconds)
                    task.cancel()
                else:
                    log.warning(
                        "game #%s: timed work still running after %.0f s, skipped", record.id, seconds
                    )
                return 0
            del self._work[record.id]
        if self.announcer.working_on(record.id):
            return 0  # its announcement under way posts what is stored; a reminder waits a tick
        task = asyncio.ensure_future(self._guarded(record, what, work))
        done, _ = await asyncio.wait({task}, timeout=self.game_seconds)
        if not done:
            log.warning(
                "game #%s: %s still running after %g s, skipped this tick",
                record.id,
                what,
                self.game_seconds,
            )
            self._work[record.id] = (task, self._monotonic() - self.game_seconds)
            return 0
        return task.result()

    async def _guarded(self, record: GameRecord, what: str, work: Callable[[], Awaitable[int]]) -> int:
        try:
            return await work()
        except OutletError as exc:
            log.warning("%s for game #%s failed: %s", what, record.id, exc)
        except Exception:
            log.exception("%s for game #%s failed", what, record.id)
        return 0

    def pending(self) -> list[asyncio.Task[int]]:
        """The games' timed work still running in the background (a stop cancels it)."""
        return [task for task, _began in self._work.values() if not task.done()]

    # ---- reminders -------------------------------------------------------------------------------

    async def _remind(self, record: GameRecord, current: Announcement) -> int:
        # Under the game's claim: a reminder's write never lands between another process's handover
        # post and the record of it (which would then be refused, and the post made again).
        async with self.announcer.claimed(record.id) as held:
            return await self._send_reminder(record, current) if held else 0

    async def _send_reminder(self, record: GameRecord, current: Announcement) -> int:
        pace = TableSettings.of(record)
        now = self.announcer.clock()
        claimed = await self.tables.store.save_announcement(
            replace(
                current,
                reminders=current.reminders + 1,
                next_reminder=None if pace.remind is None else stamp(now + pace.remind),
            )
        )
        if claimed is None:
            return 0  # another process (or an earlier tick) sent it
        table = self.tables.table(record)
        standing = await stand_ins(self.tables.store, record)
        waiting = [p for p in pings(current.to_act) if p not in standing]
        if not waiting:
            return 0
        locale = await public_locale(self.tables.store, record)
        lines = [
            self.announcer._t(
                "svc.reminder",
                locale,
                players=mentions(waiting),
                game=self.announcer._game(table, locale),
                since=discord_time(parse_stamp(current.waiting_since or claimed.posted_at or stamp(now))),
            )
        ]
        if current.deadline is not None and not current.deadline_done:
            lines.append(
                self.announcer._t(
                    "svc.reminder.deadline",
                    locale,
                    deadline=discord_time(parse_stamp(current.deadline)),
                    policy=self.announcer._t(f"svc.policy.{pace.on_deadline}", locale),
                )
            )
        nonce = post_nonce(f"g{record.id}", f"w{current.since}", f"r{current.reminders + 1}")
        await self.announcer.outlet.send(
            record.channel, Post("\n".join(lines), mentions=tuple(waiting), nonce=nonce)
        )
        await self.announcer._direct(table, waiting, locale, "svc.dm.reminder")
        return 1

    # ---- deadlines -------------------------------------------------------------------------------

    async def _deadline(self, record: GameRecord, current: Announcement) -> int:
        async with self.announcer.claimed(record.id) as held:
            claimed = held and await self.tables.store.save_announcement(replace(current, deadline_done=True))
        if not claimed:
            return 0  # another process (or an earlier tick) has it
        pace = TableSettings.of(record)
        table = self.tables.table(record)
        standing = await stand_ins(self.tables.store, record)
        absent = [p for p in pings(current.to_act) if p in table.to_act() and p not in standing]
        if not absent or table.state is None:
            return 0
        if pace.on_deadline == "bot":
            await self._take_over(table, absent)
            return 1
        if pace.on_deadline == "skip" and await self._skip(table, absent):
            return 1
        if pace.on_deadline == "forfeit":
            await self._forfeit(table, absent)
            return 1
        await self._notice(table, absent, pace.on_deadline)
        return 1

    async def _notice(self, table: Table, absent: list[str], policy: str) -> None:
        """The deadline passed and nothing is played for the absent players: say so, once."""
        locale = await public_locale(self.tables.store, table.record)
        key = "svc.deadline.wait" if policy == "wait" else "svc.deadline.cannot_skip"
        text = self.announcer._t(
            key, locale, players=mentions(absent), game=self.announcer._game(table, locale)
        )
        nonce = post_nonce(f"g{table.record.id}", f"d{table.record.version}")
        await self.announcer.outlet.send(
            table.record.channel, Post(text, mentions=tuple(absent), nonce=nonce)
        )

    async def _take_over(self, table: Table, absent: list[str]) -> None:
        """A bot plays for each absent player from now on; the channel is told, the log keeps it."""
        record = table.record
        for player in absent:
            await self.tables.store.add_note(
                record.id, record.version, stand_in_id(), encode_msg(takeover_note(player))
            )
        locale = await public_locale(self.tables.store, record)
        text = self.announcer._t(
            "svc.deadline.bot", locale, players=mentions(absent), game=self.announcer._game(table, locale)
        )
        nonce = post_nonce(f"g{record.id}", f"d{record.version}")
        await self.announcer.outlet.send(record.channel, Post(text, mentions=tuple(absent), nonce=nonce))
        self.announcer.bots.poke(record)

    async def _skip(self, table: Table, absent: list[str]) -> bool:
        """Play each absent player's neutral default; False when the game has none for them."""
        played = False
        for player in absent:
            async with self.tables.lock(table.record.channel):
                fresh = await self.tables.open(table.record.channel)
                if fresh is None or fresh.state is None or player not in fresh.to_act():
                    continue
                action = fresh.game.default_action(fresh.state, player)
                if action is None:
                    continue
                try:
                    await self.tables.apply(fresh, player, str(action), version=fresh.record.version)
                except GameError:
                    log.exception(
                        "the deadline default %r of game #%s was refused", str(action), fresh.record.id
                    )
                    continue
                note = msg("svc.deadline.skipped", player=PlayerRef(player))
                # beside the skipped move itself, not the forced moves it may have led to
                await self.tables.store.add_note(
                    fresh.record.id, fresh.record.version + 1, None, encode_msg(note)
                )
            played = True
            await self.announcer.announce(fresh.record.id)
        return played

    async def _forfeit(self, table: Table, absent: list[str]) -> None:
        """The absent sides lose; every other side wins (as if the absent players had resigned)."""
        async with self.tables.lock(table.record.channel):
            fresh = await self.tables.open(table.record.channel)
            if fresh is None or fresh.record.status != "active":
                return
            lost = {fresh.side_of(p) for p in absent}
            winners = tuple(p for p in fresh.record.player_ids if fresh.side_of(p) not in lost)
            reason: Msg = msg("svc.reason.forfeit", players=[PlayerRef(p) for p in absent])
            if winners:
                result = Result(winners=winners, reason=reason)
                status: Status = "over"
            else:
                result = Result(winners=(), reason=msg("svc.reason.all_absent"))
                status = "aborted"
            record = await self.tables.store.finish_game(
                fresh.record.id, version=fresh.record.version, status=status, result=encode_result(result)
            )
            await self.tables.store.add_note(record.id, record.version, None, encode_msg(result.reason))
        await self.announcer.announce(record.id)
