"""The SQLite implementation of ``db.Store`` (aiosqlite, WAL mode).

One connection per store, in autocommit mode with explicit transactions. aiosqlite runs
every statement on one worker thread, so two coroutines sharing the connection would mix
their statements into one transaction; an asyncio.Lock serialises whole transactions.
Every write is one transaction begun with ``BEGIN IMMEDIATE``, which holds the file's only
writer lock from the start: a move reads its game's version and decides on it with no other
writer (another process on the same file) able to change it meanwhile.

The rules (what a write checks, writes and clears; how records are read) are ``db.rules``'s;
this module runs them, each transaction in one trip to the connection's thread.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, closing
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

import aiosqlite

from db.errors import StoreError
from db.migrate import migrate
from db.reads import OPEN, Reads, StoreReads
from db.records import GameRecord
from db.rules import Count, Dialect, Done, Many, Rows, Rule, RulesStore, advance, game_query, record_of
from db.transfer import TABLES, Table, batches, not_empty
from db.values import Answer, Cell, Param, Row

BUSY_TIMEOUT_MS = 5000
T = TypeVar("T")

SQLITE = Dialect(
    for_update="",
    arrays=False,
    no_limit=-1,
    same="IS",
    greatest="max",
    seats="(SELECT json_group_array(json_array(s.id, s.player, s.name, s.team))"
    " FROM seats s WHERE s.game_id = games.id)",
    player_in_places="EXISTS (SELECT 1 FROM json_each(results.places) j"
    " WHERE json_extract(j.value, '$.player') = ?)",
)
"""SQLite's words: one writer at a time (no row locks, no advisory locks), lists as placeholders."""


async def connect(path: str | Path, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> aiosqlite.Connection:
    """A connection configured as the store needs it, without running migrations."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    conn.row_factory = aiosqlite.Row
    await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute("PRAGMA journal_mode = WAL")
    await conn.execute("PRAGMA synchronous = NORMAL")
    return conn


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
        async with self._lock:  # one statement at a time on this connection, never anyone else's
            rows = await self._conn.execute_fetchall(game_query(SQLITE, where), (channel,))
        return next((record_of(r) for r in rows), None)

    async def open_game(self, channel: str) -> GameRecord | None:
        return await self._game(f"channel = ? AND {OPEN}", channel)

    async def latest_game(self, channel: str) -> GameRecord | None:
        return await self._game("channel = ?", channel)

    async def close(self) -> None:
        await self._conn.close()


async def open_store(path: str | Path, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> SqliteStore:
    """Open (creating if needed) the database at ``path`` and bring its schema up to date."""
    conn = await connect(path, busy_timeout_ms=busy_timeout_ms)
    reader = reads = None
    try:
        await migrate(conn)
        if str(path) != ":memory:":
            reader = await connect(path, busy_timeout_ms=busy_timeout_ms)
            reads = await SqliteReads.open(path, busy_timeout_ms=busy_timeout_ms)
    except BaseException:
        await conn.close()
        if reader is not None:
            await reader.close()
        raise
    store = SqliteStore(conn, reader, reads)
    await store._clear_claims()
    return store


def drive(conn: sqlite3.Connection, rule: Rule[T], hook: Callable[[str], None]) -> T:
    """Run ``rule``'s statements on ``conn``, on the connection's own thread; its answer."""
    value: Answer = None
    with closing(rule):
        while not isinstance(step := advance(rule, value), Done):
            value = None
            if isinstance(step, Rows):
                value = conn.execute(step.sql, step.params).fetchall()
            elif isinstance(step, Count):
                value = conn.execute(step.sql, step.params).rowcount
            elif isinstance(step, Many):
                value = conn.executemany(step.sql, step.rows).rowcount
            else:
                hook(step.name)
        return step.value


def _transaction(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T], *, write: bool) -> T:
    """``work`` inside one transaction, run where the connection lives (its thread)."""
    conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        result = work(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # a failed COMMIT leaves it open too
            conn.execute("ROLLBACK")
        raise
    return result


class SqliteStore(RulesStore):
    """Games, seats, action log and votes in one SQLite file."""

    dialect = SQLITE

    def __init__(
        self,
        conn: aiosqlite.Connection,
        reader: aiosqlite.Connection | None = None,
        reads: Reads | None = None,
    ) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        # Reads go through a connection of their own: in WAL mode they see the last commit and never
        # wait behind a write.
        self._reader = reader or conn
        self._read_lock = asyncio.Lock() if reader is not None else self._lock
        self.reads: Reads = reads or StoreReads(self)
        """The quick read path (autocomplete): a third, read-only connection that nothing else uses,
        so a keystroke waits neither for a write nor for the moves' and announcements' reads."""

    async def close(self) -> None:
        await self.reads.close()
        await self._conn.close()
        if self._reader is not self._conn:
            await self._reader.close()

    @asynccontextmanager
    async def _tx(self, *, write: bool = True) -> AsyncIterator[aiosqlite.Connection]:
        """One transaction; rolled back on any exception, cancellation included."""
        conn, lock = (self._conn, self._lock) if write else (self._reader, self._read_lock)
        async with lock:
            await conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield conn
            except BaseException:
                await asyncio.shield(conn.execute("ROLLBACK"))
                raise
            try:
                await conn.execute("COMMIT")
            except sqlite3.Error:
                if conn.in_transaction:  # a failed COMMIT leaves the transaction open
                    await conn.execute("ROLLBACK")
                raise

    async def _read(self, sql: str, params: Sequence[Param] = ()) -> list[Row]:
        """The rows of one SELECT on the read connection, in one trip to its thread.

        A single statement outside a transaction reads one snapshot, the last commit (WAL), so a
        one-statement read needs no BEGIN and COMMIT: two trips fewer, and each trip to the
        connection's thread costs as much as a small query. The lock keeps it out of a read
        transaction another task holds open on the same connection."""
        async with self._read_lock:
            return list(await self._reader.execute_fetchall(sql, params))

    async def _run(self, rule: Rule[T], *, write: bool = True) -> T:
        """Run ``rule`` as one transaction on the connection's own thread: all its statements in
        one trip instead of one trip each (a trip costs as much as a small query, and more when the
        machine is loaded). aiosqlite runs a connection's calls on its one thread, in order, through
        ``_execute``; the rule gets the ``sqlite3`` connection there. The lock keeps other
        transactions of this store out, as ``_tx`` does."""
        conn, lock = (self._conn, self._lock) if write else (self._reader, self._read_lock)

        def work(c: sqlite3.Connection) -> T:
            return drive(c, rule, self._hook)

        async with lock:
            # aiosqlite's _execute (its thread's queue, not public API) carries no annotations.
            return await conn._execute(lambda: _transaction(conn._conn, work, write=write))  # type: ignore[no-untyped-call,no-any-return]

    def _hook(self, name: str) -> None:
        """SQLite's writer holds the file's lock from the start: only the move's test hook is here."""
        if name == "before_state_update":
            self._before_state_update()

    # ---- claims: work one process does at a time ------------------------------------------------------

    async def claim(self, key: str, owner: str, lease: float) -> bool:
        """Take or renew ``key`` for ``owner`` for ``lease`` seconds; one statement, so two claims of
        one key never both succeed. (SQLite serves one process: its claims are cleared at opening.)"""
        now = datetime.now(UTC)
        expires = (now + timedelta(seconds=lease)).isoformat(timespec="milliseconds")
        rows = await self._write(
            "INSERT INTO claims (key, owner, expires) VALUES (?, ?, ?)"
            " ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires = excluded.expires"
            " WHERE claims.owner = excluded.owner OR claims.expires <= ? RETURNING owner",
            (key, owner, expires, now.isoformat(timespec="milliseconds")),
        )
        return bool(rows)

    async def next_generation(self, scope: str) -> int:
        rows = await self._write(
            "INSERT INTO meta (key, value) VALUES (?, '1')"
            " ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(meta.value AS INTEGER) + 1 AS TEXT)"
            " RETURNING value",
            (f"generation:{scope}",),
        )
        return int(rows[0][0])

    async def _clear_claims(self) -> None:
        """Forget every claim: a SQLite file has one bot process, so a claim found at opening was left
        by a process that is gone, and its work is this process's to do now."""
        await self._write("DELETE FROM claims")

    # ---- moving games between stores (``python -m db``) ---------------------------------------------

    async def schema(self) -> int:
        """The number of the database's last migration."""
        async with self._tx(write=False) as c, c.execute("SELECT max(version) FROM schema_migrations") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    async def export_rows(self) -> AsyncIterator[tuple[Table, tuple[Cell, ...]]]:
        """Every row of every table, table by table in key order, from one snapshot."""
        async with self._tx(write=False) as c:
            for table in TABLES:
                async with c.execute(table.select) as cur:
                    async for row in cur:
                        yield table, tuple(row)

    async def import_rows(self, rows: Iterable[tuple[Table, tuple[Cell, ...]]]) -> None:
        """Store a dump's rows, ids included, in one transaction; the database must hold no rows yet."""
        async with self._tx() as c:
            for table in TABLES:
                async with c.execute(f"SELECT count(*) FROM {table.name}") as cur:
                    row = await cur.fetchone()
                if row and row[0]:
                    raise StoreError(not_empty(table.name, int(row[0])))
            for table, batch in batches(rows):
                marks = ", ".join("?" for _ in table.names)
                await c.executemany(
                    f"INSERT INTO {table.name} ({', '.join(table.names)}) VALUES ({marks})", batch
                )
