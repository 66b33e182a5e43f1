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
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from db.errors import ChannelBusy, Conflict
from db.migrate import migrate
from db.records import ActionRecord, GameRecord, Seat, Status, VoteKind
from engine.errors import GameOver, StaleAction

BUSY_TIMEOUT_MS = 5000


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


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


async def open_store(path: str | Path, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> SqliteStore:
    """Open (creating if needed) the database at ``path`` and bring its schema up to date."""
    conn = await connect(path, busy_timeout_ms=busy_timeout_ms)
    try:
        await migrate(conn)
    except BaseException:
        await conn.close()
        raise
    return SqliteStore(conn)


class SqliteStore:
    """Games, seats, action log and votes in one SQLite file."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()

    async def close(self) -> None:
        await self._conn.close()

    @asynccontextmanager
    async def _tx(self, *, write: bool = True) -> AsyncIterator[aiosqlite.Connection]:
        """One transaction; rolled back on any exception, cancellation included."""
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield self._conn
            except BaseException:
                await asyncio.shield(self._conn.execute("ROLLBACK"))
                raise
            await self._conn.execute("COMMIT")

    async def _before_state_update(self) -> None:
        """Runs inside a move's transaction between the action insert and the state update.

        Does nothing; it exists so tests can inject a failure at the most awkward moment.
        """

    # ---- reading -------------------------------------------------------------------------

    async def _fetch(
        self, conn: aiosqlite.Connection, where: str, params: Sequence[Any]
    ) -> GameRecord | None:
        async with conn.execute(f"SELECT * FROM games WHERE {where} ORDER BY id DESC LIMIT 1", params) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        async with conn.execute(
            "SELECT player, name, team FROM seats WHERE game_id = ? ORDER BY id", (row["id"],)
        ) as cur:
            seats = tuple([Seat(r["player"], r["name"], r["team"]) async for r in cur])
        return GameRecord(
            id=row["id"],
            channel=row["channel"],
            game=row["game"],
            status=row["status"],
            creator=row["creator"],
            players=row["players"],
            options=json.loads(row["options"]),
            seed=row["seed"],
            version=row["version"],
            state=None if row["state"] is None else json.loads(row["state"]),
            result=None if row["result"] is None else json.loads(row["result"]),
            seats=seats,
            created_at=row["created_at"],
            updated_at=row["updated_at"],
        )

    async def _require(self, conn: aiosqlite.Connection, game_id: int) -> GameRecord:
        rec = await self._fetch(conn, "id = ?", (game_id,))
        if rec is None:
            raise Conflict(f"no game #{game_id}")
        return rec

    async def get_game(self, game_id: int) -> GameRecord | None:
        async with self._tx(write=False) as c:
            return await self._fetch(c, "id = ?", (game_id,))

    async def open_game(self, channel: str) -> GameRecord | None:
        async with self._tx(write=False) as c:
            return await self._fetch(c, "channel = ? AND status IN ('lobby', 'active')", (channel,))

    async def latest_game(self, channel: str) -> GameRecord | None:
        async with self._tx(write=False) as c:
            return await self._fetch(c, "channel = ?", (channel,))

    async def actions(self, game_id: int, *, offset: int = 0, limit: int | None = None) -> list[ActionRecord]:
        async with (
            self._tx(write=False) as c,
            c.execute(
                "SELECT * FROM actions WHERE game_id = ? ORDER BY seq LIMIT ? OFFSET ?",
                (game_id, -1 if limit is None else limit, offset),
            ) as cur,
        ):
            return [
                ActionRecord(
                    r["game_id"], r["seq"], r["player"], r["action"], json.loads(r["events"]), r["created_at"]
                )
                async for r in cur
            ]

    async def count_actions(self, game_id: int) -> int:
        async with (
            self._tx(write=False) as c,
            c.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)) as cur,
        ):
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def votes(self, game_id: int, kind: VoteKind) -> dict[str, int]:
        async with (
            self._tx(write=False) as c,
            c.execute(
                "SELECT player, version FROM votes WHERE game_id = ? AND kind = ? ORDER BY created_at",
                (game_id, kind),
            ) as cur,
        ):
            return {r["player"]: r["version"] async for r in cur}

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
    ) -> GameRecord:
        now = _now()
        async with self._tx() as c:
            try:
                cur = await c.execute(
                    "INSERT INTO games (channel, game, status, creator, players, options, seed, created_at,"
                    " updated_at) VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
                    (channel, game, creator.player, players, _dumps(dict(options)), seed, now, now),
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

    async def remove_seat(self, game_id: int, player: str) -> GameRecord:
        """Unseat ``player``; a departing creator hands the lobby to the next seat, or closes it."""
        async with self._tx() as c:
            await self._touch_lobby(c, game_id)
            cur = await c.execute("DELETE FROM seats WHERE game_id = ? AND player = ?", (game_id, player))
            if cur.rowcount != 1:
                raise Conflict(f"{player} is not seated in game #{game_id}")
            rec = await self._require(c, game_id)
            if rec.creator == player:
                if rec.seats:
                    await c.execute(
                        "UPDATE games SET creator = ? WHERE id = ?", (rec.seats[0].player, game_id)
                    )
                else:
                    await c.execute("UPDATE games SET status = 'aborted' WHERE id = ?", (game_id,))
                rec = await self._require(c, game_id)
            return rec

    async def start_game(
        self, game_id: int, *, state: Mapping[str, Any], seats: Sequence[Seat] | None = None
    ) -> GameRecord:
        """Lobby -> active at version 0; ``seats``, when given, is the final seat order and teams."""
        async with self._tx() as c:
            cur = await c.execute(
                "UPDATE games SET status = 'active', state = ?, version = 0, updated_at = ?"
                " WHERE id = ? AND status = 'lobby'",
                (_dumps(dict(state)), _now(), game_id),
            )
            if cur.rowcount != 1:
                raise Conflict(f"game #{game_id} is not in the lobby")
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
        rec = await self._fetch(conn, "id = ?", (game_id,))
        if rec is None:
            return Conflict(f"no game #{game_id}")
        if rec.status in ("over", "aborted"):
            return GameOver()
        return StaleAction(given=version, current=rec.version)

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
    ) -> GameRecord:
        """Record one action against ``version``; the game moves to ``version + 1`` atomically.

        Raises ``StaleAction`` when the game is no longer at ``version`` and ``GameOver``
        when it has ended; in both cases nothing is written. A standing draw offer lapses.
        """
        if status not in ("active", "over"):
            raise ValueError(f"an action leaves a game active or over, not {status}")
        now = _now()
        async with self._tx() as c:
            try:
                await c.execute(
                    "INSERT INTO actions (game_id, seq, player, action, events, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, version + 1, player, action, _dumps(list(events)), now),
                )
            except sqlite3.IntegrityError:
                raise await self._refusal(c, game_id, version) from None
            await self._before_state_update()
            cur = await c.execute(
                "UPDATE games SET version = version + 1, state = ?, status = ?, result = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (
                    _dumps(dict(state)),
                    status,
                    None if result is None else _dumps(dict(result)),
                    now,
                    game_id,
                    version,
                ),
            )
            if cur.rowcount != 1:
                raise await self._refusal(c, game_id, version)
            if status == "over":
                await c.execute("DELETE FROM votes WHERE game_id = ?", (game_id,))
            else:
                await c.execute("DELETE FROM votes WHERE game_id = ? AND kind = 'draw'", (game_id,))
            return await self._require(c, game_id)

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
