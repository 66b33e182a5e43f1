"""Persistence of games: the ``Store`` interface, its SQLite and PostgreSQL implementations.

The table layer depends only on ``Store`` and the records below, so another backend (a
networked database for a bot that outgrows one machine, ``db.postgres``) can replace SQLite by
providing the same methods with the same guarantees:

- at most one game in the lobby or running per channel;
- ``apply_action`` writes the action row, the new version and the new state atomically and
  only if the game is still at the expected version (else ``engine.errors.StaleAction``);
- a finished game (``over`` / ``aborted``) accepts no more writes (``engine.errors.GameOver``).

``open_store`` picks the implementation from what it is given: a ``postgresql://`` URL opens
PostgreSQL, anything else is the path of a SQLite file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from db.errors import ChannelBusy, Conflict, LeagueBusy, StoreError
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


class Store(Protocol):
    """What the table layer needs from persistence."""

    async def close(self) -> None: ...

    async def get_game(self, game_id: int) -> GameRecord | None: ...

    async def open_game(self, channel: str) -> GameRecord | None:
        """The channel's game in the lobby or running, if any."""
        ...

    async def latest_game(self, channel: str) -> GameRecord | None:
        """The channel's most recent game whatever its status (to show a finished game)."""
        ...

    async def create_game(
        self,
        *,
        channel: str,
        game: str,
        creator: Seat,
        players: int,
        options: Mapping[str, str],
        seed: int,
        guild: str | None = None,
        locale: str | None = None,
        settings: Mapping[str, str] | None = None,
    ) -> GameRecord:
        """A new lobby with its creator seated; ``ChannelBusy`` if the channel has an open game."""
        ...

    async def add_seat(self, game_id: int, seat: Seat) -> GameRecord: ...

    async def remove_seat(self, game_id: int, player: str, *, heir: str | None = None) -> GameRecord: ...

    async def start_game(
        self,
        game_id: int,
        *,
        state: Mapping[str, Any],
        seats: Sequence[Seat] | None = None,
        forced: Sequence[Forced] = (),
    ) -> GameRecord:
        """Lobby -> active at version 0, optionally rewriting seat order and teams; with ``forced``
        actions played at once (each marked automatic), at their version, ``state`` after them."""
        ...

    async def apply_action(
        self,
        game_id: int,
        *,
        version: int,
        player: str,
        action: str,
        events: Sequence[Any],
        state: Mapping[str, Any],
        status: Status,
        result: Mapping[str, Any] | None = None,
        forced: Sequence[Forced] = (),
    ) -> GameRecord:
        """One action and the ``forced`` ones it led to (marked automatic), in one transaction."""
        ...

    async def finish_game(
        self, game_id: int, *, version: int, status: Status, result: Mapping[str, Any] | None
    ) -> GameRecord: ...

    async def actions(
        self, game_id: int, *, offset: int = 0, limit: int | None = None
    ) -> list[ActionRecord]: ...

    async def count_actions(self, game_id: int) -> int: ...

    async def add_vote(
        self, game_id: int, kind: VoteKind, player: str, *, version: int
    ) -> dict[str, int]: ...

    async def votes(self, game_id: int, kind: VoteKind) -> dict[str, int]: ...

    async def clear_votes(self, game_id: int, kind: VoteKind) -> None: ...

    # play-by-post: what each channel was shown, waits, notes and settings

    async def set_guild(self, game_id: int, guild: str) -> None: ...

    async def set_locale(self, game_id: int, locale: str) -> None: ...

    async def announcement(self, game_id: int) -> Announcement | None: ...

    async def game_and_announcement(self, game_id: int) -> tuple[GameRecord | None, Announcement | None]:
        """The game and its announcement as one snapshot shows them, in one read."""
        ...

    async def announcing(self, game_id: int) -> Announcing:
        """The game, its announcement, its log from the announcement's ``summary_from``, its notes and
        its server's settings, as one snapshot shows them: all a post reads, in one trip."""
        ...

    async def save_announcement(self, new: Announcement) -> Announcement | None:
        """Write ``new`` only if the stored row is still at ``new.rev`` (0: none yet); None if not."""
        ...

    async def unannounced(self) -> list[GameRecord]:
        """Started games whose stored version or status is ahead of what their channel was shown."""
        ...

    async def due(self, now: str) -> list[tuple[GameRecord, Announcement]]:
        """Running, fully announced games whose next reminder or deadline is at or before ``now``."""
        ...

    async def games_of(
        self, player: str, guild: str | None
    ) -> list[tuple[GameRecord, Announcement | None]]: ...

    async def open_games(
        self, *, player: str | None = None, guild: str | None = None
    ) -> list[tuple[GameRecord, Announcement | None]]:
        """The open games ``player`` sits in, in every server, or (``guild``) the open games of a
        server ('' for the games outside any), oldest first, each with its announcement."""
        ...

    async def running_with(self, prefix: str) -> list[GameRecord]:
        """Running games with a seat, or a note's actor, whose id starts with ``prefix`` (the games
        computer players sit in or stand in at), oldest first."""
        ...

    async def add_note(
        self, game_id: int, version: int, actor: str | None, event: Mapping[str, Any]
    ) -> None: ...

    async def notes(self, game_id: int) -> list[Note]: ...

    async def guild_settings(self, guild: str) -> dict[str, str]: ...

    async def set_guild_settings(self, guild: str, settings: Mapping[str, str]) -> None: ...

    async def notify(self, player: str) -> bool: ...

    async def set_notify(self, player: str, dm: bool) -> None: ...

    async def text_board(self, player: str) -> bool: ...

    async def set_text_board(self, player: str, on: bool) -> None: ...

    async def meta(self, key: str) -> str | None: ...

    # a player's own time: their settings in every server, and the periods they are away

    async def player_settings(self, players: Sequence[str]) -> dict[str, dict[str, str]]:
        """Each of ``players``' own settings (texts by name); players who chose none are left out."""
        ...

    async def set_player_settings(self, player: str, changes: Mapping[str, str | None]) -> dict[str, str]:
        """Change some of ``player``'s own settings (None forgets one); their settings now."""
        ...

    async def add_away(self, player: str, guild: str, since: str, until: str) -> Away:
        """``player`` is away in ``guild`` from ``since`` to ``until``: a period they were still away
        in ends at ``since``, and the new one is recorded."""
        ...

    async def end_away(self, player: str, guild: str, at: str) -> Away | None:
        """``player`` is back in ``guild`` at ``at``: the period they were away in then ends there; that
        period, None when they were not away."""
        ...

    async def away(self, guild: str, players: Sequence[str], after: str) -> list[Away]:
        """The periods ``players`` are or were away in ``guild`` that end after ``after``, by start."""
        ...

    # channels that refuse the bot, and what players are still to be told

    async def channel_faults(self) -> list[ChannelFault]:
        """Every channel that refuses the bot now, by channel."""
        ...

    async def add_fault(self, fault: ChannelFault) -> bool:
        """Record that ``fault.channel`` refuses the bot; False (and nothing written) when a fault of
        that channel is recorded already (it keeps its ``since``: update it with ``update_fault``)."""
        ...

    async def update_fault(self, fault: ChannelFault) -> None:
        """Write the channel's recorded fault again (another refusal: its tries, its next try)."""
        ...

    async def drop_fault(self, channel: str) -> bool:
        """The channel takes the bot's posts again: forget its fault, and the notices about it not told
        yet; whether it had one."""
        ...

    async def add_notices(self, players: Sequence[str], channel: str, event: Mapping[str, Any]) -> None:
        """Keep ``event`` (an encoded message about ``channel``) for each of ``players``, to be told
        with their next answer."""
        ...

    async def take_notices(self, player: str) -> list[Notice]:
        """The player's notices, oldest first, deleted as they are read: each is told once."""
        ...

    async def noticed_players(self) -> list[str]:
        """The players with notices still to be told, each once."""
        ...

    # messages kept up to date in place: a player's card of their games, a server's list of games

    async def listings(self, owners: Sequence[str]) -> list[Listing]:
        """The listings of ``owners`` that exist, by owner."""
        ...

    async def listings_behind(self) -> list[Listing]:
        """The listings whose message does not show their latest change yet, by owner."""
        ...

    async def put_listing(self, owner: str, *, channel: str | None, locale: str) -> Listing:
        """Keep a listing for ``owner`` in ``channel`` (none: a direct message), due to be shown; one
        kept already keeps its message unless its channel changes."""
        ...

    async def drop_listing(self, owner: str) -> Listing | None:
        """Stop keeping ``owner``'s listing; the one there was."""
        ...

    async def mark_listings(self, owners: Sequence[str]) -> list[Listing]:
        """A change concerns ``owners``: those with a listing count it (it is behind); those listings."""
        ...

    async def listing_shown(
        self, owner: str, *, channel: str | None, message: str, shown: int
    ) -> Listing | None:
        """The listing's ``message`` in ``channel`` now shows its changes up to ``shown``; None when
        it is no longer kept there."""

    # leagues: one document each, written over the revision its writer read

    async def create_league(
        self,
        *,
        channel: str,
        guild: str | None,
        name: str,
        game: str,
        creator: str,
        doc: Mapping[str, Any],
    ) -> LeagueRecord:
        """A new league signing up in ``channel``; ``LeagueBusy`` if the channel has one open."""
        ...

    async def get_league(self, league_id: int) -> LeagueRecord | None: ...

    async def open_league(self, channel: str) -> LeagueRecord | None:
        """The channel's league signing up or running, if any."""
        ...

    async def leagues(
        self, statuses: Sequence[LeagueStatus], *, guild: str | None = None
    ) -> list[LeagueRecord]:
        """The leagues of these statuses (of server ``guild`` only, when given), oldest first."""
        ...

    async def save_league(self, league: LeagueRecord) -> LeagueRecord | None:
        """Write ``league`` (its name, status and document) only if the stored row is still at
        ``league.rev``; the row as stored, its ``rev`` bumped, or None when another writer came first."""
        ...

    # undo by consent

    async def request_undo(self, game_id: int, player: str, *, first: int, version: int) -> UndoRequest: ...

    async def undo_request(self, game_id: int) -> UndoRequest | None: ...

    async def accept_undo(self, game_id: int, player: str, *, version: int) -> UndoRequest: ...

    async def clear_undo(self, game_id: int) -> None: ...

    async def apply_undo(
        self,
        game_id: int,
        *,
        version: int,
        player: str,
        undone: Sequence[int],
        events: Sequence[Any],
        state: Mapping[str, Any],
    ) -> GameRecord:
        """Take back ``undone`` (kept in the log, marked) with an 'undo' row at ``version + 1``."""
        ...

    async def set_meta(self, key: str, value: str) -> None: ...

    # results of finished games and the ratings they make (db.ratings)

    async def record_result(
        self,
        game_id: int,
        *,
        guild: str,
        pool: str,
        rated: bool,
        places: Sequence[Place],
        finished_at: str,
        sides: Mapping[str, Sequence[str]] | None = None,
    ) -> ResultRecord:
        """Record how a game ended (and what each player played, ``db.sides``) and, when rated,
        update its players' ratings, in one transaction; a game recorded already keeps its stored
        result, which is returned."""
        ...

    async def player_names(self, guild: str, players: Sequence[str]) -> dict[str, str]:
        """The display name each of ``players`` last sat down with at a table of server ``guild``
        ('' for games outside a server); players never seated there are left out."""
        ...

    async def fill_sides(self) -> int:
        """Give the results recorded without ``sides`` (before the column existed) the sides their
        games' stored states show; how many were filled."""
        ...

    async def game_lengths(self, game_ids: Sequence[int]) -> dict[int, GameLength]:
        """Each game's moves in its log (taken-back ones left out) and the times of its first and last
        move; games without moves are left out."""
        ...

    async def result_of(self, game_id: int) -> ResultRecord | None: ...

    async def unrecorded(self) -> list[GameRecord]:
        """Started games that ended and have no result yet, in the order they ended."""
        ...

    async def results(
        self,
        guild: str,
        *,
        pool: str | None = None,
        player: str | None = None,
        offset: int = 0,
        limit: int | None = None,
    ) -> list[ResultRecord]:
        """The server's results, newest first; only ``pool``'s, only those ``player`` played, when given."""
        ...

    async def standings(self, guild: str, pool: str) -> list[Standing]:
        """Every rated player of a pool of a server, best conservative rating first."""
        ...

    async def recompute_ratings(self) -> int:
        """Rebuild every rating from the rated results in their recorded order (and fill the sides
        still missing, ``fill_sides``); how many rated results there were."""
        ...

    async def unrate(self, game_id: int) -> ResultRecord | None:
        """Take a recorded game out of the ratings (recomputed without it, in the same transaction);
        the result as it now stands, None when the game has none."""
        ...

    # work one process does at a time, when several share the database

    async def claim(self, key: str, owner: str, lease: float) -> bool:
        """Take (or renew) the claim ``key`` for ``owner`` for ``lease`` seconds; False while another
        owner holds it unexpired. A claim of a killed process lapses with its lease."""
        ...

    async def release(self, key: str, owner: str) -> None:
        """Give up ``owner``'s claim ``key`` (nothing when another owner holds it by now)."""
        ...

    async def claim_owners(self) -> list[str]:
        """The owners of the claims in the store, expired or not, each once."""
        ...

    async def release_owner(self, owner: str) -> int:
        """Give up every claim ``owner`` holds (a clean stop, or a process found gone); how many."""
        ...

    async def next_generation(self, scope: str) -> int:
        """Count one more start of a process serving ``scope`` (which shards it runs); its number,
        1 for the first. Two starts never get the same number."""
        ...


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
    "Announcing",
    "Away",
    "ChannelBusy",
    "ChannelFault",
    "Conflict",
    "Forced",
    "GameLength",
    "GameRecord",
    "LeagueBusy",
    "LeagueRecord",
    "LeagueStatus",
    "Listing",
    "Note",
    "Notice",
    "Place",
    "ResultRecord",
    "Seat",
    "SqliteStore",
    "Standing",
    "Status",
    "Store",
    "StoreError",
    "UndoRequest",
    "VoteKind",
    "is_postgres_url",
    "open_store",
]
