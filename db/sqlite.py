"""The SQLite implementation of ``db.Store`` (aiosqlite, WAL mode).

One connection per store, in autocommit mode with explicit transactions. aiosqlite runs
every statement on one worker thread, so two coroutines sharing the connection would mix
their statements into one transaction; an asyncio.Lock serialises whole transactions.
Every write is one transaction; a move's action row, new version and new state commit
together, guarded by ``WHERE version = ?`` so a second writer (another process on the same
file) can never apply an action on top of a state it did not see.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from db import ratings
from db.encoding import (
    action_from_row,
    announcement_from_row,
    announcement_values,
    announcing_from_rows,
    away_from_row,
    fault_from_row,
    fault_values,
    game_from_row,
    heir_of,
    league_from_row,
    listing_from_row,
    merged_settings,
    note_from_row,
    notice_from_row,
    places_text,
    refusal,
    result_from_row,
    sides_text,
    standing_from_row,
    undo_request_from_row,
)
from db.encoding import dumps as _dumps
from db.encoding import now_text as _now
from db.errors import ChannelBusy, Conflict, LeagueBusy, StoreError
from db.migrate import migrate
from db.ratings import Place, Standing
from db.reads import OPEN, Reads, StoreReads
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

BUSY_TIMEOUT_MS = 5000
FILL_BATCH = 200
"""Results given their sides per transaction by ``fill_sides`` (about 0.1 s of engine loads)."""
T = TypeVar("T")


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
            return _game_of(await self._conn.execute_fetchall(_game_query(where), (channel,)))

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


def _game_query(where: str) -> str:
    """The game matching ``where`` and its seats in one statement (one snapshot, one trip)."""
    return (
        "SELECT *, (SELECT json_group_array(json_array(s.id, s.player, s.name, s.team))"
        f" FROM seats s WHERE s.game_id = games.id) AS seats_json FROM games WHERE {where}"
        " ORDER BY id DESC LIMIT 1"
    )


def _game_of(rows: Iterable[Any]) -> GameRecord | None:
    """The record of ``_game_query``'s row, if it found one."""
    row = next(iter(rows), None)
    if row is None:
        return None
    seats = tuple(Seat(p, n, t) for _i, p, n, t in sorted(json.loads(row["seats_json"])))
    return game_from_row(row, seats)


_INSERT_ACTION = (
    "INSERT INTO actions (game_id, seq, player, action, events, created_at, auto)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def _forced_rows(game_id: int, after: int, forced: Sequence[Forced], now: str) -> list[tuple[Any, ...]]:
    """The log rows of ``forced`` actions played one after the other from version ``after``."""
    return [
        (game_id, after + n, f.player, f.action, _dumps(list(f.events)), now, 1)
        for n, f in enumerate(forced, start=1)
    ]


def _refusal_of(rec: GameRecord | None, game_id: int, version: int) -> Exception:
    return refusal(game_id, None if rec is None else rec.status, rec.version if rec else 0, version)


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


def _places(text: str) -> tuple[Place, ...]:
    return tuple(Place.from_json(p) for p in json.loads(text))


def _result_where(c: sqlite3.Connection, where: str, params: Sequence[Any]) -> list[ResultRecord]:
    """The results matching ``where`` with their rating changes (on the connection's own thread)."""
    rows = c.execute(f"SELECT * FROM results WHERE {where}", params).fetchall()
    out = []
    for row in rows:
        changes = c.execute("SELECT * FROM rating_changes WHERE result_id = ?", (row["id"],)).fetchall()
        out.append(result_from_row(row, changes))
    return out


def _fill_sides(c: sqlite3.Connection, limit: int = -1) -> int:
    """Give results without ``sides`` (at most ``limit``, -1: all) those of their games' stored
    states (``db.sides``); how many."""
    rows = c.execute(
        "SELECT r.id, g.id AS game_id, g.game, g.state FROM results r JOIN games g ON g.id = r.game_id"
        " WHERE r.sides IS NULL ORDER BY r.id LIMIT ?",
        (limit,),
    ).fetchall()
    for row in rows:
        seats = c.execute("SELECT player FROM seats WHERE game_id = ? ORDER BY id", (row["game_id"],))
        players = [s[0] for s in seats]
        state = None if row["state"] is None else json.loads(row["state"])
        c.execute(
            "UPDATE results SET sides = ? WHERE id = ?",
            (sides_text(sides_played(row["game"], state, players)), row["id"]),
        )
    return len(rows)


def _recompute(c: sqlite3.Connection) -> int:
    """Rebuild every rating and rating change from the rated results, in their recorded order (and
    fill the sides still missing)."""
    _fill_sides(c)
    rated = [
        ratings.Rated(r["id"], r["guild"], r["pool"], _places(r["places"]))
        for r in c.execute("SELECT * FROM results WHERE rated = 1 ORDER BY id")
    ]
    done = ratings.replay(rated)
    c.execute("DELETE FROM rating_changes")
    c.execute("DELETE FROM ratings")
    for result_id, changes in done.changes.items():
        _write_changes(c, result_id, changes)
    for (guild, pool), standings in done.standings.items():
        _write_standings(c, guild, pool, list(standings.values()))
    return len(rated)


def _write_changes(c: sqlite3.Connection, result_id: int, changes: Sequence[ratings.Change]) -> None:
    c.executemany(
        "INSERT INTO rating_changes (result_id, player, mu_before, sigma_before, mu, sigma)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [
            (result_id, ch.player, ch.before.mu, ch.before.sigma, ch.after.mu, ch.after.sigma)
            for ch in changes
        ],
    )


def _write_standings(c: sqlite3.Connection, guild: str, pool: str, standings: Sequence[Standing]) -> None:
    c.executemany(
        "INSERT INTO ratings (guild, pool, player, mu, sigma, games, wins, draws)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild, pool, player) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, wins = excluded.wins,"
        " draws = excluded.draws",
        [(guild, pool, s.player, s.rating.mu, s.rating.sigma, s.games, s.wins, s.draws) for s in standings],
    )


class SqliteStore:
    """Games, seats, action log and votes in one SQLite file."""

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

    async def _select(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """The rows of one SELECT on the read connection, in one trip to its thread.

        A single statement outside a transaction reads one snapshot, the last commit (WAL), so a
        one-statement read needs no BEGIN and COMMIT: two trips fewer, and each trip to the
        connection's thread costs as much as a small query. The lock keeps it out of a read
        transaction another task holds open on the same connection."""
        async with self._read_lock:
            return list(await self._reader.execute_fetchall(sql, params))

    async def _write_one(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """One writing statement, which SQLite makes a transaction of its own, in one trip to the
        writer's thread; the rows it returns (``RETURNING``)."""
        async with self._lock:
            return list(await self._conn.execute_fetchall(sql, params))

    async def _on_thread(self, work: Callable[[sqlite3.Connection], T], *, write: bool = True) -> T:
        """Run ``work`` as one transaction on the connection's own thread: several statements in
        one trip instead of one trip each (a trip costs as much as a small query, and more when the
        machine is loaded). aiosqlite runs a connection's calls on its one thread, in order, through
        ``_execute``; ``work`` gets the ``sqlite3`` connection there. The lock keeps other
        transactions of this store out, as ``_tx`` does."""
        conn, lock = (self._conn, self._lock) if write else (self._reader, self._read_lock)
        async with lock:
            # aiosqlite's _execute (its thread's queue, not public API) carries no annotations.
            return await conn._execute(lambda: _transaction(conn._conn, work, write=write))  # type: ignore[no-untyped-call,no-any-return]

    def _before_state_update(self) -> None:
        """Runs inside a move's transaction between the action insert and the state update.

        Does nothing; it exists so tests can inject a failure at the most awkward moment.
        """

    # ---- reading -------------------------------------------------------------------------

    async def _fetch(
        self, conn: aiosqlite.Connection, where: str, params: Sequence[Any]
    ) -> GameRecord | None:
        return _game_of(await conn.execute_fetchall(_game_query(where), params))

    async def _read_game(self, where: str, params: Sequence[Any]) -> GameRecord | None:
        """``_fetch`` on the read connection, outside any transaction (it is one statement)."""
        async with self._read_lock:
            return await self._fetch(self._reader, where, params)

    async def _require(self, conn: aiosqlite.Connection, game_id: int) -> GameRecord:
        rec = await self._fetch(conn, "id = ?", (game_id,))
        if rec is None:
            raise Conflict(f"no game #{game_id}")
        return rec

    async def get_game(self, game_id: int) -> GameRecord | None:
        return await self._read_game("id = ?", (game_id,))

    async def open_game(self, channel: str) -> GameRecord | None:
        return await self._read_game("channel = ? AND status IN ('lobby', 'active')", (channel,))

    async def latest_game(self, channel: str) -> GameRecord | None:
        return await self._read_game("channel = ?", (channel,))

    async def actions(self, game_id: int, *, offset: int = 0, limit: int | None = None) -> list[ActionRecord]:
        rows = await self._select(
            "SELECT * FROM actions WHERE game_id = ? ORDER BY seq LIMIT ? OFFSET ?",
            (game_id, -1 if limit is None else limit, offset),
        )
        return [action_from_row(r) for r in rows]

    async def count_actions(self, game_id: int) -> int:
        rows = await self._select("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
        return int(rows[0][0]) if rows else 0

    async def votes(self, game_id: int, kind: VoteKind) -> dict[str, int]:
        rows = await self._select(
            "SELECT player, version FROM votes WHERE game_id = ? AND kind = ? ORDER BY created_at",
            (game_id, kind),
        )
        return {r["player"]: r["version"] for r in rows}

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
        now = _now()
        async with self._tx() as c:
            try:
                cur = await c.execute(
                    "INSERT INTO games (channel, game, status, creator, players, options, seed, created_at,"
                    " updated_at, guild, locale, settings) VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        channel,
                        game,
                        creator.player,
                        players,
                        _dumps(dict(options)),
                        seed,
                        now,
                        now,
                        guild,
                        locale,
                        _dumps(dict(settings or {})),
                    ),
                )
            except sqlite3.IntegrityError:
                busy = await self._fetch(c, "channel = ? AND status IN ('lobby', 'active')", (channel,))
                raise ChannelBusy(channel, busy.id if busy else None, busy.game if busy else None) from None
            game_id = cur.lastrowid
            assert game_id is not None
            await c.execute(
                "INSERT INTO seats (game_id, player, name, team) VALUES (?, ?, ?, ?)",
                (game_id, creator.player, creator.name, creator.team),
            )
            return await self._require(c, game_id)

    async def _touch_lobby(self, conn: aiosqlite.Connection, game_id: int) -> None:
        cur = await conn.execute(
            "UPDATE games SET updated_at = ? WHERE id = ? AND status = 'lobby'", (_now(), game_id)
        )
        if cur.rowcount != 1:
            raise Conflict(f"game #{game_id} is not in the lobby")

    async def add_seat(self, game_id: int, seat: Seat) -> GameRecord:
        async with self._tx() as c:
            await self._touch_lobby(c, game_id)
            rec = await self._require(c, game_id)
            if len(rec.seats) >= rec.players:
                raise Conflict(f"game #{game_id} is full")
            try:
                await c.execute(
                    "INSERT INTO seats (game_id, player, name, team) VALUES (?, ?, ?, ?)",
                    (game_id, seat.player, seat.name, seat.team),
                )
            except sqlite3.IntegrityError:
                raise Conflict(f"{seat.player} is already seated in game #{game_id}") from None
            return await self._require(c, game_id)

    async def remove_seat(self, game_id: int, player: str, *, heir: str | None = None) -> GameRecord:
        """Unseat ``player``; a departing creator hands the lobby to ``heir`` when it is seated, else
        to the next seat, or closes it."""
        async with self._tx() as c:
            await self._touch_lobby(c, game_id)
            cur = await c.execute("DELETE FROM seats WHERE game_id = ? AND player = ?", (game_id, player))
            if cur.rowcount != 1:
                raise Conflict(f"{player} is not seated in game #{game_id}")
            rec = await self._require(c, game_id)
            if rec.creator == player:
                if rec.seats:
                    await c.execute(
                        "UPDATE games SET creator = ? WHERE id = ?", (heir_of(rec, heir), game_id)
                    )
                else:
                    await c.execute("UPDATE games SET status = 'aborted' WHERE id = ?", (game_id,))
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
        now = _now()
        async with self._tx() as c:
            cur = await c.execute(
                "UPDATE games SET status = 'active', state = ?, version = ?, updated_at = ?"
                " WHERE id = ? AND status = 'lobby'",
                (_dumps(dict(state)), len(forced), now, game_id),
            )
            if cur.rowcount != 1:
                raise Conflict(f"game #{game_id} is not in the lobby")
            await c.executemany(_INSERT_ACTION, _forced_rows(game_id, 0, forced, now))
            if seats is not None:
                current = await self._require(c, game_id)
                if sorted(current.player_ids) != sorted(s.player for s in seats):
                    raise Conflict(f"the seats of game #{game_id} changed")
                await c.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
                await c.executemany(
                    "INSERT INTO seats (game_id, player, name, team) VALUES (?, ?, ?, ?)",
                    [(game_id, s.player, s.name, s.team) for s in seats],
                )
            return await self._require(c, game_id)

    # ---- play ----------------------------------------------------------------------------

    async def _refusal(self, conn: aiosqlite.Connection, game_id: int, version: int) -> Exception:
        """Why a versioned write found nothing to update: the game ended, or moved on."""
        return _refusal_of(await self._fetch(conn, "id = ?", (game_id,)), game_id, version)

    @staticmethod
    def _refused(conn: sqlite3.Connection, game_id: int, version: int) -> Exception:
        """``_refusal`` inside a transaction run on the connection's thread."""
        return _refusal_of(_game_of(conn.execute(_game_query("id = ?"), (game_id,))), game_id, version)

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
        now = _now()
        events_text, state_text = _dumps(list(events)), _dumps(dict(state))
        result_text = None if result is None else _dumps(dict(result))
        steps = 1 + len(forced)

        def move(c: sqlite3.Connection) -> GameRecord:
            try:
                c.execute(_INSERT_ACTION, (game_id, version + 1, player, action, events_text, now, 0))
            except sqlite3.IntegrityError:
                raise self._refused(c, game_id, version) from None
            c.executemany(_INSERT_ACTION, _forced_rows(game_id, version + 1, forced, now))
            self._before_state_update()
            updated = c.execute(
                "UPDATE games SET version = version + ?, state = ?, status = ?, result = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (steps, state_text, status, result_text, now, game_id, version),
            )
            if updated.rowcount != 1:
                raise self._refused(c, game_id, version)
            if status == "over":
                c.execute("DELETE FROM votes WHERE game_id = ?", (game_id,))
            else:
                c.execute("DELETE FROM votes WHERE game_id = ? AND kind = 'draw'", (game_id,))
            c.execute("DELETE FROM undo_requests WHERE game_id = ?", (game_id,))
            moved = _game_of(c.execute(_game_query("id = ?"), (game_id,)))
            if moved is None:
                raise Conflict(f"no game #{game_id}")
            return moved

        # One trip to the writer's thread for the whole move: it is on every player's wait.
        return await self._on_thread(move)

    async def finish_game(
        self, game_id: int, *, version: int, status: Status, result: Mapping[str, Any] | None
    ) -> GameRecord:
        """End a lobby or running game outside the engine (resign, agreed draw, abort)."""
        if status not in ("over", "aborted"):
            raise ValueError(f"a game finishes over or aborted, not {status}")
        async with self._tx() as c:
            cur = await c.execute(
                "UPDATE games SET status = ?, result = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status IN ('lobby', 'active')",
                (status, None if result is None else _dumps(dict(result)), _now(), game_id, version),
            )
            if cur.rowcount != 1:
                raise await self._refusal(c, game_id, version)
            await c.execute("DELETE FROM votes WHERE game_id = ?", (game_id,))
            return await self._require(c, game_id)

    async def add_vote(self, game_id: int, kind: VoteKind, player: str, *, version: int) -> dict[str, int]:
        """Record ``player``'s draw offer or abort vote; returns all votes of that kind."""
        async with self._tx() as c:
            rec = await self._require(c, game_id)
            if rec.status != "active":
                raise GameOver() if rec.status in ("over", "aborted") else Conflict("game not started")
            await c.execute(
                "INSERT OR REPLACE INTO votes (game_id, kind, player, version, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, kind, player, version, _now()),
            )
            async with c.execute(
                "SELECT player, version FROM votes WHERE game_id = ? AND kind = ? ORDER BY created_at",
                (game_id, kind),
            ) as cur:
                return {r["player"]: r["version"] async for r in cur}

    async def clear_votes(self, game_id: int, kind: VoteKind) -> None:
        async with self._tx() as c:
            await c.execute("DELETE FROM votes WHERE game_id = ? AND kind = ?", (game_id, kind))

    # ---- play-by-post: server, announcements, waits, notes, settings ------------------------------

    async def set_guild(self, game_id: int, guild: str) -> None:
        """Record the server of a game opened before servers were stored (no effect once set)."""
        async with self._tx() as c:
            await c.execute("UPDATE games SET guild = ? WHERE id = ? AND guild IS NULL", (guild, game_id))

    async def set_locale(self, game_id: int, locale: str) -> None:
        """The language of the game's public posts as the front end now gives it."""
        async with self._tx() as c:
            await c.execute("UPDATE games SET locale = ? WHERE id = ?", (locale, game_id))

    async def announcement(self, game_id: int) -> Announcement | None:
        rows = await self._select("SELECT * FROM announcements WHERE game_id = ?", (game_id,))
        return announcement_from_row(rows[0]) if rows else None

    async def game_and_announcement(self, game_id: int) -> tuple[GameRecord | None, Announcement | None]:
        def read(c: sqlite3.Connection) -> tuple[GameRecord | None, Announcement | None]:
            game = _game_of(c.execute(_game_query("id = ?"), (game_id,)))
            row = c.execute("SELECT * FROM announcements WHERE game_id = ?", (game_id,)).fetchone()
            return game, None if row is None else announcement_from_row(row)

        return await self._on_thread(read, write=False)

    async def announcing(self, game_id: int) -> Announcing:
        def read(c: sqlite3.Connection) -> Announcing:
            game = _game_of(c.execute(_game_query("id = ?"), (game_id,)))
            row = c.execute("SELECT * FROM announcements WHERE game_id = ?", (game_id,)).fetchone()
            shown = None if row is None else announcement_from_row(row)
            if game is None:
                return Announcing(None, shown)
            after = 0 if shown is None else shown.summary_from
            log = c.execute(
                "SELECT * FROM actions WHERE game_id = ? ORDER BY seq LIMIT -1 OFFSET ?", (game_id, after)
            ).fetchall()
            notes = c.execute("SELECT * FROM notes WHERE game_id = ? ORDER BY version, id", (game_id,))
            settings = None
            if game.guild is not None:
                settings = c.execute(
                    "SELECT settings FROM guild_settings WHERE guild = ?", (game.guild,)
                ).fetchone()
            text = None if settings is None else settings[0]
            return announcing_from_rows(game, shown, after, log, notes, text)

        # One trip for the whole read: a post of every move makes it.
        return await self._on_thread(read, write=False)

    async def save_announcement(self, new: Announcement) -> Announcement | None:
        """Write ``new`` if the stored row is still at ``new.rev`` (0: there is none yet).

        Returns the row as stored (its ``rev`` bumped), or None when another writer came first:
        the caller then reads again instead of posting twice.
        """
        values = announcement_values(new)
        # One statement (its own transaction) that also returns the row as stored.
        if new.rev == 0:
            rows = await self._write_one(
                "INSERT OR IGNORE INTO announcements (version, status, message, since, summary_from,"
                " to_act, posted_at, waiting_since, reminders, next_reminder, deadline, deadline_done,"
                " timing, game_id, rev) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1) RETURNING *",
                values,
            )
        else:
            rows = await self._write_one(
                "UPDATE announcements SET version = ?, status = ?, message = ?, since = ?,"
                " summary_from = ?, to_act = ?, posted_at = ?, waiting_since = ?, reminders = ?,"
                " next_reminder = ?, deadline = ?, deadline_done = ?, timing = ?, rev = rev + 1"
                " WHERE game_id = ? AND rev = ? RETURNING *",
                (*values, new.rev),
            )
        return announcement_from_row(rows[0]) if rows else None

    async def unannounced(self) -> list[GameRecord]:
        """Started games whose stored version or status is ahead of what their channel was shown."""
        async with self._tx(write=False) as c:
            async with c.execute(
                "SELECT g.id FROM games g LEFT JOIN announcements a ON a.game_id = g.id"
                " WHERE g.state IS NOT NULL AND (a.game_id IS NULL OR a.version != g.version"
                " OR a.status != g.status) ORDER BY g.id"
            ) as cur:
                ids = [r[0] async for r in cur]
            return [rec for i in ids if (rec := await self._fetch(c, "id = ?", (i,))) is not None]

    async def due(self, now: str) -> list[tuple[GameRecord, Announcement]]:
        """Running games whose next reminder or deadline has come (``now`` in ISO 8601, UTC)."""
        async with self._tx(write=False) as c:
            async with c.execute(
                "SELECT a.* FROM announcements a JOIN games g ON g.id = a.game_id"
                " WHERE g.status = 'active' AND a.version = g.version AND (a.next_reminder <= ?"
                " OR (a.deadline <= ? AND a.deadline_done = 0)) ORDER BY a.game_id",
                (now, now),
            ) as cur:
                found = [announcement_from_row(r) async for r in cur]
            out = []
            for a in found:
                rec = await self._fetch(c, "id = ?", (a.game_id,))
                if rec is not None:
                    out.append((rec, a))
            return out

    async def games_of(self, player: str, guild: str | None) -> list[tuple[GameRecord, Announcement | None]]:
        """The open games ``player`` sits in on server ``guild``, oldest first."""
        async with self._tx(write=False) as c:
            async with c.execute(
                "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.player = ?"
                " AND g.status IN ('lobby', 'active') AND g.guild IS ? ORDER BY g.id",
                (player, guild),
            ) as cur:
                ids = [r[0] async for r in cur]
            out: list[tuple[GameRecord, Announcement | None]] = []
            for i in ids:
                rec = await self._fetch(c, "id = ?", (i,))
                async with c.execute("SELECT * FROM announcements WHERE game_id = ?", (i,)) as cur:
                    row = await cur.fetchone()
                if rec is not None:
                    out.append((rec, None if row is None else announcement_from_row(row)))
            return out

    async def open_games(
        self, *, player: str | None = None, guild: str | None = None
    ) -> list[tuple[GameRecord, Announcement | None]]:
        """The open games ``player`` sits in, in every server, or (``guild``) the open games of a
        server ('' for the games outside any), oldest first, each with its announcement."""
        if player is not None:
            where, param = "g.id IN (SELECT s.game_id FROM seats s WHERE s.player = ?)", player
        else:
            where, param = "coalesce(g.guild, '') = ?", guild or ""

        def read(c: sqlite3.Connection) -> list[tuple[GameRecord, Announcement | None]]:
            ids = [
                r[0]
                for r in c.execute(
                    f"SELECT g.id FROM games g WHERE g.status IN ('lobby', 'active') AND {where}"
                    " ORDER BY g.id",
                    (param,),
                )
            ]
            out: list[tuple[GameRecord, Announcement | None]] = []
            for i in ids:
                rec = _game_of(c.execute(_game_query("id = ?"), (i,)))
                row = c.execute("SELECT * FROM announcements WHERE game_id = ?", (i,)).fetchone()
                if rec is not None:
                    out.append((rec, None if row is None else announcement_from_row(row)))
            return out

        return await self._on_thread(read, write=False)

    # ---- kept listings: a player's card, a server's list of games -------------------------------------

    async def listings(self, owners: Sequence[str]) -> list[Listing]:
        """The listings of ``owners`` that exist, by owner."""
        if not owners:
            return []
        marks = ", ".join("?" for _ in owners)
        rows = await self._select(f"SELECT * FROM listings WHERE owner IN ({marks}) ORDER BY owner", owners)
        return [listing_from_row(r) for r in rows]

    async def listings_behind(self) -> list[Listing]:
        """The listings whose message does not show their latest change yet, by owner."""
        rows = await self._select("SELECT * FROM listings WHERE changed > shown ORDER BY owner")
        return [listing_from_row(r) for r in rows]

    async def put_listing(self, owner: str, *, channel: str | None, locale: str) -> Listing:
        """Keep a listing for ``owner`` (in ``channel``, in ``locale``), due to be shown; one kept already
        stays with its message when its channel is the same, and starts a new message otherwise."""
        rows = await self._write_one(
            "INSERT INTO listings (owner, channel, locale, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (owner) DO UPDATE SET channel = excluded.channel, locale = excluded.locale,"
            " message = CASE WHEN listings.channel IS excluded.channel THEN listings.message END,"
            " changed = listings.changed + 1, updated_at = excluded.updated_at RETURNING *",
            (owner, channel, locale, _now()),
        )
        return listing_from_row(rows[0])

    async def drop_listing(self, owner: str) -> Listing | None:
        """Stop keeping ``owner``'s listing; the one there was."""
        rows = await self._write_one("DELETE FROM listings WHERE owner = ? RETURNING *", (owner,))
        return listing_from_row(rows[0]) if rows else None

    async def mark_listings(self, owners: Sequence[str]) -> list[Listing]:
        """A change concerns ``owners``: those with a listing count it; those listings."""
        if not owners:
            return []
        marks = ", ".join("?" for _ in owners)
        rows = await self._write_one(
            f"UPDATE listings SET changed = changed + 1 WHERE owner IN ({marks}) RETURNING *", owners
        )
        return sorted((listing_from_row(r) for r in rows), key=lambda listing: listing.owner)

    async def listing_shown(
        self, owner: str, *, channel: str | None, message: str, shown: int
    ) -> Listing | None:
        """The listing's message (``message``, in ``channel``) now shows its changes up to ``shown``;
        None when it is no longer kept there (stopped, or moved to another channel meanwhile)."""
        rows = await self._write_one(
            "UPDATE listings SET message = ?, shown = max(shown, ?), updated_at = ?"
            " WHERE owner = ? AND channel IS ? RETURNING *",
            (message, shown, _now(), owner, channel),
        )
        return listing_from_row(rows[0]) if rows else None

    async def running_with(self, prefix: str) -> list[GameRecord]:
        """Running games with a seat, or a note's actor, whose id starts with ``prefix``, oldest first."""
        pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        async with self._tx(write=False) as c:
            async with c.execute(
                "SELECT g.id FROM games g WHERE g.status = 'active' AND (EXISTS (SELECT 1 FROM seats s"
                " WHERE s.game_id = g.id AND s.player LIKE ? ESCAPE '\\') OR EXISTS (SELECT 1 FROM notes n"
                " WHERE n.game_id = g.id AND n.actor LIKE ? ESCAPE '\\')) ORDER BY g.id",
                (pattern, pattern),
            ) as cur:
                ids = [r[0] async for r in cur]
            return [rec for i in ids if (rec := await self._fetch(c, "id = ?", (i,))) is not None]

    async def add_note(self, game_id: int, version: int, actor: str | None, event: Mapping[str, Any]) -> None:
        async with self._tx() as c:
            await c.execute(
                "INSERT INTO notes (game_id, version, actor, event, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, version, actor, _dumps(dict(event)), _now()),
            )

    async def notes(self, game_id: int) -> list[Note]:
        rows = await self._select("SELECT * FROM notes WHERE game_id = ? ORDER BY version, id", (game_id,))
        return [note_from_row(r) for r in rows]

    async def guild_settings(self, guild: str) -> dict[str, str]:
        rows = await self._select("SELECT settings FROM guild_settings WHERE guild = ?", (guild,))
        return dict(json.loads(rows[0][0])) if rows else {}

    async def set_guild_settings(self, guild: str, settings: Mapping[str, str]) -> None:
        async with self._tx() as c:
            await c.execute(
                "INSERT INTO guild_settings (guild, settings, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild) DO UPDATE SET settings = excluded.settings,"
                " updated_at = excluded.updated_at",
                (guild, _dumps(dict(settings)), _now()),
            )

    async def notify(self, player: str) -> bool:
        """Whether ``player`` asked for a direct message when it becomes their turn."""
        rows = await self._select("SELECT dm FROM notify WHERE player = ?", (player,))
        return bool(rows and rows[0][0])

    async def set_notify(self, player: str, dm: bool) -> None:
        async with self._tx() as c:
            await c.execute(
                "INSERT INTO notify (player, dm, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (player) DO UPDATE SET dm = excluded.dm, updated_at = excluded.updated_at",
                (player, int(dm), _now()),
            )

    async def text_board(self, player: str) -> bool:
        """Whether ``player`` asked for the position as text with every board they are given."""
        rows = await self._select("SELECT text_board FROM notify WHERE player = ?", (player,))
        return bool(rows and rows[0][0])

    async def set_text_board(self, player: str, on: bool) -> None:
        async with self._tx() as c:
            await c.execute(
                "INSERT INTO notify (player, dm, text_board, updated_at) VALUES (?, 0, ?, ?)"
                " ON CONFLICT (player) DO UPDATE SET text_board = excluded.text_board,"
                " updated_at = excluded.updated_at",
                (player, int(on), _now()),
            )

    async def player_settings(self, players: Sequence[str]) -> dict[str, dict[str, str]]:
        wanted = list(dict.fromkeys(players))
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        rows = await self._select(
            f"SELECT player, settings FROM player_settings WHERE player IN ({marks})", wanted
        )
        return {str(r[0]): dict(json.loads(r[1])) for r in rows}

    async def set_player_settings(self, player: str, changes: Mapping[str, str | None]) -> dict[str, str]:
        def write(c: sqlite3.Connection) -> dict[str, str]:
            row = c.execute("SELECT settings FROM player_settings WHERE player = ?", (player,)).fetchone()
            settings = merged_settings(None if row is None else row[0], changes)
            c.execute(
                "INSERT INTO player_settings (player, settings, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (player) DO UPDATE SET settings = excluded.settings,"
                " updated_at = excluded.updated_at",
                (player, _dumps(settings), _now()),
            )
            return settings

        return await self._on_thread(write)

    async def add_away(self, player: str, guild: str, since: str, until: str) -> Away:
        def write(c: sqlite3.Connection) -> Away:
            c.execute(
                "UPDATE away SET until = ? WHERE player = ? AND guild = ? AND since <= ? AND until > ?",
                (since, player, guild, since, since),
            )
            row = c.execute(
                "INSERT INTO away (player, guild, since, until) VALUES (?, ?, ?, ?) RETURNING *",
                (player, guild, since, until),
            ).fetchone()
            return away_from_row(row)

        return await self._on_thread(write)

    async def end_away(self, player: str, guild: str, at: str) -> Away | None:
        rows = await self._write_one(
            "UPDATE away SET until = ? WHERE player = ? AND guild = ? AND since <= ? AND until > ?"
            " RETURNING *",
            (at, player, guild, at, at),
        )
        return away_from_row(rows[0]) if rows else None

    async def away(self, guild: str, players: Sequence[str], after: str) -> list[Away]:
        wanted = list(dict.fromkeys(players))
        if not wanted:
            return []
        marks = ", ".join("?" for _ in wanted)
        rows = await self._select(
            f"SELECT * FROM away WHERE guild = ? AND player IN ({marks}) AND until > ? ORDER BY since, id",
            (guild, *wanted, after),
        )
        return [away_from_row(r) for r in rows]

    async def meta(self, key: str) -> str | None:
        rows = await self._select("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self._tx() as c:
            await c.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # ---- claims: work one process does at a time ------------------------------------------------------

    async def claim(self, key: str, owner: str, lease: float) -> bool:
        """Take or renew ``key`` for ``owner`` for ``lease`` seconds; one statement, so two claims of
        one key never both succeed. (SQLite serves one process: its claims are cleared at opening.)"""
        now = datetime.now(UTC)
        expires = (now + timedelta(seconds=lease)).isoformat(timespec="milliseconds")
        rows = await self._write_one(
            "INSERT INTO claims (key, owner, expires) VALUES (?, ?, ?)"
            " ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires = excluded.expires"
            " WHERE claims.owner = excluded.owner OR claims.expires <= ? RETURNING owner",
            (key, owner, expires, now.isoformat(timespec="milliseconds")),
        )
        return bool(rows)

    async def release(self, key: str, owner: str) -> None:
        await self._write_one("DELETE FROM claims WHERE key = ? AND owner = ?", (key, owner))

    async def claim_owners(self) -> list[str]:
        rows = await self._select("SELECT DISTINCT owner FROM claims ORDER BY owner")
        return [str(r[0]) for r in rows]

    async def release_owner(self, owner: str) -> int:
        rows = await self._write_one("DELETE FROM claims WHERE owner = ? RETURNING key", (owner,))
        return len(rows)

    async def next_generation(self, scope: str) -> int:
        rows = await self._write_one(
            "INSERT INTO meta (key, value) VALUES (?, '1')"
            " ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(meta.value AS INTEGER) + 1 AS TEXT)"
            " RETURNING value",
            (f"generation:{scope}",),
        )
        return int(rows[0][0])

    async def _clear_claims(self) -> None:
        """Forget every claim: a SQLite file has one bot process, so a claim found at opening was left
        by a process that is gone, and its work is this process's to do now."""
        async with self._tx() as c:
            await c.execute("DELETE FROM claims")

    # ---- channels that refuse the bot, and what players are still to be told -------------------------

    async def channel_faults(self) -> list[ChannelFault]:
        rows = await self._select("SELECT * FROM channel_faults ORDER BY channel")
        return [fault_from_row(r) for r in rows]

    async def add_fault(self, fault: ChannelFault) -> bool:
        rows = await self._write_one(
            "INSERT INTO channel_faults (kind, missing, since, tries, next_try, channel)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (channel) DO NOTHING RETURNING channel",
            fault_values(fault),
        )
        return bool(rows)

    async def update_fault(self, fault: ChannelFault) -> None:
        await self._write_one(
            "UPDATE channel_faults SET kind = ?, missing = ?, since = ?, tries = ?, next_try = ?"
            " WHERE channel = ?",
            fault_values(fault),
        )

    async def drop_fault(self, channel: str) -> bool:
        async with self._tx() as c:
            await c.execute("DELETE FROM notices WHERE channel = ?", (channel,))
            cur = await c.execute("DELETE FROM channel_faults WHERE channel = ?", (channel,))
            return cur.rowcount > 0

    async def add_notices(self, players: Sequence[str], channel: str, event: Mapping[str, Any]) -> None:
        text, now = _dumps(dict(event)), _now()
        async with self._tx() as c:
            await c.executemany(
                "INSERT INTO notices (player, channel, event, created_at) VALUES (?, ?, ?, ?)",
                [(player, channel, text, now) for player in players],
            )

    async def take_notices(self, player: str) -> list[Notice]:
        rows = await self._write_one("DELETE FROM notices WHERE player = ? RETURNING *", (player,))
        return sorted((notice_from_row(r) for r in rows), key=lambda n: n.id)

    async def noticed_players(self) -> list[str]:
        rows = await self._select("SELECT DISTINCT player FROM notices ORDER BY player")
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
        now = _now()
        async with self._tx() as c:
            try:
                rows = await c.execute_fetchall(
                    "INSERT INTO leagues (channel, guild, name, game, status, creator, doc, created_at,"
                    " updated_at) VALUES (?, ?, ?, ?, 'signup', ?, ?, ?, ?) RETURNING *",
                    (channel, guild, name, game, creator, _dumps(dict(doc)), now, now),
                )
            except sqlite3.IntegrityError:
                busy = list(
                    await c.execute_fetchall(
                        "SELECT * FROM leagues WHERE channel = ? AND status IN ('signup', 'running')",
                        (channel,),
                    )
                )
                found = league_from_row(busy[0]) if busy else None
                raise LeagueBusy(channel, *((found.id, found.name) if found else (None, None))) from None
            return league_from_row(next(iter(rows)))

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        rows = await self._select("SELECT * FROM leagues WHERE id = ?", (league_id,))
        return league_from_row(rows[0]) if rows else None

    async def open_league(self, channel: str) -> LeagueRecord | None:
        rows = await self._select(
            "SELECT * FROM leagues WHERE channel = ? AND status IN ('signup', 'running')", (channel,)
        )
        return league_from_row(rows[0]) if rows else None

    async def leagues(
        self, statuses: Sequence[LeagueStatus], *, guild: str | None = None
    ) -> list[LeagueRecord]:
        marks = ", ".join("?" for _ in statuses)
        where = f"status IN ({marks})" + ("" if guild is None else " AND guild = ?")
        params: list[Any] = [*statuses, *([] if guild is None else [guild])]
        rows = await self._select(f"SELECT * FROM leagues WHERE {where} ORDER BY id", params)
        return [league_from_row(r) for r in rows]

    async def save_league(self, league: LeagueRecord) -> LeagueRecord | None:
        rows = await self._write_one(
            "UPDATE leagues SET name = ?, status = ?, doc = ?, rev = rev + 1, updated_at = ?"
            " WHERE id = ? AND rev = ? RETURNING *",
            (league.name, league.status, _dumps(league.doc), _now(), league.id, league.rev),
        )
        return league_from_row(rows[0]) if rows else None

    # ---- undo by consent -----------------------------------------------------------------------------

    async def request_undo(self, game_id: int, player: str, *, first: int, version: int) -> UndoRequest:
        """Record ``player``'s request to take back actions ``first``..``version`` (replacing any)."""
        async with self._tx() as c:
            rec = await self._require(c, game_id)
            if rec.status != "active":
                raise GameOver()
            if rec.version != version:
                raise StaleAction(given=version, current=rec.version)
            await c.execute(
                "INSERT OR REPLACE INTO undo_requests (game_id, player, first, version, accepted, created_at)"
                " VALUES (?, ?, ?, ?, '[]', ?)",
                (game_id, player, first, version, _now()),
            )
        return UndoRequest(game_id, player, first, version)

    async def undo_request(self, game_id: int) -> UndoRequest | None:
        rows = await self._select("SELECT * FROM undo_requests WHERE game_id = ?", (game_id,))
        return undo_request_from_row(rows[0]) if rows else None

    async def accept_undo(self, game_id: int, player: str, *, version: int) -> UndoRequest:
        """Add ``player``'s agreement to the standing request made at ``version``."""
        async with self._tx() as c:
            async with c.execute("SELECT * FROM undo_requests WHERE game_id = ?", (game_id,)) as cur:
                row = await cur.fetchone()
            if row is None or row["version"] != version:
                raise Conflict(f"no undo request of game #{game_id} at version {version}")
            accepted = [*json.loads(row["accepted"]), player]
            await c.execute(
                "UPDATE undo_requests SET accepted = ? WHERE game_id = ?",
                (_dumps(sorted(set(accepted))), game_id),
            )
        return UndoRequest(game_id, row["player"], row["first"], row["version"], tuple(sorted(set(accepted))))

    async def clear_undo(self, game_id: int) -> None:
        async with self._tx() as c:
            await c.execute("DELETE FROM undo_requests WHERE game_id = ?", (game_id,))

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
        now = _now()
        async with self._tx() as c:
            try:
                await c.execute(
                    "INSERT INTO actions (game_id, seq, player, action, events, created_at, kind)"
                    " VALUES (?, ?, ?, ?, ?, ?, 'undo')",
                    (
                        game_id,
                        version + 1,
                        player,
                        "undo " + " ".join(map(str, undone)),
                        _dumps(list(events)),
                        now,
                    ),
                )
            except sqlite3.IntegrityError:
                raise await self._refusal(c, game_id, version) from None
            await c.executemany(
                "UPDATE actions SET undone = 1 WHERE game_id = ? AND seq = ? AND kind = 'move'",
                [(game_id, seq) for seq in undone],
            )
            cur = await c.execute(
                "UPDATE games SET version = version + 1, state = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (_dumps(dict(state)), now, game_id, version),
            )
            if cur.rowcount != 1:
                raise await self._refusal(c, game_id, version)
            await c.execute("DELETE FROM undo_requests WHERE game_id = ?", (game_id,))
            await c.execute("DELETE FROM votes WHERE game_id = ? AND kind = 'draw'", (game_id,))
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
        transaction; a game already recorded keeps its result (the stored one is returned)."""

        def write(c: sqlite3.Connection) -> ResultRecord:
            found = _result_where(c, "game_id = ?", (game_id,))
            if found:
                return found[0]
            cur = c.execute(
                "INSERT INTO results (game_id, guild, pool, rated, places, finished_at, sides)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    guild,
                    pool,
                    int(rated),
                    places_text(places),
                    finished_at,
                    None if sides is None else sides_text(sides),
                ),
            )
            result_id = cur.lastrowid
            assert result_id is not None
            if rated:
                marks = ", ".join("?" for _ in places)
                rows = c.execute(
                    f"SELECT * FROM ratings WHERE guild = ? AND pool = ? AND player IN ({marks})",
                    (guild, pool, *(p.player for p in places)),
                )
                standings = {r["player"]: standing_from_row(r) for r in rows}
                changes = ratings.apply(standings, places)
                _write_changes(c, result_id, changes)
                _write_standings(c, guild, pool, [standings[ch.player] for ch in changes])
            return _result_where(c, "id = ?", (result_id,))[0]

        return await self._on_thread(write)

    async def unrecorded(self) -> list[GameRecord]:
        """Ended games that were started and have no result yet (ended before results were kept, or
        a crash before their end was announced), in the order they ended."""
        async with self._tx(write=False) as c:
            async with c.execute(
                "SELECT g.id FROM games g WHERE g.status IN ('over', 'aborted') AND g.state IS NOT NULL"
                " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id) ORDER BY g.updated_at, g.id"
            ) as cur:
                ids = [r[0] async for r in cur]
            return [rec for i in ids if (rec := await self._fetch(c, "id = ?", (i,))) is not None]

    async def result_of(self, game_id: int) -> ResultRecord | None:
        found = await self._on_thread(lambda c: _result_where(c, "game_id = ?", (game_id,)), write=False)
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
        where, params = "guild = ?", list[Any]([guild])
        if pool is not None:
            where += " AND pool = ?"
            params.append(pool)
        if player is not None:
            where += (
                " AND EXISTS (SELECT 1 FROM json_each(results.places) j"
                " WHERE json_extract(j.value, '$.player') = ?)"
            )
            params.append(player)
        where += " ORDER BY id DESC LIMIT ? OFFSET ?"
        params += [-1 if limit is None else limit, offset]
        return await self._on_thread(lambda c: _result_where(c, where, params), write=False)

    async def standings(self, guild: str, pool: str) -> list[Standing]:
        """Every rated player of the pool, best conservative rating first."""
        rows = await self._select("SELECT * FROM ratings WHERE guild = ? AND pool = ?", (guild, pool))
        return ratings.ranked(standing_from_row(r) for r in rows)

    async def recompute_ratings(self) -> int:
        """Rebuild every rating and rating change from the rated results; the number of results."""
        return await self._on_thread(_recompute)

    async def player_names(self, guild: str, players: Sequence[str]) -> dict[str, str]:
        """The display name each player last sat down with at a table of the server."""
        if not players:
            return {}
        marks = ", ".join("?" for _ in players)
        rows = await self._select(
            "SELECT s.player, s.name FROM seats s JOIN games g ON g.id = s.game_id"
            f" WHERE coalesce(g.guild, '') = ? AND s.player IN ({marks}) ORDER BY s.id",
            (guild, *players),
        )
        return {r["player"]: r["name"] for r in rows}

    async def fill_sides(self) -> int:
        """Give the results recorded without ``sides`` those of their games' states; how many. A
        transaction per ``FILL_BATCH`` results, so that moves are not held up behind all of them."""
        filled = 0
        while done := await self._on_thread(lambda c: _fill_sides(c, FILL_BATCH)):
            filled += done
        return filled

    async def game_lengths(self, game_ids: Sequence[int]) -> dict[int, GameLength]:
        """Each game's moves (taken-back ones left out) and the times of its first and last move."""
        if not game_ids:
            return {}
        marks = ", ".join("?" for _ in game_ids)
        rows = await self._select(
            "SELECT game_id, count(*) AS moves, min(created_at) AS first, max(created_at) AS last"
            f" FROM actions WHERE game_id IN ({marks}) AND kind = 'move' AND undone = 0 GROUP BY game_id",
            tuple(game_ids),
        )
        return {r["game_id"]: GameLength(r["moves"], r["first"], r["last"]) for r in rows}

    async def unrate(self, game_id: int) -> ResultRecord | None:
        """Take a recorded game out of the ratings, which are recomputed without it in the same
        transaction; the result as it now stands (None: the game has no result)."""

        def write(c: sqlite3.Connection) -> ResultRecord | None:
            if c.execute("UPDATE results SET rated = 0 WHERE game_id = ?", (game_id,)).rowcount != 1:
                return None
            _recompute(c)
            return _result_where(c, "game_id = ?", (game_id,))[0]

        return await self._on_thread(write)

    # ---- moving games between stores (``python -m db``) ---------------------------------------------

    async def schema(self) -> int:
        """The number of the database's last migration."""
        async with self._tx(write=False) as c, c.execute("SELECT max(version) FROM schema_migrations") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    async def export_rows(self) -> AsyncIterator[tuple[Table, tuple[Any, ...]]]:
        """Every row of every table, table by table in key order, from one snapshot."""
        async with self._tx(write=False) as c:
            for table in TABLES:
                async with c.execute(table.select) as cur:
                    async for row in cur:
                        yield table, tuple(row)

    async def import_rows(self, rows: Iterable[tuple[Table, tuple[Any, ...]]]) -> None:
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
