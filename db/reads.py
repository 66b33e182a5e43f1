"""The quick read path: what a player waits on while typing (autocomplete), apart from the store's work.

Autocomplete answers on every keystroke and Discord shows nothing after 3 seconds. In a burst of moves
the store's own connections are busy: SQLite's writer with the moves, its read connection with the
moves' and announcements' reads (one statement at a time, in order), PostgreSQL's pool with
transactions waiting on row locks. A keystroke queued behind those waits for all of them. The quick
read path is a connection (SQLite) or a small pool (PostgreSQL) of its own, read-only, that nothing
else uses: it reads the last commit and never waits for a write or for another command's read.

``Reads`` is what it offers; every store has one as ``store.reads``: ``db.sqlite.SqliteReads`` and
``db.postgres.PostgresReads`` beside the stores whose queries they share, or ``StoreReads``, the
store's own reads, where no separate connection can be had (an in-memory SQLite database, a store
built in a test).

In numbers: a third SQLite connection (``mode=ro``, ``query_only``) beside the writer and the reader the moves
and announcements share, or a pool of two read-only PostgreSQL connections beside the store's pool of ten.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from db.records import GameRecord

OPEN = "status IN ('lobby', 'active')"
QUICK_POOL_SIZE = 2
"""PostgreSQL connections of the quick read path: a keystroke's read takes a millisecond or two, so
two serve many players typing at once."""


class Reads(Protocol):
    """Reads that never queue behind the store's writes or its other reads."""

    async def open_game(self, channel: str) -> GameRecord | None:
        """The channel's game in the lobby or running, as last committed."""
        ...

    async def latest_game(self, channel: str) -> GameRecord | None:
        """The channel's most recent game whatever its status."""
        ...

    async def close(self) -> None: ...


class StoreReads:
    """The store's own reads, for a store without a separate read path."""

    def __init__(self, store: Reads) -> None:
        self._store = store

    async def open_game(self, channel: str) -> GameRecord | None:
        return await self._store.open_game(channel)

    async def latest_game(self, channel: str) -> GameRecord | None:
        return await self._store.latest_game(channel)

    async def close(self) -> None:
        """Nothing of its own to close: the store closes its connections."""


__all__ = ["OPEN", "QUICK_POOL_SIZE", "Reads", "StoreReads"]
