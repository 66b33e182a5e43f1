"""The slash commands: ``/game …``, ``/play`` and ``/hand``.

Thin adapters only: each command builds a ``Ctx`` from the interaction, calls the
front-end-neutral ``table.play.commands.Commands`` and hands the returned posts to a
``Responder``. No rule lives here. Every command answers within Discord's 3-second
window: it is acknowledged (deferred) before any work starts (see ``GameCog._answer``).
Names, descriptions and their translations come from the command tree (``cogs.slash``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.channels import bot_may, needed_for_a_table
from cogs.replies import (
    GONE,
    PostLike,
    Responder,
    Undelivered,
    allowed_mentions,
    offer_choices,
    responder_for,
    split_text,
)
from cogs.slash import command, group
from cogs.translator import label
from cogs.tree import error_text
from engine import GameError, registry
from engine.text import Msg
from launch import DISCORD_LIMITS
from table.bots.players import LEVELS, MAX_BOTS
from table.play.commands import Ctx
from table.play.lobby import MAX_TEAMS
from table.posting.outlet import OutletError

if TYPE_CHECKING:
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


def offer_registered_games(group: app_commands.Group) -> None:
    """Have ``group``'s commands offer the games registered now: the choices written on the class are
    those registered when the module was imported, and a game registered after (before the bot builds
    its commands) is offered too. Each command's parameters are replaced, not changed in place, so
    the class's own stay as they were."""
    for slash in group.commands:
        if not isinstance(slash, app_commands.Command):
            continue
        param = slash._params.get("game")
        if param is not None and param.choices:
            offered = cast("list[app_commands.Choice[str | int | float]]", game_choices())
            slash._params = {**slash._params, "game": dataclasses.replace(param, choices=offered)}


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

    game = group("game", guild_only=True)

    def __init__(self, table: Commands, announcer: Announcer | None = None) -> None:
        self.table = table
        self.announcer = announcer
        self._undelivered = Undelivered()
        offer_registered_games(self.game)

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

    # /game new ------------------------------------------------------------------------------------

    @command("game.new")
    @app_commands.choices(game=game_choices(), level=level_choices())
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        players: app_commands.Range[int, 1, 8] | None = None,
        options: app_commands.Range[str, 0, 200] | None = None,
        thread: bool = False,
        map_file: discord.Attachment | None = None,
        bots: app_commands.Range[int, 0, MAX_BOTS] = 0,
        level: str | None = None,
    ) -> None:
        missing = needed_for_a_table(interaction, new_thread=thread)
        if missing:  # refused before anything is made: no table, no thread
            raise GameError("cmd.reply.bot_needs", permissions=[Msg(f"perm.{name}") for name in missing])
        if thread:
            await self._new_in_thread(interaction, game, players, options or "", map_file, bots, level)
            return

        async def call(ctx: Ctx) -> list[Post]:
            options_text = await with_map_file(options or "", map_file)
            return await self.table.new(ctx, game, players, options_text, bots, level)

        await self._answer(interaction, call)

    @new.autocomplete("options")
    async def options_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The game's option names and values as the user types them (``armies=dr`` -> ``armies=draft``)."""
        game = str(getattr(interaction.namespace, "game", "") or "")
        try:
            pairs = self.table.options_autocomplete(make_ctx(interaction), game, current)
        except GameError:
            pairs = []
        return await offer_choices(interaction, as_choices(pairs))

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

    # lobby and game management ----------------------------------------------------------------------

    @command("game.join")
    async def join(
        self, interaction: discord.Interaction, team: app_commands.Range[int, 1, MAX_TEAMS] | None = None
    ) -> None:
        await self._answer(interaction, lambda ctx: self.table.join(ctx, team))

    @command("game.addbot")
    @app_commands.choices(level=level_choices())
    async def addbot(self, interaction: discord.Interaction, level: str | None = None) -> None:
        await self._answer(interaction, lambda ctx: self.table.addbot(ctx, level))

    @command("game.leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, self.table.leave)

    @command("game.start")
    async def start(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, self.table.start, quiet=True)

    @command("game.status")
    async def status(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, self.table.status)

    @command("game.board")
    async def board(
        self, interaction: discord.Interaction, details: bool = False, text: bool | None = None
    ) -> None:
        await self._answer(interaction, lambda ctx: self.table.board(ctx, details, text))

    @command("game.log")
    async def log(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10000] = 1
    ) -> None:
        await self._answer(interaction, lambda ctx: self.table.log(ctx, page))

    @command("game.resign")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, self.table.resign, quiet=True)

    @command("game.abort")
    async def abort(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, self.table.abort, quiet=True)

    @command("game.removebot")
    async def removebot(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, self.table.removebot)

    @command("game.kick")
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        await self._answer(interaction, lambda ctx: self.table.kick(ctx, str(player.id)))

    @command("game.unrate")
    async def unrate(self, interaction: discord.Interaction, game: app_commands.Range[int, 1]) -> None:
        await self._answer(interaction, lambda ctx: self.table.unrate(ctx, game))

    @command("game.end")
    async def end(self, interaction: discord.Interaction, winner: discord.User | None = None) -> None:
        chosen = None if winner is None else str(winner.id)
        await self._answer(interaction, lambda ctx: self.table.end(ctx, chosen), quiet=True)

    @command("game.draw")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, self.table.draw, quiet=True)

    @command("game.replay")
    async def replay(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, self.table.replay, private=True)

    @command("game.why")
    async def why(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, self.table.why, private=True)

    @command("game.hint")
    async def hint(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, self.table.hint, private=True)

    @command("game.undo")
    async def undo(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, self.table.undo)

    @command("game.rules")
    @app_commands.choices(game=game_choices())
    async def rules(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        topic: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        await self._answer(interaction, lambda ctx: self.table.rules(ctx, game, topic), private=True)

    @rules.autocomplete("topic")
    async def rules_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The rules topics matching what the reader typed, for the game chosen in the other option."""
        chosen = getattr(interaction.namespace, "game", None)
        try:
            pairs = await self.table.rules_autocomplete(
                make_ctx(interaction), current, chosen if isinstance(chosen, str) else None
            )
        except Exception:
            log.exception("rules autocomplete failed for %r", current)
            pairs = []
        return await offer_choices(interaction, as_choices(pairs))

    @command("game.help")
    async def help(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, self.table.help, private=True)

    # playing --------------------------------------------------------------------------------------------

    @command("play")
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, action: app_commands.Range[str, 1, 200]) -> None:
        await self._answer(interaction, lambda ctx: self.table.play(ctx, action), quiet=True)

    @play.autocomplete("action")
    async def play_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal moves matching what they typed; nothing rather than an error."""
        try:
            pairs = await self.table.autocomplete(make_ctx(interaction), current)
        except GameError:
            pairs = []
        except Exception:
            log.exception("autocomplete failed for %r", current)
            pairs = []
        return await offer_choices(interaction, as_choices(pairs))

    @command("hand")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        await self._answer(interaction, self.table.hand, private=True)


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
