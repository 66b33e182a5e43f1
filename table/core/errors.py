"""Refusals specific to tables and lobbies.

They are ``GameError`` subclasses so the front ends' single error handler shows them like
any rule error: the message in the caller's language, privately, with nothing changed.
"""

from __future__ import annotations

from engine.errors import GameError


class TableError(GameError):
    """A lobby or table request that cannot be honoured now."""

    default_key = "table.error.generic"


class NoGame(TableError):
    """The channel has no game the request could apply to."""

    default_key = "table.error.no_game"


class NotSeated(TableError):
    """Only seated players may do this."""

    default_key = "table.error.not_seated"


class BadOptions(TableError):
    """The options text of /game new does not fit the game's option specs."""

    default_key = "table.error.bad_option_syntax"


class Unreadable(TableError):
    """The channel's game was saved in a form this version cannot read: it can only be closed."""

    default_key = "table.error.unreadable"
