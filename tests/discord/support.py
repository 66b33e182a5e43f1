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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from PIL import Image

import db
from bot import build_bot
from cogs.markup import discord_text
from launch import DISCORD_LIMITS, Settings
from table.core.tables import Tables
from table.play.commands import Commands, Ctx, Post
from table.posting.announce import RecordingOutlet
from tests.fakediscord.model import FakeChannel, FakeUser, InteractionResult, SentMessage
from tests.fakediscord.server import FakeDiscord

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
CONFIRMED = ("Done.", "C'est fait.")
"""How a player's private confirmation of an accepted move begins, in English and French."""
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
    _store: db.Store | None = field(default=None, repr=False)
    """The test's own store on the bot's database, for ``record``: opened at the first read."""

    async def start(self) -> None:
        await self.fake.start_bot(build_bot(self.settings))

    async def restart(self) -> None:
        """Stop the bot and start a new one on the same database, as a redeploy would."""
        await self.fake.stop_bot()
        await self.start()

    async def record(self, channel_id: str) -> db.GameRecord:
        """The channel's latest game as stored, read through a store of the test's own. It stays open
        until the test ends: a store opened for each read (hundreds in a whole game) would also clear
        the bot's claims each time, as a SQLite store does at opening."""
        if self._store is None:
            self._store = await db.open_store(self.settings.database)
        record = await self._store.latest_game(channel_id)
        assert record is not None
        return record

    async def notes(self, channel_id: str) -> list[db.Note]:
        """The notes of the channel's latest game, as stored (read like ``record``)."""
        record = await self.record(channel_id)
        assert self._store is not None
        return await self._store.notes(record.id)

    async def close(self) -> None:
        if self._store is not None:
            await self._store.close()
            self._store = None


@asynccontextmanager
async def fake_discord(tmp_path: Path, database: str | Path | None = None) -> AsyncIterator[Bot]:
    """A fake Discord whose bot (not yet started) keeps its games in ``tmp_path``, or in ``database``
    (a SQLite file, or a PostgreSQL URL the bot reads from ``DATABASE_URL`` as in production).

    On the way out, every request the bot made must have been known to the fake and accepted.
    """
    env = {"DATABASE_PATH": str(tmp_path / "bot.sqlite3")}
    if isinstance(database, str):
        env["DATABASE_URL"] = database
    elif database is not None:
        env["DATABASE_PATH"] = str(database)
    # Edits are not folded here: each move's board must be in the channel before the next move.
    # No warm-up: the drawing workers (shared by the tests of one process, and kept from one test's
    # event loop to the next) draw what the test asks for, not throwaway boards of every game.
    # Nor is Discord's rate of posts per channel kept or enforced: these tests play whole games of a
    # hundred moves and more in one channel, each move waiting for its board (tests/discord/test_rates.py).
    settings = replace(Settings.from_env(env), coalesce_seconds=0, warm_up=False, channel_rate=None)
    async with FakeDiscord(message_rate=None) as fake:
        bot = Bot(fake, settings)
        try:
            yield bot
        finally:
            await bot.close()
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


# ---- what replies and channel posts must look like ------------------------------------------------------


@dataclass
class Played:
    """A command whose public consequence the announcer posts in the channel (a move, the start, an
    ending): the player's private reply, the channel messages the bot posted meanwhile, and the
    channel's current handover post (new, or edited in place) once the command is done."""

    reply: InteractionResult
    new_posts: list[SentMessage]
    board: SentMessage
    edits_before: int

    @property
    def handed_over(self) -> bool:
        """A new post was made (the players to act changed, or the game ended)."""
        return any(m.files for m in self.new_posts)

    @property
    def edited(self) -> bool:
        return not self.handed_over and self.board.edits > self.edits_before

    @property
    def content(self) -> str:
        return self.board.content

    @property
    def contents(self) -> list[str]:
        return [m.content for m in self.new_posts] or [self.board.content]

    @property
    def files(self) -> list[tuple[str, bytes]]:
        return self.board.files

    @property
    def pinged_ids(self) -> list[str]:
        return [p for m in self.new_posts for p in m.pinged_ids]


Reply = InteractionResult | Played


def public(result: Reply) -> list[SentMessage]:
    """The messages everyone in the channel sees: of an interaction, or the channel's post."""
    if isinstance(result, Played):
        return result.new_posts or [result.board]
    return [m for m in result.messages if not m.ephemeral and not m.deleted]


def pinged(result: Reply) -> list[str]:
    """Who the reply pings: a move's new channel posts (nobody when the board was edited in place),
    or an interaction's first public message."""
    if isinstance(result, Played):
        return result.pinged_ids
    posts = public(result)
    return posts[0].pinged_ids if posts else []


def board_image(result: Reply | SentMessage, *, drawn: bool = True) -> Image.Image | None:
    """The board of a public post: a decodable PNG when the game is ``drawn``, else no file at all."""
    if isinstance(result, SentMessage):
        post = result
    else:
        posts = public(result)
        assert posts, f"no public message: {result.contents}"
        post = posts[0] if not isinstance(result, Played) else result.board
    files = post.files
    if not drawn:
        assert not files
        return None
    assert files and files[0][0].endswith(".png"), f"no PNG on {post.content!r}"
    data = files[0][1]
    assert data.startswith(PNG_MAGIC)
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG" and image.width >= 300 and image.height >= 300
    return image


def current_board(fake: FakeDiscord, chan: FakeChannel) -> SentMessage:
    """The channel's handover post: the bot's latest message with a board image."""
    boards = [
        m
        for m in fake.messages_in(chan)
        if m.files and m.author.id == fake.bot_user.id and m.interaction_id is None
    ]
    assert boards, "no board was posted in the channel"
    return boards[-1]


async def announced(room: Room, user: FakeUser, command: str, **options: Any) -> Played:
    """Run ``command`` (whose public part the announcer posts) and collect what the channel shows."""
    fake, chan = room.fake, room.chan
    before = len(fake.messages_in(chan))
    boards = [m for m in fake.messages_in(chan) if m.files and m.author.id == fake.bot_user.id]
    board_before = next((m for m in reversed(boards) if m.interaction_id is None), None)
    edits_before = board_before.edits if board_before is not None else 0
    reply = await fake.slash(user, chan, command, **options)
    new_posts = [m for m in fake.messages_in(chan)[before:] if m.author.id == fake.bot_user.id]
    new_posts = [m for m in new_posts if m.interaction_id is None]
    board = current_board(fake, chan)
    if board is not board_before:
        edits_before = 0
    return Played(reply, new_posts, board, edits_before)


def refused(result: InteractionResult) -> str:
    """The text of an ephemeral refusal (no image), failing if the request was accepted."""
    assert result.ephemeral and result.content, f"not refused: {result.contents}"
    assert not result.files
    return result.content


# ---- playing through slash commands ------------------------------------------------------------------------


async def narrowed(ask: Complete, typed: str, who: str) -> list[tuple[str, Any]]:
    """The move choices ``ask`` offers for ``typed``. Where the moves are too many and come in groups
    (``deploy inf1 …``), the player types on into one of them, the same for the same text, until moves
    are offered: the moves found on the way are the answer."""
    choices = await ask(typed)
    moves = [c for c in choices if not str(c[1]).endswith("…")]
    groups = [str(value) for _name, value in choices if str(value).endswith("…")]
    if groups:
        moves += await narrowed(ask, random.Random(f"{who}:{typed}").choice(groups), who)
    return moves


def completer(room: Room, user: FakeUser) -> Complete:
    """``user``'s autocomplete of /play's action, each answer checked against Discord's limits, typed on
    into a group of moves where they are too many (``narrowed``)."""

    async def ask(typed: str) -> list[tuple[str, Any]]:
        choices = await room.fake.autocomplete(user, room.chan, "play", focused="action", action=typed)
        assert len(choices) <= 25
        assert all(1 <= len(name) <= 100 and 1 <= len(value) <= 100 for name, value in choices)
        return choices

    return lambda typed: narrowed(ask, typed, user.id)


async def choose_favourite(room: Room, user: FakeUser, favourites: Sequence[str], rng: random.Random) -> str:
    """A move for ``user`` among the completions of the first of ``favourites`` the bot completes."""
    complete = completer(room, user)
    for typed in favourites:
        choices = await complete(typed)
        if choices:
            return str(rng.choice(choices)[1])
    raise AssertionError(f"{user.name} is asked to act but is offered no move")


async def to_act_now(room: Room, game: Any) -> list[str]:
    """Who the stored game waits for (nobody once it is over)."""
    record = await room.record()
    if record.status != "active":
        return []
    return list(game.to_act(game.load(record.state or {})))


async def check_handover(room: Room, played: Played, before: Sequence[str], game: Any) -> list[str]:
    """After a move: a new post pinging exactly the players now to act when they changed, else the
    same post edited in place and nobody pinged. Returns who acts now."""
    now = await to_act_now(room, game)
    if (await room.record()).status != "active":
        assert played.handed_over, "the end of the game is a new post"
    elif set(now) != set(before):
        assert played.handed_over, f"the turn passed from {before} to {now} without a new post"
        assert sorted(played.pinged_ids) == sorted(now), f"pinged {played.pinged_ids}, to act {now}"
        assert all(f"<@{p}>" in played.board.content for p in now)
    else:
        assert not played.handed_over and played.edited, "the same players act: the board is edited in place"
        assert played.pinged_ids == [], "no ping while the same players keep acting"
    return now


def channel_figures(fake: FakeDiscord, chan: FakeChannel) -> dict[str, int]:
    """New bot messages, in-place edits and pings in the channel, for the measurements printed."""
    mine = [m for m in fake.messages_in(chan) if m.author.id == fake.bot_user.id]
    return {
        "messages": len(mine),
        "images": sum(1 for m in mine if m.files),
        "edits": sum(m.edits for m in mine),
        "pings": sum(len(m.pinged_ids) for m in mine),
    }


async def play(room: Room, actor: FakeUser, value: str, *, drawn: bool = True) -> Played:
    """``actor`` plays ``value``: accepted with a private confirmation, and the channel shows the
    new board, in a new post when the turn passed (pinging whoever acts next), else in place."""
    played = await announced(room, actor, "play", action=value)
    reply = played.reply
    assert reply.ephemeral and reply.content.startswith(CONFIRMED), (
        f"{actor.name} played {value!r}: {reply.contents}"
    )
    assert played.handed_over or played.edited, f"after {value!r} the channel shows nothing new"
    assert len([m for m in played.new_posts if m.files]) <= 1, "one post per handover"
    board_image(played.board, drawn=drawn)
    return played


async def start(room: Room, user: FakeUser, *, drawn: bool = True) -> Played:
    """``user`` starts the game: a private acknowledgement, and the first handover post in the channel."""
    played = await announced(room, user, "game start")
    assert played.reply.ephemeral, played.reply.contents
    assert played.handed_over, "the start is announced in the channel"
    board_image(played.board, drawn=drawn)
    return played


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
    """The user ids a post's text mentions (``<@id>`` once written for Discord), in order."""
    return re.findall(r"<@(\w+)>", discord_text(post.text))


def tiny_png(view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
    """A stand-in renderer: a 4x4 PNG, whatever the view."""
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), "green").save(buf, format="PNG")
    return buf.getvalue()


async def started(commands: Commands, ctx: Ctx) -> Post:
    """Start the game through the table's commands; the channel's first post (its handover)."""
    (ack,) = await commands.start(ctx)
    assert ack.ephemeral, ack.text
    await commands.announcer.drain()
    outlet = commands.announcer.outlet
    assert isinstance(outlet, RecordingOutlet) and outlet.sent
    return outlet.sent[-1][1]


async def public_move(commands: Commands, ctx: Ctx, value: str) -> Post:
    """Play ``value`` through the table's commands; the channel's post afterwards: the new handover
    post when the turn passed (its ``mentions`` ping), else the turn's post as edited in place."""
    (ack,) = await commands.play(ctx, value)
    assert ack.ephemeral, ack.text
    await commands.announcer.drain()
    outlet = commands.announcer.outlet
    assert isinstance(outlet, RecordingOutlet) and outlet.sent and outlet.edits is not None
    index = len(outlet.sent)
    edits = [post for _where, message, post in outlet.edits if message == f"m{index}"]
    return edits[-1] if edits else outlet.sent[-1][1]


@asynccontextmanager
async def stand_in_commands(database: Path) -> AsyncIterator[Commands]:
    """The table's commands over a store in ``database`` and the stand-in renderer."""
    store = await db.open_store(database)
    commands = Commands(Tables(store, limits=DISCORD_LIMITS, render=tiny_png, render_private=tiny_png))
    try:
        yield commands
    finally:
        await commands.announcer.drain()
        await store.close()
