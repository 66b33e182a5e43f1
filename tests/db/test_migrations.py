"""Schema migrations: fresh databases, upgrades from older ones, failures, newer databases."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

import db
from db.migrate import RESERVED, Migration, discover, migrate
from db.sqlite import connect


async def scalar(conn: aiosqlite.Connection, sql: str) -> Any:
    async with conn.execute(sql) as cur:
        row = await cur.fetchone()
    assert row is not None
    return row[0]


def test_migration_files_are_numbered_without_gaps() -> None:
    found = discover()
    numbers = [m.number for m in found]
    assert [n for n in range(1, numbers[-1] + 1) if n not in RESERVED] == [
        n for n in numbers if n not in RESERVED
    ]
    assert len(found) >= 2


async def test_a_fresh_database_gets_every_migration_and_the_right_settings(tmp_path: Path) -> None:
    store = await db.open_store(tmp_path / "sub" / "fresh.sqlite3")  # parent folders are created
    await store.close()
    con = sqlite3.connect(tmp_path / "sub" / "fresh.sqlite3")
    try:
        versions = [r[0] for r in con.execute("SELECT version FROM schema_migrations ORDER BY version")]
        assert versions == [m.number for m in discover()]
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"games", "seats", "actions", "votes", "schema_migrations"} <= tables
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        con.close()


async def test_store_connections_enforce_foreign_keys_and_wait_when_busy(tmp_path: Path) -> None:
    conn = await connect(tmp_path / "x.sqlite3")
    try:
        assert await scalar(conn, "PRAGMA foreign_keys") == 1
        assert await scalar(conn, "PRAGMA busy_timeout") >= 1000
    finally:
        await conn.close()


async def test_a_database_from_migration_1_opens_after_all_migrations(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = await connect(path)
    try:
        assert await migrate(conn, upto=1) == [1]
        await conn.execute(
            "INSERT INTO games (channel, game, status, creator, players, options, seed, version, state,"
            " created_at, updated_at)"
            " VALUES ('c', 'nim', 'active', 'a', 2, '{}', 5, 0, '{\"heap\": 3}', 't', 't')"
        )
        await conn.execute("INSERT INTO seats (game_id, player, name) VALUES (1, 'a', 'A'), (1, 'b', 'B')")
    finally:
        await conn.close()

    store = await db.open_store(path)
    try:
        game = await store.open_game("c")
        assert game is not None and game.state == {"heap": 3} and game.player_ids == ["a", "b"]
        # tables of later migrations work on the upgraded file
        assert await store.add_vote(game.id, "draw", "a", version=0) == {"a": 0}
    finally:
        await store.close()
    store = await db.open_store(path)  # opening again applies nothing and loses nothing
    try:
        assert await store.votes(1, "draw") == {"a": 0}
    finally:
        await store.close()


async def test_a_failing_migration_leaves_no_trace(tmp_path: Path) -> None:
    path = tmp_path / "broken.sqlite3"
    good = discover()
    broken = Migration(
        good[-1].number + 1, "broken", "CREATE TABLE extra (x INTEGER);\nINSERT INTO nowhere VALUES (1);"
    )
    conn = await connect(path)
    try:
        with pytest.raises(sqlite3.OperationalError):
            await migrate(conn, migrations=[*good, broken])
        assert await scalar(conn, "SELECT max(version) FROM schema_migrations") == good[-1].number
        assert await scalar(conn, "SELECT count(*) FROM sqlite_master WHERE name = 'extra'") == 0
        assert not conn.in_transaction
    finally:
        await conn.close()


async def test_a_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    store = await db.open_store(path)
    await store.close()
    con = sqlite3.connect(path)
    con.execute("INSERT INTO schema_migrations VALUES (999, 'future', 't')")
    con.commit()
    con.close()
    with pytest.raises(db.StoreError, match="upgrade the bot"):
        await db.open_store(path)


async def test_migration_7_gives_every_player_the_text_board_off(tmp_path: Path) -> None:
    """A player who chose direct messages before the text board existed keeps that choice, and gets
    the text board only once they ask for it; asking for one choice leaves the other as it was."""
    path = tmp_path / "six.sqlite3"
    conn = await connect(path)
    try:
        assert await migrate(conn, upto=6) == [1, 2, 3, 4, 5, 6]
        await conn.execute("INSERT INTO notify (player, dm, updated_at) VALUES ('a', 1, 't')")
        await conn.commit()
    finally:
        await conn.close()
    store = await db.open_store(path)
    try:
        await check_both_choices_kept(store)
    finally:
        await store.close()


async def check_both_choices_kept(store: db.Store) -> None:
    """Player ``a`` chose direct messages before migration 7: the text board is off until asked for,
    and setting one choice leaves the other as it was (also for a player new to the table)."""
    assert await store.notify("a") and not await store.text_board("a")
    await store.set_text_board("a", True)
    await store.set_text_board("b", True)
    assert await store.notify("a") and await store.text_board("a")
    assert not await store.notify("b") and await store.text_board("b")
    await store.set_notify("b", True)
    assert await store.text_board("b")
