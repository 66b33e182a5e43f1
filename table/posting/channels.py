"""What the announcer knows of each channel besides its games: how fast it takes posts, and whether
it refuses them (``table.posting.faults``).

Discord takes about 5 messages per 5 seconds in one channel; past that it answers 429 and every post
waits. A burst of moves in one channel must not turn into a queue of posts Discord makes wait, each
showing a board already outdated: the front end gives its rate as a value (``Outlet.rate``), and
every post and edit in a channel waits for room in that channel's rate (``Budgets``) before it goes
(``PacedOutlet``, through which the announcer, the reminders and the deadline notices all post). The
announcer waits for the room *before* it reads the store (``Channels.ready``), so the moves made
while it waits fold into the one post or edit it then makes: latest wins, as in the drawing queue.

A request counts from the moment it goes until Discord's answer comes back, and then for the rate's
whole window: a post sent ``seconds`` after the answer to the one before it reaches Discord no
sooner than ``seconds`` after that one did, however long either took on the way. Two requests may
follow each other at once (a move's post and a computer player's reply); past those, a channel's
requests come at least ``seconds / requests`` apart, so that a burst of moves is shown in posts spread
over the burst, each naming a share of its moves, rather than in a few at once and then one, a whole
window later, that would have to name all the rest.

A turn that went round while the announcer waited (someone the post did not ask moved) is a new post, and a
new post whose summary is longer than a message goes as several (``spill``), so every move stays named. A 429
that comes all the same is waited out by discord.py (``retry_after``), as are 500, 502 and 504; other failures
leave the game unannounced for the next tick's catch-up, and the post's nonce keeps it single. The timed loop
(its catch-up, a deadline's move) leaves a game to the announcement already queued for it in this process,
which reads the store when its channel's turn comes: waiting for each busy channel's room in turn, a tick took
14 s in ``bench.faults``' storm; now under 3 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from db import GameRecord, Store
from table.core.clock import Clock
from table.core.posts import Post
from table.core.text import split
from table.posting.faults import Faults
from table.posting.outlet import ChannelGone, ChannelRate, Outlet, Rated, Refused

Sleep = Callable[[float], Awaitable[None]]
T = TypeVar("T")

AT_ONCE = 2
"""Requests a channel takes one right after the other; the next ones are spaced out."""
SWEEP_AT = 1000
"""Channels remembered before those quiet for a whole window are forgotten all at once."""


def direct_key(user: str) -> str:
    """Where a user's direct messages count in ``Budgets``: their own channel with the bot, which
    takes messages at the rate of any channel, and which no server channel's id can be."""
    return f"@{user}"


def rate_of(outlet: object) -> ChannelRate | None:
    """The rate of the outlet's channels, when its front end has one."""
    return outlet.rate if isinstance(outlet, Rated) else None


@dataclass
class _Slots:
    """One channel's requests: the answers of the last window (their times, oldest first) and how
    many are under way."""

    ended: deque[float] = field(default_factory=deque)
    busy: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class Budgets:
    """Room in each channel's rate. ``spend`` around a request waits for room, then counts it."""

    def __init__(self, rate: ChannelRate | None, *, monotonic: Callable[[], float], sleep: Sleep) -> None:
        self.rate = rate
        self._monotonic = monotonic
        self._sleep = sleep
        self._slots: dict[str, _Slots] = {}

    def _free_at(self, channel: str) -> float | None:
        """When ``channel`` has room for one more request: None for now, ``inf`` once a request
        under way ends (every slot is taken by requests not answered yet)."""
        rate, slots = self.rate, self._slots.get(channel)
        if rate is None or slots is None:
            return None
        now = self._monotonic()
        while slots.ended and slots.ended[0] <= now - rate.seconds:
            slots.ended.popleft()
        if not slots.ended and not slots.busy:
            del self._slots[channel]  # nothing to remember of a quiet channel
            return None
        taken = len(slots.ended) + slots.busy
        if taken >= rate.requests:
            return slots.ended[0] + rate.seconds if slots.ended else math.inf
        if taken < AT_ONCE:
            return None
        if slots.busy:
            return math.inf
        spaced = slots.ended[-1] + rate.seconds / rate.requests
        return None if spaced <= now else spaced

    async def room(self, channel: str) -> None:
        """Wait until ``channel`` may take one more request now."""
        while (free := self._free_at(channel)) is not None:
            slots = self._slots[channel]
            slots.changed.clear()
            ended: asyncio.Future[object] = asyncio.ensure_future(slots.changed.wait())
            waits = {ended}
            if free != math.inf:
                waits.add(asyncio.ensure_future(self._sleep(max(0.0, free - self._monotonic()))))
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiting in waits:
                    waiting.cancel()

    @contextlib.asynccontextmanager
    async def spend(self, channel: str) -> AsyncIterator[None]:
        """Around one request to ``channel``: wait for room, then count it until its answer is in and
        for the window after that (a refused request counts too: Discord counted it)."""
        if self.rate is None:
            yield
            return
        await self.room(channel)
        if len(self._slots) >= SWEEP_AT:
            for quiet in list(self._slots):
                self._free_at(quiet)  # forgets it when nothing of it is left in its window
        slots = self._slots.setdefault(channel, _Slots())
        slots.busy += 1
        try:
            yield
        finally:
            slots.busy -= 1
            slots.ended.append(self._monotonic())
            slots.changed.set()


class PacedOutlet:
    """The front end's outlet, each post and edit within its channel's rate, and none in a channel
    that refuses the bot but for its next try: a refusal is recorded and its people told, a deleted
    channel's game closed, and a post that goes through ends its channel's fault."""

    def __init__(self, outlet: Outlet, channels: Channels) -> None:
        self.outlet = outlet
        self.channels = channels

    @property
    def rate(self) -> ChannelRate | None:
        return rate_of(self.outlet)

    async def send(self, channel: str, post: Post) -> str:
        return await self._request(channel, lambda: self.outlet.send(channel, post))

    async def edit(self, channel: str, message: str, post: Post) -> bool:
        return await self._request(channel, lambda: self.outlet.edit(channel, message, post))

    async def direct(self, user: str, post: Post) -> bool:
        return await self.outlet.direct(user, post)

    async def send_direct(self, user: str, post: Post) -> str | None:
        async with self.channels.budgets.spend(direct_key(user)):
            return await self.outlet.send_direct(user, post)

    async def edit_direct(self, user: str, message: str, post: Post) -> bool:
        async with self.channels.budgets.spend(direct_key(user)):
            return await self.outlet.edit_direct(user, message, post)

    async def edit_kept(self, channel: str, message: str, post: Post) -> bool:
        return await self._request(channel, lambda: self.outlet.edit_kept(channel, message, post))

    async def _request(self, channel: str, call: Callable[[], Awaitable[T]]) -> T:
        faults = self.channels.faults
        await faults.loaded()
        faults.trying(channel)  # raises Paused while the channel is left alone
        try:
            async with self.channels.budgets.spend(channel):
                done = await call()
        except Refused as refused:
            await faults.refused(channel, refused)
            raise
        except ChannelGone:
            await faults.gone(channel)
            raise
        await faults.worked(channel)
        return done


class Channels:
    """The channels the announcer posts in: their rates (``budgets``), the ones that refuse the bot
    (``faults``), and the outlet that keeps to both (``outlet``: the front end's own when it has no
    rate, as the console, whose channel never refuses anything)."""

    def __init__(
        self, store: Store, outlet: Outlet, *, clock: Clock, monotonic: Callable[[], float], sleep: Sleep
    ) -> None:
        self.budgets = Budgets(rate_of(outlet), monotonic=monotonic, sleep=sleep)
        self.faults = Faults(store, outlet, clock)
        self.outlet: Outlet = PacedOutlet(outlet, self) if isinstance(outlet, Rated) else outlet
        self._where: dict[int, str] = {}
        """The channel of each game announced here (a channel never changes), so that its rate can
        be waited for before the game is read."""

    def seen(self, record: GameRecord) -> None:
        """Remember the game's channel (its announcements wait for that channel's rate)."""
        self._where[record.id] = record.channel

    async def ready(self, game_id: int) -> None:
        """Wait for room in the game's channel, before its announcement reads the store: what is
        stored while it waits is in the post it then makes."""
        await self.faults.loaded()
        channel = self._where.get(game_id)
        if channel is not None and not self.faults.paused(channel):
            await self.budgets.room(channel)

    def open_to(self, record: GameRecord) -> bool:
        """Whether the game's news may be posted now: not while its channel refuses the bot and its
        next try is not due (then no board is drawn for it either)."""
        self.seen(record)
        return not self.faults.paused(record.channel)


def spill(text: str, limit: int) -> list[str]:
    """``text`` as messages of at most ``limit`` characters, cut between lines, the last as full as it
    can be (it carries the board, and its text is what later edits replace): ``split`` from the end."""
    return split(text, limit, from_end=True)


__all__ = ["Budgets", "Channels", "PacedOutlet", "direct_key", "rate_of", "spill"]
