"""Public posts of a game's channel: one new post per handover, the board kept current in place.

What a channel has been shown is stored with the game (``db.Announcement``): the last version and
status announced, the handover post, who it asked to act. Announcing is a function of what is
stored, never of the command that caused it, so the same code posts after a move, after a
resignation, after a deadline and after a crash (the catch-up at start-up):

- when the players to act change, or the game ends, a **new post**: the board, a summary of every
  action since the previous handover began, and a mention of whoever acts now (the only ping);
- while the same players keep acting, the handover post is **edited** in place with the new board
  and the growing summary, edits coming within ``coalesce`` seconds folded into one; where the
  front end cannot edit it (Discord limits edits of messages older than an hour), a new post is
  made, without pinging again;
- a player who asked for it (``/notify``) also gets a direct message at each handover to them;
- each player's own time is kept (``table.posting.waits``): a player in their quiet hours or away is
  named without a ping (a ping follows when the quiet hours end), the channel is told once that an
  away player is awaited, and the post says when the players left are the last of a phase.

A post that fails leaves the game unannounced; the scheduler's next tick tries again. The front end
provides an ``Outlet``: Discord channels, or the console.

The announcer composes small collaborators, one per concern: the claims (``table.posting.claims``:
which process posts for a game, several sharing one store), the folding of edits
(``table.posting.folding``), the boards (``table.posting.boards``: drawn early, latest wins), the
plan and words of each post (``table.posting.planning``) and the results of ended games
(``table.posting.results``: recorded where the end is posted).

Each post carries a nonce naming what it announces (``announcement_nonce``), so that a post repeated
after a crash is one Discord has already made, and returns instead of being made twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from db import Announcement, Announcing, GameRecord
from table.bots.explain import explains_last
from table.bots.players import (
    ComputerPlayers,
    away_takeover_note,
    may_have_bots,
    stand_in_id,
    stand_ins_in,
    table_level,
)
from table.core.clock import Clock, Timer, parse_stamp, stamp, system_clock
from table.core.events import encode_msg
from table.core.limits import Limits
from table.core.marks import channel_link
from table.core.posts import Post, pictured, post_nonce
from table.core.settings import TableSettings, locale_of
from table.core.tables import Table, Tables
from table.core.tasks import GameTasks
from table.core.text import mentions, pings
from table.core.wording import Wording
from table.core.workers import Superseded
from table.posting.boards import Boards, revision
from table.posting.channels import Channels
from table.posting.claims import DEFAULT_LEASE, Claims, claim_key, process_owner
from table.posting.folding import Folding, Sleep
from table.posting.listings import PACE, Listings
from table.posting.menus import board_buttons
from table.posting.outlet import Outlet, OutletError
from table.posting.owners import ALL_SHARDS
from table.posting.planning import SPILL, Fitted, Plan, Planner, PostLines, fit
from table.posting.results import Ended, Results
from table.posting.waits import Handover, Waits

log = logging.getLogger(__name__)


def announcement_nonce(record: GameRecord, limits: Limits) -> str:
    """The nonce of the post announcing the game's stored version and status: a process that dies
    after Discord created the post and before the store recorded it makes the same post again at
    its next start, and Discord returns the first message instead of creating a second one."""
    return post_nonce(f"g{record.id}", f"v{record.version}", record.status, limits=limits)


@dataclass
class RecordingOutlet:
    """An outlet that keeps what it is given: for front ends without a channel, and for tests.
    Kept direct messages are numbered ``d1``, ``d2``...; a message id in ``deleted`` is gone (its
    edit answers False, as Discord's Unknown Message)."""

    sent: list[tuple[str, Post]] | None = None
    edits: list[tuple[str, str, Post]] | None = None
    dms: list[tuple[str, Post]] | None = None
    dm_edits: list[tuple[str, str, Post]] = field(default_factory=list)
    deleted: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.sent = [] if self.sent is None else self.sent
        self.edits = [] if self.edits is None else self.edits
        self.dms = [] if self.dms is None else self.dms

    async def send(self, channel: str, post: Post) -> str:
        assert self.sent is not None
        self.sent.append((channel, post))
        return f"m{len(self.sent)}"

    async def edit(self, channel: str, message: str, post: Post) -> bool:
        assert self.edits is not None
        self.edits.append((channel, message, post))
        return True

    async def direct(self, user: str, post: Post) -> bool:
        assert self.dms is not None
        self.dms.append((user, post))
        return True

    async def send_direct(self, user: str, post: Post) -> str | None:
        await self.direct(user, post)
        assert self.dms is not None
        return f"d{len(self.dms)}"

    async def edit_direct(self, user: str, message: str, post: Post) -> bool:
        if message in self.deleted:
            return False
        self.dm_edits.append((user, message, post))
        return True

    async def edit_kept(self, channel: str, message: str, post: Post) -> bool:
        if message in self.deleted:
            return False
        return await self.edit(channel, message, post)


Timed = Callable[[datetime], Awaitable[int]]
"""Timed work beside the games' (a league's rounds): run by each scheduler tick with the clock's time."""
Within = Callable[[GameRecord, str, Callable[[], Awaitable[int]]], Awaitable[int]]
"""How one game's timed work is run (``Scheduler._start``): the game, what the work is, the work."""


class Announcer:
    """Posts what the store holds and the channel was not shown yet; one game at a time."""

    def __init__(
        self,
        tables: Tables,
        outlet: Outlet,
        *,
        clock: Clock = system_clock,
        coalesce: float = 3.0,
        sleep: Sleep = asyncio.sleep,
        link: Callable[[GameRecord], str] | None = None,
        owner: str | None = None,
        lease: float = DEFAULT_LEASE,
        monotonic: Callable[[], float] = time.monotonic,
        listing_pace: float = PACE,
        listing_timer: Timer | None = None,
    ) -> None:
        self.tables = tables
        self.channels = Channels(tables.store, outlet, clock=clock, monotonic=monotonic, sleep=sleep)
        """Each channel's rate, which every post and edit keeps to, and the channels that refuse the
        bot (docs/architecture.md, "Rates and refusals")."""
        self.outlet = self.channels.outlet
        self.clock = clock
        self.words = Wording()
        self.link: Callable[[GameRecord], str] = link or (lambda record: channel_link(record.channel))
        self.claims = Claims(tables.store, owner=owner, lease=lease, monotonic=monotonic)
        """Which process posts for each game, and this process's lock on each game's channel work."""
        self.folding = Folding(coalesce, sleep=sleep, monotonic=monotonic)
        """Edits of the same turn's post, folded into one within the coalescing window."""
        self.planner = Planner(self.words, clock, tables.limits)
        """What each announcement does and says."""
        self.results = Results(tables.store)
        """The results of ended games, recorded where their end is posted, and those told of ends."""
        self._tasks = GameTasks("announcing")
        self.bots = ComputerPlayers(tables, self._post_soon, self.settled, clock=clock, notices=self.outlet)
        """The computer players: poked with every change, so a bot to act plays after it is shown."""
        self.waits = Waits(tables.store, self.words)
        """Each player's own time applied to the game's waits: quiet hours, time off, own pace."""
        self.boards = Boards(tables, self.waits, clock)
        """The boards of the posts: drawn as soon as a move is stored, the newest version only."""
        timer = listing_timer or Timer(monotonic, sleep)
        self.listings = Listings(
            tables,
            self.outlet,
            clock=clock,
            pace=listing_pace,
            monotonic=timer.monotonic,
            sleep=timer.sleep,
            words=self.words,
        )
        """Players' cards and servers' lists of games: told of every change a post shows (a handover,
        a start or an end, a post made anew), kept up to date at their pace."""
        self.channels.faults.closed = self.listings.changed
        self.timed: list[Timed] = []
        """Timed work of others (the leagues'), which the scheduler's tick runs after the games'."""
        self.ended: list[Ended] = self.results.ended
        """Told of each game whose end this process posted, once posted."""

    @property
    def owner(self) -> str:
        """This process's name in the claims it holds."""
        return self.claims.owner

    @property
    def lease(self) -> float:
        """Seconds a claim of this process lasts unless renewed."""
        return self.claims.lease

    # ---- scheduling ------------------------------------------------------------------------------

    def poke(self, table: Table) -> None:
        """Announce the table's game soon, in a task of its own, then have its bots play what falls
        to them; returns at once."""
        self._post_soon(table)
        self.bots.poke(table.record)

    def _post_soon(self, table: Table) -> None:
        record = table.record
        self.channels.seen(record)
        self.boards.queued(record)
        self.folding.moved(record.id, table.to_act() if record.status == "active" else None)
        running = self._tasks.get(record.id)
        if self._draws_ahead(record.id):
            self.boards.draw_early(table)
        self._tasks.start(record.id, record.channel, self._announce_after(running, record.id))

    async def _announce_after(self, previous: asyncio.Task[None] | None, game_id: int) -> None:
        try:
            if previous is not None:
                with contextlib.suppress(Exception):
                    await previous
            await self.announce(game_id)
        except OutletError as exc:  # the next tick's catch-up tries again
            log.warning("announcing game #%s failed: %s", game_id, exc)
        finally:
            self.boards.drop_early(game_id)
            if self._tasks.get(game_id) in (None, asyncio.current_task()):
                self.boards.done(game_id)  # no newer announcement is queued

    def _draws_ahead(self, game_id: int) -> bool:
        """Whether a stored move's board is drawn at once, while its announcement takes its claim and
        reads the game: when nothing is being announced (this version is the one its announcement
        will show), no edit waits to be folded, and a drawing would start at once. A busy bot (a burst
        of moves) draws as it announces instead, each game's newest version only."""
        return not self._tasks.busy() and not self.folding.coalescing(game_id) and self.tables.drawer.idle()

    def busy(self) -> bool:
        """Whether a post or a computer player's decision is under way."""
        return self._tasks.busy() or bool(self.bots.pending())

    def stop(self) -> None:
        """A stop of the bot begins: the computer players start no new decision, no listing waits for
        its turn; the posts under way go on (``drain`` waits for them, ``cancel`` ends them)."""
        self.bots.stop()
        self.listings.stop()

    def cancel(self) -> list[asyncio.Future[Any]]:
        """Cancel every post and bot decision still under way (a stop whose grace ran out: what is
        stored and not shown is caught up at the next start); the tasks to wait for."""
        pending: list[asyncio.Future[Any]] = [*self._tasks.pending(), *self.bots.pending()]
        pending += self.boards.pending()
        pending += self.listings.pending()
        for future in pending:
            future.cancel()
        return pending

    async def drain(self, channel: str | None = None) -> None:
        """Wait until the pending announcements and bot moves (of ``channel``, or all) are done, and
        then (all of them only) the listings' refreshes."""
        while pending := [*self._tasks.pending(channel), *self.bots.pending(channel)]:
            await asyncio.gather(*pending, return_exceptions=True)
        if channel is None:
            await self.listings.drain()

    async def settled(self, game_id: int) -> None:
        """Wait until the game's pending announcement, if any, is posted."""
        while (running := self._tasks.get(game_id)) is not None:
            await asyncio.gather(running, return_exceptions=True)

    async def catch_up(self, within: Within | None = None) -> int:
        """Announce every game whose stored version or status is ahead of its channel; how many this
        process announced (a game another process is announcing is left to it). ``within`` runs each
        game's announcement (the timed loop's: one game at a time, each within its time). Then the
        results of games ended before they were kept are recorded."""
        announced = 0
        for record in await self.tables.store.unannounced():
            work = functools.partial(self._caught_up, record)
            announced += await (within(record, "catch-up", work) if within is not None else work())
        await self.results.catch_up()
        return announced

    async def _caught_up(self, record: GameRecord) -> int:
        try:
            return int(await self.announce(record.id))
        except OutletError as exc:
            log.warning("catch-up of game #%s in %s failed: %s", record.id, record.channel, exc)
            return 0

    # ---- the claim: one process posts for a game at a time (``table.posting.claims``) ------------

    def working_on(self, game_id: int) -> bool:
        """Whether the game's channel work is under way in this process (an announcement, a
        reminder): whatever it leaves undone, the next look at the game does."""
        return self.claims.working_on(game_id)

    async def take_over(self, scope: str = ALL_SHARDS, *, sole: bool = True) -> int:
        """At start-up, before any work: take the claims this process's predecessors left
        (``Claims.take_over``); how many were taken."""
        return await self.claims.take_over(scope, sole=sole)

    async def release_all(self) -> int:
        """Give up every claim this process holds (a clean stop); how many there were."""
        return await self.claims.release_all()

    def claimed(self, game_id: int) -> contextlib.AbstractAsyncContextManager[bool]:
        """Hold the game's channel work (``Claims.claimed``): yields whether this process has it."""
        return self.claims.claimed(game_id)

    # ---- announcing ------------------------------------------------------------------------------

    async def announce(self, game_id: int) -> bool:
        """Bring the game's channel up to date with the store (nothing when it already is); whether
        this process posted or edited anything. A caller other than the game's own announcements (the
        timed loop) leaves the game to the announcement queued for it here, which reads the store when
        its turn in the channel's rate comes, rather than waiting for that turn as well."""
        if self._tasks.get(game_id) is not None and asyncio.current_task() not in self._tasks.pending():
            return False
        async with self.claimed(game_id) as held:
            published = False
            superseded: tuple[int, bool] | None = None  # the revision found outdated, if any
            while held:
                await self.channels.ready(game_id)  # moves stored while it waits are in this post
                read = await self.tables.store.announcing(game_id)
                record, current = read.game, read.announcement
                if record is None or record.state is None:
                    break
                if current is not None and (current.version, current.status) == (
                    record.version,
                    record.status,
                ):
                    break
                if not self.channels.open_to(record):
                    break  # the channel refuses the bot: left alone until its next try
                table = self.tables.table(record)
                plan = self.planner.plan(table, current, read)
                if not plan.new_post and await self.folding.wait(game_id, table.to_act()):
                    continue  # read again: moves made meanwhile fold into this edit
                # A post goes out only under a live claim: a stalled process may have lost it.
                if not await self.claims.still_held(game_id):
                    log.warning("the claim on game #%s lapsed; another process announces it", game_id)
                    break
                try:
                    # Latest wins once: the version read again after an outdated one waits its turn
                    # again and is then drawn whatever came meanwhile, so a game that keeps moving
                    # during a burst is still shown rather than sent to the back of the queue forever.
                    done = await self._publish(table, read, plan, latest_wins=superseded is None)
                except Superseded:
                    superseded = revision(record)
                    log.debug("game #%s moved on before its board's turn: the newer one is drawn", game_id)
                    continue  # read again: the newer version is announced instead
                if done:
                    published = True
                    break
            return published

    async def _publish(self, table: Table, read: Announcing, plan: Plan, *, latest_wins: bool = True) -> bool:
        """Post or edit, then record it; False when another writer recorded first (read again).
        Raises ``Superseded`` (nothing posted) when the board, with ``latest_wins``, is outdated
        when its turn to be drawn comes. ``read`` is the store's snapshot the post is made of: the
        game, its announcement, its log, notes and server settings (one trip for all)."""
        record, current = table.record, read.announcement
        settings = TableSettings.of(record)
        locale = locale_of(record, read.guild_settings)
        now = self.clock()
        # a player a bot plays for is not called to a turn the bot takes at once
        standing = stand_ins_in(read.notes) if plan.ping and may_have_bots(record) else {}
        wait: Handover | None = None
        held: frozenset[str] = frozenset()
        if plan.handover and record.status == "active":
            wait = await self.waits.handover(table, current, standing, locale, now)
            held = wait.held
        elif plan.ping:  # the game's end names everyone, and pings only those it may reach now
            held = await self.waits.unreachable(record, plan.ping, now)
        since = self.planner.since(plan, current, record.version)
        summary_from = self.planner.summary_from(plan, current)
        message = current.message if current else None
        limit = self.planner.limit(plan, message)
        # The board is drawn in a worker while the text's reads go to the store: a move is
        # announced as soon as the slower of the two is done, not after both.
        drawing = asyncio.ensure_future(self.boards.board(table, locale, latest_wins=latest_wins))
        try:
            extra: tuple[str, ...] = () if wait is None else tuple(wait.lines)
            if record.status != "active":  # the game's end: its result is recorded, with its ratings
                extra += self.results.ratings_line(await self.results.record(record), table, locale)
            lines = self.planner.lines(table, read, plan, locale, summary_from, extra)
            text = self._text(table, lines, locale, limit)
            if (
                plan.handover
                and current is not None
                and len(text) > self.tables.limits.text
                and summary_from < current.version
            ):
                # retelling the last turn besides the moves the channel was not shown does not fit
                summary_from = current.version
                lines = self.planner.lines(table, read, plan, locale, summary_from, extra)
                text = self._text(table, lines, locale, limit)
        except BaseException:
            drawing.cancel()
            raise
        picture = await drawing
        ping = tuple(p for p in pings(plan.ping) if p not in standing and p not in held)
        post = Post(
            text,
            mentions=ping,
            buttons=board_buttons(table, locale, explained=explains_last(read, record.version)),
            nonce=announcement_nonce(record, self.tables.limits),
            **pictured(picture),
        )
        posted_at = current.posted_at if current else None
        if plan.new_post or message is None:
            message = await self._send(record.channel, post)
            posted_at = stamp(now)
        elif await self.outlet.edit(record.channel, message, post):
            self.folding.edited(record.id)
        else:
            message = await self.outlet.send(record.channel, replace(post, mentions=()))
            posted_at = stamp(now)
        base = current or Announcement(record.id, record.version, record.status, 0, 0)
        fields: dict[str, Any] = {
            "version": record.version,
            "status": record.status,
            "message": message,
            "posted_at": posted_at,
            "since": since,
            "summary_from": summary_from,
        }
        if plan.handover:
            fields.update(
                to_act=tuple(table.to_act()), **settings.new_wait(now, active=record.status == "active")
            )
            if wait is not None:
                fields.update(
                    timing=wait.timing.to_json(), next_reminder=wait.next_reminder, deadline=wait.deadline
                )
        elif record.status == "active" and current is not None:
            acted = {entry.player for entry in read.actions(current.version, record.version)}
            fields.update(self.waits.activity(base, acted, now) or settings.activity(now, base))
        saved = await self.tables.store.save_announcement(replace(base, **fields))
        if saved is None:
            log.warning("game #%s was announced by another writer meanwhile", record.id)
            return False
        if plan.new_post or message != (current.message if current else None):
            self.listings.changed(record)  # whose turn, since when, or the latest post changed
        if wait is not None:
            await self._taken_over(table, wait.takeovers)
            last = self.words.t("svc.dm.last_one", locale) if wait.timing.last else ""
            # a player already asked to act hears again only that the game now waits for them alone
            told = [p for p in ping if p in plan.fresh or last]
            await self.direct(table, told, locale, "svc.dm.turn", extra=last)
        if record.status != "active" and (current is None or current.status == "active"):
            await self.results.tell_ended(record)
        return True

    def _text(self, table: Table, lines: PostLines, locale: str, limit: int) -> str:
        """The post's words (``Planner.fitted``), with a line of the log when some had to go."""
        fitted = self.planner.fitted(lines, locale, limit)
        if fitted.left_out:
            log.info("game #%s: earlier actions left out of its post: %d", table.record.id, fitted.left_out)
        if fitted.squeezed:
            log.warning("game #%s: the lines of its post that stay were shortened to fit", table.record.id)
        return fitted.text

    async def _taken_over(self, table: Table, players: Sequence[str]) -> None:
        """A bot plays from now on for each of ``players``, away at an ``away=bot`` table: its note
        goes in the log (the game is then unrated, as with a deadline's stand-in), and the bots look."""
        if not players:
            return
        record = table.record
        actor = stand_in_id(table_level(record))
        for player in players:
            await self.tables.store.add_note(
                record.id, record.version, actor, encode_msg(away_takeover_note(player))
            )
        self.bots.poke(record)

    async def _send(self, channel: str, post: Post) -> str:
        """A new post; one longer than a message goes as several, the board and the ping with the
        last (the handover post, edited later), each within the channel's rate."""
        *lead, last = self.planner.pieces(post)
        for piece in lead:
            await self.outlet.send(channel, piece)
        return await self.outlet.send(channel, last)

    async def direct(
        self,
        table: Table,
        players: Sequence[str],
        locale: str,
        key: str,
        *,
        extra: str = "",
        **params: object,
    ) -> None:
        """Direct messages to the players who asked for them; a refusal is silently the channel's job.
        A player who also asked for the text board (``/notify text:``) gets the position as text in
        the same message, so a screen reader reads where things stand before they act."""
        for player in pings(players):
            if not await self.tables.store.notify(player):
                continue
            game = self.words.game(table, locale)
            text = self.words.t(key, locale, names=None, game=game, link=self.link(table.record), **params)
            if extra:
                text += "\n" + extra
            if table.state is not None and await self.tables.store.text_board(player):
                text += "\n\n" + self.words.text_board_post(table, player, locale).text
            try:
                await self.outlet.direct(player, Post(text))
            except Exception:
                log.warning("direct message to %s about game #%s failed", player, table.record.id)


def waited(since: str | None, now: datetime) -> timedelta:
    return timedelta(0) if since is None else now - parse_stamp(since)


__all__ = [
    "DEFAULT_LEASE",
    "SPILL",
    "Announcer",
    "Fitted",
    "Outlet",
    "OutletError",
    "PostLines",
    "RecordingOutlet",
    "claim_key",
    "fit",
    "mentions",
    "process_owner",
    "waited",
]
