"""What a front end offers the table layer for public posts, and how it says no.

A front end provides an ``Outlet``: posts in a channel, in-place edits, direct messages, and the
messages kept up to date in place for weeks (a player's card of their games, a direct message; a
server's list of open games, in a channel), which are edited again and again and replaced only when
they were deleted. Discord's limits reach the table layer as values and errors from it, never as
Discord's own types:

- ``ChannelRate``: how many posts and edits one channel takes per window (Discord: about 5 per 5 s;
  the console: no limit). A front end that has one exposes it as its outlet's ``rate``.
- ``OutletError``: a post that did not go through and may go through later (an outage, a rate the
  front end could not wait out): the game stays unannounced and the next tick's catch-up tries again.
- ``Refused``: the channel refuses the bot until someone changes it (a permission taken away, a
  locked thread, an archived thread the bot may not reopen), with the permissions it lacks where
  they are known, by the front end's names for them (Discord's: ``attach_files``...).
- ``ChannelGone``: the channel (or thread) no longer exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from table.core.posts import Post


class OutletError(Exception):
    """The channel did not take a post now (unreachable, an outage): the game stays unannounced and
    the next tick's catch-up tries again."""


class Refused(OutletError):
    """The channel refuses the bot until a moderator changes something there. ``kind`` says what:
    ``permissions`` (``missing`` names them), ``locked`` (a locked thread), ``archived`` (an archived
    thread the bot may not reopen; ``missing`` names what would let it)."""

    def __init__(self, kind: str, missing: tuple[str, ...] = (), detail: str = "") -> None:
        self.kind = kind
        self.missing = missing
        super().__init__(detail or f"refused ({kind}{': ' + ', '.join(missing) if missing else ''})")


class ChannelGone(OutletError):
    """The channel or thread was deleted: nothing can ever be posted there again."""


@dataclass(frozen=True)
class ChannelRate:
    """How many requests (posts and edits) one channel takes within ``seconds``."""

    requests: int
    seconds: float


class Outlet(Protocol):
    """Where a front end puts public posts and direct messages."""

    async def send(self, channel: str, post: Post) -> str:
        """Post in ``channel``; returns the message id. Raises ``OutletError`` when refused."""
        ...

    async def edit(self, channel: str, message: str, post: Post) -> bool:
        """Replace a post's text and image; False when it cannot be edited (a new post follows)."""
        ...

    async def direct(self, user: str, post: Post) -> bool:
        """A direct message; False when the user cannot be reached (closed DMs), never an error."""
        ...

    async def send_direct(self, user: str, post: Post) -> str | None:
        """A direct message to keep and edit later (a player's card): its message id; None when the
        user cannot be reached (closed DMs), never an error."""
        ...

    async def edit_direct(self, user: str, message: str, post: Post) -> bool:
        """Replace a kept direct message's text in place; False when it is gone (deleted: a new one
        follows). Raises ``OutletError`` when it stands but is not edited now (try again later)."""
        ...

    async def edit_kept(self, channel: str, message: str, post: Post) -> bool:
        """Replace a kept message of ``channel`` (a server's list of games) in place; False when it is
        gone (deleted: a new one follows). Raises ``OutletError`` when it stands but is not edited
        now (Discord: too many edits of a message older than an hour), and as ``send`` does when the
        channel refuses the bot."""
        ...


@runtime_checkable
class Rated(Protocol):
    """An outlet whose channels take posts at a limited rate, and may refuse them."""

    @property
    def rate(self) -> ChannelRate | None: ...


__all__ = ["ChannelGone", "ChannelRate", "Outlet", "OutletError", "Rated", "Refused"]
