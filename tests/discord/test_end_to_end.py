"""A whole War Chest game played by two users through slash commands on a fake Discord.

Everything below the Discord API is real: the bot built by ``bot.build_bot``, the
cogs, the table layer, the SQLite store, the engine and the renderer. Moves are
chosen among the bot's own autocomplete answers, so legality comes from the bot;
the choice is biased towards moves that end a game (control, attack) and the
table's ``seed=`` option fixes the deal, so the game is the same on every run
(about 110 moves, 20-30 s). Midway the bot is stopped and a new one started on the same
database file: the game must go on where it was.
"""

from __future__ import annotations

import asyncio
import io
import random
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from bot import Settings, build_bot
from db import GameRecord, open_store
from tests.fakediscord.model import FakeChannel, FakeUser, InteractionResult
from tests.fakediscord.server import FakeDiscord

MOVE_CAP = 1000
RESTART_AT = 12
# Typed words tried in order; a move is picked among the first that the bot completes
# (about 150 moves a game, against several hundred for uniformly random play).
FAVOURITES = ("control", "attack", "deploy", "move", "")


@dataclass
class Game:
    fake: FakeDiscord
    chan: FakeChannel
    users: dict[str, FakeUser]
    settings: Settings
    database: Path

    async def record(self) -> GameRecord:
        store = await open_store(self.database)
        try:
            record = await store.latest_game(self.chan.id)
        finally:
            await store.close()
        assert record is not None
        return record

    async def restart_bot(self) -> None:
        await self.fake.stop_bot()
        await self.fake.start_bot(build_bot(self.settings))


@pytest.fixture
async def game(tmp_path: Path) -> AsyncIterator[Game]:
    database = tmp_path / "bot.sqlite3"
    settings = Settings(database_path=database)
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Les Joueurs", locale="fr")
        chan = fake.add_channel(guild, "champ-d-honneur")
        alice = fake.add_user("alice", locale="fr")
        bob = fake.add_user("bob", locale="en-GB")
        await fake.start_bot(build_bot(settings))
        yield Game(fake, chan, {alice.id: alice, bob.id: bob}, settings, database)
        assert fake.unknown_requests == []
        assert fake.rejections == []


def board_png(result: InteractionResult) -> Image.Image:
    """The board image of a public post: present, a PNG, and decodable."""
    public = [m for m in result.messages if not m.ephemeral and not m.deleted]
    assert public, f"no public message: {result.contents}"
    files = public[0].files
    assert files and files[0][0].endswith(".png"), f"no PNG on {public[0].content!r}"
    data = files[0][1]
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.width >= 300 and image.height >= 300
    return image


def pinged(result: InteractionResult) -> list[str]:
    public = [m for m in result.messages if not m.ephemeral and not m.deleted]
    return public[0].pinged_ids if public else []


async def choose(game: Game, user: FakeUser, rng: random.Random) -> str | None:
    """A legal move for ``user`` picked from the bot's autocomplete, or None if it offers none."""
    for typed in FAVOURITES:
        choices = await game.fake.autocomplete(user, game.chan, "play", focused="action", action=typed)
        assert len(choices) <= 25
        assert all(1 <= len(name) <= 100 and 1 <= len(value) <= 100 for name, value in choices)
        if choices:
            return str(rng.choice(choices)[1])
    return None


async def test_a_whole_game_through_slash_commands(game: Game) -> None:
    started = time.monotonic()
    rng = random.Random(20261130)
    fake, chan = game.fake, game.chan
    alice, bob = game.users.values()

    r = await fake.slash(alice, chan, "game new", game="warchest", options="armies=random seed=2")
    assert not r.ephemeral and r.content
    r = await fake.slash(bob, chan, "game join")
    assert not r.ephemeral
    r = await fake.slash(alice, chan, "game start")
    assert not r.ephemeral
    board_png(r)
    to_act = [u for u in pinged(r) if u in game.users]
    assert len(to_act) == 1

    r = await fake.slash(alice, chan, "hand")
    assert r.ephemeral and all(m.ephemeral for m in r.messages if not m.deleted)
    assert any(name.endswith(".png") for name, _ in r.files)

    record = await game.record()
    assert record.status == "active"
    moves = 0
    checked_refusals = restarted = False
    while moves < MOVE_CAP:
        actor = game.users[to_act[0]]
        other = next(u for u in game.users.values() if u is not actor)
        action = await choose(game, actor, rng)
        assert action is not None, f"{actor.name} is asked to act but is offered no move"

        if not checked_refusals and moves >= 3:
            checked_refusals = True
            version = (await game.record()).version
            wrong_turn = await fake.slash(other, chan, "play", action=action)
            assert wrong_turn.ephemeral and wrong_turn.content and not wrong_turn.files
            nonsense = await fake.slash(actor, chan, "play", action="juggle three torches")
            assert nonsense.ephemeral and nonsense.content and not nonsense.files
            assert (await game.record()).version == version, "a refused action changed the game"

        if not restarted and moves == RESTART_AT:
            restarted = True
            before = await game.record()
            await game.restart_bot()
            r = await fake.slash(other, chan, "game board")
            board_png(r)
            assert (await game.record()).version == before.version
            # The version-pinned choice made before the restart is still the current one.

        r = await fake.slash(actor, chan, "play", action=action)
        assert not r.ephemeral, f"{actor.name} played {action!r} and got {r.contents}"
        board_png(r)
        moves += 1
        record = await game.record()
        if record.status == "over":
            break
        to_act = [u for u in pinged(r) if u in game.users]
        assert len(to_act) == 1, f"after {action!r}: pinged {pinged(r)} in {r.content!r}"

    assert restarted and checked_refusals
    assert record.status == "over", f"no end after {moves} moves"
    assert record.result is not None
    winners = set(record.result.get("winners", []))
    assert record.result.get("draw") or winners <= set(game.users)
    late = await fake.slash(alice, chan, "play", action="pass royal")
    assert late.ephemeral
    elapsed = time.monotonic() - started
    print(f"whole game: {moves} moves in {elapsed:.1f} s; last post: {r.contents}")
    assert elapsed < 120, f"{moves} moves took {elapsed:.0f} s"


async def test_a_game_in_its_own_thread_and_a_double_click(game: Game) -> None:
    fake, chan = game.fake, game.chan
    alice, bob = game.users.values()
    r = await fake.slash(alice, chan, "game new", game="warchest", options="seed=5", thread=True)
    assert not r.ephemeral
    thread_id = next(c for c in fake.channels if fake.channels[c].is_thread)
    thread = fake.channels[thread_id]
    assert f"<#{thread.id}>" in r.content
    assert fake.messages_in(thread), "the lobby announcement goes into the thread"
    refused = await fake.slash(bob, chan, "game join")
    assert refused.ephemeral, "the parent channel has no game of its own"
    await fake.slash(bob, thread, "game join")
    r = await fake.slash(bob, thread, "game start")
    board_png(r)
    actor = game.users[pinged(r)[0]]
    choices = await fake.autocomplete(actor, thread, "play", focused="action", action="")
    assert choices
    action = str(choices[0][1])
    first, second = await asyncio.gather(
        fake.slash(actor, thread, "play", action=action),
        fake.slash(actor, thread, "play", action=action),
    )
    outcomes = sorted([first.ephemeral, second.ephemeral])
    assert outcomes == [False, True], "the same version-pinned move must be applied exactly once"
    winner = first if not first.ephemeral else second
    board_png(winner)
    store = await open_store(game.database)
    try:
        record = await store.latest_game(thread.id)
        assert record is not None and record.version == 1
        assert await store.latest_game(chan.id) is None
    finally:
        await store.close()
