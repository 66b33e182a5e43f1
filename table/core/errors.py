"""Refusals specific to tables and lobbies, and the store's refusals as the player hears them.

They are ``GameError`` subclasses so the front ends' single error handler shows them like
any rule error: the message in the caller's language, privately, with nothing changed. The store
knows no game, so it refuses a stale version or a finished game with errors of its own
(``db.errors``); ``player_facing`` turns them into the engine's, whose messages the player knows.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

from db.errors import GameEnded, StaleVersion
from engine.errors import GameError, GameOver, StaleAction

T = TypeVar("T")


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


async def player_facing(write: Awaitable[T]) -> T:
    """Await a store write, a refusal the player can act on raised as the engine's error: a version
    the game has left as ``StaleAction`` (choose again on the latest board), a finished game as
    ``GameOver``. Anything else the store raises passes unchanged."""
    try:
        return await write
    except StaleVersion as stale:
        raise StaleAction(given=stale.given, current=stale.current) from stale
    except GameEnded as ended:
        raise GameOver() from ended
