"""The fake Discord's state: the world a test builds and the records of what the bot did.

`FakeWorld` is the base of `FakeDiscord` (see server.py): the gateway and REST layers stacked on it
read and change this state, and tests read it back (`messages_in`, `rejections`, ...).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord.model import (
    APP_PERMISSIONS,
    FORUM,
    MEMBER_PERMISSIONS,
    REQUIRE_TAG,
    FakeChannel,
    FakeGuild,
    FakeUser,
    InteractionResult,
    SentMessage,
    Snowflakes,
    permission_bits,
)

HANG_LIMIT = 120.0
"""Seconds any wait of the harness allows by default. Far beyond what a slow, loaded machine needs, so
it only ever catches a hang; tests assert what the bot did, never how fast it did it."""


@dataclass
class RecordedRequest:
    """One REST call the bot made, for assertions and for debugging a failing test."""

    method: str
    path: str
    status: int = 200
    body: Any = None


@dataclass
class PendingInteraction:
    """Server-side state of one interaction token."""

    payload: dict[str, Any]
    result: InteractionResult
    channel: FakeChannel
    created: float
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    refused: asyncio.Event = field(default_factory=asyncio.Event)  # an answer was refused (4xx)
    target: SentMessage | None = None  # the message whose component was clicked
    shard: int = 0  # the shard whose connection it goes to
    sent: bool = False  # written to that connection
    lost: asyncio.Event = field(default_factory=asyncio.Event)  # its bot process died unanswering


class FakeWorld:
    """Users, guilds, channels, synced commands, and every message and request the bot produced."""

    def __init__(self, *, bot_name: str = "TestBot") -> None:
        self._ids = Snowflakes()
        self.bot_user = FakeUser(self._ids.next(), bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner = FakeUser(self._ids.next(), "owner")
        self.port = 0

        self.users: dict[str, FakeUser] = {}
        self.guilds: dict[str, FakeGuild] = {}
        self.channels: dict[str, FakeChannel] = {}
        self.dm_channels: dict[str, str] = {}  # user id -> DM channel id

        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[str, list[dict[str, Any]]] = {}
        self.command_puts = 0
        self._command_ids: dict[tuple[str | None, str, int], str] = {}

        self.requests: list[RecordedRequest] = []
        self.unknown_requests: list[RecordedRequest] = []
        self.rejections: list[RecordedRequest] = []
        self.channel_log: dict[str, list[SentMessage]] = {}

        self._messages: dict[str, SentMessage] = {}
        self._interactions: dict[str, PendingInteraction] = {}
        self._in_flight: list[PendingInteraction] = []
        self._uploads: dict[str, bytes] = {}

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def add_user(
        self,
        name: str,
        *,
        locale: str = "en-US",
        global_name: str | None = None,
        permissions: str = MEMBER_PERMISSIONS,
    ) -> FakeUser:
        """A user who is a member of every guild of the fake, with ``permissions`` in its channels."""
        user = FakeUser(
            self._ids.next(), name, locale=locale, global_name=global_name, permissions=permissions
        )
        self.users[user.id] = user
        for guild in self.guilds.values():
            member = {**guild.member_payload(user), "guild_id": guild.id}
            self._dispatch_later("GUILD_MEMBER_ADD", member)
        return user

    def add_guild(self, name: str = "Test server", *, locale: str = "en-US") -> FakeGuild:
        guild = FakeGuild(self._ids.next(), name, locale=locale, owner_id=self.owner.id)
        self.guilds[guild.id] = guild
        self._dispatch_later("GUILD_CREATE", guild.create_payload(self._members()))
        return guild

    def add_channel(
        self,
        guild: FakeGuild,
        name: str,
        *,
        forum: bool = False,
        tags: tuple[str, ...] = (),
        require_tag: bool = False,
    ) -> FakeChannel:
        """A text channel, or a ``forum`` (type 15) with ``tags`` (and the flag that requires one)."""
        channel = FakeChannel(
            self._ids.next(), guild.id, name, position=len(guild.channels), bot_id=self.bot_user.id
        )
        if forum:
            channel.type = FORUM
            channel.tags = [self.new_tag(name) for name in tags]
            channel.flags = REQUIRE_TAG if require_tag else 0
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        self._dispatch_later("CHANNEL_CREATE", channel.payload())
        return channel

    def new_tag(self, name: str) -> dict[str, Any]:
        """A forum tag as Discord stores it."""
        return {
            "id": self._ids.next(),
            "name": name,
            "moderated": False,
            "emoji_id": None,
            "emoji_name": None,
        }

    def without_events(self, guild: FakeGuild) -> None:
        """The bot may not create events in ``guild`` (no Create Events, no Manage Events)."""
        guild.bot_permissions = str(
            int(guild.bot_permissions) & ~permission_bits("manage_events", "create_events")
        )
        self._dispatch_later(
            "GUILD_ROLE_UPDATE", {"guild_id": guild.id, "role": guild.role_payload(bot=True)}
        )

    def add_thread(self, parent: FakeChannel, name: str, *, archived: bool = False) -> FakeChannel:
        thread = self._new_thread(parent, name, owner_id=self.owner.id, archived=archived)
        self._dispatch_later("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread

    def set_archived(
        self, thread: FakeChannel, archived: bool = True, *, reopen_by_post: bool = True
    ) -> None:
        """Archive (or unarchive) a thread, as Discord does after a week of silence; the bot gets
        THREAD_UPDATE. ``reopen_by_post=False``: the bot's posts there are refused (50083) instead of
        reopening it, and only an explicit reopening by someone who may manage threads works."""
        if not thread.is_thread:
            raise ValueError(f"{thread.name!r} is not a thread")
        thread.archived = archived
        thread.reopen_by_post = reopen_by_post
        self._dispatch_later("THREAD_UPDATE", thread.payload())

    def set_locked(self, thread: FakeChannel, locked: bool = True) -> None:
        """Lock (or unlock) a thread, as a moderator does; the bot gets THREAD_UPDATE."""
        if not thread.is_thread:
            raise ValueError(f"{thread.name!r} is not a thread")
        thread.locked = locked
        self._dispatch_later("THREAD_UPDATE", thread.payload())

    def bot_permissions(self, channel: FakeChannel) -> int:
        """What the bot may do in ``channel``: everything its invitation gave it in the server, less what
        a moderator took away there (a thread takes its parent's permissions)."""
        denied = channel.bot_denied
        parent = self.channels.get(channel.parent_id or "")
        if parent is not None:
            denied |= parent.bot_denied
        guild = self.guilds.get(channel.guild_id)
        granted = int(guild.bot_permissions) if guild is not None else int(APP_PERMISSIONS)
        return granted & ~denied

    def bot_may(self, channel: FakeChannel, *names: str) -> bool:
        bits = permission_bits(*names)
        return self.bot_permissions(channel) & bits == bits

    def deny_bot(self, channel: FakeChannel, *names: str) -> None:
        """A moderator takes the named permissions (``"attach_files"``...) from the bot in ``channel``
        (a member overwrite); the bot gets CHANNEL_UPDATE. Threads take their parent's permissions."""
        if channel.is_thread:
            raise ValueError("a thread takes its permissions from its parent channel: deny them there")
        channel.bot_denied |= permission_bits(*names)
        self._dispatch_later("CHANNEL_UPDATE", channel.payload())

    def allow_bot(self, channel: FakeChannel, *names: str) -> None:
        """Give back the named permissions (all of them without names); the bot gets CHANNEL_UPDATE."""
        channel.bot_denied &= ~permission_bits(*names) if names else 0
        self._dispatch_later("CHANNEL_UPDATE", channel.payload())

    def delete_channel(self, channel: FakeChannel) -> None:
        """A moderator deletes a channel (with its threads) or a thread: CHANNEL_DELETE or THREAD_DELETE,
        and from then on every request naming it is answered 404, Unknown Channel (10003)."""
        guild = self.guilds[channel.guild_id]
        gone = [channel, *(c for c in guild.channels if c.parent_id == channel.id)]
        for each in gone:
            self.channels.pop(each.id, None)
            if each in guild.channels:
                guild.channels.remove(each)
        if channel.is_thread:
            data = {
                "id": channel.id,
                "guild_id": guild.id,
                "parent_id": channel.parent_id,
                "type": channel.type,
            }
            self._dispatch_later("THREAD_DELETE", data)
        else:
            self._dispatch_later("CHANNEL_DELETE", channel.payload())

    def _new_thread(
        self, parent: FakeChannel, name: str, *, owner_id: str, archived: bool = False
    ) -> FakeChannel:
        guild = self.guilds[parent.guild_id]
        thread = FakeChannel(
            self._ids.next(),
            guild.id,
            name,
            type=11,
            parent_id=parent.id,
            owner_id=owner_id,
            archived=archived,
            bot_id=self.bot_user.id,
        )
        guild.channels.append(thread)
        self.channels[thread.id] = thread
        return thread

    def _members(self) -> list[FakeUser]:
        return [self.bot_user, *self.users.values()]

    def messages_in(self, channel: FakeChannel | str) -> list[SentMessage]:
        """Every message visible to everyone in the channel, in order (ephemeral ones are not)."""
        channel_id = channel if isinstance(channel, str) else channel.id
        return [m for m in self.channel_log.get(channel_id, []) if not m.deleted]

    def dms_to(self, user: FakeUser) -> list[SentMessage]:
        """Direct messages the bot sent to `user`."""
        channel_id = self.dm_channels.get(user.id)
        return [] if channel_id is None else self.messages_in(channel_id)

    @property
    def commands(self) -> list[dict[str, Any]]:
        """The global command definitions the bot last synced (as the API echoes them, with ids)."""
        return self.global_commands

    def _dispatch_later(self, event: str, data: dict[str, Any]) -> None:
        """Tell a connected bot about a change of the world; the gateway layer implements it."""
