"""Fixtures every test folder may use: a real PostgreSQL server, and a store of either kind.

The server starts once per session, on first use (``tests/postgres.py``); each test that asks for
``postgres_url`` gets a fresh database on it. ``store_target`` runs a test twice, once on a SQLite file
and once on a PostgreSQL database, which is how the store, table and migration tests hold both
stores to the same behaviour.
"""

from __future__ import annotations

import shutil
import signal
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import FrameType

import pytest

from tests.postgres import Server

BACKENDS = ("sqlite", "postgres")


def interrupt(signum: int, frame: FrameType | None) -> None:
    """SIGTERM ends the run as Ctrl-C does: pytest then tears its fixtures down (the server stops)."""
    raise KeyboardInterrupt(f"signal {signum}")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Server]:
    """The session's PostgreSQL server. Its data lives in a folder of its own under the system's
    temporary folder, not pytest's: the server runs as another user, and every pytest run takes away
    other users' access to its own temporary folders.

    The server is a process of its own that outlives pytest unless stopped, so it is stopped however
    the run ends: at the end of the session (tests passed or failed), after Ctrl-C (pytest tears the
    session down), and after SIGTERM, which is turned into the same interruption while the server
    runs (by default SIGTERM ends Python at once, with no clean-up at all).
    """
    folder = Path(tempfile.mkdtemp(prefix="tabletop-postgres-"))
    previous = signal.signal(signal.SIGTERM, interrupt)
    server: Server | None = None
    try:
        server = Server(folder)
        yield server
    finally:
        try:
            if server is not None:
                server.stop()
        finally:
            signal.signal(signal.SIGTERM, previous)
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
