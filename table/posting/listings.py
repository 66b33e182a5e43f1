"""Messages kept up to date in place: a player's card of all their games, a server's list of games.

A player who plays a dozen games in several servers should not have to visit each channel to learn
where it is their turn: ``/games card:true`` sends them a direct message holding a card of every open
game they sit in, in every server, those awaiting them first (whose turn, since when, the deadline,
a link to the game's latest post), and the bot edits that same message as their games change. A
server's managers may keep such a list of the server's open games in a channel of their choice
(``/settings games_channel:``), for players looking for a game to join or to follow.

Each is a ``db.Listing``, owned by ``player:<id>`` or ``server:<id>``, whose message id is stored, so
a restart goes on editing the same message; a new message is sent only when the old one was deleted
(the front end's edit answers False). Times are moments (``table.core.marks``), which Discord shows
every reader in their own time and language, so the text need not change as time passes: only a
change of the games does (a new handover post, a game that begins or ends, a lobby's seats).

The announcer sees every such change and tells ``changed``: the listings concerned (those of the
game's people and of its server that exist) count it in the store (``changed`` over ``shown``: a
listing behind), and each is refreshed at once when it was not in the last ``pace`` seconds (a
minute on Discord, whose edits of older messages are limited), else once that minute is over: a storm
of moves is one edit a minute, showing the latest. Every post and edit goes through the announcer's
outlet, so a server's list keeps to its channel's rate and to its refusals, and a card to the rate of
the player's own channel with the bot. A refresh a stop interrupted, or one another process left, is
picked up by ``resume`` (every tick of the timed loop), since the store says which listings are behind.
Direct messages are sent through ``_deliver`` alone: where a player's quiet hours will hold them.

A listing is a row of ``listings`` (migration 11): its owner (the console is the server ``''``), channel,
language, message id, and two counters, ``changed`` (the changes that concern it) and ``shown`` (the count its
message shows). The lobby commands tell ``changed`` of every seat taken or left, and the faults of every game
a deleted channel closed; one read finds the listings concerned that exist (none for most moves), which are
marked behind in one write. The pace runs on an injected ``Timer`` (``ManualTimer`` in the tests and the
bench); a stop drops the refreshes waiting for their minute, and the next start's ticks, by any process, edit
the same messages. The console's pace is 0: it prints a card and a list at every change. A player who takes no
direct messages gets no card (told at once when they ask for it), a list whose channel was deleted is dropped,
and a channel that refuses the bot is named to the manager who chose it.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import i18n
from db import Announcement, GameRecord, Listing, Store
from table.core import marks
from table.core.clock import Clock
from table.core.marks import moment
from table.core.posts import Post, is_bot, post_nonce
from table.core.ratings import guild_of
from table.core.settings import server_locale
from table.core.tables import Table, Tables
from table.core.wording import Wording
from table.posting.outlet import ChannelGone, Outlet, OutletError

log = logging.getLogger(__name__)

PLAYER = "player:"
SERVER = "server:"
PACE = 60.0
"""Seconds between two refreshes of one listing at the most: Discord limits the edits of a message
older than an hour, and a card edited at every move of a busy evening would read as a flicker."""

Sleep = Callable[[float], Awaitable[None]]
PostLink = Callable[[GameRecord, str | None], str]
"""How a listing points at a game: its latest post (``message``), else its channel."""


def player_owner(player: str) -> str:
    return PLAYER + player


def server_owner(guild: str | None) -> str:
    """The listing of a server's games; ``''`` is the one of the games outside any server (the
    console's)."""
    return SERVER + (guild or "")


def owners_of(record: GameRecord) -> list[str]:
    """The listings a change of ``record``'s game concerns: its people's cards and its server's list."""
    return [player_owner(p) for p in record.player_ids if not is_bot(p)] + [server_owner(guild_of(record))]


def channel_link(record: GameRecord, message: str | None) -> str:
    """The front ends' default: the game's channel (Discord's bot links its latest post instead)."""
    return marks.channel_link(record.channel)


@dataclass(frozen=True)
class Entry:
    """One game of a listing: the table, what its channel was shown, and whose turn it is."""

    table: Table
    shown: Announcement | None

    @property
    def since(self) -> str:
        """When its wait began, as text that sorts (ISO 8601); lobbies and games not shown yet last."""
        return (self.shown.waiting_since if self.shown else None) or "~"


class Listings:
    """Keeps every listing's message up to date, each at most once per ``pace`` seconds (on the
    injected ``monotonic`` clock, waiting with ``sleep``)."""

    def __init__(
        self,
        tables: Tables,
        outlet: Outlet,
        *,
        clock: Clock,
        pace: float = PACE,
        monotonic: Callable[[], float],
        sleep: Sleep,
        link: PostLink = channel_link,
        words: Wording | None = None,
    ) -> None:
        self.tables = tables
        self.words = words or Wording()
        self.outlet = outlet
        self.clock = clock
        self.pace = pace
        self.link = link
        self._monotonic = monotonic
        self._sleep = sleep
        self._last: dict[str, float] = {}
        """When each listing was last refreshed by this process (``monotonic``)."""
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._waiting: set[str] = set()
        """Listings whose task sleeps out their pace (a stop cancels those: the store keeps them behind)."""
        self._locks: dict[str, asyncio.Lock] = {}
        self._marking: set[asyncio.Task[None]] = set()
        self.stopped = False

    @property
    def store(self) -> Store:
        return self.tables.store

    # ---- what changed ----------------------------------------------------------------------------

    def changed(self, record: GameRecord, *left: str) -> None:
        """``record``'s game changed what a listing shows (a handover, a start or an end, a lobby's
        seats): the listings of its people (and of those who ``left`` its lobby) and of its server are
        marked behind and refreshed in their turn. Returns at once; the store is read in a task."""
        if self.stopped:
            return
        task = asyncio.ensure_future(self._mark([*owners_of(record), *map(player_owner, left)]))
        self._marking.add(task)
        task.add_done_callback(self._marking.discard)

    async def _mark(self, owners: Sequence[str]) -> None:
        try:
            kept = [listing.owner for listing in await self.store.listings(owners)]
            if kept:  # a change that concerns no listing costs one read, no write
                for listing in await self.store.mark_listings(kept):
                    self.touch(listing.owner)
        except Exception:
            log.exception("marking the listings %s behind failed", ", ".join(owners))

    async def resume(self) -> int:
        """Refresh, in their turn, the listings the store says are behind (a stop came before their
        turn, another process left them); how many."""
        behind = await self.store.listings_behind()
        for listing in behind:
            self.touch(listing.owner)
        return len(behind)

    def touch(self, owner: str) -> None:
        """Refresh ``owner``'s listing now when its pace allows, else once it does (changes meanwhile
        fold into that one refresh)."""
        if self.stopped:
            return
        running = self._tasks.get(owner)
        if running is not None and not running.done():
            self._again.add(owner)
            return
        task = asyncio.ensure_future(self._run(owner))
        self._tasks[owner] = task
        task.add_done_callback(lambda done: self._forget(owner, done))

    def _forget(self, owner: str, task: asyncio.Task[None]) -> None:
        if self._tasks.get(owner) is task:
            del self._tasks[owner]
        self._waiting.discard(owner)

    async def _run(self, owner: str) -> None:
        while True:
            self._again.discard(owner)
            wait = self._last.get(owner, -math.inf) + self.pace - self._monotonic()
            if wait > 0 and self.stopped:
                return  # a stop came before its turn: the next start brings it up to date
            if wait > 0:
                self._waiting.add(owner)
                try:
                    await self._sleep(wait)
                finally:
                    self._waiting.discard(owner)
            try:
                await self._refresh(owner, self._monotonic())
            except OutletError as exc:  # the store keeps it behind: a later tick tries again
                log.warning("refreshing the listing %s failed: %s", owner, exc)
            except Exception:
                log.exception("refreshing the listing %s failed", owner)
            if owner not in self._again or self.stopped:
                return

    # ---- showing ---------------------------------------------------------------------------------

    async def refresh(self, owner: str) -> Listing | None:
        """Bring ``owner``'s message up to date with the store: an edit of the message kept, or a new
        message when there is none yet or it was deleted; the listing as stored then (None when it is
        not kept). Nothing is sent when the message already shows every change. Raises
        ``OutletError`` when the front end refuses (the listing stays behind)."""
        return await self._refresh(owner, self._monotonic())

    async def _refresh(self, owner: str, at: float) -> Listing | None:
        """``refresh``, counted in the pace as made ``at``, when it was decided: the minute a refresh
        belongs to is the clock's when the change came, not when the store answered, so a change
        meanwhile waits for the next minute however slow the store is."""
        async with self._locks.setdefault(owner, asyncio.Lock()):
            found = await self.store.listings([owner])
            if not found:
                return None
            listing = found[0]
            if listing.message is not None and not listing.behind:
                return listing
            self._last[owner] = at
            text = await self.text(listing)
            # a new message made again after a crash is the same one; one replacing a deleted one is new
            nonce = post_nonce(
                "list", owner, listing.changed, listing.message or "", limits=self.tables.limits
            )
            message = await self._deliver(listing, Post(text, nonce=nonce))
            if message is None:
                return None
            return await self.store.listing_shown(
                owner, channel=listing.channel, message=message, shown=listing.changed
            )

    async def _deliver(self, listing: Listing, post: Post) -> str | None:
        """Edit the listing's message, or send a new one when it has none or it was deleted; the
        message's id, None when there is nobody to send it to any more (the listing is then dropped:
        a player who closed their direct messages, a deleted channel). The one place a card reaches
        a player's direct messages."""
        owner, message = listing.owner, listing.message
        if owner.startswith(PLAYER):
            player = owner.removeprefix(PLAYER)
            if message is not None and await self.outlet.edit_direct(player, message, post):
                return message
            sent = await self.outlet.send_direct(player, post)
            if sent is None:
                log.info("%s takes no direct messages: their card is no longer kept", player)
                await self.store.drop_listing(owner)
            return sent
        assert listing.channel is not None
        try:
            if message is not None and await self.outlet.edit_kept(listing.channel, message, post):
                return message
            return await self.outlet.send(listing.channel, post)
        except ChannelGone:
            log.info("the channel of %s was deleted: the server's list is no longer kept", owner)
            await self.store.drop_listing(owner)
            return None

    async def text(self, listing: Listing) -> str:
        """The listing's message: a player's card, or a server's list."""
        if listing.owner.startswith(PLAYER):
            player = listing.owner.removeprefix(PLAYER)
            games = await self.store.open_games(player=player)
            return self.card(player, [self._entry(r, a) for r, a in games], listing.locale)
        guild = listing.owner.removeprefix(SERVER)
        locale = await server_locale(self.store, guild, listing.locale)
        games = await self.store.open_games(guild=guild)
        return self.server_list([self._entry(r, a) for r, a in games], locale)

    def _entry(self, record: GameRecord, shown: Announcement | None) -> Entry:
        return Entry(self.tables.table(record), shown)

    def card(self, player: str, games: Sequence[Entry], locale: str) -> str:
        """A player's card: the games awaiting them (longest wait first), then the others."""
        running = sorted((e for e in games if e.table.record.status == "active"), key=lambda e: e.since)
        mine = [e for e in running if player in e.table.to_act()]
        others = [e for e in running if player not in e.table.to_act()]
        lobbies = [e for e in games if e.table.record.status == "lobby"]
        head = self.words.t("svc.card.header", locale, count=len(mine), when=moment(self.clock()))
        if not games:
            return head + "\n" + self.words.t("svc.card.none", locale)
        lines = [self._line(e, locale, player) for e in (*mine, *others, *lobbies)]
        return _fitted(head, lines, locale, self.tables.limits.text)

    def server_list(self, games: Sequence[Entry], locale: str) -> str:
        """A server's list: its running games (longest wait first), then its open tables."""
        running = sorted((e for e in games if e.table.record.status == "active"), key=lambda e: e.since)
        lobbies = [e for e in games if e.table.record.status == "lobby"]
        head = self.words.t("svc.list.header", locale, count=len(games), when=moment(self.clock()))
        if not games:
            return head + "\n" + self.words.t("svc.list.none", locale)
        return _fitted(
            head, [self._line(e, locale) for e in (*running, *lobbies)], locale, self.tables.limits.text
        )

    def _line(self, entry: Entry, locale: str, reader: str | None = None) -> str:
        """One game, pointing at its latest post (or its channel, before any)."""
        message = entry.shown.message if entry.shown else None
        where = self.link(entry.table.record, message)
        return "• " + self.words.game_line(entry.table, entry.shown, locale, where=where, reader=reader)

    # ---- the bot's life ---------------------------------------------------------------------------

    def quiet(self) -> bool:
        """Whether every change told is counted and every refresh due now is made: what is left waits
        for its turn (its pace)."""
        marking = any(not t.done() for t in self._marking)
        return not marking and all(t.done() or owner in self._waiting for owner, t in self._tasks.items())

    def pending(self) -> list[asyncio.Task[None]]:
        """The refreshes under way or waiting for their turn, and the marks being written."""
        return [t for t in (*self._tasks.values(), *self._marking) if not t.done()]

    async def drain(self) -> None:
        """Wait until every refresh due is made (the console, tests: the pace must be short)."""
        while pending := self.pending():
            await asyncio.gather(*pending, return_exceptions=True)

    def stop(self) -> list[asyncio.Task[None]]:
        """A stop of the bot: no refresh begins, those waiting for their turn are dropped (the store
        keeps them behind for the next start); the ones under way are returned, to finish."""
        self.stopped = True
        for owner in list(self._waiting):
            task = self._tasks.get(owner)
            if task is not None:
                task.cancel()
        return self.pending()


def _fitted(head: str, lines: Sequence[str], locale: str, limit: int) -> str:
    """``head`` and as many ``lines`` as one message holds (``limit`` characters), the rest counted
    on a last line."""
    text = head
    for shown, line in enumerate(lines):
        left = len(lines) - shown - 1
        more = "\n" + i18n.t("svc.list.more", locale, count=left) if left else ""
        if len(text) + 1 + len(line) + len(more) > limit:
            return text + "\n" + i18n.t("svc.list.more", locale, count=len(lines) - shown)
        text += "\n" + line
    return text


__all__ = [
    "PACE",
    "PLAYER",
    "SERVER",
    "Listings",
    "channel_link",
    "owners_of",
    "player_owner",
    "server_owner",
]
