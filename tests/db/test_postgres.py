"""What only PostgreSQL needs: writers that really run side by side, its migrations, its URLs.

SQLite has one writer at a time; PostgreSQL runs transactions concurrently, so the store locks a game's
row before deciding. These tests make the race happen for certain rather than by luck: the first
writer is held inside its transaction (at ``PostgresStore._holding``) until the server shows the
second one waiting on a lock, or finished; only then does the first go on.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import db
from db import Announcement, Conflict, Seat
from db.errors import StaleVersion
from db.migrate import MIGRATIONS_DIR as SQLITE_MIGRATIONS
from db.migrate import Migration, discover
from db.postgres import MIGRATIONS_DIR, PostgresStore, describe, migrate
from tests.db.test_migrations import check_both_choices_kept
from tests.postgres import run_sql

HANG_LIMIT = 20.0
"""Seconds after which a test that waits for the server calls it a hang (never a measured time)."""

ALICE, BOB, CAROL = Seat("a", "Alice"), Seat("b", "Bob"), Seat("c", "Carol")


@pytest.fixture
async def stores(postgres_url: str) -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    """Two stores on one database, as two bot processes would have: two pools, two connections."""
    first, second = await db.open_store(postgres_url), await db.open_store(postgres_url)
    assert isinstance(first, PostgresStore) and isinstance(second, PostgresStore)
    yield first, second
    await first.close()
    await second.close()


async def lock_waiters(url: str) -> int:
    """Sessions of the database waiting for a lock another transaction holds."""
    conn = await asyncpg.connect(url)
    try:
        return int(
            await conn.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock'"
            )
        )
    finally:
        await conn.close()


async def race(
    url: str,
    first: PostgresStore,
    at: str,
    first_write: Callable[[], Awaitable[Any]],
    second_write: Callable[[], Awaitable[Any]],
) -> tuple[Any, Any]:
    """Run ``first_write`` until it holds its row (``at``), then ``second_write``; let the first go on
    once the second waits for the lock (or is done). Each outcome is a value or the exception raised."""
    holding, go_on = asyncio.Event(), asyncio.Event()

    async def hold(write: str) -> None:
        if write == at and not holding.is_set():
            holding.set()
            await go_on.wait()

    first._holding = hold  # type: ignore[method-assign]

    async def outcome(write: Callable[[], Awaitable[Any]]) -> Any:
        try:
            return await write()
        except Exception as exc:
            return exc

    one = asyncio.create_task(outcome(first_write))
    await asyncio.wait_for(holding.wait(), HANG_LIMIT)
    two = asyncio.create_task(outcome(second_write))

    async def second_is_waiting() -> None:
        while not two.done() and await lock_waiters(url) == 0:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(second_is_waiting(), HANG_LIMIT)
    waited = not two.done()
    go_on.set()
    results = await asyncio.wait_for(asyncio.gather(one, two), HANG_LIMIT)
    assert waited, "the second writer did not wait for the first one's lock"
    return results[0], results[1]


async def test_two_joins_for_the_last_seat_seat_one_player(
    stores: tuple[PostgresStore, PostgresStore], postgres_url: str
) -> None:
    first, second = stores
    rec = await first.create_game(channel="c", game="nim", creator=ALICE, players=2, options={}, seed=1)
    one, two = await race(
        postgres_url,
        first,
        "seat",
        lambda: first.add_seat(rec.id, BOB),
        lambda: second.add_seat(rec.id, CAROL),
    )
    assert isinstance(two, Conflict) and "full" in str(two)
    assert not isinstance(one, Exception) and one.player_ids == ["a", "b"]
    stored = await second.get_game(rec.id)
    assert stored is not None and stored.player_ids == ["a", "b"]


async def test_two_connections_applying_one_version_apply_it_once(
    stores: tuple[PostgresStore, PostgresStore], postgres_url: str
) -> None:
    first, second = stores
    lobby = await first.create_game(channel="c", game="nim", creator=ALICE, players=2, options={}, seed=1)
    await first.add_seat(lobby.id, BOB)
    rec = await first.start_game(lobby.id, state={"n": 0})

    def move(store: PostgresStore, n: int) -> Callable[[], Awaitable[Any]]:
        return lambda: store.apply_action(
            rec.id, version=0, player="a", action=f"take {n}", events=[], state={"n": n}, status="active"
        )

    one, two = await race(postgres_url, first, "move", move(first, 1), move(second, 2))
    assert not isinstance(one, Exception) and one.version == 1
    assert isinstance(two, StaleVersion) and (two.given, two.current) == (0, 1)
    assert [a.action for a in await second.actions(rec.id)] == ["take 1"]
    stored = await second.get_game(rec.id)
    assert stored is not None and stored.state == {"n": 1}


@pytest.mark.parametrize("revision", [0, 1], ids=["first write", "later write"])
async def test_two_writers_of_one_announcement_revision_write_once(
    stores: tuple[PostgresStore, PostgresStore], postgres_url: str, revision: int
) -> None:
    first, second = stores
    lobby = await first.create_game(channel="c", game="nim", creator=ALICE, players=2, options={}, seed=1)
    await first.add_seat(lobby.id, BOB)
    rec = await first.start_game(lobby.id, state={})
    read = Announcement(rec.id, 0, "active", since=0, summary_from=0, message="m1")
    if revision:
        saved = await first.save_announcement(read)
        assert saved is not None
        read = saved
    one, two = await race(
        postgres_url,
        first,
        "announcement",
        lambda: first.save_announcement(replace(read, reminders=1)),
        lambda: second.save_announcement(replace(read, reminders=2)),
    )
    assert one is not None and one.rev == revision + 1 and one.reminders == 1
    assert two is None, "the second writer read a revision that is gone"
    assert await second.announcement(rec.id) == one


# ---- migrations ---------------------------------------------------------------------------------------


def test_each_sqlite_migration_has_its_postgresql_twin() -> None:
    assert [(m.number, m.name) for m in discover(MIGRATIONS_DIR)] == [
        (m.number, m.name) for m in discover(SQLITE_MIGRATIONS)
    ]


async def test_a_fresh_database_gets_every_migration(postgres_url: str) -> None:
    store = await db.open_store(postgres_url)
    await store.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        versions = [r[0] for r in await conn.fetch("SELECT version FROM schema_migrations ORDER BY version")]
        assert versions == [m.number for m in discover(MIGRATIONS_DIR)]
        tables = {
            r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        }
        assert {"games", "seats", "actions", "votes", "announcements", "notes", "meta"} <= tables
    finally:
        await conn.close()


async def test_two_bots_starting_on_a_new_database_migrate_it_once(postgres_url: str) -> None:
    first, second = await asyncio.gather(db.open_store(postgres_url), db.open_store(postgres_url))
    await first.close()
    await second.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await conn.fetchval("SELECT count(*) FROM schema_migrations") == len(discover(MIGRATIONS_DIR))
    finally:
        await conn.close()


async def test_a_database_from_migration_1_opens_after_all_migrations(postgres_url: str) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await migrate(conn, upto=1) == [1]
        await conn.execute(
            "INSERT INTO games (channel, game, status, creator, players, options, seed, version, state,"
            " created_at, updated_at)"
            " VALUES ('c', 'nim', 'active', 'a', 2, '{}', 5, 3, '{\"heap\": 3}', 't', 't')"
        )
        await conn.execute("INSERT INTO seats (game_id, player, name) VALUES (1, 'a', 'A'), (1, 'b', 'B')")
    finally:
        await conn.close()
    store = await db.open_store(postgres_url)
    try:
        game = await store.open_game("c")
        assert game is not None and game.state == {"heap": 3} and game.player_ids == ["a", "b"]
        assert game.settings == {} and game.guild is None
        shown = await store.announcement(game.id)
        assert shown is not None and (shown.version, shown.since) == (3, 3), "a game under way was shown"
        assert await store.unannounced() == []
        assert await store.add_vote(game.id, "draw", "a", version=3) == {"a": 3}
    finally:
        await store.close()


async def test_migration_7_gives_every_player_the_text_board_off(postgres_url: str) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await migrate(conn, upto=6) == [1, 2, 3, 4, 5, 6]
        await conn.execute("INSERT INTO notify (player, dm, updated_at) VALUES ('a', TRUE, 't')")
    finally:
        await conn.close()
    store = await db.open_store(postgres_url)
    try:
        await check_both_choices_kept(store)
    finally:
        await store.close()


async def test_a_failing_migration_leaves_no_trace(postgres_url: str) -> None:
    good = discover(MIGRATIONS_DIR)
    broken = Migration(
        good[-1].number + 1, "broken", "CREATE TABLE extra (x INTEGER);\nINSERT INTO nowhere VALUES (1);"
    )
    conn = await asyncpg.connect(postgres_url)
    try:
        with pytest.raises(asyncpg.UndefinedTableError):
            await migrate(conn, migrations=[*good, broken])
        assert await conn.fetchval("SELECT max(version) FROM schema_migrations") == good[-1].number
        assert await conn.fetchval("SELECT to_regclass('extra')") is None
        assert not conn.is_in_transaction()
    finally:
        await conn.close()


async def test_a_database_from_a_newer_version_is_refused(postgres_url: str) -> None:
    store = await db.open_store(postgres_url)
    await store.close()
    await run_sql(postgres_url, "INSERT INTO schema_migrations VALUES (999, 'future', 't')")
    with pytest.raises(db.StoreError, match="upgrade the bot"):
        await db.open_store(postgres_url)


# ---- choosing the store -------------------------------------------------------------------------------


async def test_open_store_takes_a_url_for_postgresql_and_anything_else_as_a_file(
    postgres_url: str, tmp_path: Path
) -> None:
    pg = await db.open_store(postgres_url)
    lite = await db.open_store(tmp_path / "file.sqlite3")
    named = await db.open_store(str(tmp_path / "named.sqlite3"))
    try:
        assert isinstance(pg, PostgresStore)
        assert isinstance(lite, db.SqliteStore) and isinstance(named, db.SqliteStore)
    finally:
        for store in (pg, lite, named):
            await store.close()
    assert db.is_postgres_url("postgres://u@h/d") and not db.is_postgres_url("data/postgresql.sqlite3")


def test_a_url_is_described_without_its_password() -> None:
    assert describe("postgresql://bot:s3cret@db:5432/games") == "postgresql://bot@db:5432/games"
    assert describe("postgresql://bot@db/games") == "postgresql://bot@db/games"
    assert describe("postgresql:///games?host=/run/pg") == "postgresql:///games?host=/run/pg"
