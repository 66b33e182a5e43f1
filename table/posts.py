"""What a front end hands in (``Ctx``) and gets back (``Post``) for every command.

Both are front-end neutral: the Discord cogs build a ``Ctx`` from an interaction and send
each ``Post`` as a message; the console builds one from a typed line and prints it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ctx:
    """Who asks, where, and in which languages to answer."""

    channel_id: str  # Discord channel or thread id; "console" in the terminal
    user_id: str  # Discord user id; the typed name in the console
    user_name: str  # display name, stored with the seat at join time
    locale: str  # the user's language: errors and ephemeral replies
    channel_locale: str  # public posts' language as Discord gives it (a server setting overrides it)
    guild_id: str | None = None  # the server; None in the console and in direct messages
    moderator: bool = False  # may close, end or clear any game here (Manage Channels or Manage Server)
    admin: bool = False  # may change the server's settings (Manage Server)


@dataclass(frozen=True)
class Post:
    """One message to send; the first answers the interaction, later ones are follow-ups."""

    text: str  # already translated; mentions written as <@id>
    image: bytes | None = None
    filename: str = "board.png"
    mentions: tuple[str, ...] = ()  # user ids this post pings
    ephemeral: bool = False


def mention(player_id: str) -> str:
    """Discord's mention syntax; the console shows it as @name."""
    return f"<@{player_id}>"
