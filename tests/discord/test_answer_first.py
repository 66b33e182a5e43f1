"""Nobody waits behind a burst: interactions are acknowledged before any work, autocomplete reads
apart from the store's work, and a move whose answer could not be delivered is still confirmed.

The bot runs on the fake Discord over the real table layer and a real SQLite store; the store and the
drawings are held by gates the tests open (no timer): what is asserted is what Discord has seen while
the work is held, never how long anything took.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import db
from bot import build_bot
from launch import DISCORD_LIMITS, Settings
from table.core.drawing import ThreadDrawer
from table.core.tables import Tables
from table.play.commands import Commands, Ctx
from table.posting.announce import Announcer, RecordingOutlet
from tests.discord.support import CONFIRMED, tiny_png
from tests.fakediscord.model import FakeChannel, FakeUser
from tests.fakediscord.server import HANG_LIMIT, FakeDiscord, InteractionTimeout


class GatedStore:
    """The real store, each of its calls (but closing) waiting while the gate is closed; ``calls``
    counts them and ``held`` counts those waiting now. The quick read path (``reads``) is the
    store's own, not gated: it is what a keystroke reads through."""

    def __init__(self, store: db.Store) -> None:
        self._store = store
        self.gate = asyncio.Event()
        self.gate.set()
        self.calls = 0
        self.held = 0
        self.witness: Callable[[], None] = lambda: None
        """Called as each call reaches the store (a test notes what Discord has seen by then)."""

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if name == "close" or not inspect.iscoroutinefunction(found):
            return found

        async def gated(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            self.witness()
            if not self.gate.is_set():
                self.held += 1
                try:
                    await self.gate.wait()
                finally:
                    self.held -= 1
            return await found(*args, **kwargs)

        return gated


class BoardGate:
    """A stand-in board renderer that, once ``hold`` is called, keeps the next board's drawing (in a
    thread) until ``release``; ``holding`` is set while it does."""

    def __init__(self) -> None:
        self._hold = threading.Event()
        self._holding = threading.Event()
        self._release = threading.Event()

    def hold(self) -> None:
        self._hold.set()

    def release(self) -> None:
        self._release.set()

    async def holding(self) -> None:
        await asyncio.wait_for(asyncio.to_thread(self._holding.wait, HANG_LIMIT), HANG_LIMIT)

    def __call__(self, view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
        if self._hold.is_set():
            self._hold.clear()
            self._holding.set()
            self._release.wait(HANG_LIMIT)
        return tiny_png(view, names=names, locale=locale)


@dataclass
class Scene:
    fake: FakeDiscord
    chan: FakeChannel
    alice: FakeUser
    bob: FakeUser
    store: db.Store
    gated: GatedStore
    commands: Commands
    board: BoardGate

    def ctx(self, user: FakeUser) -> Ctx:
        return Ctx(self.chan.id, user.id, user.name, "en", "en", guild_id=self.chan.guild_id)

    async def version(self) -> int:
        record = await self.store.open_game(self.chan.id)
        assert record is not None
        return record.version

    async def a_move(self) -> tuple[FakeUser, str]:
        """Whoever acts now and the value of a legal move of theirs, as autocomplete offers it."""
        table = await self.commands.tables.open(self.chan.id)
        assert table is not None
        player = self.alice if self.alice.id in table.to_act() else self.bob
        choices = await self.commands.autocomplete(self.ctx(player), "")
        return player, choices[0][1]


@pytest.fixture
async def scene(tmp_path: Path) -> AsyncIterator[Scene]:
    store = await db.open_store(tmp_path / "bot.sqlite3")
    gated = GatedStore(store)
    board = BoardGate()
    try:
        async with FakeDiscord() as fake:
            guild = fake.add_guild("G")
            chan = fake.add_channel(guild, "general")
            alice, bob = fake.add_user("alice"), fake.add_user("bob")
            drawer = ThreadDrawer({"board": board, "private": tiny_png}, workers=1)
            tables = Tables(gated, limits=DISCORD_LIMITS, drawer=drawer, seed_source=lambda: 7)  # type: ignore[arg-type]
            commands = Commands(tables, Announcer(tables, RecordingOutlet(), coalesce=0))
            scene = Scene(fake, chan, alice, bob, store, gated, commands, board)
            await commands.new(scene.ctx(alice), "warchest")
            await commands.join(scene.ctx(bob))
            await commands.start(scene.ctx(alice))
            await commands.announcer.drain()
            bot = build_bot(Settings(database_path=tmp_path / "unused.sqlite3"), commands)
            await fake.start_bot(bot)
            yield scene
            assert fake.unknown_requests == []
    finally:
        board.release()
        gated.gate.set()
        await store.close()


async def test_the_acknowledgement_goes_out_before_the_store_is_asked(scene: Scene) -> None:
    """With the store held, a move is already acknowledged (privately) while its work waits at the
    store; once the store goes on, the move is stored and confirmed."""
    player, value = await scene.a_move()
    before = await scene.version()
    seen: list[list[int | None]] = []  # at each call to the store: the answers Discord has had
    scene.gated.witness = lambda: seen.append([r.result.response_type for r in scene.fake._in_flight])
    scene.gated.gate.clear()
    task = asyncio.create_task(scene.fake.slash(player, scene.chan, "play", action=value))
    early = await scene.fake.first_answer()
    assert early.deferred and early.ephemeral, "acknowledged privately"
    while scene.gated.held == 0:
        await asyncio.sleep(0.005)
    assert seen and seen[0] == [5], "the acknowledgement went out before the store was first asked"
    assert not task.done() and await scene.version() == before, "nothing stored yet"
    scene.gated.gate.set()
    reply = await task
    assert reply.content.startswith(CONFIRMED) and await scene.version() == before + 1


async def test_an_interaction_discord_no_longer_takes_runs_nothing(
    scene: Scene, caplog: pytest.LogCaptureFixture
) -> None:
    """A move whose acknowledgement Discord refuses (10062: too late) is not played: nobody would be
    told of it. The store is not even asked."""
    player, value = await scene.a_move()
    before, calls = await scene.version(), scene.gated.calls
    scene.fake.response_deadline = -1.0  # every first answer comes too late
    with pytest.raises(InteractionTimeout):
        await scene.fake.slash(player, scene.chan, "play", action=value)
    assert await scene.version() == before and scene.gated.calls == calls
    assert any("nothing done" in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info]


async def test_choices_that_come_too_late_are_one_warning_in_the_log(
    scene: Scene, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord refuses a keystroke's choices after its 3 seconds (10062); the player typed on. Each
    such keystroke once logged an error with discord.py's traceback; it is now one warning naming
    the command, and the next keystroke in time is answered as before."""
    player, _value = await scene.a_move()
    scene.fake.response_deadline = -1.0  # every first answer comes too late
    with pytest.raises(InteractionTimeout, match="10062"):
        await scene.fake.autocomplete(player, scene.chan, "play", focused="action", action="")
    for _ in range(int(HANG_LIMIT / 0.01)):  # the refusal reaches the test before the bot logs it
        if any(r.levelno >= logging.WARNING for r in caplog.records):
            break
        await asyncio.sleep(0.01)
    scene.fake.response_deadline = HANG_LIMIT
    assert await scene.fake.autocomplete(player, scene.chan, "play", focused="action", action="")
    (told,) = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert told.levelname == "WARNING"
    assert re.fullmatch(
        r"choices for /play came (late|[\d.]+ s after the keystroke), and Discord refused them \(10062\)",
        told.getMessage(),
    )
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]


async def test_a_move_whose_answer_failed_is_confirmed_with_the_players_next_answer(scene: Scene) -> None:
    """The move is acknowledged and stored, but its confirmation cannot be delivered (the token
    expired): the player's next command brings it, privately, once."""
    player, value = await scene.a_move()
    before = await scene.version()
    scene.fake.expire_tokens(scene.chan.id)
    with pytest.raises(InteractionTimeout):  # "thinking..." never filled in
        await scene.fake.slash(player, scene.chan, "play", action=value)
    assert await scene.version() == before + 1, "the move is stored"
    scene.fake.expire_tokens(scene.chan.id, expired=False)
    later = await scene.fake.slash(player, scene.chan, "hand")
    notes = [m for m in later.messages if "went through" in m.content]
    assert len(notes) == 1 and notes[0].ephemeral
    assert f"<#{scene.chan.id}>" in notes[0].content and CONFIRMED[0] in notes[0].content
    again = await scene.fake.slash(player, scene.chan, "hand")
    assert not any("went through" in m.content for m in again.messages), "told once"


async def test_autocomplete_answers_while_a_moves_drawing_is_held(scene: Scene) -> None:
    """A move's board is held in the only drawing worker, and the store's own connections are taken
    (its writer and its reader): the next player's autocomplete still answers, from the quick read
    path, with the position after the move."""
    player, value = await scene.a_move()
    scene.board.hold()
    await scene.fake.slash(player, scene.chan, "play", action=value)
    await scene.board.holding()
    store = scene.store
    assert isinstance(store, db.SqliteStore)
    async with store._lock, store._read_lock:
        other = scene.bob if player is scene.alice else scene.alice
        choices = await scene.fake.autocomplete(other, scene.chan, "play", focused="action", action="")
        version = (await store.reads.open_game(scene.chan.id)).version  # type: ignore[union-attr]
    assert choices and all(str(v).startswith(f"v{version}:") for _name, v in choices)
    scene.board.release()
    await asyncio.wait_for(scene.commands.announcer.drain(), HANG_LIMIT)


async def test_a_refusal_that_cannot_be_delivered_any_more_logs_no_traceback(
    scene: Scene, caplog: pytest.LogCaptureFixture
) -> None:
    """A refused move whose token expired before the refusal went out: nothing changed, nothing to
    keep, and the log says so without a traceback."""
    player, _value = await scene.a_move()
    before = await scene.version()
    scene.fake.expire_tokens(scene.chan.id)
    with pytest.raises(InteractionTimeout):
        await scene.fake.slash(player, scene.chan, "play", action="fly to the moon")
    assert await scene.version() == before
    assert any("could no longer be answered" in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info]
