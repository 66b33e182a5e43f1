"""Persistence of games: the ``Store`` interface, its SQLite and PostgreSQL implementations.

The table layer depends only on ``Store`` and the records below, so another backend (a
networked database for a bot that outgrows one machine, ``db.postgres``) can replace SQLite by
providing the same methods with the same guarantees:

- at most one game in the lobby or running per channel;
- ``apply_action`` writes the action row, the new version and the new state atomically and
  only if the game is still at the expected version (else ``db.errors.StaleVersion``);
- a finished game (``over`` / ``aborted``) accepts no more writes (``db.errors.GameEnded``).

The interface is the union of one protocol per concern (``db.protocols``); the rules both stores
follow are written once (``db.rules``), each store adding only what its database does its own way.

``open_store`` picks the implementation from what it is given: a ``postgresql://`` URL opens
PostgreSQL, anything else is the path of a SQLite file.

Both stores hand back the same records (``db.records``), built from rows by the same functions
(``db.encoding``): JSON columns hold the same canonical text (sorted keys), times are ISO 8601 text
in UTC to the millisecond, ratings the same IEEE 754 doubles, so a game reads back equal from either.
Every write is one transaction. SQLite has one writer at a time; PostgreSQL runs transactions side by
side, so every write that reads before deciding (a join, a move, an ending, a vote) first locks its
game's row (``SELECT ... FOR UPDATE``) and a second writer decides on what the first wrote; a rated
result updates its players' ratings in the same transaction, under an advisory lock in PostgreSQL,
so the order of the results' ids is the order the updates were made in and a recomputation
(``python -m db recompute-ratings``) gives the same numbers.
"""

from __future__ import annotations

import os

from db.errors import ChannelBusy, Conflict, GameEnded, LeagueBusy, StaleVersion, StoreError
from db.protocols import (
    Announcements,
    Channels,
    Claims,
    Games,
    Leagues,
    Listings,
    Lobby,
    Moves,
    Records,
    Settings,
    Store,
    Votes,
)
from db.ratings import Place, Standing
from db.records import (
    OPEN_STATUSES,
    ActionRecord,
    Announcement,
    Announcing,
    Away,
    ChannelFault,
    Forced,
    GameLength,
    GameRecord,
    LeagueRecord,
    LeagueStatus,
    Listing,
    Note,
    Notice,
    ResultRecord,
    Seat,
    Status,
    UndoRequest,
    VoteKind,
)
from db.sqlite import SqliteStore


def is_postgres_url(target: object) -> bool:
    """Whether ``target`` names a PostgreSQL database (``postgresql://...``) rather than a file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


async def open_store(target: str | os.PathLike[str]) -> Store:
    """Open the store ``target`` names, creating and migrating it as needed: a ``postgresql://``
    URL (asyncpg's form, e.g. ``postgresql://bot:secret@db:5432/bot``) or a SQLite file's path."""
    if is_postgres_url(target):
        from db import postgres  # asyncpg is loaded only by bots that use it

        return await postgres.open_store(str(target))
    from db import sqlite

    return await sqlite.open_store(os.fspath(target))


__all__ = [
    "OPEN_STATUSES",
    "ActionRecord",
    "Announcement",
    "Announcements",
    "Announcing",
    "Away",
    "ChannelBusy",
    "ChannelFault",
    "Channels",
    "Claims",
    "Conflict",
    "Forced",
    "GameEnded",
    "GameLength",
    "GameRecord",
    "Games",
    "LeagueBusy",
    "LeagueRecord",
    "LeagueStatus",
    "Leagues",
    "Listing",
    "Listings",
    "Lobby",
    "Moves",
    "Note",
    "Notice",
    "Place",
    "Records",
    "ResultRecord",
    "Seat",
    "Settings",
    "SqliteStore",
    "StaleVersion",
    "Standing",
    "Status",
    "Store",
    "StoreError",
    "UndoRequest",
    "VoteKind",
    "Votes",
    "is_postgres_url",
    "open_store",
]
