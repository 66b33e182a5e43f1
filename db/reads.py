"""The quick read path: what a player waits on while typing (autocomplete), apart from the store's work.

Autocomplete answers on every keystroke and Discord shows nothing after 3 seconds. In a burst of moves
the store's own connections are busy: SQLite's writer with the moves, its read connection with the
moves' and announcements' reads (one statement at a time, in order), PostgreSQL's pool with
transactions waiting on row locks. A keystroke queued behind those waits for all of them. The quick
read path is a connection (SQLite) or a small pool (PostgreSQL) of its own, read-only, that nothing
else uses: it reads the last commit and never waits for a write or for another command's read.

``Reads`` is what it offers; every store has one as ``store.reads`` (``StoreReads``, the store's own
reads, where no separate connection can be had: an in-memory SQLite database, a store built in a test).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import aiosqlite

if TYPE_CHECKING:
    import asyncpg

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

    def __init__(self, store: Any) -> None:
        self._store = store

    async def open_game(self, channel: str) -> GameRecord | None:
        return await self._store.open_game(channel)  # type: ignore[no-any-return]

    async def latest_game(self, channel: str) -> GameRecord | None:
        return await self._store.latest_game(channel)  # type: ignore[no-any-return]

    async def close(self) -> None:
        """Nothing of its own to close: the store closes its connections."""


class SqliteReads:
    """A read-only connection of its own to the SQLite file. In WAL mode a reader sees the last commit
    and neither waits for the writer nor holds it up; its thread serves only these reads."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout_ms: int) -> SqliteReads:
        conn = await aiosqlite.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await conn.execute("PRAGMA query_only = ON")
        except BaseException:
            await conn.close()
            raise
        return cls(conn)

    async def _game(self, where: str, channel: str) -> GameRecord | None:
        from db.sqlite import _game_of, _game_query

        async with self._lock:  # one statement at a time on this connection, never anyone else's
            return _game_of(await self._conn.execute_fetchall(_game_query(where), (channel,)))

    async def open_game(self, channel: str) -> GameRecord | None:
        return await self._game(f"channel = ? AND {OPEN}", channel)

    async def latest_game(self, channel: str) -> GameRecord | None:
        return await self._game("channel = ?", channel)

    async def close(self) -> None:
        await self._conn.close()


class PostgresReads:
    """A small pool of its own whose sessions are read-only: the store's pool may be taken whole by
    moves waiting on each other's row locks, and a keystroke would wait for one of them to end."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def open(cls, url: str, *, size: int = QUICK_POOL_SIZE) -> PostgresReads:
        import asyncpg

        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=size, server_settings={"default_transaction_read_only": "on"}
        )
        return cls(pool)

    async def _game(self, where: str, channel: str) -> GameRecord | None:
        from db.postgres import game_where

        async with self._pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            return await game_where(conn, where, channel)

    async def open_game(self, channel: str) -> GameRecord | None:
        return await self._game(f"channel = $1 AND {OPEN}", channel)

    async def latest_game(self, channel: str) -> GameRecord | None:
        return await self._game("channel = $1", channel)

    async def close(self) -> None:
        from db.postgres import CLOSE_SECONDS

        try:
            await asyncio.wait_for(self._pool.close(), CLOSE_SECONDS)
        except TimeoutError:
            self._pool.terminate()


__all__ = ["PostgresReads", "Reads", "SqliteReads", "StoreReads"]
