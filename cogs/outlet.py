"""The announcer's outlet on Discord: channel posts, in-place edits and direct messages.

Handover posts are plain channel messages of the bot (not interaction responses), so the bot can
post them with no interaction behind (a catch-up after a restart, a reminder, a deadline) and edit
them later whatever the interaction token's age. Discord's refusals are the normal case here, and
each becomes what the table layer can act on (``table.posting.outlet``):

- an edit Discord will not make (the post was deleted, 10008; too old, 30046) makes the announcer
  post anew (``edit`` returns False); a kept message (a card, a server's list of games) is sent anew
  only when it was deleted, and otherwise left for a later try (``edit_kept``, ``edit_direct``);
- an archived thread (50083) is reopened by hand (``Thread.edit(archived=False)``, which needs Manage
  Threads) and the request made again; a post there usually reopens it by itself, as Discord does
  for anyone allowed to send;
- a channel that refuses the bot (403: 50001 Missing Access, 50013 Missing Permissions, 160005 a
  locked thread; an archived thread it may not reopen) is ``Refused``, naming the permissions it
  lacks there: from the bot's cache of the channel, else what the request needed that a moderator
  most often takes away (Attach Files for a board, Send Messages in Threads in a thread);
- a deleted channel (10003) is ``ChannelGone``;
- anything else (5xx after discord.py's own tries, a 429 it could not wait out) is an
  ``OutletError``: the next tick's catch-up tries again, and the post's nonce keeps it single.

A closed DM is no DM. ``rate`` is Discord's rate of messages per channel, which the table layer keeps.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypedDict, TypeVar

import discord

from cogs.components import view_for
from cogs.markup import discord_clip
from cogs.replies import allowed_mentions, attachment, split_text
from launch import DISCORD_LIMITS
from table.core.posts import Post, piece_nonce
from table.posting.outlet import ChannelGone, ChannelRate, OutletError, Refused

log = logging.getLogger(__name__)

DISCORD_RATE = ChannelRate(5, 5.0)
"""Discord's rate of messages in one channel: about 5 per 5 seconds."""
UNKNOWN_MESSAGE = 10008
"""The message was deleted: a kept message (a card, a server's list of games) is sent anew."""
UNEDITABLE = (UNKNOWN_MESSAGE, 30046)
"""An edit Discord refuses for the post's sake: deleted (Unknown Message), or too old to edit often."""
HIDDEN, FORBIDDEN, ARCHIVED, LOCKED, GONE = 50001, 50013, 50083, 160005, 10003

T = TypeVar("T")
Target = discord.abc.GuildChannel | discord.Thread | discord.DMChannel


class _Extras(TypedDict, total=False):
    """What a piece of a post sends besides its text, each only when it has one (discord.py types
    these as never None)."""

    file: discord.File
    view: discord.ui.View
    nonce: str | int


def missing_permissions(target: object, *, files: bool) -> tuple[str, ...]:
    """What the bot lacks to post (with ``files``) in ``target``, by discord.py's names for them: from
    its cache of the channel's permissions; when that tells nothing, what such a post needs that a
    moderator most often takes away."""
    thread = isinstance(target, discord.Thread)
    needed = ["view_channel", "send_messages_in_threads" if thread else "send_messages"]
    if files:
        needed.append("attach_files")
    if isinstance(target, discord.abc.GuildChannel | discord.Thread) and target.guild.me is not None:
        have = target.permissions_for(target.guild.me)
        lacking = tuple(name for name in needed if not getattr(have, name))
        if lacking:
            return lacking
    if thread:
        return ("send_messages_in_threads",)
    return ("attach_files",) if files else ("send_messages",)


def refusal(exc: discord.HTTPException, target: object, *, files: bool) -> OutletError:
    """What Discord's refusal ``exc`` of a request to ``target`` means for the table layer."""
    where = getattr(target, "id", "?")
    detail = f"channel {where}: {exc.status} {exc.code} {exc.text}"
    if exc.code == GONE:
        return ChannelGone(detail)
    if exc.code == HIDDEN:
        return Refused("permissions", ("view_channel",), detail)
    if exc.code == FORBIDDEN:
        return Refused("permissions", missing_permissions(target, files=files), detail)
    if exc.code == LOCKED:
        return Refused("locked", (), detail)
    if exc.code == ARCHIVED:
        return Refused("archived", ("manage_threads",), detail)
    return OutletError(detail)


class DiscordOutlet:
    """Sends the announcer's posts through a running discord.py client, within ``rate`` per channel."""

    def __init__(self, client: discord.Client, rate: ChannelRate | None = DISCORD_RATE) -> None:
        self.client = client
        self.rate = rate

    async def _channel(self, channel_id: str) -> discord.abc.Messageable:
        channel = self.client.get_channel(int(channel_id))
        if channel is None:  # not in the cache: an archived thread, a channel made meanwhile
            try:
                channel = await self.client.fetch_channel(int(channel_id))
            except discord.HTTPException as exc:
                raise refusal(exc, discord.Object(int(channel_id)), files=False) from exc
        if not isinstance(channel, discord.abc.Messageable):
            raise OutletError(f"channel {channel_id} takes no messages")
        return channel

    async def _reopened(self, target: object, request: Callable[[], Awaitable[T]], *, files: bool) -> T:
        """Make ``request``; in an archived thread Discord refused (50083), reopen the thread by hand
        (it takes Manage Threads) and make it once more. Discord's refusals become the table layer's."""
        try:
            return await request()
        except discord.HTTPException as exc:
            if exc.code != ARCHIVED or not isinstance(target, discord.Thread):
                raise refusal(exc, target, files=files) from exc
        try:
            await target.edit(archived=False)
        except discord.HTTPException as exc:
            log.info("reopening the archived thread %s was refused: %s", target.id, exc)
            raise Refused("archived", ("manage_threads",), f"thread {target.id}: {exc}") from exc
        log.info("reopened the archived thread %s to post in it", target.id)
        try:
            return await request()
        except discord.HTTPException as exc:
            raise refusal(exc, target, files=files) from exc

    async def send(self, channel: str, post: Post) -> str:
        target = await self._channel(channel)
        first = await self._reopened(target, lambda: self._pieces(target, post), files=post.image is not None)
        if first is None:
            raise OutletError("an empty post")
        return str(first.id)

    async def _pieces(self, target: discord.abc.Messageable, post: Post) -> discord.Message | None:
        """The post as messages within Discord's length, the image with the first; the first one."""
        mentions = allowed_mentions(post.mentions)
        first: discord.Message | None = None
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
                extra["nonce"] = piece_nonce(post.nonce, index, DISCORD_LIMITS)
            sent = await target.send(content=piece or None, allowed_mentions=mentions, **extra)
            first = first or sent
        return first

    async def edit(self, channel: str, message: str, post: Post) -> bool:
        target = await self._channel(channel)
        if not isinstance(target, Target):
            return False
        partial = target.get_partial_message(int(message))

        async def edit() -> None:
            file = attachment(post)  # made again for a second try: a file is read once
            await partial.edit(
                content=discord_clip(post.text or "", DISCORD_LIMITS.message) or None,
                attachments=[file] if file is not None else [],
                allowed_mentions=discord.AllowedMentions.none(),
                view=view_for(post),
            )

        try:
            await self._reopened(target, edit, files=post.image is not None)
        except OutletError as exc:
            cause = exc.__cause__
            if isinstance(cause, discord.HTTPException) and cause.code in UNEDITABLE:
                log.info("editing message %s in %s was refused (%s): posting anew", message, channel, cause)
                return False
            raise
        return True

    async def send_direct(self, user: str, post: Post) -> str | None:
        """A direct message kept to be edited later (one message: a card fits one); its id, None
        when the user cannot be reached (closed DMs, no server shared with the bot)."""
        try:
            target = self.client.get_user(int(user)) or await self.client.fetch_user(int(user))
            extra = _Extras()
            if post.nonce is not None:
                extra["nonce"] = post.nonce
            sent = await target.send(
                content=discord_clip(post.text or "", DISCORD_LIMITS.message),
                allowed_mentions=discord.AllowedMentions.none(),
                **extra,
            )
        except (discord.HTTPException, ValueError):
            return None
        return str(sent.id)

    async def edit_direct(self, user: str, message: str, post: Post) -> bool:
        """Edit a kept direct message; False when Discord no longer has it (10008: the player
        deleted it), an ``OutletError`` when it stands and Discord refuses the edit now."""
        try:
            target = self.client.get_user(int(user)) or await self.client.fetch_user(int(user))
            channel = target.dm_channel or await target.create_dm()
            await self._keep(channel, message, post)
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_MESSAGE:
                log.info("the kept direct message %s to %s was deleted: sending anew", message, user)
                return False
            raise OutletError(f"direct message to {user}: {exc.status} {exc.code} {exc.text}") from exc
        except discord.HTTPException as exc:
            raise OutletError(f"direct message to {user}: {exc.status} {exc.code} {exc.text}") from exc
        return True

    async def edit_kept(self, channel: str, message: str, post: Post) -> bool:
        """Edit a kept message of a channel; False when it was deleted (10008), ``OutletError`` when
        it stands and Discord refuses the edit now (30046: an old message edited too often), and the
        channel's refusals as for any post."""
        target = await self._channel(channel)
        try:
            await self._reopened(target, lambda: self._keep(target, message, post), files=False)
        except OutletError as exc:
            cause = exc.__cause__
            if isinstance(cause, discord.HTTPException) and cause.code == UNKNOWN_MESSAGE:
                log.info("the kept message %s in %s was deleted: posting anew", message, channel)
                return False
            raise
        return True

    @staticmethod
    async def _keep(target: discord.abc.Messageable, message: str, post: Post) -> None:
        """Replace the text of a kept message (no image, no buttons, no pings)."""
        if not isinstance(target, Target):
            raise OutletError(f"channel {getattr(target, 'id', '?')} takes no edits")
        await target.get_partial_message(int(message)).edit(
            content=discord_clip(post.text or "", DISCORD_LIMITS.message),
            allowed_mentions=discord.AllowedMentions.none(),
        )

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
