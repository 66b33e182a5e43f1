"""What a front end hands in (``Ctx``) and gets back (``Post``) for every command.

Both are front-end neutral: the Discord cogs build a ``Ctx`` from an interaction and send
each ``Post`` as a message; the console builds one from a typed line and prints it.

A post made once: a channel post carries a nonce naming what it announces (a handover's is
``g<game>.v<version>.<status>``, at most 25 characters), which discord.py sends with ``enforce_nonce``.
Discord answers a post whose nonce the bot used within a few minutes with the message made then, so a process
killed after Discord made its post and before the store recorded it (or two processes posting the same
handover) leaves one message; the store records the id Discord returns. The fake Discord applies the same
rule, on a clock a test can move past the window.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TypedDict

from table.core.limits import Limits


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
class Button:
    """A button under a post: what pressing it does, for which game and position.

    Front-end neutral: Discord turns it into a persistent component whose id carries ``game``,
    ``version`` and ``action`` (``g:<game>:v<version>:<action>``), so a button from last week still
    works after any restart; the console lists what could be pressed. ``action`` is one of the
    table's button actions (``join``, ``start``, ``hand``, ``moves``, ``draw_accept``...), with an
    argument after a colon where needed (``team:2``).
    """

    action: str
    label: str  # already translated
    game: int
    version: int = 0
    style: str = "secondary"  # primary, secondary, success or danger
    scope: str = "g"
    """``g``: a game's button; ``l``: a league's (``game`` is then the league's id), whose custom id is
    ``l:<league>:<action>``."""

    @property
    def custom_id(self) -> str:
        if self.scope == "l":
            return f"l:{self.game}:{self.action}"
        return f"g:{self.game}:v{self.version}:{self.action}"


@dataclass(frozen=True)
class Menu:
    """A choice among up to 25 options, for a select menu: ``(label, value)`` pairs.

    ``value`` says what choosing does: ``a:<action text>`` plays it, ``g:<prefix>`` opens the group
    of moves starting with those words, ``p:<page>:<prefix>`` turns to another page of the group.
    """

    title: str
    options: tuple[tuple[str, str], ...]
    game: int
    version: int

    @property
    def custom_id(self) -> str:
        return f"g:{self.game}:v{self.version}:pick"


@dataclass(frozen=True)
class Post:
    """One message to send; the first answers the interaction, later ones are follow-ups."""

    text: str  # already translated; players, channels and moments as marks (``table.core.marks``)
    image: bytes | None = None
    filename: str = "board.png"
    alt: str = ""  # the image's alt text, in the post's language (Discord's attachment description)
    mentions: tuple[str, ...] = ()  # user ids this post pings
    ephemeral: bool = False
    buttons: tuple[Button, ...] = ()
    menu: Menu | None = None
    update: bool = False  # replaces the message whose button or menu was used (else a new message)
    nonce: str | None = None
    """What the channel post announces, as a short key (``post_nonce``): the same post made again
    (after a crash between Discord creating it and the store recording it) carries the same nonce,
    and Discord returns the message it already created instead of a second one."""


def post_nonce(*parts: object, limits: Limits) -> str:
    """A nonce naming what a post announces (a game, a version, a kind of post...): the parts joined
    by dots, or a digest of them when that is too long. Equal parts give equal nonces in any process,
    so a post repeated after a restart is the same request. The result leaves room for the front end
    to number the pieces of a long post (``piece_nonce``), within the front end's ``limits``."""
    text = ".".join(str(p) for p in parts)
    if len(text) <= limits.nonce - 3:
        return text
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()[: limits.nonce - 3]


def piece_nonce(nonce: str, index: int, limits: Limits) -> str:
    """The nonce of the ``index``-th message of a post split to the front end's length of a message,
    within its ``limits``."""
    if index == 0:
        return nonce
    text = f"{nonce}/{index}"
    return text if len(text) <= limits.nonce else post_nonce(nonce, index, limits=limits)


@dataclass(frozen=True)
class Picture:
    """A drawn image and its alt text, in one language, from one view."""

    data: bytes
    alt: str


class Pictured(TypedDict, total=False):
    """A post's fields for its image."""

    image: bytes
    alt: str


def pictured(picture: Picture | None) -> Pictured:
    """A post's ``image`` and ``alt`` from a drawn picture (none when the drawing failed)."""
    return Pictured() if picture is None else {"image": picture.data, "alt": picture.alt}


BOT_PREFIX = "bot:"
"""The start of every computer player's id: no Discord user id (digits) or console name (no colon)
can begin so."""


def is_bot(player_id: str) -> bool:
    """Whether ``player_id`` is a computer player's seat, which is never pinged nor messaged."""
    return player_id.startswith(BOT_PREFIX)
