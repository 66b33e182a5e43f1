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

Several processes may share one store (shards): each announcement is made under the game's claim in
the store (``claimed``), so exactly one process posts a game's handover; a process that starts takes
at once the claims of predecessors provably gone (``take_over``), and the claim's lease lets another
process take over the games of one that died otherwise (docs/architecture.md, "Several processes").
Each post carries a nonce naming what it announces (``announcement_nonce``), so that a post repeated
after a crash is one Discord has already made, and returns instead of being made twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

import i18n
from db import ActionRecord, Announcement, Announcing, GameRecord, Note
from engine.text import Msg
from table.bots.explain import explains_last, is_explanation
from table.bots.players import (
    ComputerPlayers,
    away_takeover_note,
    may_have_bots,
    stand_in_id,
    stand_ins_in,
    table_level,
)
from table.core.clock import Clock, Timer, parse_stamp, stamp, system_clock
from table.core.events import decode_msg, encode_msg
from table.core.limits import LIMITS
from table.core.marks import channel_link
from table.core.posts import Picture, Post, pictured, post_nonce
from table.core.ratings import changes_line, settle
from table.core.settings import TableSettings, locale_of, public_locale
from table.core.tables import Table, Tables
from table.core.tasks import GameTasks
from table.core.text import mentions, pings, shorten
from table.core.wording import Wording
from table.core.workers import Superseded
from table.posting.channels import Channels, spill
from table.posting.listings import PACE, Listings
from table.posting.menus import board_buttons
from table.posting.outlet import Outlet, OutletError
from table.posting.owners import ALL_SHARDS, Owner, stale
from table.posting.waits import Handover, Waits

log = logging.getLogger(__name__)

SPILL = 4
"""Messages a new post may take when its summary is longer than one (``channels.spill``)."""
EDIT_AGE_LIMIT = timedelta(hours=1)
"""Older posts are not edited (Discord rate-limits those edits hard): a new post is made instead."""


DEFAULT_LEASE = 60.0
"""Seconds a process's claim on a game's posts lasts unless renewed: far longer than one post takes,
and how long the game's posts wait when the process holding it is killed."""


def announcement_nonce(record: GameRecord) -> str:
    """The nonce of the post announcing the game's stored version and status: a process that dies
    after Discord created the post and before the store recorded it makes the same post again at
    its next start, and Discord returns the first message instead of creating a second one."""
    return post_nonce(f"g{record.id}", f"v{record.version}", record.status)


def claim_key(game_id: int) -> str:
    """The claim under which one process at a time posts and reminds for a game."""
    return f"game:{game_id}"


def process_owner() -> str:
    """This process's name in the claims it holds (``table.posting.owners.Owner``): host, process id, and a
    random part, so that a restarted process with a recycled id never mistakes a dead one's claims
    for its own. ``Announcer.take_over`` names it anew at start-up, with its scope and generation."""
    return str(Owner.here())


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


@dataclass(frozen=True)
class _Plan:
    """What one announcement does: a new post (pinging ``ping``) or an edit of the handover post."""

    new_post: bool
    handover: bool  # the players to act changed (or the game ended): a new wait begins
    ping: tuple[str, ...]
    fresh: tuple[str, ...] = ()
    """Those of ``ping`` whose turn it is anew: not already asked to act by the handover before (a
    Batailles player still deploying when the other is done). Only they get a direct message, but
    for one that says the game now waits for them alone."""


Sleep = Callable[[float], Awaitable[None]]
Timed = Callable[[datetime], Awaitable[int]]
"""Timed work beside the games' (a league's rounds): run by each scheduler tick with the clock's time."""
Ended = Callable[[GameRecord], Awaitable[None]]
"""Told of a game whose end was just posted (a league counts its result)."""
Within = Callable[[GameRecord, str, Callable[[], Awaitable[int]]], Awaitable[int]]
"""How one game's timed work is run (``Scheduler._start``): the game, what the work is, the work."""


class Announcer(Wording):
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
        self.coalesce = coalesce
        self._sleep = sleep
        self.link: Callable[[GameRecord], str] = link or (lambda record: channel_link(record.channel))
        self.owner = owner or process_owner()
        self.lease = lease
        self._monotonic = monotonic
        self._taken: dict[str, float] = {}
        """When each claim this process holds was last taken or renewed (``monotonic``)."""
        self._locks: dict[int, asyncio.Lock] = {}
        self._sides_filled = False
        """Whether this process gave the results recorded without sides theirs (``db.sides``)."""
        self._edited_at: dict[int, float] = {}
        self._early: dict[int, tuple[int, asyncio.Future[tuple[str, Picture | None]]]] = {}
        """Boards drawn as soon as a move is stored, by game: the version and the drawing."""
        self._newest: dict[int, tuple[int, bool]] = {}
        """The newest revision (version, ended) of each game with an announcement queued or under
        way: a board of an older one is not drawn once its turn in the drawing queue comes."""
        self._tasks = GameTasks("announcing")
        self._waking: dict[int, tuple[frozenset[str], asyncio.Event]] = {}
        """Games whose edit waits out the coalescing window: who the post asks to act, and the event
        that ends the wait early when a move hands the turn to someone else."""
        self.bots = ComputerPlayers(tables, self._post_soon, self.settled, clock=clock, notices=self.outlet)
        """The computer players: poked with every change, so a bot to act plays after it is shown."""
        self.waits = Waits(tables.store)
        """Each player's own time applied to the game's waits: quiet hours, time off, own pace."""
        timer = listing_timer or Timer(monotonic, sleep)
        self.listings = Listings(
            tables,
            self.outlet,
            clock=clock,
            pace=listing_pace,
            monotonic=timer.monotonic,
            sleep=timer.sleep,
        )
        """Players' cards and servers' lists of games: told of every change a post shows (a handover,
        a start or an end, a post made anew), kept up to date at their pace."""
        self.channels.faults.closed = self.listings.changed
        self.timed: list[Timed] = []
        """Timed work of others (the leagues'), which the scheduler's tick runs after the games'."""
        self.ended: list[Ended] = []
        """Told of each game whose end this process posted, once posted."""

    # ---- scheduling ------------------------------------------------------------------------------

    def poke(self, table: Table) -> None:
        """Announce the table's game soon, in a task of its own, then have its bots play what falls
        to them; returns at once."""
        self._post_soon(table)
        self.bots.poke(table.record)

    def _post_soon(self, table: Table) -> None:
        record = table.record
        self.channels.seen(record)
        self._newest[record.id] = max(self._newest.get(record.id, (-1, False)), _revision(record))
        waiting = self._waking.get(record.id)
        if waiting is not None and (record.status != "active" or frozenset(table.to_act()) != waiting[0]):
            waiting[1].set()  # a handover is not folded into an edit: it goes out now
        running = self._tasks.get(record.id)
        if self._draws_ahead(record.id):
            drawing = asyncio.ensure_future(self._early_board(table))
            drawing.add_done_callback(_retrieved)
            self._early[record.id] = (record.version, drawing)
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
            self._drop_early(game_id)
            if self._tasks.get(game_id) in (None, asyncio.current_task()):
                self._newest.pop(game_id, None)  # no newer announcement is queued

    def _draws_ahead(self, game_id: int) -> bool:
        """Whether a stored move's board is drawn at once, while its announcement takes its claim and
        reads the game: when nothing is being announced (this version is the one its announcement
        will show), no edit waits to be folded, and a drawing would start at once. A busy bot (a burst
        of moves) draws as it announces instead, each game's newest version only."""
        return not self._tasks.busy() and not self._coalescing(game_id) and self.tables.drawer.idle()

    def _coalescing(self, game_id: int) -> bool:
        """Whether the game's post was edited within the coalescing window: its next edit waits."""
        last = self._edited_at.get(game_id)
        return last is not None and self.coalesce > 0 and self._monotonic() - last < self.coalesce

    async def _early_board(self, table: Table) -> tuple[str, Picture | None]:
        # drawn as if nobody were away: most boards are, and reading who is would make this drawing
        # wait; the announcement draws the board again when someone seated turns out to be away
        locale = await public_locale(self.tables.store, table.record)
        return locale, await self.tables.board_image(table, locale)

    async def _away_marks(self, table: Table) -> dict[str, datetime]:
        """The seated people away now, whose seats the board marks."""
        people = list(pings(table.record.player_ids))
        return await self.waits.away_until(table.record, people, self.clock())

    def _drop_early(self, game_id: int) -> None:
        early = self._early.pop(game_id, None)
        if early is not None:
            early[1].cancel()

    def _outdated(self, record: GameRecord) -> Callable[[], bool]:
        """Whether a newer revision of the game than ``record``'s has been stored (and queued for
        announcement) since: asked by the drawing queue when the board's turn comes."""
        mine = _revision(record)
        return lambda: self._newest.get(record.id, mine) > mine

    async def _board(self, table: Table, locale: str, *, latest_wins: bool = True) -> Picture | None:
        """The board of the table's version in ``locale``: the one drawn as soon as that version was
        stored, when it was drawn in that language and nobody seated is away, else drawn now (with the
        away players' seats marked). Latest wins: a drawing waiting
        for a worker that is outdated when its turn comes is not made (``Superseded``)."""
        outdated = self._outdated(table.record) if latest_wins else None
        away = await self._away_marks(table)
        early = self._early.pop(table.record.id, None)
        if early is not None:
            version, drawing = early
            if version == table.record.version and not away:
                with contextlib.suppress(Exception):
                    drawn_in, image = await drawing
                    if drawn_in == locale:
                        return image
            else:
                drawing.cancel()
        return await self.tables.board_image(table, locale, outdated=outdated, away=away)

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
        pending += [drawing for _, drawing in self._early.values()]
        pending += self.listings.pending()
        self._early.clear()
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
        game's announcement (the timed loop's: one game at a time, each within its time)."""
        announced = 0
        for record in await self.tables.store.unannounced():
            work = functools.partial(self._caught_up, record)
            announced += await (within(record, "catch-up", work) if within is not None else work())
        # games that ended before results were kept (or whose end is still unannounced: the post
        # records it too, once) get their result, and their ratings, in the order they ended
        for record in await self.tables.store.unrecorded():
            await settle(self.tables.store, record)
        if not self._sides_filled:  # results recorded before sides were kept get them, once a start
            await self.tables.store.fill_sides()
            self._sides_filled = True
        return announced

    async def _caught_up(self, record: GameRecord) -> int:
        try:
            return int(await self.announce(record.id))
        except OutletError as exc:
            log.warning("catch-up of game #%s in %s failed: %s", record.id, record.channel, exc)
            return 0

    def working_on(self, game_id: int) -> bool:
        """Whether the game's channel work is under way in this process (an announcement, a
        reminder): whatever it leaves undone, the next look at the game does."""
        return self._lock(game_id).locked()

    # ---- the claim: one process posts for a game at a time ---------------------------------------

    async def take_over(self, scope: str = ALL_SHARDS, *, sole: bool = True) -> int:
        """At start-up, before any work: name this process in its claims as the next start of
        ``scope`` (the shards it serves), and take at once the claims its predecessors left, when
        they are provably gone, or all of them when this is the ``sole`` process of the bot
        (``table.posting.owners``): their games are caught up at the first tick, with no lease to wait out.
        How many claims were taken."""
        store = self.tables.store
        me = Owner.here(scope, await store.next_generation(scope))
        self.owner = str(me)
        gone = stale(await store.claim_owners(), me, sole=sole)
        taken = 0
        for owner in gone:
            taken += await store.release_owner(owner)
        if gone:
            log.info("took over %d claim(s) left by %d stopped process(es)", taken, len(gone))
        return taken

    async def release_all(self) -> int:
        """Give up every claim this process holds (a clean stop); how many there were."""
        self._taken.clear()
        return await self.tables.store.release_owner(self.owner)

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    @contextlib.asynccontextmanager
    async def claimed(self, game_id: int) -> AsyncIterator[bool]:
        """Hold the game's channel work: inside this process its lock, across processes its claim in
        the store. Yields whether the claim was had; when not, another process is posting for the
        game, and whatever it leaves undone is picked up by a later tick's catch-up."""
        async with self._lock(game_id):
            key = claim_key(game_id)
            held = await self._take(key)
            keeper = asyncio.ensure_future(self._keep(key)) if held else None
            try:
                yield held
            finally:
                if keeper is not None:
                    keeper.cancel()
                    self._taken.pop(key, None)
                    await asyncio.shield(self.tables.store.release(key, self.owner))

    async def _take(self, key: str) -> bool:
        """Take or renew the claim ``key`` in the store; whether it is this process's."""
        asked = self._monotonic()
        held = await self.tables.store.claim(key, self.owner, self.lease)
        if held:
            self._taken[key] = asked  # it lasts a lease from no earlier than this
        else:
            self._taken.pop(key, None)
        return held

    async def _still_held(self, key: str) -> bool:
        """Whether the claim ``key`` is still this process's before a post goes out. Taken or renewed
        within half a lease, it is: nobody can have it before it runs out. Older (a process stalled
        past its lease, a long wait to coalesce), the store is asked again, as another process may
        have taken it. A move's post skips that trip: it comes a few milliseconds after the claim."""
        taken = self._taken.get(key)
        if taken is not None and self._monotonic() - taken < self.lease / 2:
            return True
        return await self._take(key)

    async def _keep(self, key: str) -> None:
        """Renew a held claim every third of its lease for as long as the work lasts (a board slow to
        draw, a post Discord is slow to take), so that only a process gone or stalled for a whole
        lease loses it."""
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                if not await self._take(key):
                    log.warning("the claim %s lapsed while its work went on", key)
                    return
            except Exception:
                log.exception("renewing the claim %s failed", key)

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
                plan = self._plan(table, current, read)
                if not plan.new_post and await self._wait_to_coalesce(game_id, table.to_act()):
                    continue  # read again: moves made meanwhile fold into this edit
                # A post goes out only under a live claim: a stalled process may have lost it.
                if not await self._still_held(claim_key(game_id)):
                    log.warning("the claim on game #%s lapsed; another process announces it", game_id)
                    break
                try:
                    # Latest wins once: the version read again after an outdated one waits its turn
                    # again and is then drawn whatever came meanwhile, so a game that keeps moving
                    # during a burst is still shown rather than sent to the back of the queue forever.
                    done = await self._publish(table, read, plan, latest_wins=superseded is None)
                except Superseded:
                    superseded = _revision(record)
                    log.debug("game #%s moved on before its board's turn: the newer one is drawn", game_id)
                    continue  # read again: the newer version is announced instead
                if done:
                    published = True
                    break
            return published

    async def _wait_to_coalesce(self, game_id: int, to_act: Sequence[str]) -> bool:
        """Sleep out the rest of the coalescing window after the game's last edit; whether it waited.

        A move that hands the turn to other players (``to_act`` are those the edited post asks)
        ends the wait at once: the next post is a new one, and folding it would only keep them
        waiting (a bot's quick turn would reach the next player seconds late)."""
        if not self._coalescing(game_id):
            return False
        left = self.coalesce - (self._monotonic() - self._edited_at[game_id])
        woken = asyncio.Event()
        self._waking[game_id] = (frozenset(to_act), woken)
        sleeping = asyncio.ensure_future(self._sleep(left))
        waking = asyncio.ensure_future(woken.wait())
        try:
            await asyncio.wait((sleeping, waking), return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._waking.pop(game_id, None)
            sleeping.cancel()
            waking.cancel()
        if not woken.is_set():
            self._edited_at[game_id] = self._monotonic() - self.coalesce  # the window is used up
        return True

    def _plan(self, table: Table, current: Announcement | None, read: Announcing | None = None) -> _Plan:
        record = table.record
        to_act = tuple(table.to_act())
        if record.status != "active":
            return _Plan(new_post=True, handover=True, ping=tuple(record.player_ids))
        if current is None and record.settings.get("quiet_start") == "yes":
            # its players were called where the game was made (a league's thread): not pinged again
            return _Plan(new_post=True, handover=True, ping=())
        if current is None or current.status != "active" or set(to_act) != set(current.to_act):
            asked = set(current.to_act) if current is not None and current.status == "active" else set()
            fresh = tuple(p for p in to_act if p not in asked)
            return _Plan(new_post=True, handover=True, ping=to_act, fresh=fresh)
        if read is not None and _turn_went_round(read, current, record.version):
            return _Plan(new_post=True, handover=True, ping=to_act, fresh=to_act)
        too_old = current.posted_at is None or self.clock() - parse_stamp(current.posted_at) > EDIT_AGE_LIMIT
        return _Plan(new_post=current.message is None or too_old, handover=False, ping=())

    async def _publish(
        self, table: Table, read: Announcing, plan: _Plan, *, latest_wins: bool = True
    ) -> bool:
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
        since = record.version if plan.handover else (current.since if current else 0)
        summary_from = (
            (current.since if current else 0) if plan.handover else (current.summary_from if current else 0)
        )
        message = current.message if current else None
        # A new post may run over several messages (moves folded into it while it waited for room
        # in its channel's rate); an edit keeps to one.
        limit = LIMITS.text * SPILL if plan.new_post or message is None else LIMITS.text
        # The board is drawn in a worker while the text's reads go to the store: a move is
        # announced as soon as the slower of the two is done, not after both.
        drawing = asyncio.ensure_future(self._board(table, locale, latest_wins=latest_wins))
        try:
            extra = () if wait is None else wait.lines
            text = await self._text(table, read, plan, locale, summary_from, limit, extra)
            if (
                plan.handover
                and current is not None
                and len(text) > LIMITS.text
                and summary_from < current.version
            ):
                # retelling the last turn besides the moves the channel was not shown does not fit
                summary_from = current.version
                text = await self._text(table, read, plan, locale, summary_from, limit, extra)
        except BaseException:
            drawing.cancel()
            raise
        picture = await drawing
        ping = tuple(p for p in pings(plan.ping) if p not in standing and p not in held)
        post = Post(
            text,
            mentions=ping,
            buttons=board_buttons(table, locale, explained=explains_last(read, record.version)),
            nonce=announcement_nonce(record),
            **pictured(picture),
        )
        posted_at = current.posted_at if current else None
        if plan.new_post or message is None:
            message = await self._send(record.channel, post)
            posted_at = stamp(now)
        elif await self.outlet.edit(record.channel, message, post):
            self._edited_at[record.id] = self._monotonic()
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
            last = self._t("svc.dm.last_one", locale) if wait.timing.last else ""
            # a player already asked to act hears again only that the game now waits for them alone
            told = [p for p in ping if p in plan.fresh or last]
            await self._direct(table, told, locale, "svc.dm.turn", extra=last)
        if record.status != "active" and (current is None or current.status == "active"):
            await self._tell_ended(record)
        return True

    async def _tell_ended(self, record: GameRecord) -> None:
        """Those told of ended games (a league counting its result) hear of this one; one that fails
        is logged and does not stop the others."""
        for told in self.ended:
            try:
                await told(record)
            except Exception:
                log.exception("after the end of game #%s", record.id)

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
        *lead, last = spill(post.text, LIMITS.text)
        for index, piece in enumerate(lead):
            nonce = None if post.nonce is None else post_nonce(post.nonce, "s", index)
            await self.outlet.send(channel, Post(piece, nonce=nonce))
        return await self.outlet.send(channel, replace(post, text=last))

    async def _direct(
        self, table: Table, players: Sequence[str], locale: str, key: str, *, extra: str = "", **params: Any
    ) -> None:
        """Direct messages to the players who asked for them; a refusal is silently the channel's job.
        A player who also asked for the text board (``/notify text:``) gets the position as text in
        the same message, so a screen reader reads where things stand before they act."""
        for player in pings(players):
            if not await self.tables.store.notify(player):
                continue
            text = self._t(
                key, locale, game=self._game(table, locale), link=self.link(table.record), **params
            )
            if extra:
                text += "\n" + extra
            if table.state is not None and await self.tables.store.text_board(player):
                text += "\n\n" + self._text_board_post(table, player, locale).text
            try:
                await self.outlet.direct(player, Post(text))
            except Exception:
                log.warning("direct message to %s about game #%s failed", player, table.record.id)

    # ---- the words of a post ---------------------------------------------------------------------

    async def _text(
        self,
        table: Table,
        read: Announcing,
        plan: _Plan,
        locale: str,
        summary_from: int,
        limit: int = LIMITS.text,
        extra: Sequence[str] = (),
    ) -> str:
        lines = await self._lines(table, read, plan, locale, summary_from, extra)
        fitted = fit(lines, locale, limit)
        messages = max(1, limit // LIMITS.text)
        while limit > LIMITS.text and len(spill(fitted.text, LIMITS.text)) > messages:
            limit -= LIMITS.text // 4  # messages are cut between lines, which wastes some of their room
            fitted = fit(lines, locale, limit)
        if fitted.left_out:
            log.info("game #%s: earlier actions left out of its post: %d", table.record.id, fitted.left_out)
        if fitted.squeezed:
            log.warning("game #%s: the lines of its post that stay were shortened to fit", table.record.id)
        return fitted.text

    async def _lines(
        self,
        table: Table,
        read: Announcing,
        plan: _Plan,
        locale: str,
        summary_from: int,
        extra: Sequence[str],
    ) -> PostLines:
        """What the post says, each line marked as one that stays or one of the summary that may be
        left out when the post is too long (``fit``); ``extra`` closes it (who is away, the last one)."""
        record, current, notes = table.record, read.announcement, read.notes
        opening: list[str] = []
        first_post = current is None if plan.handover else current is not None and current.since == 0
        if first_post:
            opening.append(
                self._t(
                    "table.started", locale, game=self._game(table, locale), seats=self._seats(table, locale)
                )
            )
        in_turn: list[str] = []
        if plan.handover:
            logged = read.actions(summary_from, record.version)
            summary = self._summary(table, summary_from, record.version, locale, logged, notes)
        else:
            assert current is not None
            before = read.actions(summary_from, current.since)
            summary = self._summary(table, summary_from, current.since, locale, before, notes)
            logged = read.actions(current.since, record.version)
            in_turn = self._summary(table, current.since, record.version, locale, logged, notes)
        closing = [self._closing(table, locale), *extra]
        if record.status != "active":
            settled = await settle(self.tables.store, record)
            rated = settled and changes_line(settled, table.names, locale)
            if rated:
                closing.append(rated)
        return PostLines(tuple(opening), tuple(summary), tuple(in_turn), tuple(closing))

    def _summary(
        self,
        table: Table,
        after: int,
        upto: int,
        locale: str,
        entries: Sequence[ActionRecord],
        noted: Sequence[Note],
    ) -> list[str]:
        """One line per action of ``entries`` (the log in ``(after, upto]``), with the table notes
        (``noted``: the game's, read once per post) made at those versions."""
        if upto <= after:
            return []
        notes: dict[int, list[Msg]] = {}
        for note in noted:
            if after < note.version <= upto and not is_explanation(note.event):
                notes.setdefault(note.version, []).append(decode_msg(note.event))
        return ["• " + self._action_line(table, entry, locale, notes.get(entry.seq, [])) for entry in entries]


def _turn_went_round(read: Announcing, current: Announcement, version: int) -> bool:
    """Whether someone the handover post did not ask to act moved since it began: the turn went to
    others and came back while the post waited for room in its channel's rate (moves folded into one
    announcement). The same players act again, but in a new turn: a new post, not an edit of the old
    turn's. A forced move played for another player is no turn of theirs: the post is edited, and
    whoever it asked is not pinged again for the decision they were already asked for."""
    asked = set(current.to_act)
    return any(entry.player not in asked and not entry.auto for entry in read.actions(current.since, version))


def _revision(record: GameRecord) -> tuple[int, bool]:
    """How far a game has gone: its version, then whether it has ended (an ending outside a move,
    a resignation, keeps the version)."""
    return record.version, record.status != "active"


def _retrieved(future: asyncio.Future[Any]) -> None:
    """Take a finished task's error, if any: a board given up need not be looked at."""
    if not future.cancelled():
        future.exception()


@dataclass(frozen=True)
class PostLines:
    """The lines of a handover post, by what each is for. ``opening`` (the game's first post says it
    begins) and ``closing`` (who acts now, or how the game ended and the new ratings) always stay
    whole: they are what the post is for, and the closing line holds the mentions that ping.
    ``summary`` (the actions since the previous handover began) and ``in_turn`` (those of the turn
    in progress, under their header, in an edit) are oldest first, and the oldest are the ones a
    long post leaves out."""

    opening: tuple[str, ...] = ()
    summary: tuple[str, ...] = ()
    in_turn: tuple[str, ...] = ()
    closing: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fitted:
    """A post's text within its limit: how many summary lines were left out for it, and whether
    even the lines that stay had to be shortened (lines no game writes that long)."""

    text: str
    left_out: int = 0
    squeezed: bool = False


SHORTEST_KEPT = 16
"""The fewest characters the newest summary line is shortened to rather than left out too."""


def fit(lines: PostLines, locale: str, limit: int = LIMITS.text) -> Fitted:
    """The post's text in at most ``limit`` characters. The oldest summary lines are left out first,
    replaced where they stood by the catalog's note of how many (its length counted as rendered for
    that number); the newest one is shortened rather than left out; the lines that stay whole are
    only touched when they alone are longer than the limit, and then lose plain words, never a
    mention or a timestamp (``shorten``)."""
    header = (i18n.t("svc.turn_in_progress", locale),) if lines.in_turn else ()
    rows = [
        (text, droppable)
        for part, droppable in (
            (lines.opening, False),
            (lines.summary, True),
            (header, False),
            (lines.in_turn, True),
            (lines.closing, False),
        )
        for text in part
        if text
    ]
    summary = [place for place, (_, droppable) in enumerate(rows) if droppable]

    def compose(left_out: int, newest: str | None = None) -> str:
        gone = set(summary[:left_out])
        shown = []
        for place, (text, _) in enumerate(rows):
            if place in gone:
                if place == summary[0]:
                    shown.append(i18n.t("svc.summary_more", locale, count=left_out))
            elif newest is not None and place == summary[-1]:
                shown.append(newest)
            else:
                shown.append(text)
        return "\n".join(shown)

    whole = compose(0)
    if len(whole) <= limit:
        return Fitted(whole)
    size = len(whole)
    for left_out in range(1, len(summary)):
        size -= len(rows[summary[left_out - 1]][0]) + 1
        if size + len(i18n.t("svc.summary_more", locale, count=left_out)) + 1 <= limit:
            return Fitted(compose(left_out), left_out)
    if summary:
        left_out = len(summary) - 1
        newest = rows[summary[-1]][0]
        room = len(newest) - (len(compose(left_out)) - limit)
        if room >= SHORTEST_KEPT:
            return Fitted(compose(left_out, shorten(newest, room)), left_out)
    text = compose(len(summary))
    fitted = shorten(text, limit)
    return Fitted(fitted, len(summary), squeezed=fitted != text)


def waited(since: str | None, now: datetime) -> timedelta:
    return timedelta(0) if since is None else now - parse_stamp(since)


__all__ = [
    "DEFAULT_LEASE",
    "Announcer",
    "Fitted",
    "Outlet",
    "OutletError",
    "PostLines",
    "RecordingOutlet",
    "fit",
    "mentions",
    "waited",
]
