"""Discord's markup for what the table layer's texts name: the one place the bot writes it.

The table layer marks players, channels and moments as values (``table.core.marks``); every text
the cogs send is written here first (``discord_text``): a player as ``<@id>`` (a ping when the post
lists them), a channel as ``<#id>``, a moment as ``<t:seconds:style>``, which each reader sees in
their own time zone and language.
"""

from __future__ import annotations

import re
from datetime import datetime

from table.core.marks import render
from table.core.text import clip

WHOLE = re.compile(r"<(?:@[!&]?\d+|#\d+|t:-?\d+(?::[A-Za-z])?|a?:\w+:\d+)>")
"""What Discord reads as one thing: a mention of a player, role or channel, a timestamp, a custom
emoji. Cut anywhere inside, it shows as raw text, and a mention cut so pings nobody."""


class DiscordMarkup:
    """The ``Markup`` of Discord messages."""

    def mention(self, user_id: str) -> str:
        return f"<@{user_id}>"

    def channel(self, channel_id: str) -> str:
        return f"<#{channel_id}>"

    def moment(self, at: datetime, style: str) -> str:
        return f"<t:{int(at.timestamp())}:{style}>"


DISCORD = DiscordMarkup()


def discord_text(text: str) -> str:
    """``text`` as Discord shows it: every mark written in Discord's markup."""
    return render(text, DISCORD)


def discord_clip(text: str, limit: int) -> str:
    """``text`` in Discord's markup, clipped to ``limit`` characters, never inside a mention."""
    return clip(discord_text(text), limit, WHOLE)


__all__ = ["DISCORD", "WHOLE", "DiscordMarkup", "discord_clip", "discord_text"]
