"""Who posts for a game: one process at a time, under the game's claim in the store.

Several processes may share one store (shards). Each game's channel work (its announcements, its
reminders and deadlines) is done under the game's claim (``Claims.claimed``), so exactly one process
posts a game's handover; a process that starts takes at once the claims of predecessors provably gone
(``take_over``, ``table.posting.owners``), and the claim's lease lets another process take over the
games of one that died otherwise (docs/architecture.md, "Several processes"). Inside one process a
lock per game keeps its announcements and its timed work apart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable

from db import Store
from table.posting.owners import ALL_SHARDS, Owner, stale

log = logging.getLogger(__name__)

DEFAULT_LEASE = 60.0
"""Seconds a process's claim on a game's posts lasts unless renewed: far longer than one post takes,
and how long the game's posts wait when the process holding it is killed."""


def claim_key(game_id: int) -> str:
    """The claim under which one process at a time posts and reminds for a game."""
    return f"game:{game_id}"


def process_owner() -> str:
    """This process's name in the claims it holds (``table.posting.owners.Owner``): host, process id, and a
    random part, so that a restarted process with a recycled id never mistakes a dead one's claims
    for its own. ``Claims.take_over`` names it anew at start-up, with its scope and generation."""
    return str(Owner.here())


class Claims:
    """This process's claims on games' channel work, and its lock on each game's."""

    def __init__(
        self,
        store: Store,
        *,
        owner: str | None = None,
        lease: float = DEFAULT_LEASE,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.owner = owner or process_owner()
        self.lease = lease
        self._monotonic = monotonic
        self._taken: dict[str, float] = {}
        """When each claim this process holds was last taken or renewed (``monotonic``)."""
        self._locks: dict[int, asyncio.Lock] = {}

    def working_on(self, game_id: int) -> bool:
        """Whether the game's channel work is under way in this process (an announcement, a
        reminder): whatever it leaves undone, the next look at the game does."""
        return self._lock(game_id).locked()

    async def take_over(self, scope: str = ALL_SHARDS, *, sole: bool = True) -> int:
        """At start-up, before any work: name this process in its claims as the next start of
        ``scope`` (the shards it serves), and take at once the claims its predecessors left, when
        they are provably gone, or all of them when this is the ``sole`` process of the bot
        (``table.posting.owners``): their games are caught up at the first tick, with no lease to wait out.
        How many claims were taken."""
        me = Owner.here(scope, await self.store.next_generation(scope))
        self.owner = str(me)
        gone = stale(await self.store.claim_owners(), me, sole=sole)
        taken = 0
        for owner in gone:
            taken += await self.store.release_owner(owner)
        if gone:
            log.info("took over %d claim(s) left by %d stopped process(es)", taken, len(gone))
        return taken

    async def release_all(self) -> int:
        """Give up every claim this process holds (a clean stop); how many there were."""
        self._taken.clear()
        return await self.store.release_owner(self.owner)

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
                    await asyncio.shield(self.store.release(key, self.owner))

    async def _take(self, key: str) -> bool:
        """Take or renew the claim ``key`` in the store; whether it is this process's."""
        asked = self._monotonic()
        held = await self.store.claim(key, self.owner, self.lease)
        if held:
            self._taken[key] = asked  # it lasts a lease from no earlier than this
        else:
            self._taken.pop(key, None)
        return held

    async def still_held(self, game_id: int) -> bool:
        """Whether the game's claim is still this process's before a post goes out. Taken or renewed
        within half a lease, it is: nobody can have it before it runs out. Older (a process stalled
        past its lease, a long wait to coalesce), the store is asked again, as another process may
        have taken it. A move's post skips that trip: it comes a few milliseconds after the claim."""
        key = claim_key(game_id)
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
