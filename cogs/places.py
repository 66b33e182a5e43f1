"""A league's places on Discord: threads of a text channel, posts of a forum with their tags, and a
scheduled event for each round.

- A league made in a text channel (or in one of its threads) puts each game in a public thread of that
  channel; a league made in a forum's post puts each game in a new post of that forum, tagged with the
  game's state. A tag the forum lacks is added when the bot may manage the forum (at most 20 tags a
  forum, 5 a post), else left out; a forum that requires a tag gets the first one it has.
- A round is an external server event from its start to its end, located at the league's channel,
  where the bot may create events (Create Events or Manage Events); where it may not, or the server has
  its 100 events already, there is none and nothing fails.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Literal

import discord

from cogs.markup import discord_text
from cogs.outlet import refusal
from cogs.replies import allowed_mentions, split_text
from launch import DISCORD_LIMITS
from table.core.posts import Post
from table.leagues.places import CHANNEL, FORUM, TAGS_PER_POST, THREAD_NAME_LIMIT, Home
from table.posting.outlet import Outlet, OutletError

log = logging.getLogger(__name__)

FORUM_TAGS = 20
"""Tags a forum may have on Discord."""
EVENT_LEAD = timedelta(minutes=1)
ARCHIVE_MINUTES: Literal[10080] = 10080
"""A week: play-by-post games are slow, their threads should not archive in between."""


class DiscordPlaces:
    """Threads, forum posts, tags and events through a running discord.py client."""

    def __init__(self, client: discord.Client, outlet: Outlet) -> None:
        self.client = client
        self.outlet = outlet
        """Where a thread's first post goes (the announcer's: within the channel's rate)."""

    async def _channel(self, channel: str) -> discord.abc.GuildChannel | discord.Thread | None:
        found = self.client.get_channel(int(channel))
        if found is None:
            try:
                fetched = await self.client.fetch_channel(int(channel))
            except discord.HTTPException:
                return None
            found = fetched if isinstance(fetched, discord.abc.GuildChannel | discord.Thread) else None
        return found if isinstance(found, discord.abc.GuildChannel | discord.Thread) else None

    async def home(self, channel: str) -> Home:
        found = await self._channel(channel)
        if isinstance(found, discord.Thread):
            parent = found.parent
            if isinstance(parent, discord.ForumChannel):
                return Home(FORUM, str(parent.id))
            if parent is not None:
                return Home(CHANNEL, str(parent.id))
        return Home(CHANNEL, channel)

    async def open_thread(self, home: Home, name: str, first: Post, tags: Sequence[str] = ()) -> str:
        parent = await self._channel(home.parent)
        name = name[:THREAD_NAME_LIMIT] or "—"
        mentions = allowed_mentions(first.mentions)
        try:
            if isinstance(parent, discord.ForumChannel):
                applied = await self._tags(parent, tags)
                made = await parent.create_thread(
                    name=name,
                    content=split_text(first.text or "")[0] or "—",
                    applied_tags=applied,
                    allowed_mentions=mentions,
                    auto_archive_duration=ARCHIVE_MINUTES,
                )
                return str(made.thread.id)
            if not isinstance(parent, discord.TextChannel):
                raise OutletError(f"channel {home.parent} takes no threads")
            thread = await parent.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=ARCHIVE_MINUTES
            )
        except discord.HTTPException as exc:
            raise refusal(exc, parent, files=False) from exc
        await self.outlet.send(str(thread.id), first)  # within the thread's rate, by its nonce once
        return str(thread.id)

    async def _tags(self, forum: discord.ForumChannel, names: Sequence[str]) -> list[discord.ForumTag]:
        """The forum's tags of these names, added to the forum when missing and the bot may."""
        wanted = [n[:20] for n in names][:TAGS_PER_POST]
        have = {t.name: t for t in forum.available_tags}
        missing = [n for n in wanted if n not in have]
        me = forum.guild.me
        if missing and me is not None and forum.permissions_for(me).manage_channels:
            room = FORUM_TAGS - len(forum.available_tags)
            added = [discord.ForumTag(name=n) for n in missing[: max(0, room)]]
            if added:
                try:
                    forum = await forum.edit(available_tags=[*forum.available_tags, *added])
                    have = {t.name: t for t in forum.available_tags}
                except discord.HTTPException as exc:
                    log.info("adding tags to forum %s was refused: %s", forum.id, exc)
        applied = [have[n] for n in wanted if n in have]
        if not applied and forum.flags.require_tag and forum.available_tags:
            applied = [forum.available_tags[0]]
        return applied

    async def set_tags(self, home: Home, thread: str, tags: Sequence[str]) -> None:
        if not home.forum:
            return
        try:
            post = await self._channel(thread)
            forum = await self._channel(home.parent)
            if isinstance(post, discord.Thread) and isinstance(forum, discord.ForumChannel):
                applied = await self._tags(forum, tags)
                if applied or not forum.flags.require_tag:
                    await post.edit(applied_tags=applied)
        except discord.HTTPException as exc:
            log.info("tagging forum post %s was refused: %s", thread, exc)

    async def schedule(
        self, guild: str | None, name: str, start: datetime, end: datetime, where: str
    ) -> str | None:
        found = None if guild is None else self.client.get_guild(int(guild))
        if found is None or found.me is None:
            return None
        may = found.me.guild_permissions
        if not (may.create_events or may.manage_events):
            return None
        start = max(start, discord.utils.utcnow() + EVENT_LEAD)  # Discord takes no event in the past
        if end <= start:
            return None
        try:
            event = await found.create_scheduled_event(
                name=name[: DISCORD_LIMITS.event],
                start_time=start,
                end_time=end,
                entity_type=discord.EntityType.external,
                location=discord_text(where)[: DISCORD_LIMITS.event],
                privacy_level=discord.PrivacyLevel.guild_only,
            )
        except discord.HTTPException as exc:
            log.info("a round's event in server %s was refused: %s", guild, exc)
            return None
        return str(event.id)


__all__ = ["DiscordPlaces"]
