"""What a front end offers a league beyond posts: threads for its games, forum posts and their tags, and
server events for its rounds.

A league lives in a channel (its home). Its games go in threads of that channel, or, when the league was
made in a forum's post, as posts of that forum, each tagged with its game's state; the console names
threads of its own. A round may also be a scheduled event of the server, from its start to its end,
where the bot may make one (Discord's Create Events); where it may not, ``schedule`` says so with None
and nothing fails. Discord's limits reach the league as values: a thread's name is cut to
``THREAD_NAME_LIMIT``, a forum post carries at most ``TAGS_PER_POST`` tags.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from table.core.posts import Post

THREAD_NAME_LIMIT = 100
"""Characters of a thread's (or a forum post's) name on Discord."""
TAGS_PER_POST = 5
"""Tags a forum post may carry on Discord."""
CHANNEL, FORUM = "channel", "forum"


@dataclass(frozen=True)
class Home:
    """Where a league's games go: threads of the text channel ``parent`` (``channel``), or posts of
    the forum ``parent`` (``forum``)."""

    kind: str
    parent: str

    @property
    def forum(self) -> bool:
        return self.kind == FORUM


class Places(Protocol):
    """A front end's threads, forum posts and events, for leagues."""

    async def home(self, channel: str) -> Home:
        """Where the games of a league made in ``channel`` go."""
        ...

    async def open_thread(self, home: Home, name: str, first: Post, tags: Sequence[str] = ()) -> str:
        """A new thread (a forum post, in a forum: ``first`` is its opening message, tagged ``tags``)
        with ``first`` posted in it; its channel id. Raises ``OutletError`` when refused."""
        ...

    async def set_tags(self, home: Home, thread: str, tags: Sequence[str]) -> None:
        """A forum post's tags (by name) now; nothing outside a forum. Never fails: a tag the forum
        lacks and the bot may not add is left out."""
        ...

    async def schedule(
        self, guild: str | None, name: str, start: datetime, end: datetime, where: str
    ) -> str | None:
        """A server event from ``start`` to ``end`` at ``where``; its id, or None where the bot may not
        make one (it never fails for that)."""
        ...


__all__ = ["CHANNEL", "FORUM", "TAGS_PER_POST", "THREAD_NAME_LIMIT", "Home", "Places"]
