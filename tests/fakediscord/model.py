"""The fake Discord's world: users, guilds, channels, and the messages the bot produced.

These are plain records that the server turns into Discord-shaped JSON (`*_payload` methods), so a test
can build a world in a few lines and then read back what the bot sent without touching raw payloads.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

EPHEMERAL = 64
LOADING = 128
DISCORD_EPOCH_MS = 1420070400000

# Every permission bit a regular member of a friendly test server has (no administrator).
APP_PERMISSIONS = "2251799813685239"
"""What the bot itself may do in every channel (all but administrator): the fake never refuses it."""
MEMBER_PERMISSIONS = "311452748864"
"""An ordinary member: view, send (also in threads), create public threads, attach, embed, react, read
the history, use application commands. Not Manage Channels (16) nor Manage Server (32)."""
MODERATOR_PERMISSIONS = str(int(MEMBER_PERMISSIONS) | 16 | 8192)
"""A moderator: an ordinary member who may also manage channels and messages."""
ADMIN_PERMISSIONS = str(int(MEMBER_PERMISSIONS) | 32)
"""A server manager: an ordinary member who may also manage the server."""
EVERYONE_ROLE_PERMISSIONS = MEMBER_PERMISSIONS

PERMISSION_BITS = {
    "manage_channels": 1 << 4,
    "view_channel": 1 << 10,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "send_messages": 1 << 11,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "send_messages_in_threads": 1 << 38,
    "manage_events": 1 << 33,
    "create_events": 1 << 44,
}
"""The permissions the fake checks, by discord.py's names for them, as Discord's bits."""


def permission_bits(*names: str) -> int:
    """The bits of the named permissions (``"attach_files"``...)."""
    unknown = [n for n in names if n not in PERMISSION_BITS]
    if unknown:
        raise ValueError(f"the fake does not model {unknown}; it knows {sorted(PERMISSION_BITS)}")
    bits = 0
    for name in names:
        bits |= PERMISSION_BITS[name]
    return bits


def bot_role_id(guild_id: str) -> str:
    """The id of the role the bot's invitation gave it in a guild (one above the guild's id, which no
    other snowflake of the fake takes: they are spaced by a millisecond)."""
    return str(int(guild_id) + 1)


class Snowflakes:
    """Hands out increasing snowflake ids that decode to a plausible creation time, one millisecond
    apart: the timestamp part is what places a guild on a shard (``(id >> 22) % count``), so
    consecutive guilds land on different shards, as guilds made at different times do."""

    def __init__(self) -> None:
        base = (int(dt.datetime(2026, 1, 1, tzinfo=dt.UTC).timestamp() * 1000) - DISCORD_EPOCH_MS) << 22
        self._counter = itertools.count(base, 1 << 22)

    def next(self) -> str:
        return str(next(self._counter))


def iso_now() -> str:
    """Discord timestamps are ISO 8601 with an offset."""
    return dt.datetime.now(dt.UTC).isoformat()


@dataclass
class FakeUser:
    """A Discord account; `locale` is what its client reports in interactions."""

    id: str
    name: str
    locale: str = "en-US"
    bot: bool = False
    global_name: str | None = None
    permissions: str = MEMBER_PERMISSIONS
    """The member's permissions in every channel of the fake (see the *_PERMISSIONS constants)."""
    dms_open: bool = True
    """False: the user accepts no direct message from the bot (Discord answers 50007)."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


FORUM = 15
REQUIRE_TAG = 1 << 4
"""A forum's flag: every post must carry a tag (Discord refuses an untagged one with 40067)."""


@dataclass
class FakeChannel:
    """A guild text channel (type 0), a forum (type 15) or a public thread (type 11) whose `parent_id`
    is a text channel, or a forum's post (a thread of the forum, carrying tags)."""

    id: str
    guild_id: str
    name: str
    type: int = 0
    position: int = 0
    parent_id: str | None = None
    owner_id: str | None = None
    archived: bool = False
    locked: bool = False
    """A locked thread: only members who may manage threads post there or reopen it (160005)."""
    reopen_by_post: bool = True
    """Whether a post in the thread while it is archived reopens it, as Discord does for anyone allowed
    to send there; False: the post is refused with 50083, and only an explicit reopening by someone who
    may manage threads works."""
    bot_denied: int = 0
    """Permission bits a moderator took from the bot here (a member overwrite on the channel)."""
    bot_id: str | None = None
    """The bot's user id, named by that overwrite."""
    tags: list[dict[str, Any]] = field(default_factory=list)
    """A forum's available tags (at most 20), as Discord gives them."""
    flags: int = 0
    applied_tags: list[str] = field(default_factory=list)
    """A forum post's tags, by id (at most 5)."""

    @property
    def is_forum(self) -> bool:
        return self.type == FORUM

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "guild_id": self.guild_id,
            "name": self.name,
            "type": self.type,
            "position": self.position,
            "permission_overwrites": self._overwrites(),
            "nsfw": False,
            "parent_id": self.parent_id,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        if self.is_forum:
            data.update(available_tags=self.tags, flags=self.flags, topic=None, default_reaction_emoji=None)
        if self.is_thread:
            data.update(
                applied_tags=list(self.applied_tags),
                owner_id=self.owner_id,
                message_count=0,
                member_count=0,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 10080,
                    "archive_timestamp": iso_now(),
                    "locked": self.locked,
                },
            )
        return data

    def _overwrites(self) -> list[dict[str, Any]]:
        if not self.bot_denied or self.bot_id is None:
            return []
        return [{"id": self.bot_id, "type": 1, "allow": "0", "deny": str(self.bot_denied)}]


@dataclass
class FakeGuild:
    """A server. `locale` is its preferred locale (the interaction's `guild_locale`)."""

    id: str
    name: str
    locale: str = "en-US"
    owner_id: str = "0"
    channels: list[FakeChannel] = field(default_factory=list)
    outage: bool = False
    """Unavailable, as in a Discord outage: READY lists it, and its GUILD_CREATE says only that it is
    unavailable."""
    bot_permissions: str = APP_PERMISSIONS
    """What the bot's role may do in the whole server (``without_events`` takes event rights away)."""
    events: list[dict[str, Any]] = field(default_factory=list)
    """The server's scheduled events, as Discord stores them."""

    def role_payload(self, *, bot: bool = False) -> dict[str, Any]:
        """The @everyone role, whose id is the guild id; with ``bot``, the role the bot's invitation
        gave it (``APP_PERMISSIONS``), so that discord.py reckons the bot's permissions as the fake does."""
        return {
            "id": bot_role_id(self.id) if bot else self.id,
            "name": "bot" if bot else "@everyone",
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": 1 if bot else 0,
            "permissions": self.bot_permissions if bot else EVERYONE_ROLE_PERMISSIONS,
            "managed": bot,
            "mentionable": False,
            "flags": 0,
        }

    def member_payload(self, user: FakeUser) -> dict[str, Any]:
        return {
            "user": user.payload(),
            "nick": None,
            "avatar": None,
            "roles": [bot_role_id(self.id)] if user.bot else [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "permissions": user.permissions,
            "communication_disabled_until": None,
        }

    def create_payload(self, members: list[FakeUser]) -> dict[str, Any]:
        """GUILD_CREATE data. `member_count` equals the members sent, so the guild counts as chunked."""
        return {
            "id": self.id,
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": self.owner_id,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [self.role_payload(), self.role_payload(bot=True)],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": "2026-01-01T00:00:00+00:00",
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": [self.member_payload(u) for u in members],
            "channels": [c.payload() for c in self.channels if not c.is_thread],
            "threads": [c.payload() for c in self.channels if c.is_thread],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


_MENTION = re.compile(r"<@!?(\d+)>")


@dataclass
class SentMessage:
    """One message the bot produced: an interaction response, a follow-up, or a plain channel post.

    `kind` is "response" (the interaction's original message), "followup" or "channel". Edits update the
    record in place and count in `edits`; `deleted` marks a deleted one.
    """

    id: str
    channel_id: str
    author: FakeUser
    kind: str
    content: str = ""
    flags: int = 0
    files: list[tuple[str, bytes]] = field(default_factory=list)
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    allowed_mentions: dict[str, Any] | None = None
    interaction_id: str | None = None
    descriptions: list[str | None] = field(default_factory=list)
    """Each file's description (its alt text), in the order of ``files``; None when sent without."""
    edits: int = 0
    deleted: bool = False
    timestamp: str = field(default_factory=iso_now)
    nonce: str | None = None
    created_content: str = ""
    """The content as the message was created (``content`` follows the edits)."""
    created_components: list[dict[str, Any]] = field(default_factory=list)

    @property
    def age(self) -> dt.timedelta:
        return dt.datetime.now(dt.UTC) - dt.datetime.fromisoformat(self.timestamp)

    def make_old(self, by: dt.timedelta) -> None:
        """Pretend the message was posted ``by`` earlier (Discord treats old messages differently)."""
        self.timestamp = (dt.datetime.fromisoformat(self.timestamp) - by).isoformat()

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while a deferred ("thinking...") response has not been edited yet."""
        return bool(self.flags & LOADING)

    @property
    def mentioned_ids(self) -> list[str]:
        """User ids written as mentions in the content, in order, duplicates removed."""
        return list(dict.fromkeys(_MENTION.findall(self.content)))

    @property
    def pinged_ids(self) -> list[str]:
        """The mentioned users Discord would notify, given the message's allowed_mentions."""
        mentioned = self.mentioned_ids
        allowed = self.allowed_mentions
        if allowed is None:
            return mentioned
        if "users" in allowed.get("parse", []):
            return mentioned
        explicit = {str(u) for u in allowed.get("users", [])}
        return [u for u in mentioned if u in explicit]

    def attachment_payloads(self, base_url: str) -> list[dict[str, Any]]:
        return [
            {
                "id": f"{self.id}{index}",
                "filename": name,
                "size": len(data),
                "url": f"{base_url}/attachments/{self.channel_id}/{self.id}/{index}/{name}",
                "proxy_url": f"{base_url}/attachments/{self.channel_id}/{self.id}/{index}/{name}",
                "content_type": "image/png" if name.lower().endswith(".png") else "application/octet-stream",
                **({"description": self.alt(index)} if self.alt(index) is not None else {}),
            }
            for index, (name, data) in enumerate(self.files)
        ]

    def alt(self, index: int) -> str | None:
        """The description of file ``index``, as Discord stores it."""
        return self.descriptions[index] if index < len(self.descriptions) else None

    def payload(self, base_url: str, application_id: str) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "channel_id": self.channel_id,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": iso_now() if self.edits else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self.attachment_payloads(base_url),
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": 20 if self.interaction_id else 0,
            "flags": self.flags,
        }
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.interaction_id:
            data["application_id"] = application_id
            data["webhook_id"] = application_id
        return data


@dataclass
class InteractionResult:
    """Everything one interaction produced, as a player would see it.

    `messages` lists the original response (if any) then the follow-ups, in the order they were
    created; `channel_posts` are plain channel messages the bot sent while handling it.
    """

    interaction_id: str
    token: str
    response_type: int | None = None
    response_flags: int = 0
    response_delay: float | None = None
    messages: list[SentMessage] = field(default_factory=list)
    channel_posts: list[SentMessage] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None

    @property
    def answered(self) -> bool:
        return self.response_type is not None

    @property
    def deferred(self) -> bool:
        """The bot acknowledged first (type 5, "thinking..." or type 6 for components)."""
        return self.response_type in (5, 6)

    @property
    def original(self) -> SentMessage | None:
        return next((m for m in self.messages if m.kind == "response"), None)

    @property
    def followups(self) -> list[SentMessage]:
        return [m for m in self.messages if m.kind == "followup"]

    @property
    def ephemeral(self) -> bool:
        """Whether the first reply the user sees is ephemeral (a deferral fixes it at defer time; a
        "thinking..." message the bot deleted is no longer seen: the first message left is)."""
        original = self.original
        if original is not None and not original.deleted:
            return original.ephemeral
        shown = [m for m in self.messages if not m.deleted]
        if shown:
            return shown[0].ephemeral
        return bool(self.response_flags & EPHEMERAL)

    @property
    def content(self) -> str:
        """The original response's text, or the first follow-up's when there is no original message."""
        shown = [m for m in self.messages if not m.deleted and not m.loading]
        return shown[0].content if shown else ""

    @property
    def contents(self) -> list[str]:
        return [m.content for m in self.messages if not m.deleted]

    @property
    def files(self) -> list[tuple[str, bytes]]:
        """Every file of every message of this interaction, in order."""
        return [f for m in self.messages if not m.deleted for f in m.files]

    @property
    def complete(self) -> bool:
        """Answered, and no "thinking..." message left without its content."""
        if not self.answered:
            return False
        if self.response_type == 5:
            original = self.original
            return bool(self.followups) or (original is not None and not original.loading)
        return True
