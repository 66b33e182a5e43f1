"""The announcer's outlet on Discord: channel posts, in-place edits and direct messages.

Handover posts are plain channel messages of the bot (not interaction responses), so the bot can
post them with no interaction behind (a catch-up after a restart, a reminder, a deadline) and edit
them later whatever the interaction token's age. Discord's refusals are the normal case here:
an edit refused (too old, deleted, rate limited) makes the announcer post anew; a closed DM is no DM.
"""

from __future__ import annotations

import logging
from typing import TypedDict

import discord

from cogs.components import view_for
from cogs.replies import allowed_mentions, attachment, split_text
from table.core.posts import Post, piece_nonce
from table.posting.outlet import ChannelRate, OutletError

log = logging.getLogger(__name__)


class _Extras(TypedDict, total=False):
    """What a piece of a post sends besides its text, each only when it has one (discord.py types
    these as never None)."""

    file: discord.File
    view: discord.ui.View
    nonce: str | int


DISCORD_RATE = ChannelRate(5, 5.0)
"""Discord's rate of messages in one channel: about 5 per 5 seconds."""


class DiscordOutlet:
    """Sends the announcer's posts through a running discord.py client, within ``rate`` per channel."""

    def __init__(self, client: discord.Client, rate: ChannelRate | None = DISCORD_RATE) -> None:
        self.client = client
        self.rate = rate

    async def _channel(self, channel_id: str) -> discord.abc.Messageable:
        channel = self.client.get_channel(int(channel_id))
        if channel is None:
            try:
                channel = await self.client.fetch_channel(int(channel_id))
            except discord.HTTPException as exc:
                raise OutletError(f"channel {channel_id} cannot be reached: {exc}") from exc
        if not isinstance(channel, discord.abc.Messageable):
            raise OutletError(f"channel {channel_id} takes no messages")
        return channel

    async def send(self, channel: str, post: Post) -> str:
        target = await self._channel(channel)
        mentions = allowed_mentions(post.mentions)
        first: discord.Message | None = None
        try:
            pieces = split_text(post.text or "")
            for index, piece in enumerate(pieces):
                file = attachment(post) if index == 0 else None
                if not piece and file is None:
                    continue
                view = view_for(post) if index == len(pieces) - 1 else None
                extra = _Extras()
                if file is not None:
                    extra["file"] = file
                if view is not None:
                    extra["view"] = view
                if post.nonce is not None:
                    # discord.py sends enforce_nonce with it: a repeat returns the first message
                    extra["nonce"] = piece_nonce(post.nonce, index)
                sent = await target.send(content=piece or None, allowed_mentions=mentions, **extra)
                first = first or sent
        except discord.HTTPException as exc:
            raise OutletError(f"posting in channel {channel} failed: {exc}") from exc
        if first is None:
            raise OutletError("an empty post")
        return str(first.id)

    async def edit(self, channel: str, message: str, post: Post) -> bool:
        try:
            target = await self._channel(channel)
        except OutletError:
            return False
        if not isinstance(target, discord.abc.GuildChannel | discord.Thread | discord.DMChannel):
            return False
        file = attachment(post)
        try:
            await target.get_partial_message(int(message)).edit(
                content=(post.text or "")[:2000] or None,
                attachments=[file] if file is not None else [],
                allowed_mentions=discord.AllowedMentions.none(),
                view=view_for(post),
            )
        except discord.HTTPException as exc:
            log.info("editing message %s in %s was refused (%s): posting anew", message, channel, exc)
            return False
        return True

    async def direct(self, user: str, post: Post) -> bool:
        """A direct message; a long one (a text board comes with it) in as many messages as it
        takes, cut at line ends, the image with the first."""
        try:
            target = self.client.get_user(int(user)) or await self.client.fetch_user(int(user))
            for number, piece in enumerate(split_text(post.text or "")):
                file = attachment(post) if number == 0 else None
                await (target.send(content=piece) if file is None else target.send(content=piece, file=file))
        except (discord.HTTPException, ValueError):
            return False
        return True
