"""Mentions, channel links and moments inside a post's text, as values each front end renders.

The table layer writes no front end's markup. A post's text holds, where it names a player, a
channel or a moment, a mark (``mention``, ``channel_link``, ``moment``): a short token between two
characters of Unicode's private use area, which no catalog, name or typed text holds. A front end
reads the text as values (``parts``: plain ``str`` between ``Mention``, ``ChannelLink`` and
``Moment``) and writes each its own way through its ``Markup`` (``render``): the Discord cogs as
Discord's markup, which every reader sees in their own time zone; the console as ``@name``,
``#channel`` and a UTC date.

A mark is exactly as long as Discord's markup for it, so what the table shortens to a message's
length holds once rendered for Discord; ``WHOLE`` finds the marks, which ``clip`` and ``shorten``
never cut.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

OPEN = "\ue000"
CLOSE = "\ue001"

WHOLE = re.compile(f"{OPEN}(?:@[^{CLOSE}]+|#[^{CLOSE}]+|t:-?\\d+:[A-Za-z]){CLOSE}")
"""A mark: a text cut inside one would show its pieces and name nobody."""


@dataclass(frozen=True)
class Mention:
    """A player named so that a front end may ping them (Discord) or show their name (console)."""

    user_id: str


@dataclass(frozen=True)
class ChannelLink:
    """A channel or thread, by its id: a link on Discord, its name in the console."""

    channel_id: str


@dataclass(frozen=True)
class Moment:
    """A moment, to the second, and how it reads: Discord's styles, ``R`` (relative, "in 2 hours"),
    ``f`` (date and time), ``F`` (with the weekday), ``d`` (date); the console shows a UTC date."""

    at: datetime
    style: str = "R"


Part = str | Mention | ChannelLink | Moment


def mention(user_id: str) -> str:
    """The mark of a player named in a text."""
    return f"{OPEN}@{user_id}{CLOSE}"


def channel_link(channel_id: str) -> str:
    """The mark of a channel or thread named in a text."""
    return f"{OPEN}#{channel_id}{CLOSE}"


def moment(at: datetime, style: str = "R") -> str:
    """The mark of a moment (to the second) in a text, to read in ``style`` (``Moment``)."""
    return f"{OPEN}t:{int(at.timestamp())}:{style}{CLOSE}"


def _value(mark: str) -> Mention | ChannelLink | Moment:
    body = mark[1:-1]
    if body.startswith("@"):
        return Mention(body[1:])
    if body.startswith("#"):
        return ChannelLink(body[1:])
    _t, seconds, style = body.split(":")
    return Moment(datetime.fromtimestamp(int(seconds), UTC), style)


def parts(text: str) -> Iterator[Part]:
    """``text`` as values: its plain stretches (never empty) and its marks, in order."""
    at = 0
    for found in WHOLE.finditer(text):
        if found.start() > at:
            yield text[at : found.start()]
        yield _value(found[0])
        at = found.end()
    if at < len(text):
        yield text[at:]


class Markup(Protocol):
    """How a front end writes the values a text holds."""

    def mention(self, user_id: str) -> str: ...

    def channel(self, channel_id: str) -> str: ...

    def moment(self, at: datetime, style: str) -> str: ...


def render(text: str, markup: Markup) -> str:
    """``text`` with each mark written by ``markup``; a text without marks is returned as it is."""
    if OPEN not in text:
        return text
    out: list[str] = []
    for part in parts(text):
        if isinstance(part, Mention):
            out.append(markup.mention(part.user_id))
        elif isinstance(part, ChannelLink):
            out.append(markup.channel(part.channel_id))
        elif isinstance(part, Moment):
            out.append(markup.moment(part.at, part.style))
        else:
            out.append(part)
    return "".join(out)


__all__ = [
    "CLOSE",
    "OPEN",
    "WHOLE",
    "ChannelLink",
    "Markup",
    "Mention",
    "Moment",
    "Part",
    "channel_link",
    "mention",
    "moment",
    "parts",
    "render",
]
