"""How the slash commands, buttons and menus are answered.

Thin adapters only: every slash command (made from the command tree by ``cogs.slash``) reaches
``GameCog.command``, which builds a ``Ctx`` from the interaction, calls the tree entry's handler of the
front-end-neutral ``table.play.commands.Commands`` (or of the leagues) and hands the returned posts to
a ``Responder``. No rule lives here. Every command answers within Discord's 3-second window: it is
acknowledged (deferred) before any work starts (see ``GameCog._answer``). The few commands that need
Discord's own glue (a thread, an attached file) are answered by ``cogs.glue``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.channels import bot_may
from cogs.replies import (
    GONE,
    PostLike,
    Responder,
    Undelivered,
    allowed_mentions,
    responder_for,
    split_text,
)
from cogs.translator import label
from cogs.tree import error_text
from engine import GameError, registry
from launch import DISCORD_LIMITS
from table.bots.players import LEVELS
from table.play.command_tree import CHANNEL, DISCORD, PLAYER, PRIVATE, QUIET, Command, Option
from table.play.commands import Ctx
from table.posting.outlet import OutletError

if TYPE_CHECKING:
    from table.leagues.service import Leagues
    from table.play.commands import Commands, Post
    from table.posting.announce import Announcer

log = logging.getLogger(__name__)

THREAD_NAME_LIMIT = 100
MAP_FILE_LIMIT = 4096
"""Bytes a map file may have: a 16 x 16 Batailles map takes under 2 KB even with every zone full."""
MAP_OPTION = "custom_map"


def game_choices() -> list[app_commands.Choice[str]]:
    """One choice per registered game (``engine.registry``), shown under its (localised) display name."""
    return [
        app_commands.Choice(name=label(f"cmd.choice.game.{g}", fallback=g), value=g) for g in registry.names()
    ]


def level_choices() -> list[app_commands.Choice[str]]:
    """The computer players' levels, each with what it means."""
    return [app_commands.Choice(name=label(f"cmd.choice.level.{lv}", fallback=lv), value=lv) for lv in LEVELS]


def game_display_name(game: str, locale: str) -> str:
    key = f"cmd.choice.game.{game}"
    text = i18n.t(key, locale)
    return game if text == key else text


async def with_map_file(options: str, map_file: discord.Attachment | None) -> str:
    """The options text with an attached map added as the ``custom_map`` option.

    A 16 x 16 map does not fit the 200 characters of ``options``, so it may come as a text file;
    its lines go down as they are (the options parser keeps a free-text value's line breaks)
    and the game reads and checks the map like a typed one.
    """
    if map_file is None:
        return options
    if map_file.size > MAP_FILE_LIMIT:
        raise GameError("cmd.reply.map_file_too_big", file=map_file.filename, most=MAP_FILE_LIMIT)
    try:
        data = await map_file.read()
    except discord.HTTPException as exc:
        log.warning("map file %s could not be downloaded: %s", map_file.filename, exc)
        raise GameError("cmd.reply.map_file_unreadable", file=map_file.filename) from exc
    try:
        text = data.decode("utf-8-sig").strip()
    except UnicodeDecodeError:
        raise GameError("cmd.reply.map_file_not_text", file=map_file.filename) from None
    if not text:
        raise GameError("cmd.reply.map_file_empty", file=map_file.filename)
    return f"{options} {MAP_OPTION}={text}".strip()


def as_choices(pairs: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """(name, value) pairs as autocomplete choices, within Discord's limits."""
    return [
        app_commands.Choice(name=name[: DISCORD_LIMITS.choice], value=value[: DISCORD_LIMITS.choice])
        for name, value in pairs[: DISCORD_LIMITS.choices]
    ]


def discord_value(option: Option, value: object) -> object:
    """An option's value as the handler takes it: a picked player or channel is its id."""
    if value is not None and option.picks in (PLAYER, CHANNEL):
        return str(getattr(value, "id", value))
    return value


def make_ctx(interaction: discord.Interaction) -> Ctx:
    """The table layer's view of who acts where, in which languages.

    ``channel_id`` is the thread's id inside a thread, so a thread holds its own game.
    Public posts use the server's preferred language, replies to one user theirs.
    """
    locale = str(interaction.locale)
    guild_locale = interaction.guild_locale
    perms = interaction.permissions
    return Ctx(
        channel_id=str(interaction.channel_id),
        user_id=str(interaction.user.id),
        user_name=interaction.user.display_name,
        locale=locale,
        channel_locale=str(guild_locale) if guild_locale is not None else locale,
        guild_id=None if interaction.guild_id is None else str(interaction.guild_id),
        moderator=bool(perms.manage_channels or perms.manage_guild),
        admin=bool(perms.manage_guild),
    )


class GameCog(commands.Cog):
    """Every slash command of the bot, over one ``Commands`` instance."""

    def __init__(
        self, table: Commands, announcer: Announcer | None = None, leagues: Leagues | None = None
    ) -> None:
        self.table = table
        self.announcer = announcer
        self.leagues = leagues
        self._undelivered = Undelivered()

    async def _acknowledged(self, interaction: discord.Interaction, *, ephemeral: bool | None) -> bool:
        """Acknowledge the interaction now, before any store or engine work: Discord's 3 seconds run
        from the moment it was sent, and a move queued behind a table lock, the store's writer or a
        drawing would otherwise miss them. ``ephemeral`` None: a button or menu, whose message stays
        while the answer follows. False when Discord no longer takes the interaction (too late, or
        answered elsewhere): then nothing runs, since nobody would hear of it."""
        try:
            if ephemeral is not None:
                await responder_for(interaction).defer(ephemeral=ephemeral)
            elif not interaction.response.is_done():
                await interaction.response.defer()
        except discord.HTTPException as exc:
            if exc.code not in GONE:
                raise
            log.warning("interaction %s could not be acknowledged (%s): nothing done", interaction.id, exc)
            return False
        return True

    async def _answer(
        self,
        interaction: discord.Interaction,
        call: Callable[[Ctx], Awaitable[list[Post]]],
        *,
        private: bool = False,
        quiet: bool = False,
    ) -> None:
        """Acknowledge the interaction, then run ``call`` for it and send its posts.

        The acknowledgement (a deferral) goes out first, whatever the command, so that it never
        waits behind a table lock, the store or a drawing. Discord fixes the visibility of the
        first message at deferral time: ``private`` commands (everything they show is for the
        caller alone) and ``quiet`` ones (a move, whose public part is posted in the channel by the
        announcer) defer privately; the others publicly, and a refusal then replaces the public
        "thinking..." with a private answer (``Responder``). A reply that cannot be delivered any
        more is given to the player with their next answer (``_undelivered``).
        """
        if not await self._acknowledged(interaction, ephemeral=private or quiet):
            return
        responder = responder_for(interaction)
        ctx = make_ctx(interaction)
        await self.table.bot_may(ctx, bot_may(interaction))
        posts = await call(ctx)
        try:
            await responder.send_posts(posts)
        except discord.HTTPException as exc:
            await self._fall_back(ctx, posts[responder.posted :], exc)
        else:
            await self._deliver_undelivered(responder, ctx)
            await self._tell_notices(responder, ctx)
        if self.announcer is not None:
            # The command's public consequence (a handover post, the board edited in place) goes
            # to the channel; the handler ends once it is there.
            await self.announcer.drain(ctx.channel_id)

    async def _fall_back(self, ctx: Ctx, unsent: list[Post], exc: discord.HTTPException) -> None:
        """The interaction could not be answered (its token expired, or Discord refused): what
        everyone was to see is posted in the channel instead, so nothing stored goes unannounced;
        what was for the player alone (a move's confirmation) is kept for their next answer."""
        outlet = self.announcer.outlet if self.announcer is not None else None
        public = [post for post in unsent if not post.ephemeral]
        private = [post.text for post in unsent if post.ephemeral and post.text]
        log.warning(
            "answering in channel %s failed (%s): %d public post(s) go to the channel, %d private"
            " one(s) wait for the player's next answer",
            ctx.channel_id,
            exc,
            len(public),
            len(private),
        )
        self._undelivered.keep(ctx.user_id, ctx.channel_id, private)
        if outlet is None:
            if public:
                raise exc
            return
        for post in public:
            try:
                await outlet.send(ctx.channel_id, post)
            except OutletError as refused:  # the channel refuses the bot too: its people are told
                log.warning("posting in channel %s instead failed too: %s", ctx.channel_id, refused)
                return

    async def _deliver_undelivered(self, responder: Responder, ctx: Ctx) -> None:
        """Give the player, privately, the answers of their earlier commands that could not be
        delivered then (a move stored while its interaction expired): they learn it went through.
        Kept for a later answer again when this one fails too."""
        waiting = self._undelivered.take(ctx.user_id)
        if not waiting:
            return
        locale = ctx.locale
        for channel, text in waiting:
            note = i18n.t("cmd.reply.undelivered", locale, channel=f"<#{channel}>", text=text)
            try:
                await responder.send_text(note, ephemeral=True)
            except discord.HTTPException:
                self._undelivered.keep(ctx.user_id, channel, [text])

    async def _tell_notices(self, responder: Responder, ctx: Ctx) -> None:
        """With the player's answer, privately, what they are still to be told: a channel that
        refuses the bot, a game closed because its channel was deleted (once each)."""
        for post in await self.table.notices(ctx):
            try:
                await responder.send_text(post.text, ephemeral=True)
            except discord.HTTPException as exc:
                log.warning("a notice for %s could not be delivered (%s): %s", ctx.user_id, exc, post.text)

    # buttons and menus --------------------------------------------------------------------------------

    async def _component(
        self, interaction: discord.Interaction, call: Callable[[Ctx], Awaitable[list[Post]]]
    ) -> None:
        """Answer a button press or a menu pick: acknowledged at once (the message stays, the answer
        follows), refusals privately, as for the slash commands."""
        if not await self._acknowledged(interaction, ephemeral=None):
            return
        responder = responder_for(interaction)
        ctx = make_ctx(interaction)
        await self.table.bot_may(ctx, bot_may(interaction))
        try:
            posts = await call(ctx)
        except GameError as err:
            await responder.send_text(error_text(err, str(interaction.locale)), ephemeral=True)
            return
        except Exception:
            log.exception("a button of interaction %s failed", interaction.id)
            await responder.send_text(error_text(RuntimeError(), str(interaction.locale)), ephemeral=True)
            return
        try:
            await responder.send_posts(posts)
        except discord.HTTPException as exc:
            await self._fall_back(ctx, posts[responder.posted :], exc)
        else:
            await self._deliver_undelivered(responder, ctx)
            await self._tell_notices(responder, ctx)
        if self.announcer is not None:
            await self.announcer.drain(ctx.channel_id)

    async def pressed(self, interaction: discord.Interaction, game: int, version: int, action: str) -> None:
        await self._component(interaction, lambda ctx: self.table.press(ctx, game, version, action))

    async def picked(self, interaction: discord.Interaction, game: int, version: int, value: str) -> None:
        await self._component(interaction, lambda ctx: self.table.pick(ctx, game, version, value))

    # the slash commands ---------------------------------------------------------------------------------

    async def command(
        self, interaction: discord.Interaction, entry: Command, values: dict[str, object]
    ) -> None:
        """Answer the slash command of the tree's ``entry`` with its handler (``cogs.slash`` made it),
        given its options' values by option name: each passed on as the handler's parameter, a picked
        player or channel as its id, and answered as the entry says (publicly, privately, or quietly
        while the announcer shows the channel)."""
        owner, name = entry.runs
        arguments = {
            option.argument: discord_value(option, values.get(option.name))
            for option in entry.options_for(DISCORD)
            if option.passed
        }
        private = entry.answer == PRIVATE and not (entry.public_with and values.get(entry.public_with))

        async def call(ctx: Ctx) -> list[Post]:
            handler: Callable[..., Awaitable[list[Post]]] = getattr(self._handlers(owner), name)
            return await handler(ctx, **arguments)

        await self._answer(interaction, call, private=private, quiet=entry.answer == QUIET)

    def _handlers(self, owner: str) -> object:
        """The object whose method runs a command: the ``Commands``, or the leagues."""
        if owner == "leagues":
            if self.leagues is None:
                raise GameError("league.error.none")
            return self.leagues
        return self.table

    async def _new_in_thread(
        self,
        interaction: discord.Interaction,
        game: str,
        players: int | None,
        options: str,
        map_file: discord.Attachment | None,
        bots: int = 0,
        level: str | None = None,
    ) -> None:
        """Open a public thread, create the lobby there, and point the channel to it.

        The thread is made first because its id is the game's channel; if the lobby
        is refused (bad options...), the fresh thread is deleted again.
        """
        responder = responder_for(interaction)
        if not await self._acknowledged(interaction, ephemeral=False):
            return
        options = await with_map_file(options, map_file)
        ctx = make_ctx(interaction)
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise GameError("cmd.reply.thread_failed")
        name = i18n.t(
            "cmd.reply.thread_name",
            ctx.channel_locale,
            game=game_display_name(game, ctx.channel_locale),
            user=ctx.user_name,
        )[:THREAD_NAME_LIMIT]
        try:
            thread = await channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,  # a week: play-by-post games are slow
            )
        except discord.HTTPException as exc:
            log.warning("thread creation refused in channel %s: %s", channel.id, exc)
            raise GameError("cmd.reply.thread_failed") from exc
        ctx = dataclasses.replace(ctx, channel_id=str(thread.id))
        try:
            posts = await self.table.new(ctx, game, players, options, bots, level)
        except GameError:
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()
            raise
        private = [p for p in posts if p.ephemeral]
        for post in posts:
            if not post.ephemeral:
                await send_to_channel(thread, post)
        opened = i18n.t("cmd.reply.thread_opened", ctx.channel_locale, thread=thread.mention)
        await responder.send_text(opened, ephemeral=False)
        for post in private:
            await responder.send_post(post)


async def send_to_channel(channel: discord.abc.Messageable, post: PostLike) -> None:
    """Post outside an interaction (into a game's new thread), split to Discord's limit."""
    mentions = allowed_mentions(post.mentions)
    for index, piece in enumerate(split_text(post.text or "")):
        image = post.image if index == 0 else None
        if not piece and image is None:
            continue
        file = discord.File(io.BytesIO(image), filename=post.filename) if image is not None else None
        if file is None:
            await channel.send(content=piece or None, allowed_mentions=mentions)
        else:
            await channel.send(content=piece or None, file=file, allowed_mentions=mentions)
