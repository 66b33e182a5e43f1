"""Time-driven work over the store: catch-up posts, reminders and deadlines.

One ``tick`` does everything that is due at the clock's current time, reading only what is stored,
so it can run from any loop (discord.py's ``tasks.loop`` in the bot, ``/clock advance`` in the
console, a test's own calls with an injected clock) and a restart neither drops nor repeats work:

- games whose stored version is ahead of their channel get their catch-up post (a post failed);
- a player waiting longer than their reminder pace (their own, else the table's) is reminded, once
  per due time (the next due time is claimed in the store before the reminder is sent, so it is never
  sent twice), never in their quiet hours nor while they are away (``table.posting.waits``): a
  reminder due then, and a handover's ping held back by quiet hours, go out when those hours end;
  with several processes on one store, each game's posts and reminders are made under its claim
  (``Announcer.claimed``), so one process at a time does them;
- at a table's deadline its policy applies once: ``wait`` keeps reminding, ``skip`` plays the
  pending decision's neutral default where the game has one, ``forfeit`` makes the absent side lose,
  ``bot`` has a computer player play for the absent player until they return; the deadline's clock
  stands still while an awaited player is away (``away=pause``), and it never acts on a player in
  their quiet hours: it moves to their end;
- every running game where a bot is to act gets its move played (one left pending by a restart);
- every kept listing (a player's card, a server's list of games) left behind is brought up to date.

Computer players are never reminded, and nothing is due at a deadline for them.

On Discord the tick runs in a ``tasks.loop`` (``cogs/service.py``). One game never holds up another: each
game's timed work (its catch-up post, a reminder, a deadline) runs as a task of its own, four games at a time
(``AT_ONCE``), each holding its turn for at most ``GAME_SECONDS`` (10 s), and a tick waits for the work it
started at most that long. Work still running then (a board slow to draw, Discord slow to answer in a channel,
an announcement stuck) goes on in the background with its game's id in the log, and its game is left out of
later ticks until it ends; after ``GIVE_UP_SECONDS`` (10 minutes) it is cancelled and done afresh from what is
stored (a post cancelled half-way is made once, by its nonce). A game whose announcement is under way is not
waited for at all: that announcement posts what is stored. The bot's heartbeat is written at the end of each
tick and, at most every 10 s, as a long tick goes on, so it goes stale only when the loop itself is stuck. A
stop cancels the timed work still running once its grace is over (``tests/discord/test_frozen_game.py``). The
tick's drawings are asked for in the background (``table.core.workers.in_background``): a board a player's
move asks for meanwhile is drawn first.

Other timed work than the games' runs after theirs in the same tick: the functions in the announcer's
``timed`` list, each called with the clock's time (the leagues': rounds whose time is up, games still to
make). The announcer also tells the functions in its ``ended`` list of each game whose end it has just posted,
so a league counts the result at once rather than at the next tick.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial

from db import Announcement, GameRecord, Status
from engine.contract import Result
from engine.errors import GameError
from engine.text import Msg, PlayerRef, msg
from table.bots.players import stand_in_id, stand_ins, takeover_note
from table.core.clock import parse_stamp, stamp
from table.core.events import encode_msg, encode_result
from table.core.marks import moment
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


GAME_SECONDS = 10.0
"""How long a tick waits for the games' work it started (catch-up posts, reminders, deadlines)
before it ends: far longer than a post takes, even with a slow board and a busy channel. Work still
running goes on in the background, and its game is left out of later ticks until it ends."""
GIVE_UP_SECONDS = 600.0
"""How long one game's timed work may go on in the background before it is cancelled (the next tick
does it again from what is stored: a post cancelled half-way is made once, by its nonce)."""
AT_ONCE = 4
"""Games whose timed work runs at the same time: a restart's catch-up of many games takes its turn
with the players' moves rather than all the bot's time at once."""


class Scheduler:
    """Runs what is due, over the announcer's tables, outlet and clock.

    One game never holds up another: each game's work runs as a task of its own (``AT_ONCE`` at a
    time), and a tick waits for them at most ``game_seconds``; a game whose work is still running
    then (its board slow to draw, Discord slow to answer, its announcement stuck) is left to finish
    in the background, with its id in the log, and skipped by the ticks that follow until it ends.
    A game whose announcement is under way is not waited for at all: that announcement posts what
    is stored. ``progress`` is called at each step of a tick (the bot's heartbeat: it goes stale only
    when the loop itself is stuck)."""

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
        self._work: dict[int, tuple[asyncio.Task[int], float | None]] = {}
        """Each game's timed work until it ends: the task, and when it began (None while it waits
        for its turn)."""
        self._started: list[tuple[GameRecord, str, asyncio.Task[int]]] = []
        """The work the tick under way started, to wait for."""
        self._turns = asyncio.Semaphore(AT_ONCE)

    @property
    def tables(self) -> Tables:
        return self.announcer.tables

    async def tick(self) -> TickReport:
        with in_background():  # what players ask for meanwhile is drawn first
            return await self._tick()

    async def _tick(self) -> TickReport:
        await self.announcer.catch_up(within=self._start)
        caught_up = await self._finish()
        await self.announcer.bots.resume()
        await self.announcer.listings.resume()
        now = self.announcer.clock()
        for record, current in await self.tables.store.due(stamp(now)):
            if (
                current.deadline is not None
                and not current.deadline_done
                and parse_stamp(current.deadline) <= now
            ):
                await self._start(record, "deadline", partial(self._deadline, record, current))
            elif current.next_reminder is not None and parse_stamp(current.next_reminder) <= now:
                await self._start(record, "reminder", partial(self._remind, record, current))
        started = list(self._started)
        await self._finish()
        await self._others(now)
        done = {what: 0 for what in ("deadline", "reminder")}
        for _record, what, task in started:
            if task.done() and not task.cancelled():
                done[what] += task.result()
        return TickReport(caught_up, done["reminder"], done["deadline"])

    async def _start(self, record: GameRecord, what: str, work: Callable[[], Awaitable[int]]) -> int:
        """Start one game's timed work, unless the game's earlier work or an announcement of it is
        still under way (that one brings its channel up to date; a reminder waits a tick). Returns
        0: what it did is counted once the tick has waited for it (``_finish``)."""
        running = self._work.get(record.id)
        if running is not None:
            task, began = running
            seconds = 0.0 if began is None else self._monotonic() - began
            if seconds > self.give_up_seconds:
                log.warning("game #%s: timed work stuck for %.0f s, cancelled", record.id, seconds)
                task.cancel()
            else:
                log.info("game #%s: timed work running for %.0f s, skipped", record.id, seconds)
            return 0
        if self.announcer.working_on(record.id):
            return 0
        task = asyncio.ensure_future(self._guarded(record, what, work))
        self._work[record.id] = (task, None)
        task.add_done_callback(lambda _done: self._ended(record.id, task))
        self._started.append((record, what, task))
        return 0

    def _ended(self, game_id: int, task: asyncio.Task[int]) -> None:
        if self._work.get(game_id, (None, 0.0))[0] is task:
            del self._work[game_id]

    async def _finish(self) -> int:
        """Wait for the work this tick started, at most ``game_seconds`` in all; what the work that
        ended did (a count). Work still running goes on in the background, each game named."""
        started, self._started = self._started, []
        if self._progress is not None:
            self._progress()
        if not started:
            return 0
        done, _ = await asyncio.wait({task for _r, _w, task in started}, timeout=self.game_seconds)
        for record, what, task in started:
            if task not in done:
                log.warning(
                    "game #%s: %s still running after %g s, left to finish",
                    record.id,
                    what,
                    self.game_seconds,
                )
        return sum(task.result() for _r, _w, task in started if task in done and not task.cancelled())

    async def _guarded(self, record: GameRecord, what: str, work: Callable[[], Awaitable[int]]) -> int:
        """The work in its turn: ``AT_ONCE`` games at a time, each holding its turn for at most
        ``game_seconds`` (a game stuck for good then goes on without it, and holds up nobody)."""
        await self._turns.acquire()
        held = [True]

        def give_turn() -> None:
            if held[0]:
                held[0] = False
                self._turns.release()

        task = asyncio.current_task()
        if task is not None and self._work.get(record.id, (None, None))[0] is task:
            self._work[record.id] = (task, self._monotonic())
        overdue = asyncio.get_running_loop().call_later(self.game_seconds, give_turn)
        try:
            return await work()
        except OutletError as exc:
            log.warning("%s for game #%s failed: %s", what, record.id, exc)
        except Exception:
            log.exception("%s for game #%s failed", what, record.id)
        finally:
            overdue.cancel()
            give_turn()
        return 0

    async def _others(self, now: datetime) -> None:
        """The timed work of others (the leagues': rounds that end, games to make), after the games'."""
        for work in list(self.announcer.timed):
            try:
                await work(now)
            except Exception:
                log.exception("timed work %r failed", work)

    def pending(self) -> list[asyncio.Task[int]]:
        """The games' timed work still running (a stop cancels it)."""
        return [task for task, _began in self._work.values() if not task.done()]

    # ---- reminders -------------------------------------------------------------------------------

    async def _remind(self, record: GameRecord, current: Announcement) -> int:
        # Under the game's claim: a reminder's write never lands between another process's handover
        # post and the record of it (which would then be refused, and the post made again).
        async with self.announcer.claimed(record.id) as held:
            return await self._send_reminder(record, current) if held else 0

    async def _send_reminder(self, record: GameRecord, current: Announcement) -> int:
        """Remind the players whose reminder is due, and ping those whose handover ping their quiet
        hours held back, once each: what is due is written to the store before anything is sent."""
        pace = TableSettings.of(record)
        now = self.announcer.clock()
        standing = await stand_ins(self.tables.store, record)
        due = await self.announcer.waits.reminders(record, current, standing, now)
        sending = bool(due.remind or due.ping)
        claimed = await self.tables.store.save_announcement(
            replace(
                current,
                reminders=current.reminders + int(sending),
                next_reminder=due.next_reminder,
                timing=due.timing.to_json(),
            )
        )
        if claimed is None or not sending:
            return 0  # another process (or an earlier tick) sent it, or nobody is due yet
        table = self.tables.table(record)
        locale = await public_locale(self.tables.store, record)
        announcer, words = self.announcer, self.announcer.words
        game = words.game(table, locale)
        since = moment(parse_stamp(current.waiting_since or claimed.posted_at or stamp(now)))
        last = [words.t("svc.last_one", locale, players=mentions(table.to_act(), table.names))]
        last = last if due.timing.last else []
        dm_last = words.t("svc.dm.last_one", locale) if due.timing.last else ""
        wait = (f"g{record.id}", f"w{current.since}")
        if due.ping:
            text = words.t("svc.turn_ping", locale, players=mentions(due.ping), game=game, since=since)
            nonce = post_nonce(*wait, f"p{current.reminders + 1}", limits=self.tables.limits)
            await announcer.outlet.send(
                record.channel, Post("\n".join([text, *last]), mentions=due.ping, nonce=nonce)
            )
            await announcer.direct(table, due.ping, locale, "svc.dm.turn", extra=dm_last)
        if due.remind:
            lines = [words.t("svc.reminder", locale, players=mentions(due.remind), game=game, since=since)]
            if current.deadline is not None and not current.deadline_done:
                lines.append(
                    words.t(
                        "svc.reminder.deadline",
                        locale,
                        deadline=moment(parse_stamp(current.deadline)),
                        policy=words.t(f"svc.policy.{pace.on_deadline}", locale),
                    )
                )
            nonce = post_nonce(*wait, f"r{current.reminders + 1}", limits=self.tables.limits)
            await announcer.outlet.send(
                record.channel, Post("\n".join([*lines, *last]), mentions=due.remind, nonce=nonce)
            )
            await announcer.direct(table, due.remind, locale, "svc.dm.reminder", extra=dm_last)
        return 1

    # ---- deadlines -------------------------------------------------------------------------------

    async def _deadline(self, record: GameRecord, current: Announcement) -> int:
        """The deadline's policy, once, on the absent players; or, while away players pause the table
        or an absent player is in their quiet hours, the time to look again."""
        store = self.tables.store
        table = self.tables.table(record)
        async with self.announcer.claimed(record.id) as held:
            if not held:
                return 0  # another process has it
            standing = await stand_ins(store, record)
            absent = [p for p in pings(current.to_act) if p in table.to_act() and p not in standing]
            if not absent or table.state is None:
                await store.save_announcement(replace(current, deadline_done=True))
                return 0
            check = await self.announcer.waits.deadline(record, current, absent, self.announcer.clock())
            timing = check.timing.to_json()
            if not check.acts:
                await store.save_announcement(replace(current, deadline=check.deadline, timing=timing))
                return 0
            claimed = await store.save_announcement(replace(current, deadline_done=True, timing=timing))
        if not claimed:
            return 0  # an earlier tick has it
        pace = TableSettings.of(record)
        absent = list(check.absent)
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
        text = self.announcer.words.t(
            key, locale, players=mentions(absent), game=self.announcer.words.game(table, locale)
        )
        nonce = post_nonce(f"g{table.record.id}", f"d{table.record.version}", limits=self.tables.limits)
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
        text = self.announcer.words.t(
            "svc.deadline.bot",
            locale,
            players=mentions(absent),
            game=self.announcer.words.game(table, locale),
        )
        nonce = post_nonce(f"g{record.id}", f"d{record.version}", limits=self.tables.limits)
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
