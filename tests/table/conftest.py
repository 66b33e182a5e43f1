"""Fixtures for table-layer tests: a store in a temporary file, fake renderers, Nim."""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from PIL import Image

import db
import i18n
from launch import DISCORD_LIMITS
from table import Commands, Ctx, Post, Renderer, Tables
from table.posting.announce import RecordingOutlet
from tests.table.gates import Gate
from tests.table.nim import lookup

NIM_TEXTS = {
    "en": {
        "nim.took": "{player} takes {n}, {left} left.",
        "nim.won": "{player} takes the last stone.",
        "nim.label": "Take {n} stone(s)",
        "nim.reason": "{player} emptied the heap.",
        "nim.illegal": "You may take 1 to {max}, not {n}.",
    },
    "fr": {
        "nim.took": "{player} prend {n}, il en reste {left}.",
        "nim.won": "{player} prend la dernière pierre.",
        "nim.label": "Prendre {n} pierre(s)",
        "nim.reason": "{player} a vidé le tas.",
        "nim.illegal": "Vous pouvez prendre de 1 à {max}, pas {n}.",
    },
}


@pytest.fixture(autouse=True)
def nim_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nim's texts, added to the cached catalog for one test and removed afterwards."""
    for lang, texts in NIM_TEXTS.items():
        for key, value in texts.items():
            monkeypatch.setitem(i18n.catalog(lang), key, value)


class FakeRenderer:
    """Returns a small real PNG and remembers each call (view, locale, thread)."""

    def __init__(self, colour: tuple[int, int, int]) -> None:
        self.colour = colour
        self.calls: list[dict[str, Any]] = []

    def __call__(self, view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
        self.calls.append(
            {"view": view, "names": dict(names), "locale": locale, "thread": threading.get_ident()}
        )
        buf = io.BytesIO()
        Image.new("RGB", (8, 6), self.colour).save(buf, format="PNG")
        return buf.getvalue()


def png_size(data: bytes | None) -> tuple[int, int]:
    assert data is not None
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "PNG"
        return img.size


@pytest.fixture
def db_path(store_target: Any) -> Any:
    """Where the tables' store lives: a SQLite file, or a PostgreSQL database's URL (every table test
    runs on both stores)."""
    return store_target


@pytest.fixture
async def store(db_path: Any) -> AsyncIterator[db.Store]:
    s = await db.open_store(db_path)
    yield s
    await s.close()


@pytest.fixture
def renderers() -> tuple[FakeRenderer, FakeRenderer]:
    return FakeRenderer((200, 30, 30)), FakeRenderer((30, 30, 200))


def make_tables(store: db.Store, renderers: tuple[Renderer, Renderer]) -> Tables:
    return Tables(
        store,
        limits=DISCORD_LIMITS,
        render=renderers[0],
        render_private=renderers[1],
        games=lookup,
        known_games=("nim", "warchest"),
        seed_source=lambda: 1234,
    )


@pytest.fixture
def tables(store: db.Store, renderers: tuple[FakeRenderer, FakeRenderer]) -> Tables:
    return make_tables(store, renderers)


@pytest.fixture
async def commands(tables: Tables) -> AsyncIterator[Commands]:
    cmds = Commands(tables)
    yield cmds
    await cmds.announcer.drain()


async def channel_posts(commands: Commands, channel: str = "chan") -> list[Post]:
    """What the announcer has posted in ``channel`` so far (new posts, not edits), once it is idle."""
    await commands.announcer.drain()
    outlet = commands.announcer.outlet
    assert isinstance(outlet, RecordingOutlet) and outlet.sent is not None
    return [post for where, post in outlet.sent if where == channel]


async def last_post(commands: Commands, channel: str = "chan") -> Post:
    """The channel's latest public post: a new handover post, or the edit that replaced it."""
    await commands.announcer.drain()
    outlet = commands.announcer.outlet
    assert isinstance(outlet, RecordingOutlet) and outlet.sent is not None and outlet.edits is not None
    sent = [(i, post) for i, (where, post) in enumerate(outlet.sent) if where == channel]
    assert sent, "nothing was posted in the channel"
    index, post = sent[-1]
    edits = [p for where, message, p in outlet.edits if where == channel and message == f"m{index + 1}"]
    return edits[-1] if edits else post


CtxFactory = Callable[..., Ctx]


@pytest.fixture
def ctx() -> CtxFactory:
    def make(user: str, channel: str = "chan", locale: str = "en", channel_locale: str = "en") -> Ctx:
        return Ctx(channel, user, user.capitalize(), locale, channel_locale)

    return make


async def start_nim(commands: Commands, ctx: CtxFactory, options: str = "", channel: str = "chan") -> None:
    """Alice opens Nim, Bob joins, Alice starts (and the start is posted, as the front ends wait for)."""
    await commands.new(ctx("alice", channel), "nim", options=options)
    await commands.join(ctx("bob", channel))
    await commands.start(ctx("alice", channel))
    await commands.announcer.drain()


async def current(commands: Commands, channel: str = "chan") -> Any:
    """The channel's latest table, freshly loaded from the store."""
    table = await commands.tables.latest(channel)
    assert table is not None
    return table


@pytest.fixture
async def gate() -> AsyncIterator[Gate]:
    """A gate workers wait at until the test opens it (``tests.table.gates``)."""
    held = Gate()
    server = await asyncio.start_unix_server(held._hold, path=held.address)
    try:
        yield held
    finally:
        held.opened.set()
        server.close()
