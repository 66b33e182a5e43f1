"""What the bot hears of its channels: deleted ones close their games, changed ones are tried again.

Thin listeners over the table layer (``table.play.refusals``): a channel or thread deleted
(CHANNEL_DELETE, THREAD_DELETE) closes its game as abandoned; a channel or thread changed, or a role
(CHANNEL_UPDATE, THREAD_UPDATE, GUILD_ROLE_UPDATE: a moderator giving back a permission, unlocking or
reopening a thread) makes a channel that refused the bot due for a try at once. The permissions an
interaction says the bot has (``app_permissions``) are read here too, by discord.py's names.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

if TYPE_CHECKING:
    from table.play.commands import Commands

log = logging.getLogger(__name__)


def bot_may(interaction: discord.Interaction) -> frozenset[str]:
    """What the bot may do in the interaction's channel, by discord.py's names for the permissions."""
    return frozenset(name for name, granted in interaction.app_permissions if granted)


def needed_for_a_table(interaction: discord.Interaction, *, new_thread: bool) -> list[str]:
    """The permissions a table here needs that the bot lacks: to see the channel, post in it (in a
    thread: in threads) and attach its boards; to open the thread it is asked to open."""
    in_thread = new_thread or isinstance(interaction.channel, discord.Thread)
    needed = ["view_channel", "send_messages_in_threads" if in_thread else "send_messages", "attach_files"]
    if new_thread:
        needed.append("create_public_threads")
    may = interaction.app_permissions
    return [name for name in needed if not getattr(may, name)]


class ChannelCog(commands.Cog):
    """Channel and role events, handed to the table layer."""

    def __init__(self, table: Commands) -> None:
        self.table = table

    async def _heard(self, what: str, work: Awaitable[object]) -> None:
        try:
            await work
        except Exception:
            log.exception("handling %s failed", what)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._heard(f"the deletion of channel {channel.id}", self.table.channel_gone(str(channel.id)))

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        thread = payload.thread_id
        await self._heard(f"the deletion of thread {thread}", self.table.channel_gone(str(thread)))

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        await self._heard(f"a change of channel {after.id}", self.table.channel_changed(str(after.id)))

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        thread = payload.thread_id
        await self._heard(f"a change of thread {thread}", self.table.channel_changed(str(thread)))

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self._heard(f"a change of role {after.id}", self.table.channel_changed(None))
