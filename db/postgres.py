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
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from db import ratings
from db.encoding import (
    action_from_row,
    announcement_from_row,
    announcement_values,
    announcing_from_rows,
    away_from_row,
    dumps,
    fault_from_row,
    fault_values,
    game_from_row,
    heir_of,
    league_from_row,
    listing_from_row,
    merged_settings,
    note_from_row,
    notice_from_row,
    now_text,
    places_text,
    refusal,
    result_from_row,
    sides_text,
    standing_from_row,
    undo_request_from_row,
)
from db.errors import ChannelBusy, Conflict, LeagueBusy, StoreError
from db.migrate import Migration, discover, refuse_newer
from db.ratings import Place, Standing
from db.reads import OPEN, QUICK_POOL_SIZE, Reads, StoreReads
from db.records import (
    ActionRecord,
    Announcement,
    Announcing,
    Away,
    ChannelFault,
    Forced,
    GameLength,
    GameRecord,
    LeagueRecord,
    LeagueStatus,
    Listing,
    Note,
    Notice,
    ResultRecord,
    Seat,
    Status,
    UndoRequest,
    VoteKind,
)
from db.sides import sides_played
from db.transfer import TABLES, Table, batches, not_empty
from engine.errors import GameOver, StaleAction

MIGRATIONS_DIR = Path(__file__).parent / "migrations_pg"
MIGRATION_LOCK = 7_461_226_301
"""The advisory lock key held while migrating (any constant the bot's database uses for nothing else)."""
POOL_SIZE = 10
CLOSE_SECONDS = 2.0
"""How long closing the store waits for connections still in use before it cuts them."""

Connection: TypeAlias = asyncpg.Connection | PoolConnectionProxy
"""A connection of its own (a migration run by hand) or one lent by the pool: the pool's proxy
forwards every call to its connection, though asyncpg's types keep the two apart."""


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


async def records_of(conn: Connection, rows: Sequence[asyncpg.Record]) -> list[GameRecord]:
    """Game rows with their seats (one query for all of them)."""
    if not rows:
        return []
    seats: dict[int, list[Seat]] = {int(r["id"]): [] for r in rows}
    for s in await conn.fetch(
        "SELECT game_id, player, name, team FROM seats WHERE game_id = ANY($1::bigint[])"
        " ORDER BY game_id, id",
        list(seats),
    ):
        seats[s["game_id"]].append(Seat(s["player"], s["name"], s["team"]))
    return [game_from_row(row, tuple(seats[row["id"]])) for row in rows]


async def game_where(conn: Connection, where: str, *params: Any) -> GameRecord | None:
    """The newest game matching ``where``, with its seats (the store's and the quick read path's)."""
    query = f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} ORDER BY id DESC LIMIT 1"
    rows = await conn.fetch(query, *params)
    found = await records_of(conn, rows)
    return found[0] if found else None


FILL_BATCH = 200
"""Results given their sides per transaction by ``fill_sides``."""
RATINGS_LOCK = 0x7261_7469_6E67
"""The advisory lock key held while recording a result or recomputing ratings."""


def _places(text: str) -> tuple[Place, ...]:
    return tuple(Place.from_json(p) for p in json.loads(text))


async def _result_where(c: Connection, where: str, *params: Any) -> list[ResultRecord]:
    """The results matching ``where`` with their rating changes."""
    rows = await c.fetch(f"SELECT * FROM results WHERE {where}", *params)
    if not rows:
        return []
    changes: dict[int, list[Any]] = {r["id"]: [] for r in rows}
    for ch in await c.fetch(
        "SELECT * FROM rating_changes WHERE result_id = ANY($1::bigint[])", list(changes)
    ):
        changes[ch["result_id"]].append(ch)
    return [result_from_row(r, changes[r["id"]]) for r in rows]


async def _fill_sides(c: Connection, limit: int | None = None) -> int:
    """Give results without ``sides`` (at most ``limit``, None: all) those of their games' stored
    states (``db.sides``); how many."""
    rows = await c.fetch(
        "SELECT r.id, g.id AS game_id, g.game, g.state FROM results r JOIN games g ON g.id = r.game_id"
        " WHERE r.sides IS NULL ORDER BY r.id LIMIT $1",
        limit,
    )
    for row in rows:
        seats = await c.fetch("SELECT player FROM seats WHERE game_id = $1 ORDER BY id", row["game_id"])
        state = None if row["state"] is None else json.loads(row["state"])
        sides = sides_played(row["game"], state, [s["player"] for s in seats])
        await c.execute("UPDATE results SET sides = $1 WHERE id = $2", sides_text(sides), row["id"])
    return len(rows)


async def _recompute(c: Connection) -> int:
    """Rebuild every rating and rating change from the rated results, in their recorded order (and
    fill the sides still missing)."""
    await _fill_sides(c)
    rated = [
        ratings.Rated(r["id"], r["guild"], r["pool"], _places(r["places"]))
        for r in await c.fetch("SELECT * FROM results WHERE rated ORDER BY id")
    ]
    done = ratings.replay(rated)
    await c.execute("DELETE FROM rating_changes")
    await c.execute("DELETE FROM ratings")
    for result_id, changes in done.changes.items():
        await _write_changes(c, result_id, changes)
    for (guild, pool), standings in done.standings.items():
        await _write_standings(c, guild, pool, list(standings.values()))
    return len(rated)


async def _write_changes(c: Connection, result_id: int, changes: Sequence[ratings.Change]) -> None:
    await c.executemany(
        "INSERT INTO rating_changes (result_id, player, mu_before, sigma_before, mu, sigma)"
        " VALUES ($1, $2, $3, $4, $5, $6)",
        [
            (result_id, ch.player, ch.before.mu, ch.before.sigma, ch.after.mu, ch.after.sigma)
            for ch in changes
        ],
    )


async def _write_standings(c: Connection, guild: str, pool: str, standings: Sequence[Standing]) -> None:
    await c.executemany(
        "INSERT INTO ratings (guild, pool, player, mu, sigma, games, wins, draws)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (guild, pool, player) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, wins = excluded.wins,"
        " draws = excluded.draws",
        [(guild, pool, s.player, s.rating.mu, s.rating.sigma, s.games, s.wins, s.draws) for s in standings],
    )


# ---- the store ----------------------------------------------------------------------------------------

_INSERT_ACTION = (
    "INSERT INTO actions (game_id, seq, player, action, events, created_at, auto)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7)"
)


def _forced_rows(game_id: int, after: int, forced: Sequence[Forced], now: str) -> list[tuple[Any, ...]]:
    """The log rows of ``forced`` actions played one after the other from version ``after``."""
    return [
        (game_id, after + n, f.player, f.action, dumps(list(f.events)), now, True)
        for n, f in enumerate(forced, start=1)
    ]


_GAME_COLUMNS = (
    "id, channel, game, status, creator, players, options, seed, version, state, result,"
    " created_at, updated_at, guild, locale, settings"
)


class PostgresStore:
    """Games, seats, action log, votes and the play-by-post rows in one PostgreSQL database."""

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

    def _before_state_update(self) -> None:
        """Runs inside a move's transaction between the action insert and the state update.

        Does nothing; it exists so tests can inject a failure at the most awkward moment.
        """

    async def _holding(self, write: str) -> None:
        """Runs inside a write's transaction once it holds its row (``write``: "seat", "move",
        "announcement"), just before it decides.

        Does nothing; tests pause one writer here so that a second one arrives while the first
        holds the row, which is the race the row locks exist for.
        """

    # ---- reading -------------------------------------------------------------------------

    async def _records(self, conn: Connection, rows: Sequence[asyncpg.Record]) -> list[GameRecord]:
        return await records_of(conn, rows)

    async def _fetch(self, conn: Connection, where: str, *params: Any) -> GameRecord | None:
        return await game_where(conn, where, *params)

    async def _games(self, conn: Connection, ids: Iterable[int]) -> list[GameRecord]:
        """The games ``ids``, in that order."""
        wanted = list(ids)
        rows = await conn.fetch(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ANY($1::bigint[])", wanted)
        by_id = {r.id: r for r in await self._records(conn, rows)}
        return [by_id[i] for i in wanted if i in by_id]

    async def _with_waits(
        self, conn: Connection, ids: Iterable[int]
    ) -> list[tuple[GameRecord, Announcement | None]]:
        """The games ``ids``, in that order, each with its announcement."""
        records = await self._games(conn, ids)
        waits = {
            r["game_id"]: announcement_from_row(r)
            for r in await conn.fetch(
                "SELECT * FROM announcements WHERE game_id = ANY($1::bigint[])", [r.id for r in records]
            )
        }
        return [(rec, waits.get(rec.id)) for rec in records]

    async def _require(self, conn: Connection, game_id: int) -> GameRecord:
        rec = await self._fetch(conn, "id = $1", game_id)
        if rec is None:
            raise Conflict(f"no game #{game_id}")
        return rec

    async def _lock(self, conn: Connection, game_id: int) -> asyncpg.Record | None:
        """Lock the game's row for this transaction: other writers of the game wait until it ends."""
        return await conn.fetchrow(
            "SELECT status, version, players, creator FROM games WHERE id = $1 FOR UPDATE", game_id
        )

    async def get_game(self, game_id: int) -> GameRecord | None:
        async with self._tx(write=False) as c:
            return await self._fetch(c, "id = $1", game_id)

    async def open_game(self, channel: str) -> GameRecord | None:
        async with self._tx(write=False) as c:
            return await self._fetch(c, "channel = $1 AND status IN ('lobby', 'active')", channel)

    async def latest_game(self, channel: str) -> GameRecord | None:
        async with self._tx(write=False) as c:
            return await self._fetch(c, "channel = $1", channel)

    async def actions(self, game_id: int, *, offset: int = 0, limit: int | None = None) -> list[ActionRecord]:
        rows = await self._pool.fetch(
            "SELECT game_id, seq, player, action, events, created_at, kind, undone, auto FROM actions"
            " WHERE game_id = $1 ORDER BY seq LIMIT $2 OFFSET $3",
            game_id,
            limit,
            offset,
        )
        return [action_from_row(r) for r in rows]

    async def count_actions(self, game_id: int) -> int:
        return int(await self._pool.fetchval("SELECT count(*) FROM actions WHERE game_id = $1", game_id))

    @staticmethod
    async def _votes(conn: Connection | asyncpg.Pool, game_id: int, kind: VoteKind) -> dict[str, int]:
        rows = await conn.fetch(
            "SELECT player, version FROM votes WHERE game_id = $1 AND kind = $2 ORDER BY created_at, player",
            game_id,
            kind,
        )
        return {r["player"]: r["version"] for r in rows}

    async def votes(self, game_id: int, kind: VoteKind) -> dict[str, int]:
        return await self._votes(self._pool, game_id, kind)

    # ---- lobby ---------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        channel: str,
        game: str,
        creator: Seat,
        players: int,
        options: Mapping[str, str],
        seed: int,
        guild: str | None = None,
        locale: str | None = None,
        settings: Mapping[str, str] | None = None,
    ) -> GameRecord:
        now = now_text()
        async with self._tx() as c:
            try:
                async with c.transaction():  # a savepoint: the refusal below still reads
                    game_id = await c.fetchval(
                        "INSERT INTO games (channel, game, status, creator, players, options, seed,"
                        " created_at, updated_at, guild, locale, settings)"
                        " VALUES ($1, $2, 'lobby', $3, $4, $5, $6, $7, $7, $8, $9, $10) RETURNING id",
                        channel,
                        game,
                        creator.player,
                        players,
                        dumps(dict(options)),
                        seed,
                        now,
                        guild,
                        locale,
                        dumps(dict(settings or {})),
                    )
            except asyncpg.UniqueViolationError:
                busy = await self._fetch(c, "channel = $1 AND status IN ('lobby', 'active')", channel)
                raise ChannelBusy(channel, busy.id if busy else None, busy.game if busy else None) from None
            await c.execute(
                "INSERT INTO seats (game_id, player, name, team) VALUES ($1, $2, $3, $4)",
                game_id,
                creator.player,
                creator.name,
                creator.team,
            )
            return await self._require(c, game_id)

    async def _lock_lobby(self, conn: Connection, game_id: int) -> asyncpg.Record:
        """Lock a game that must be in the lobby, and mark it changed."""
        row = await self._lock(conn, game_id)
        if row is None or row["status"] != "lobby":
            raise Conflict(f"game #{game_id} is not in the lobby")
        await conn.execute("UPDATE games SET updated_at = $1 WHERE id = $2", now_text(), game_id)
        return row

    async def add_seat(self, game_id: int, seat: Seat) -> GameRecord:
        async with self._tx() as c:
            row = await self._lock_lobby(c, game_id)
            await self._holding("seat")
            seated = await c.fetchval("SELECT count(*) FROM seats WHERE game_id = $1", game_id)
            if seated >= row["players"]:
                raise Conflict(f"game #{game_id} is full")
            inserted = await c.execute(
                "INSERT INTO seats (game_id, player, name, team) VALUES ($1, $2, $3, $4)"
                " ON CONFLICT (game_id, player) DO NOTHING",
                game_id,
                seat.player,
                seat.name,
                seat.team,
            )
            if _count(inserted) != 1:
                raise Conflict(f"{seat.player} is already seated in game #{game_id}")
            return await self._require(c, game_id)

    async def remove_seat(self, game_id: int, player: str, *, heir: str | None = None) -> GameRecord:
        """Unseat ``player``; a departing creator hands the lobby to ``heir`` when it is seated, else
        to the next seat, or closes it."""
        async with self._tx() as c:
            row = await self._lock_lobby(c, game_id)
            deleted = await c.execute("DELETE FROM seats WHERE game_id = $1 AND player = $2", game_id, player)
            if _count(deleted) != 1:
                raise Conflict(f"{player} is not seated in game #{game_id}")
            rec = await self._require(c, game_id)
            if row["creator"] == player:
                if rec.seats:
                    await c.execute(
                        "UPDATE games SET creator = $1 WHERE id = $2", heir_of(rec, heir), game_id
                    )
                else:
                    await c.execute("UPDATE games SET status = 'aborted' WHERE id = $1", game_id)
                rec = await self._require(c, game_id)
            return rec

    async def start_game(
        self,
        game_id: int,
        *,
        state: Mapping[str, Any],
        seats: Sequence[Seat] | None = None,
        forced: Sequence[Forced] = (),
    ) -> GameRecord:
        """Lobby -> active at version 0, or at the version of the ``forced`` actions played at once
        (``state`` is then the position after them); ``seats``, when given, is the final seat order
        and teams."""
        now = now_text()
        async with self._tx() as c:
            row = await self._lock(c, game_id)
            if row is None or row["status"] != "lobby":
                raise Conflict(f"game #{game_id} is not in the lobby")
            await c.execute(
                "UPDATE games SET status = 'active', state = $1, version = $2, updated_at = $3 WHERE id = $4",
                dumps(dict(state)),
                len(forced),
                now,
                game_id,
            )
            await c.executemany(_INSERT_ACTION, _forced_rows(game_id, 0, forced, now))
            if seats is not None:
                current = await self._require(c, game_id)
                if sorted(current.player_ids) != sorted(s.player for s in seats):
                    raise Conflict(f"the seats of game #{game_id} changed")
                await c.execute("DELETE FROM seats WHERE game_id = $1", game_id)
                await c.executemany(
                    "INSERT INTO seats (game_id, player, name, team) VALUES ($1, $2, $3, $4)",
                    [(game_id, s.player, s.name, s.team) for s in seats],
                )
            return await self._require(c, game_id)

    # ---- play ----------------------------------------------------------------------------

    async def apply_action(
        self,
        game_id: int,
        *,
        version: int,
        player: str,
        action: str,
        events: Sequence[Any],
        state: Mapping[str, Any],
        status: Status,
        result: Mapping[str, Any] | None = None,
        forced: Sequence[Forced] = (),
    ) -> GameRecord:
        """Record one action against ``version``, and the ``forced`` actions it led to (played at
        once, marked automatic); the game moves to ``version + 1 + len(forced)`` atomically, ``state``
        being the position after all of them.

        Raises ``StaleAction`` when the game is no longer at ``version`` and ``GameOver``
        when it has ended; in both cases nothing is written. A standing draw offer lapses.
        """
        if status not in ("active", "over"):
            raise ValueError(f"an action leaves a game active or over, not {status}")
        now = now_text()
        async with self._tx() as c:
            row = await self._lock(c, game_id)
            await self._holding("move")
            if row is None or row["status"] != "active" or row["version"] != version:
                raise refusal(
                    game_id, None if row is None else row["status"], row["version"] if row else 0, version
                )
            await c.execute(
                _INSERT_ACTION, game_id, version + 1, player, action, dumps(list(events)), now, False
            )
            await c.executemany(_INSERT_ACTION, _forced_rows(game_id, version + 1, forced, now))
            self._before_state_update()
            await c.execute(
                "UPDATE games SET version = version + $6, state = $1, status = $2, result = $3,"
                " updated_at = $4 WHERE id = $5",
                dumps(dict(state)),
                status,
                None if result is None else dumps(dict(result)),
                now,
                game_id,
                1 + len(forced),
            )
            if status == "over":
                await c.execute("DELETE FROM votes WHERE game_id = $1", game_id)
            else:
                await c.execute("DELETE FROM votes WHERE game_id = $1 AND kind = 'draw'", game_id)
            await c.execute("DELETE FROM undo_requests WHERE game_id = $1", game_id)
            return await self._require(c, game_id)

    async def finish_game(
        self, game_id: int, *, version: int, status: Status, result: Mapping[str, Any] | None
    ) -> GameRecord:
        """End a lobby or running game outside the engine (resign, agreed draw, abort)."""
        if status not in ("over", "aborted"):
            raise ValueError(f"a game finishes over or aborted, not {status}")
        async with self._tx() as c:
            row = await self._lock(c, game_id)
            if row is None or row["status"] not in ("lobby", "active") or row["version"] != version:
                raise refusal(
                    game_id, None if row is None else row["status"], row["version"] if row else 0, version
                )
            await c.execute(
                "UPDATE games SET status = $1, result = $2, updated_at = $3 WHERE id = $4",
                status,
                None if result is None else dumps(dict(result)),
                now_text(),
                game_id,
            )
            await c.execute("DELETE FROM votes WHERE game_id = $1", game_id)
            return await self._require(c, game_id)

    async def add_vote(self, game_id: int, kind: VoteKind, player: str, *, version: int) -> dict[str, int]:
        """Record ``player``'s draw offer or abort vote; returns all votes of that kind."""
        async with self._tx() as c:
            row = await self._lock(c, game_id)
            if row is None:
                raise Conflict(f"no game #{game_id}")
            if row["status"] != "active":
                raise GameOver() if row["status"] in ("over", "aborted") else Conflict("game not started")
            await c.execute(
                "INSERT INTO votes (game_id, kind, player, version, created_at) VALUES ($1, $2, $3, $4, $5)"
                " ON CONFLICT (game_id, kind, player)"
                " DO UPDATE SET version = excluded.version, created_at = excluded.created_at",
                game_id,
                kind,
                player,
                version,
                now_text(),
            )
            return await self._votes(c, game_id, kind)

    async def clear_votes(self, game_id: int, kind: VoteKind) -> None:
        async with self._tx() as c:
            await c.execute("DELETE FROM votes WHERE game_id = $1 AND kind = $2", game_id, kind)

    # ---- play-by-post: server, announcements, waits, notes, settings ------------------------------

    async def set_guild(self, game_id: int, guild: str) -> None:
        """Record the server of a game opened before servers were stored (no effect once set)."""
        async with self._tx() as c:
            await c.execute("UPDATE games SET guild = $1 WHERE id = $2 AND guild IS NULL", guild, game_id)

    async def set_locale(self, game_id: int, locale: str) -> None:
        """The language of the game's public posts as the front end now gives it."""
        async with self._tx() as c:
            await c.execute("UPDATE games SET locale = $1 WHERE id = $2", locale, game_id)

    async def announcement(self, game_id: int) -> Announcement | None:
        row = await self._pool.fetchrow("SELECT * FROM announcements WHERE game_id = $1", game_id)
        return None if row is None else announcement_from_row(row)

    async def game_and_announcement(self, game_id: int) -> tuple[GameRecord | None, Announcement | None]:
        async with self._tx(write=False) as c:
            game = await self._fetch(c, "id = $1", game_id)
            row = await c.fetchrow("SELECT * FROM announcements WHERE game_id = $1", game_id)
        return game, None if row is None else announcement_from_row(row)

    async def announcing(self, game_id: int) -> Announcing:
        async with self._tx(write=False) as c:
            game = await self._fetch(c, "id = $1", game_id)
            row = await c.fetchrow("SELECT * FROM announcements WHERE game_id = $1", game_id)
            shown = None if row is None else announcement_from_row(row)
            if game is None:
                return Announcing(None, shown)
            after = 0 if shown is None else shown.summary_from
            log = await c.fetch(
                "SELECT game_id, seq, player, action, events, created_at, kind, undone, auto FROM actions"
                " WHERE game_id = $1 ORDER BY seq OFFSET $2",
                game_id,
                after,
            )
            notes = await c.fetch(
                "SELECT game_id, version, actor, event, created_at FROM notes WHERE game_id = $1"
                " ORDER BY version, id",
                game_id,
            )
            settings = None
            if game.guild is not None:
                settings = await c.fetchval(
                    "SELECT settings FROM guild_settings WHERE guild = $1", game.guild
                )
        return announcing_from_rows(game, shown, after, log, notes, settings)

    async def save_announcement(self, new: Announcement) -> Announcement | None:
        """Write ``new`` if the stored row is still at ``new.rev`` (0: there is none yet).

        Returns the row as stored (its ``rev`` bumped), or None when another writer came first:
        the caller then reads again instead of posting twice. A second writer of the same revision
        waits for the first to commit, then finds the revision gone.
        """
        values = announcement_values(new)
        async with self._tx() as c:
            if new.rev == 0:
                row = await c.fetchrow(
                    "INSERT INTO announcements (version, status, message, since, summary_from, to_act,"
                    " posted_at, waiting_since, reminders, next_reminder, deadline, deadline_done,"
                    " timing, game_id, rev)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 1)"
                    " ON CONFLICT (game_id) DO NOTHING RETURNING *",
                    *values,
                )
            else:
                row = await c.fetchrow(
                    "UPDATE announcements SET version = $1, status = $2, message = $3, since = $4,"
                    " summary_from = $5, to_act = $6, posted_at = $7, waiting_since = $8, reminders = $9,"
                    " next_reminder = $10, deadline = $11, deadline_done = $12, timing = $13, rev = rev + 1"
                    " WHERE game_id = $14 AND rev = $15 RETURNING *",
                    *values,
                    new.rev,
                )
            if row is not None:
                await self._holding("announcement")
        return None if row is None else announcement_from_row(row)

    async def unannounced(self) -> list[GameRecord]:
        """Started games whose stored version or status is ahead of what their channel was shown."""
        async with self._tx(write=False) as c:
            rows = await c.fetch(
                "SELECT g.id FROM games g LEFT JOIN announcements a ON a.game_id = g.id"
                " WHERE g.state IS NOT NULL AND (a.game_id IS NULL OR a.version != g.version"
                " OR a.status != g.status) ORDER BY g.id"
            )
            return await self._games(c, [r["id"] for r in rows])

    async def due(self, now: str) -> list[tuple[GameRecord, Announcement]]:
        """Running games whose next reminder or deadline has come (``now`` in ISO 8601, UTC)."""
        async with self._tx(write=False) as c:
            rows = await c.fetch(
                "SELECT a.* FROM announcements a JOIN games g ON g.id = a.game_id"
                " WHERE g.status = 'active' AND a.version = g.version AND (a.next_reminder <= $1"
                " OR (a.deadline <= $1 AND NOT a.deadline_done)) ORDER BY a.game_id",
                now,
            )
            found = [announcement_from_row(r) for r in rows]
            records = {r.id: r for r in await self._games(c, [a.game_id for a in found])}
        return [(records[a.game_id], a) for a in found if a.game_id in records]

    async def games_of(self, player: str, guild: str | None) -> list[tuple[GameRecord, Announcement | None]]:
        """The open games ``player`` sits in on server ``guild``, oldest first."""
        async with self._tx(write=False) as c:
            rows = await c.fetch(
                "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.player = $1"
                " AND g.status IN ('lobby', 'active') AND g.guild IS NOT DISTINCT FROM $2 ORDER BY g.id",
                player,
                guild,
            )
            return await self._with_waits(c, [r["id"] for r in rows])

    async def open_games(
        self, *, player: str | None = None, guild: str | None = None
    ) -> list[tuple[GameRecord, Announcement | None]]:
        """The open games ``player`` sits in, in every server, or (``guild``) the open games of a
        server ('' for the games outside any), oldest first, each with its announcement."""
        if player is not None:
            where, param = "id IN (SELECT s.game_id FROM seats s WHERE s.player = $1)", player
        else:
            where, param = "coalesce(guild, '') = $1", guild or ""
        async with self._tx(write=False) as c:
            rows = await c.fetch(
                f"SELECT id FROM games WHERE status IN ('lobby', 'active') AND {where} ORDER BY id", param
            )
            return await self._with_waits(c, [r["id"] for r in rows])

    # ---- kept listings: a player's card, a server's list of games -------------------------------------

    async def listings(self, owners: Sequence[str]) -> list[Listing]:
        """The listings of ``owners`` that exist, by owner."""
        if not owners:
            return []
        rows = await self._pool.fetch(
            "SELECT * FROM listings WHERE owner = ANY($1::text[]) ORDER BY owner", list(owners)
        )
        return [listing_from_row(r) for r in rows]

    async def listings_behind(self) -> list[Listing]:
        """The listings whose message does not show their latest change yet, by owner."""
        rows = await self._pool.fetch("SELECT * FROM listings WHERE changed > shown ORDER BY owner")
        return [listing_from_row(r) for r in rows]

    async def put_listing(self, owner: str, *, channel: str | None, locale: str) -> Listing:
        """Keep a listing for ``owner`` (in ``channel``, in ``locale``), due to be shown; one kept already
        stays with its message when its channel is the same, and starts a new message otherwise."""
        row = await self._pool.fetchrow(
            "INSERT INTO listings (owner, channel, locale, updated_at) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (owner) DO UPDATE SET channel = excluded.channel, locale = excluded.locale,"
            " message = CASE WHEN listings.channel IS NOT DISTINCT FROM excluded.channel"
            " THEN listings.message END,"
            " changed = listings.changed + 1, updated_at = excluded.updated_at RETURNING *",
            owner,
            channel,
            locale,
            now_text(),
        )
        assert row is not None
        return listing_from_row(row)

    async def drop_listing(self, owner: str) -> Listing | None:
        """Stop keeping ``owner``'s listing; the one there was."""
        row = await self._pool.fetchrow("DELETE FROM listings WHERE owner = $1 RETURNING *", owner)
        return None if row is None else listing_from_row(row)

    async def mark_listings(self, owners: Sequence[str]) -> list[Listing]:
        """A change concerns ``owners``: those with a listing count it; those listings."""
        if not owners:
            return []
        rows = await self._pool.fetch(
            "UPDATE listings SET changed = changed + 1 WHERE owner = ANY($1::text[]) RETURNING *",
            list(owners),
        )
        return sorted((listing_from_row(r) for r in rows), key=lambda listing: listing.owner)

    async def listing_shown(
        self, owner: str, *, channel: str | None, message: str, shown: int
    ) -> Listing | None:
        """The listing's message (``message``, in ``channel``) now shows its changes up to ``shown``;
        None when it is no longer kept there (stopped, or moved to another channel meanwhile)."""
        row = await self._pool.fetchrow(
            "UPDATE listings SET message = $1, shown = greatest(shown, $2), updated_at = $3"
            " WHERE owner = $4 AND channel IS NOT DISTINCT FROM $5 RETURNING *",
            message,
            shown,
            now_text(),
            owner,
            channel,
        )
        return None if row is None else listing_from_row(row)

    async def running_with(self, prefix: str) -> list[GameRecord]:
        """Running games with a seat, or a note's actor, whose id starts with ``prefix``, oldest first."""
        pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        async with self._tx(write=False) as c:
            rows = await c.fetch(
                "SELECT g.id FROM games g WHERE g.status = 'active' AND (EXISTS (SELECT 1 FROM seats s"
                " WHERE s.game_id = g.id AND s.player LIKE $1) OR EXISTS (SELECT 1 FROM notes n"
                " WHERE n.game_id = g.id AND n.actor LIKE $1)) ORDER BY g.id",
                pattern,
            )
            return await self._games(c, [r["id"] for r in rows])

    async def add_note(self, game_id: int, version: int, actor: str | None, event: Mapping[str, Any]) -> None:
        async with self._tx() as c:
            await c.execute(
                "INSERT INTO notes (game_id, version, actor, event, created_at) VALUES ($1, $2, $3, $4, $5)",
                game_id,
                version,
                actor,
                dumps(dict(event)),
                now_text(),
            )

    async def notes(self, game_id: int) -> list[Note]:
        rows = await self._pool.fetch(
            "SELECT game_id, version, actor, event, created_at FROM notes WHERE game_id = $1"
            " ORDER BY version, id",
            game_id,
        )
        return [note_from_row(r) for r in rows]

    async def guild_settings(self, guild: str) -> dict[str, str]:
        text = await self._pool.fetchval("SELECT settings FROM guild_settings WHERE guild = $1", guild)
        return {} if text is None else dict(json.loads(text))

    async def set_guild_settings(self, guild: str, settings: Mapping[str, str]) -> None:
        async with self._tx() as c:
            await c.execute(
                "INSERT INTO guild_settings (guild, settings, updated_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (guild) DO UPDATE SET settings = excluded.settings,"
                " updated_at = excluded.updated_at",
                guild,
                dumps(dict(settings)),
                now_text(),
            )

    async def notify(self, player: str) -> bool:
        """Whether ``player`` asked for a direct message when it becomes their turn."""
        return bool(await self._pool.fetchval("SELECT dm FROM notify WHERE player = $1", player))

    async def set_notify(self, player: str, dm: bool) -> None:
        async with self._tx() as c:
            await c.execute(
                "INSERT INTO notify (player, dm, updated_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (player) DO UPDATE SET dm = excluded.dm, updated_at = excluded.updated_at",
                player,
                dm,
                now_text(),
            )

    async def text_board(self, player: str) -> bool:
        """Whether ``player`` asked for the position as text with every board they are given."""
        return bool(await self._pool.fetchval("SELECT text_board FROM notify WHERE player = $1", player))

    async def set_text_board(self, player: str, on: bool) -> None:
        async with self._tx() as c:
            await c.execute(
                "INSERT INTO notify (player, dm, text_board, updated_at) VALUES ($1, FALSE, $2, $3)"
                " ON CONFLICT (player) DO UPDATE SET text_board = excluded.text_board,"
                " updated_at = excluded.updated_at",
                player,
                on,
                now_text(),
            )

    async def player_settings(self, players: Sequence[str]) -> dict[str, dict[str, str]]:
        wanted = list(dict.fromkeys(players))
        if not wanted:
            return {}
        rows = await self._pool.fetch(
            "SELECT player, settings FROM player_settings WHERE player = ANY($1::text[])", wanted
        )
        return {str(r["player"]): dict(json.loads(r["settings"])) for r in rows}

    async def set_player_settings(self, player: str, changes: Mapping[str, str | None]) -> dict[str, str]:
        async with self._tx() as c:
            # the row may not exist yet, so the player's own lock stands for it: two changes of one
            # player's settings at once are merged one after the other
            await c.execute("SELECT pg_advisory_xact_lock(hashtext('player_settings:' || $1))", player)
            stored = await c.fetchval("SELECT settings FROM player_settings WHERE player = $1", player)
            settings = merged_settings(stored, changes)
            await c.execute(
                "INSERT INTO player_settings (player, settings, updated_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (player) DO UPDATE SET settings = excluded.settings,"
                " updated_at = excluded.updated_at",
                player,
                dumps(settings),
                now_text(),
            )
        return settings

    async def add_away(self, player: str, guild: str, since: str, until: str) -> Away:
        async with self._tx() as c:
            await c.execute(
                "UPDATE away SET until = $3 WHERE player = $1 AND guild = $2 AND since <= $3 AND until > $3",
                player,
                guild,
                since,
            )
            row = await c.fetchrow(
                "INSERT INTO away (player, guild, since, until) VALUES ($1, $2, $3, $4) RETURNING *",
                player,
                guild,
                since,
                until,
            )
        return away_from_row(row)

    async def end_away(self, player: str, guild: str, at: str) -> Away | None:
        async with self._tx() as c:
            row = await c.fetchrow(
                "UPDATE away SET until = $3 WHERE player = $1 AND guild = $2 AND since <= $3 AND until > $3"
                " RETURNING *",
                player,
                guild,
                at,
            )
        return None if row is None else away_from_row(row)

    async def away(self, guild: str, players: Sequence[str], after: str) -> list[Away]:
        wanted = list(dict.fromkeys(players))
        if not wanted:
            return []
        rows = await self._pool.fetch(
            "SELECT * FROM away WHERE guild = $1 AND player = ANY($2::text[]) AND until > $3"
            " ORDER BY since, id",
            guild,
            wanted,
            after,
        )
        return [away_from_row(r) for r in rows]

    async def meta(self, key: str) -> str | None:
        value = await self._pool.fetchval("SELECT value FROM meta WHERE key = $1", key)
        return None if value is None else str(value)

    async def set_meta(self, key: str, value: str) -> None:
        async with self._tx() as c:
            await c.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                key,
                value,
            )

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

    async def release(self, key: str, owner: str) -> None:
        async with self._tx() as c:
            await c.execute("DELETE FROM claims WHERE key = $1 AND owner = $2", key, owner)

    async def claim_owners(self) -> list[str]:
        rows = await self._pool.fetch("SELECT DISTINCT owner FROM claims ORDER BY owner")
        return [str(r["owner"]) for r in rows]

    async def release_owner(self, owner: str) -> int:
        async with self._tx() as c:
            rows = await c.fetch("DELETE FROM claims WHERE owner = $1 RETURNING key", owner)
        return len(rows)

    async def next_generation(self, scope: str) -> int:
        async with self._tx() as c:
            value = await c.fetchval(
                "INSERT INTO meta (key, value) VALUES ($1, '1')"
                " ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text RETURNING value",
                f"generation:{scope}",
            )
        return int(value)

    # ---- channels that refuse the bot, and what players are still to be told -------------------------

    async def channel_faults(self) -> list[ChannelFault]:
        rows = await self._pool.fetch("SELECT * FROM channel_faults ORDER BY channel")
        return [fault_from_row(r) for r in rows]

    async def add_fault(self, fault: ChannelFault) -> bool:
        async with self._tx() as c:
            added = await c.fetchval(
                "INSERT INTO channel_faults (kind, missing, since, tries, next_try, channel)"
                " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (channel) DO NOTHING RETURNING channel",
                *fault_values(fault),
            )
        return added is not None

    async def update_fault(self, fault: ChannelFault) -> None:
        async with self._tx() as c:
            await c.execute(
                "UPDATE channel_faults SET kind = $1, missing = $2, since = $3, tries = $4, next_try = $5"
                " WHERE channel = $6",
                *fault_values(fault),
            )

    async def drop_fault(self, channel: str) -> bool:
        async with self._tx() as c:
            await c.execute("DELETE FROM notices WHERE channel = $1", channel)
            dropped = await c.fetchval(
                "DELETE FROM channel_faults WHERE channel = $1 RETURNING channel", channel
            )
        return dropped is not None

    async def add_notices(self, players: Sequence[str], channel: str, event: Mapping[str, Any]) -> None:
        text, now = dumps(dict(event)), now_text()
        async with self._tx() as c:
            await c.executemany(
                "INSERT INTO notices (player, channel, event, created_at) VALUES ($1, $2, $3, $4)",
                [(player, channel, text, now) for player in players],
            )

    async def take_notices(self, player: str) -> list[Notice]:
        async with self._tx() as c:
            rows = await c.fetch("DELETE FROM notices WHERE player = $1 RETURNING *", player)
        return sorted((notice_from_row(r) for r in rows), key=lambda n: n.id)

    async def noticed_players(self) -> list[str]:
        rows = await self._pool.fetch("SELECT DISTINCT player FROM notices ORDER BY player")
        return [str(r[0]) for r in rows]

    # ---- leagues ---------------------------------------------------------------------------------

    async def create_league(
        self,
        *,
        channel: str,
        guild: str | None,
        name: str,
        game: str,
        creator: str,
        doc: Mapping[str, Any],
    ) -> LeagueRecord:
        now = now_text()
        async with self._tx() as c:
            try:
                async with c.transaction():  # a savepoint: the refusal below still reads
                    row = await c.fetchrow(
                        "INSERT INTO leagues (channel, guild, name, game, status, creator, doc, created_at,"
                        " updated_at) VALUES ($1, $2, $3, $4, 'signup', $5, $6, $7, $7) RETURNING *",
                        channel,
                        guild,
                        name,
                        game,
                        creator,
                        dumps(dict(doc)),
                        now,
                    )
            except asyncpg.UniqueViolationError:
                busy = await c.fetchrow(
                    "SELECT * FROM leagues WHERE channel = $1 AND status IN ('signup', 'running')", channel
                )
                found = league_from_row(busy) if busy is not None else None
                raise LeagueBusy(channel, *((found.id, found.name) if found else (None, None))) from None
            assert row is not None
            return league_from_row(row)

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        row = await self._pool.fetchrow("SELECT * FROM leagues WHERE id = $1", league_id)
        return None if row is None else league_from_row(row)

    async def open_league(self, channel: str) -> LeagueRecord | None:
        row = await self._pool.fetchrow(
            "SELECT * FROM leagues WHERE channel = $1 AND status IN ('signup', 'running')", channel
        )
        return None if row is None else league_from_row(row)

    async def leagues(
        self, statuses: Sequence[LeagueStatus], *, guild: str | None = None
    ) -> list[LeagueRecord]:
        if guild is None:
            rows = await self._pool.fetch(
                "SELECT * FROM leagues WHERE status = ANY($1::text[]) ORDER BY id", list(statuses)
            )
        else:
            rows = await self._pool.fetch(
                "SELECT * FROM leagues WHERE status = ANY($1::text[]) AND guild = $2 ORDER BY id",
                list(statuses),
                guild,
            )
        return [league_from_row(r) for r in rows]

    async def save_league(self, league: LeagueRecord) -> LeagueRecord | None:
        row = await self._pool.fetchrow(
            "UPDATE leagues SET name = $1, status = $2, doc = $3, rev = rev + 1, updated_at = $4"
            " WHERE id = $5 AND rev = $6 RETURNING *",
            league.name,
            league.status,
            dumps(league.doc),
            now_text(),
            league.id,
            league.rev,
        )
        return None if row is None else league_from_row(row)

    # ---- undo by consent -----------------------------------------------------------------------------

    async def request_undo(self, game_id: int, player: str, *, first: int, version: int) -> UndoRequest:
        """Record ``player``'s request to take back actions ``first``..``version`` (replacing any)."""
        async with self._tx() as c:
            row = await self._lock(c, game_id)
            if row is None:
                raise Conflict(f"no game #{game_id}")
            if row["status"] != "active":
                raise GameOver()
            if row["version"] != version:
                raise StaleAction(given=version, current=row["version"])
            await c.execute(
                "INSERT INTO undo_requests (game_id, player, first, version, accepted, created_at)"
                " VALUES ($1, $2, $3, $4, '[]', $5) ON CONFLICT (game_id) DO UPDATE SET"
                " player = excluded.player, first = excluded.first, version = excluded.version,"
                " accepted = excluded.accepted, created_at = excluded.created_at",
                game_id,
                player,
                first,
                version,
                now_text(),
            )
        return UndoRequest(game_id, player, first, version)

    async def undo_request(self, game_id: int) -> UndoRequest | None:
        row = await self._pool.fetchrow("SELECT * FROM undo_requests WHERE game_id = $1", game_id)
        if row is None:
            return None
        return undo_request_from_row(row)

    async def accept_undo(self, game_id: int, player: str, *, version: int) -> UndoRequest:
        """Add ``player``'s agreement to the standing request made at ``version``."""
        async with self._tx() as c:
            row = await c.fetchrow("SELECT * FROM undo_requests WHERE game_id = $1 FOR UPDATE", game_id)
            if row is None or row["version"] != version:
                raise Conflict(f"no undo request of game #{game_id} at version {version}")
            accepted = tuple(sorted({*json.loads(row["accepted"]), player}))
            await c.execute(
                "UPDATE undo_requests SET accepted = $1 WHERE game_id = $2", dumps(list(accepted)), game_id
            )
        return UndoRequest(game_id, row["player"], row["first"], row["version"], accepted)

    async def clear_undo(self, game_id: int) -> None:
        async with self._tx() as c:
            await c.execute("DELETE FROM undo_requests WHERE game_id = $1", game_id)

    async def apply_undo(
        self,
        game_id: int,
        *,
        version: int,
        player: str,
        undone: Sequence[int],
        events: Sequence[Any],
        state: Mapping[str, Any],
    ) -> GameRecord:
        """Take back the moves ``undone`` in one transaction: they stay in the log marked undone, an
        'undo' row records the taking back at ``version + 1``, and the state becomes ``state``."""
        now = now_text()
        async with self._tx() as c:
            row = await self._lock(c, game_id)
            if row is None or row["status"] != "active" or row["version"] != version:
                raise refusal(
                    game_id, None if row is None else row["status"], row["version"] if row else 0, version
                )
            await c.execute(
                "INSERT INTO actions (game_id, seq, player, action, events, created_at, kind)"
                " VALUES ($1, $2, $3, $4, $5, $6, 'undo')",
                game_id,
                version + 1,
                player,
                "undo " + " ".join(map(str, undone)),
                dumps(list(events)),
                now,
            )
            await c.execute(
                "UPDATE actions SET undone = TRUE"
                " WHERE game_id = $1 AND seq = ANY($2::int[]) AND kind = 'move'",
                game_id,
                list(undone),
            )
            await c.execute(
                "UPDATE games SET version = version + 1, state = $1, updated_at = $2 WHERE id = $3",
                dumps(dict(state)),
                now,
                game_id,
            )
            await c.execute("DELETE FROM undo_requests WHERE game_id = $1", game_id)
            await c.execute("DELETE FROM votes WHERE game_id = $1 AND kind = 'draw'", game_id)
            return await self._require(c, game_id)

    # ---- results and ratings ------------------------------------------------------------------------

    async def record_result(
        self,
        game_id: int,
        *,
        guild: str,
        pool: str,
        rated: bool,
        places: Sequence[Place],
        finished_at: str,
        sides: Mapping[str, Sequence[str]] | None = None,
    ) -> ResultRecord:
        """Record how game ``game_id`` ended and, when it is rated, update its players' ratings, in one
        transaction; a game already recorded keeps its result (the stored one is returned).

        Results are recorded one at a time (an advisory lock): the order of their ids is the order
        their rating updates were made in, which is the order a recomputation replays them in."""
        async with self._tx() as c:
            await c.execute("SELECT pg_advisory_xact_lock($1)", RATINGS_LOCK)
            found = await _result_where(c, "game_id = $1", game_id)
            if found:
                return found[0]
            result_id = await c.fetchval(
                "INSERT INTO results (game_id, guild, pool, rated, places, finished_at, sides)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                game_id,
                guild,
                pool,
                rated,
                places_text(places),
                finished_at,
                None if sides is None else sides_text(sides),
            )
            if rated:
                rows = await c.fetch(
                    "SELECT * FROM ratings WHERE guild = $1 AND pool = $2 AND player = ANY($3::text[])",
                    guild,
                    pool,
                    [p.player for p in places],
                )
                standings = {r["player"]: standing_from_row(r) for r in rows}
                changes = ratings.apply(standings, places)
                await _write_changes(c, result_id, changes)
                await _write_standings(c, guild, pool, [standings[ch.player] for ch in changes])
            return (await _result_where(c, "id = $1", result_id))[0]

    async def unrecorded(self) -> list[GameRecord]:
        """Ended games that were started and have no result yet (ended before results were kept, or
        a crash before their end was announced), in the order they ended."""
        async with self._tx(write=False) as c:
            rows = await c.fetch(
                "SELECT g.id FROM games g WHERE g.status IN ('over', 'aborted') AND g.state IS NOT NULL"
                " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id) ORDER BY g.updated_at, g.id"
            )
            return await self._games(c, [r["id"] for r in rows])

    async def result_of(self, game_id: int) -> ResultRecord | None:
        async with self._tx(write=False) as c:
            found = await _result_where(c, "game_id = $1", game_id)
        return found[0] if found else None

    async def results(
        self,
        guild: str,
        *,
        pool: str | None = None,
        player: str | None = None,
        offset: int = 0,
        limit: int | None = None,
    ) -> list[ResultRecord]:
        """The server's results, newest first; only ``pool``'s, only those ``player`` played, when given."""
        params: list[Any] = [guild]
        where = "guild = $1"
        if pool is not None:
            params.append(pool)
            where += f" AND pool = ${len(params)}"
        if player is not None:
            params.append(player)
            where += (
                " AND EXISTS (SELECT 1 FROM json_array_elements(results.places) j"
                f" WHERE j ->> 'player' = ${len(params)})"
            )
        params += [limit, offset]
        where += f" ORDER BY id DESC LIMIT ${len(params) - 1} OFFSET ${len(params)}"
        async with self._tx(write=False) as c:
            return await _result_where(c, where, *params)

    async def standings(self, guild: str, pool: str) -> list[Standing]:
        """Every rated player of the pool, best conservative rating first."""
        rows = await self._pool.fetch("SELECT * FROM ratings WHERE guild = $1 AND pool = $2", guild, pool)
        return ratings.ranked(standing_from_row(r) for r in rows)

    async def recompute_ratings(self) -> int:
        """Rebuild every rating and rating change from the rated results; the number of results."""
        async with self._tx() as c:
            await c.execute("SELECT pg_advisory_xact_lock($1)", RATINGS_LOCK)
            return await _recompute(c)

    async def player_names(self, guild: str, players: Sequence[str]) -> dict[str, str]:
        """The display name each player last sat down with at a table of the server."""
        if not players:
            return {}
        rows = await self._pool.fetch(
            "SELECT s.player, s.name FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE coalesce(g.guild, '') = $1 AND s.player = ANY($2::text[]) ORDER BY s.id",
            guild,
            list(players),
        )
        return {r["player"]: r["name"] for r in rows}

    async def fill_sides(self) -> int:
        """Give the results recorded without ``sides`` those of their games' states; how many. A
        transaction per ``FILL_BATCH`` results, so that results being recorded are not held up."""
        filled = 0
        while True:
            async with self._tx() as c:
                await c.execute("SELECT pg_advisory_xact_lock($1)", RATINGS_LOCK)
                done = await _fill_sides(c, FILL_BATCH)
            if not done:
                return filled
            filled += done

    async def game_lengths(self, game_ids: Sequence[int]) -> dict[int, GameLength]:
        """Each game's moves (taken-back ones left out) and the times of its first and last move."""
        if not game_ids:
            return {}
        rows = await self._pool.fetch(
            "SELECT game_id, count(*) AS moves, min(created_at) AS first, max(created_at) AS last"
            " FROM actions WHERE game_id = ANY($1::bigint[]) AND kind = 'move' AND NOT undone"
            " GROUP BY game_id",
            list(game_ids),
        )
        return {r["game_id"]: GameLength(r["moves"], r["first"], r["last"]) for r in rows}

    async def unrate(self, game_id: int) -> ResultRecord | None:
        """Take a recorded game out of the ratings, which are recomputed without it in the same
        transaction; the result as it now stands (None: the game has no result)."""
        async with self._tx() as c:
            await c.execute("SELECT pg_advisory_xact_lock($1)", RATINGS_LOCK)
            if await c.execute("UPDATE results SET rated = FALSE WHERE game_id = $1", game_id) != "UPDATE 1":
                return None
            await _recompute(c)
            return (await _result_where(c, "game_id = $1", game_id))[0]

    # ---- moving games between stores (``python -m db``) ---------------------------------------------

    async def schema(self) -> int:
        """The number of the database's last migration."""
        return int(await self._pool.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations"))

    async def export_rows(self) -> AsyncIterator[tuple[Table, tuple[Any, ...]]]:
        """Every row of every table, table by table in key order, from one snapshot."""
        async with self._tx(write=False) as c:
            for table in TABLES:
                async for row in c.cursor(table.select, prefetch=500):
                    yield table, tuple(row.values())

    async def import_rows(self, rows: Iterable[tuple[Table, tuple[Any, ...]]]) -> None:
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
        async with self._pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            return await game_where(conn, where, channel)

    async def open_game(self, channel: str) -> GameRecord | None:
        return await self._game(f"channel = $1 AND {OPEN}", channel)

    async def latest_game(self, channel: str) -> GameRecord | None:
        return await self._game("channel = $1", channel)

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self._pool.close(), CLOSE_SECONDS)
        except TimeoutError:
            self._pool.terminate()
