"""The PostgreSQL implementation of ``db.Store`` (asyncpg), for a bot that outgrows one SQLite file.

It keeps every guarantee of the SQLite store, with the same records. PostgreSQL runs transactions side
by side (read committed) where SQLite runs one writer at a time, so what SQLite gets from its single
writer is made explicit here: every write that reads before it decides (a join checking the seats
left, a move checking the version, an ending, a vote) first locks its game's row with
``SELECT ... FOR UPDATE``. A second writer of the same game then waits for the first to commit and
decides on what it wrote: two joins never overfill a table, two connections never apply the same
version twice. The open-game-per-channel rule is a partial unique index, as in SQLite, and an
announcement is written only over the revision its writer read (``WHERE rev = $n``).

Schema changes are the numbered files of ``migrations_pg/`` (one per SQLite migration, same number,
same meaning), each applied in its own transaction under an advisory lock, so two bots starting
together never apply one twice; a database that has a migration this code does not know is refused.

The rules (what a write checks, writes and clears; how records are read) are ``db.rules``'s; this
module runs them on a connection of its pool, their ``?`` placeholders numbered as PostgreSQL's.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager, closing
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import TypeAlias, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from db.errors import StoreError
from db.migrate import Migration, discover, refuse_newer
from db.reads import OPEN, QUICK_POOL_SIZE, Reads, StoreReads
from db.records import GameRecord
from db.rules import Count, Dialect, Done, Many, Rows, Rule, RulesStore, advance, game_query, record_of
from db.transfer import TABLES, Table, batches, not_empty
from db.values import Answer, Cell, Param, Row

MIGRATIONS_DIR = Path(__file__).parent / "migrations_pg"
MIGRATION_LOCK = 7_461_226_301
"""The advisory lock key held while migrating (any constant the bot's database uses for nothing else)."""
RATINGS_LOCK = 0x7261_7469_6E67
"""The advisory lock key held while recording a result or recomputing ratings."""
POOL_SIZE = 10
CLOSE_SECONDS = 2.0
"""How long closing the store waits for connections still in use before it cuts them."""
T = TypeVar("T")

Connection: TypeAlias = asyncpg.Connection | PoolConnectionProxy
"""A connection of its own (a migration run by hand) or one lent by the pool: the pool's proxy
forwards every call to its connection, though asyncpg's types keep the two apart."""

POSTGRES = Dialect(
    for_update=" FOR UPDATE",
    arrays=True,
    no_limit=None,
    same="IS NOT DISTINCT FROM",
    greatest="greatest",
    seats="(SELECT coalesce(json_agg(json_build_array(s.id, s.player, s.name, s.team)), '[]'::json)"
    " FROM seats s WHERE s.game_id = games.id)",
    player_in_places="EXISTS (SELECT 1 FROM json_array_elements(results.places) j WHERE j ->> 'player' = ?)",
    ratings_lock=f"SELECT pg_advisory_xact_lock({RATINGS_LOCK})",
    settings_lock="SELECT pg_advisory_xact_lock(hashtext('player_settings:' || ?))",
)
"""PostgreSQL's words: writers side by side, so a writer locks its game's row (and results and a
player's settings are changed one at a time under advisory locks); lists as arrays."""


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered as PostgreSQL's ``$1``, ``$2``..."""
    parts = sql.split("?")
    return parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], start=1))


def describe(url: str) -> str:
    """The URL without its password, for logs and messages."""
    head, sep, rest = url.partition("://")
    if "@" in rest.split("/", 1)[0]:
        who, _, where = rest.partition("@")
        user = who.split(":", 1)[0]
        return f"{head}{sep}{user}@{where}"
    return url


def _count(status: str) -> int:
    """The row count of an asyncpg command status such as ``UPDATE 1`` or ``INSERT 0 1``."""
    return int(status.rsplit(" ", 1)[-1])


# ---- migrations ---------------------------------------------------------------------------------------


async def applied(conn: Connection) -> set[int]:
    """Numbers of the migrations already recorded in the database (creating their table if needed)."""
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    return {int(r["version"]) for r in await conn.fetch("SELECT version FROM schema_migrations")}


async def migrate(
    conn: Connection, *, upto: int | None = None, migrations: list[Migration] | None = None
) -> list[int]:
    """Apply every pending migration (up to ``upto`` when given), each in its own transaction
    together with the row recording it; returns the numbers applied.

    The whole run holds an advisory lock, so a second bot starting at the same moment waits and
    then finds nothing left to do.
    """
    todo = discover(MIGRATIONS_DIR) if migrations is None else migrations
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        done = await applied(conn)
        refuse_newer(done, todo)
        ran: list[int] = []
        for mig in todo:
            if mig.number in done or (upto is not None and mig.number > upto):
                continue
            async with conn.transaction():
                await conn.execute(mig.sql)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                    mig.number,
                    mig.name,
                    datetime.now(UTC).isoformat(timespec="seconds"),
                )
            ran.append(mig.number)
        return ran
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)


async def open_store(url: str, *, pool_size: int = POOL_SIZE) -> PostgresStore:
    """Connect to the database at ``url`` and bring its schema up to date."""
    pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
    try:
        async with pool.acquire() as conn:
            await migrate(conn)
        reads = await PostgresReads.open(url)
    except BaseException:
        await pool.close()
        raise
    return PostgresStore(pool, reads)


async def drive(conn: Connection, rule: Rule[T], store: PostgresStore) -> T:
    """Run ``rule``'s statements on ``conn``, inside the transaction its caller opened; its answer."""
    value: Answer = None
    with closing(rule):
        while not isinstance(step := advance(rule, value), Done):
            value = None
            if isinstance(step, Rows):
                value = await conn.fetch(numbered(step.sql), *step.params)
            elif isinstance(step, Count):
                value = _count(await conn.execute(numbered(step.sql), *step.params))
            elif isinstance(step, Many):
                await conn.executemany(numbered(step.sql), step.rows)
            elif step.name == "before_state_update":
                store._before_state_update()
            else:
                await store._holding(step.name)
        return step.value


# ---- the store ----------------------------------------------------------------------------------------


class PostgresStore(RulesStore):
    """Games, seats, action log, votes and the play-by-post rows in one PostgreSQL database."""

    dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool, reads: Reads | None = None) -> None:
        self._pool = pool
        self.reads: Reads = reads or StoreReads(self)
        """The quick read path (autocomplete): a small pool of its own (``db.reads``)."""

    async def close(self) -> None:
        """Close the pool's connections once they are released; connections still held after
        ``CLOSE_SECONDS`` (work that was not ended first) are cut."""
        await self.reads.close()
        try:
            await asyncio.wait_for(self._pool.close(), CLOSE_SECONDS)
        except TimeoutError:
            self._pool.terminate()

    @asynccontextmanager
    async def _tx(self, *, write: bool = True) -> AsyncIterator[Connection]:
        """One transaction on a connection of the pool; rolled back on any exception.

        Reads run in a read-only repeatable-read transaction: a game and its seats come from one
        snapshot, as they do in SQLite.
        """
        async with self._pool.acquire() as conn:
            if write:
                async with conn.transaction():
                    yield conn
            else:
                async with conn.transaction(isolation="repeatable_read", readonly=True):
                    yield conn

    async def _run(self, rule: Rule[T], *, write: bool = True) -> T:
        async with self._tx(write=write) as c:
            return await drive(c, rule, self)

    async def _read(self, sql: str, params: Sequence[Param] = ()) -> list[Row]:
        """One statement reads one snapshot: no transaction of its own (two round trips fewer)."""
        return list(await self._pool.fetch(numbered(sql), *params))

    async def _holding(self, write: str) -> None:
        """Runs inside a write's transaction once it holds its row (``write``: "seat", "move",
        "announcement"), just before it decides.

        Does nothing; tests pause one writer here so that a second one arrives while the first
        holds the row, which is the race the row locks exist for.
        """

    # ---- claims: work one process does at a time ------------------------------------------------------

    async def claim(self, key: str, owner: str, lease: float) -> bool:
        """Take or renew ``key`` for ``owner`` until ``lease`` seconds from now on the database's clock.

        One statement: two processes claiming at once are serialised by the row (or the primary key of
        a new one), so exactly one of them gets it."""
        async with self._tx() as c:
            row = await c.fetchrow(
                "INSERT INTO claims (key, owner, expires) VALUES ($1, $2, now() + make_interval(secs => $3))"
                " ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires = excluded.expires"
                " WHERE claims.owner = excluded.owner OR claims.expires <= now() RETURNING owner",
                key,
                owner,
                float(lease),
            )
        return row is not None

    async def next_generation(self, scope: str) -> int:
        async with self._tx() as c:
            value = await c.fetchval(
                "INSERT INTO meta (key, value) VALUES ($1, '1')"
                " ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text RETURNING value",
                f"generation:{scope}",
            )
        return int(value)

    # ---- moving games between stores (``python -m db``) ---------------------------------------------

    async def schema(self) -> int:
        """The number of the database's last migration."""
        return int(await self._pool.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations"))

    async def export_rows(self) -> AsyncIterator[tuple[Table, tuple[Cell, ...]]]:
        """Every row of every table, table by table in key order, from one snapshot."""
        async with self._tx(write=False) as c:
            for table in TABLES:
                async for row in c.cursor(table.select, prefetch=500):
                    yield table, tuple(row.values())

    async def import_rows(self, rows: Iterable[tuple[Table, tuple[Cell, ...]]]) -> None:
        """Store a dump's rows, ids included, in one transaction; the database must hold no rows yet.
        The ids the store generates afterwards follow the imported ones."""
        async with self._tx() as c:
            for table in TABLES:
                count = await c.fetchval(f"SELECT count(*) FROM {table.name}")
                if count:
                    raise StoreError(not_empty(table.name, int(count)))
            for table, batch in batches(rows):
                marks = ", ".join(f"${n}" for n in range(1, len(table.names) + 1))
                await c.executemany(
                    f"INSERT INTO {table.name} ({', '.join(table.names)}) VALUES ({marks})", batch
                )
            for table in TABLES:
                if table.identity:
                    await c.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), max(id))"
                        f" FROM {table.name} HAVING max(id) IS NOT NULL"
                    )


class PostgresReads:
    """A small pool of its own whose sessions are read-only: the store's pool may be taken whole by
    moves waiting on each other's row locks, and a keystroke would wait for one of them to end."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def open(cls, url: str, *, size: int = QUICK_POOL_SIZE) -> PostgresReads:
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=size, server_settings={"default_transaction_read_only": "on"}
        )
        return cls(pool)

    async def _game(self, where: str, channel: str) -> GameRecord | None:
        rows = await self._pool.fetch(numbered(game_query(POSTGRES, where)), channel)
        return record_of(rows[0]) if rows else None

    async def open_game(self, channel: str) -> GameRecord | None:
        return await self._game(f"channel = ? AND {OPEN}", channel)

    async def latest_game(self, channel: str) -> GameRecord | None:
        return await self._game("channel = ?", channel)

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self._pool.close(), CLOSE_SECONDS)
        except TimeoutError:
            self._pool.terminate()
