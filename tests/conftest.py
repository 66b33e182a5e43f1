"""Fixtures every test folder may use: a real PostgreSQL server, and a store of either kind.

The server starts once per session, on first use (``tests/postgres.py``); each test that asks for
``postgres_url`` gets a fresh database on it. ``store_target`` runs a test twice, once on a SQLite file
and once on a PostgreSQL database, which is how the store, table and migration tests hold both
stores to the same behaviour.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.postgres import Server

BACKENDS = ("sqlite", "postgres")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Server]:
    """The session's PostgreSQL server. Its data lives in a folder of its own under the system's
    temporary folder, not pytest's: the server runs as another user, and every pytest run takes away
    other users' access to its own temporary folders."""
    folder = Path(tempfile.mkdtemp(prefix="tabletop-postgres-"))
    try:
        server = Server(folder)
        yield server
        server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
async def postgres_url(postgres: Server) -> AsyncIterator[str]:
    """A fresh, empty database (no schema yet) on the session's server."""
    url = await postgres.create_database()
    yield url
    await postgres.drop_database(url)


@pytest.fixture
async def postgres_store_url(postgres: Server) -> AsyncIterator[str]:
    """A fresh database with the store's schema and no rows."""
    url = await postgres.create_database(migrated=True)
    yield url
    await postgres.drop_database(url)


@pytest.fixture(params=BACKENDS)
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a test's store lives: a SQLite file's path, or a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        return tmp_path / "store.sqlite3"
    url: str = request.getfixturevalue("postgres_store_url")
    return url
