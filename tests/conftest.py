"""Fixtures every test folder may use: a real PostgreSQL server, and a store of either kind; the
translators' test languages; and the order the tests run in.

The server starts once per session, on first use (``tests/postgres.py``); each test that asks for
``postgres_url`` gets a fresh database on it. ``store_target`` runs a test twice, once on a SQLite file
and once on a PostgreSQL database, which is how the store, table and migration tests hold both
stores to the same behaviour.

The longest tests run first (``tests/durations.json``, written by ``make durations``): spread over
the parallel workers, a long test started last would keep one worker busy while the other idles.
"""

from __future__ import annotations

import json
import shutil
import signal
import tempfile
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import FrameType

import pytest

import i18n
from tests.postgres import Server

BACKENDS = ("sqlite", "postgres")
DURATIONS = Path(__file__).with_name("durations.json")
"""Seconds each long test's body took in a recorded run, by node id."""
RECORDED_FROM = 0.5
"""Tests shorter than this are left out of the record: their order hardly matters."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-durations",
        action="store_true",
        help=f"write each long test's duration to {DURATIONS.name}, the order of later runs",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Longest recorded first, the others after them in their own order.

    The order depends on the file only, never on timing, so every parallel worker collects the same
    list (pytest-xdist requires it) and a run is repeatable.
    """
    try:
        recorded: dict[str, float] = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return
    items.sort(key=lambda item: -recorded.get(item.nodeid, 0.0))  # stable: ties keep their order


class DurationRecorder:
    """Notes each test's duration as its report arrives (in the controller under pytest-xdist)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call":  # a session fixture's set-up and teardown fall on whichever test
            self.seconds[report.nodeid] += report.duration  # happens to come first or last

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """The tests of this run replace their old figures; those it did not run keep theirs."""
        try:
            kept: dict[str, float] = json.loads(DURATIONS.read_text(encoding="utf-8"))
        except FileNotFoundError:
            kept = {}
        merged = {k: v for k, v in kept.items() if k not in self.seconds}
        merged.update({k: round(v, 1) for k, v in self.seconds.items() if v >= RECORDED_FROM})
        DURATIONS.write_text(json.dumps(dict(sorted(merged.items())), indent=0) + "\n", encoding="utf-8")


def pytest_configure(config: pytest.Config) -> None:
    worker = hasattr(config, "workerinput")  # a pytest-xdist worker: its controller records
    if config.getoption("--record-durations", default=False) and not worker:
        config.pluginmanager.register(DurationRecorder(), "duration-recorder")


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


TRANSLATORS_FOLDERS = Path(__file__).parent / "i18n" / "locales"
"""Catalogs of languages the bot does not ship (Polish, Russian), with a few keys each: what a
translator adds, for the tests of plural forms and lengths other than English and French."""


@pytest.fixture
def translators_folders() -> Iterator[None]:
    """The bot's catalogs plus the test folders, as if a translator had added them."""
    saved = i18n.PATH
    i18n.PATH = (*saved, TRANSLATORS_FOLDERS)
    i18n.reload()
    try:
        yield
    finally:
        i18n.PATH = saved
        i18n.reload()
