"""What the games' end-to-end tests share: the bot on a fake Discord, players who pick their moves among
the bot's own autocomplete answers, and the checks every move's reply must pass.

Everything below the Discord API is real in these tests: the bot built by ``bot.build_bot``, the cogs,
the table layer, the SQLite store, the engines and (except where a test says otherwise) the renderer.
The table-level tests of the same games use ``stand_in_commands``: the real table layer over a
renderer that returns a tiny PNG, so that hundreds of moves stay fast.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

import db
from bot import Settings, build_bot
from table.commands import Commands, Post
from table.tables import Tables
from tests.fakediscord.model import FakeChannel, FakeUser, InteractionResult, SentMessage
from tests.fakediscord.server import FakeDiscord

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_VERSION = re.compile(r"^v\d+:")

WARCHEST_FAVOURITES = ("control", "attack", "deploy", "move", "")
"""War Chest words a player types in turn, playing among the first that the bot completes: games end in
about 100-150 moves, against several hundred for uniformly random play."""

Complete = Callable[[str], Awaitable[Sequence[tuple[str, Any]]]]
"""What a player types -> the (label, value) choices offered for it."""


# ---- the bot on a fake Discord ---------------------------------------------------------------------------


@dataclass
class Bot:
    """A fake Discord and the settings (hence the database file) the bot runs with."""

    fake: FakeDiscord
    settings: Settings

    async def start(self) -> None:
        await self.fake.start_bot(build_bot(self.settings))

    async def restart(self) -> None:
        """Stop the bot and start a new one on the same database, as a redeploy would."""
        await self.fake.stop_bot()
        await self.start()

    async def record(self, channel_id: str) -> db.GameRecord:
        """The channel's latest game as stored, read through a store of its own."""
        store = await db.open_store(self.settings.database_path)
        try:
            record = await store.latest_game(channel_id)
        finally:
            await store.close()
        assert record is not None
        return record


@asynccontextmanager
async def fake_discord(tmp_path: Path) -> AsyncIterator[Bot]:
    """A fake Discord whose bot (not yet started) keeps its games in ``tmp_path``.

    On the way out, every request the bot made must have been known to the fake and accepted.
    """
    settings = Settings(database_path=tmp_path / "bot.sqlite3")
    async with FakeDiscord() as fake:
        yield Bot(fake, settings)
        assert fake.unknown_requests == []
        assert fake.rejections == []


@dataclass
class Room:
    """One channel of the fake Discord and the users who play in it, by id."""

    bot: Bot
    chan: FakeChannel
    users: dict[str, FakeUser]

    @property
    def fake(self) -> FakeDiscord:
        return self.bot.fake

    @property
    def by_name(self) -> dict[str, FakeUser]:
        return {u.name: u for u in self.users.values()}

    async def record(self) -> db.GameRecord:
        return await self.bot.record(self.chan.id)


def open_room(bot: Bot, guild: tuple[str, str], channel: str, *people: tuple[str, str]) -> Room:
    """A guild ``(name, locale)`` with one channel and users ``(name, locale)``, in that order."""
    fake = bot.fake
    chan = fake.add_channel(fake.add_guild(guild[0], locale=guild[1]), channel)
    users = [fake.add_user(name, locale=locale) for name, locale in people]
    return Room(bot, chan, {u.id: u for u in users})


# ---- what replies must look like ---------------------------------------------------------------------------


def public(result: InteractionResult) -> list[SentMessage]:
    """The messages of an interaction everyone in the channel sees."""
    return [m for m in result.messages if not m.ephemeral and not m.deleted]


def pinged(result: InteractionResult) -> list[str]:
    """Who the first public message pings (nobody when there is none)."""
    posts = public(result)
    return posts[0].pinged_ids if posts else []


def board_image(result: InteractionResult, *, drawn: bool = True) -> Image.Image | None:
    """The board of a public post: a decodable PNG when the game is ``drawn``, else no file at all."""
    posts = public(result)
    assert posts, f"no public message: {result.contents}"
    files = posts[0].files
    if not drawn:
        assert not files
        return None
    assert files and files[0][0].endswith(".png"), f"no PNG on {posts[0].content!r}"
    data = files[0][1]
    assert data.startswith(PNG_MAGIC)
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG" and image.width >= 300 and image.height >= 300
    return image


def refused(result: InteractionResult) -> str:
    """The text of an ephemeral refusal (no image), failing if the request was accepted."""
    assert result.ephemeral and result.content, f"not refused: {result.contents}"
    assert not result.files
    return result.content


# ---- playing through slash commands ------------------------------------------------------------------------


def completer(room: Room, user: FakeUser) -> Complete:
    """``user``'s autocomplete of /play's action, each answer checked against Discord's limits."""

    async def complete(typed: str) -> list[tuple[str, Any]]:
        choices = await room.fake.autocomplete(user, room.chan, "play", focused="action", action=typed)
        assert len(choices) <= 25
        assert all(1 <= len(name) <= 100 and 1 <= len(value) <= 100 for name, value in choices)
        return choices

    return complete


async def choose_favourite(room: Room, user: FakeUser, favourites: Sequence[str], rng: random.Random) -> str:
    """A move for ``user`` among the completions of the first of ``favourites`` the bot completes."""
    complete = completer(room, user)
    for typed in favourites:
        choices = await complete(typed)
        if choices:
            return str(rng.choice(choices)[1])
    raise AssertionError(f"{user.name} is asked to act but is offered no move")


async def play(room: Room, actor: FakeUser, value: str, *, drawn: bool = True) -> InteractionResult:
    """``actor`` plays ``value``: the move must be accepted publicly, with the board."""
    r = await room.fake.slash(actor, room.chan, "play", action=value)
    assert not r.ephemeral, f"{actor.name} played {value!r} and got {r.contents}"
    board_image(r, drawn=drawn)
    return r


async def refused_plays(room: Room, *attempts: tuple[FakeUser, str]) -> None:
    """Each ``(user, action)`` /play is refused privately and the game's version does not move."""
    before = (await room.record()).version
    for user, action in attempts:
        refused(await room.fake.slash(user, room.chan, "play", action=action))
    assert (await room.record()).version == before, "a refused action changed the game"


async def restart_keeps_the_game(room: Room, viewer: FakeUser, *, drawn: bool = True) -> None:
    """A new bot on the same database shows the board of the same game version."""
    before = (await room.record()).version
    await room.bot.restart()
    board_image(await room.fake.slash(viewer, room.chan, "game board"), drawn=drawn)
    assert (await room.record()).version == before


# ---- the table's commands with a stand-in renderer ---------------------------------------------------------


def action_text(value: str) -> str:
    """An autocomplete value without its version pin: ``"v12:attack d5 2"`` -> ``"attack d5 2"``."""
    return _VERSION.sub("", value)


def mentioned(post: Post) -> list[str]:
    """The user ids a post's text mentions (``<@id>``), in order."""
    return re.findall(r"<@(\w+)>", post.text)


def tiny_png(view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
    """A stand-in renderer: a 4x4 PNG, whatever the view."""
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), "green").save(buf, format="PNG")
    return buf.getvalue()


@asynccontextmanager
async def stand_in_commands(database: Path) -> AsyncIterator[Commands]:
    """The table's commands over a store in ``database`` and the stand-in renderer."""
    store = await db.open_store(database)
    try:
        yield Commands(Tables(store, render=tiny_png, render_private=tiny_png))
    finally:
        await store.close()
