"""Numbered schema migrations, applied at start-up.

Each ``migrations/NNNN_name.sql`` file runs once, inside its own transaction together with
the row that records it in ``schema_migrations``: a migration either lands completely or not
at all, so a crash during an upgrade leaves a database that the next start-up upgrades again.
A database written by a newer bot (an unknown migration number) is refused rather than guessed at.

SQLite's are ``db/migrations/NNNN_*.sql`` and PostgreSQL's ``db/migrations_pg/NNNN_*.sql``, with the same
numbers and meaning; in PostgreSQL they are applied under an advisory lock, so processes starting together
migrate once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite

from db.errors import StoreError

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sql: str


def discover(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migration files in number order; numbers must run 1, 2, 3... without gaps."""
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        m = _NAME.match(path.name)
        if m is None:
            raise StoreError(f"badly named migration file {path.name}")
        found.append(Migration(int(m.group(1)), m.group(2), path.read_text(encoding="utf-8")))
    for expected, mig in enumerate(found, start=1):
        if mig.number != expected:
            raise StoreError(f"migration {expected} is missing (found {mig.number}_{mig.name})")
    return found


def refuse_newer(done: set[int], known: list[Migration]) -> None:
    """Refuse a database with migrations this version does not know: a newer bot wrote it."""
    newer = sorted(done - {m.number for m in known})
    if newer:
        raise StoreError(
            f"the database has migrations {newer} that this version does not know; upgrade the bot"
        )


async def applied(conn: aiosqlite.Connection) -> set[int]:
    """Numbers of the migrations already recorded in the database."""
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    async with conn.execute("SELECT version FROM schema_migrations") as cur:
        return {int(row[0]) async for row in cur}


async def migrate(
    conn: aiosqlite.Connection, *, upto: int | None = None, migrations: list[Migration] | None = None
) -> list[int]:
    """Apply every pending migration (up to ``upto`` when given); returns the numbers applied.

    The connection must be in autocommit mode (``isolation_level=None``): each migration
    opens and commits its own transaction.
    """
    todo = discover() if migrations is None else migrations
    done = await applied(conn)
    refuse_newer(done, todo)
    ran: list[int] = []
    for mig in todo:
        if mig.number in done or (upto is not None and mig.number > upto):
            continue
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        script = (
            "BEGIN IMMEDIATE;\n"
            f"{mig.sql}\n;\n"
            "INSERT INTO schema_migrations (version, name, applied_at) "
            f"VALUES ({mig.number}, '{mig.name}', '{stamp}');\n"
            "COMMIT;\n"
        )
        try:
            await conn.executescript(script)
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
        ran.append(mig.number)
    return ran
