"""The ``Store`` interface, split by concern: each protocol below is one part of what the table layer
asks of persistence, and ``Store`` is their union, which both stores implement.

A part names what one concern needs (a module that only keeps listings can ask for ``Listings``), and
keeps each concern's guarantees next to its methods; ``db.Store`` stays the one type callers hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from db.ratings import Place, Standing
from db.records import (
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
from db.values import JSON


class Games(Protocol):
    """The games as they stand: one by id, a channel's open or latest one, and closing the store."""

    async def close(self) -> None: ...

    async def get_game(self, game_id: int) -> GameRecord | None: ...

    async def open_game(self, channel: str) -> GameRecord | None:
        """The channel's game in the lobby or running, if any."""
        ...

    async def latest_game(self, channel: str) -> GameRecord | None:
        """The channel's most recent game whatever its status (to show a finished game)."""
        ...


class Lobby(Protocol):
    """A game before it starts: opening it, the seats taken and left, and its start."""

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
        state: Mapping[str, JSON],
        seats: Sequence[Seat] | None = None,
        forced: Sequence[Forced] = (),
    ) -> GameRecord:
        """Lobby -> active at version 0, optionally rewriting seat order and teams; with ``forced``
        actions played at once (each marked automatic), at their version, ``state`` after them."""
        ...


class Moves(Protocol):
    """A running game's moves, each written over the version its player saw, and its ending."""

    async def apply_action(
        self,
        game_id: int,
        *,
        version: int,
        player: str,
        action: str,
        events: Sequence[JSON],
        state: Mapping[str, JSON],
        status: Status,
        result: Mapping[str, JSON] | None = None,
        forced: Sequence[Forced] = (),
    ) -> GameRecord:
        """One action and the ``forced`` ones it led to (marked automatic), in one transaction."""
        ...

    async def finish_game(
        self, game_id: int, *, version: int, status: Status, result: Mapping[str, JSON] | None
    ) -> GameRecord: ...

    async def actions(
        self, game_id: int, *, offset: int = 0, limit: int | None = None
    ) -> list[ActionRecord]: ...

    async def count_actions(self, game_id: int) -> int: ...

    async def game_lengths(self, game_ids: Sequence[int]) -> dict[int, GameLength]:
        """Each game's moves in its log (taken-back ones left out) and the times of its first and last
        move; games without moves are left out."""
        ...


class Votes(Protocol):
    """Draw offers and abort votes, which a move lets lapse, and undo by consent."""

    async def add_vote(
        self, game_id: int, kind: VoteKind, player: str, *, version: int
    ) -> dict[str, int]: ...

    async def votes(self, game_id: int, kind: VoteKind) -> dict[str, int]: ...

    async def clear_votes(self, game_id: int, kind: VoteKind) -> None: ...

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
        events: Sequence[JSON],
        state: Mapping[str, JSON],
    ) -> GameRecord:
        """Take back ``undone`` (kept in the log, marked) with an 'undo' row at ``version + 1``."""
        ...


class Announcements(Protocol):
    """What each channel was shown of its game, the waits it announced, and the notes of a game."""

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
        self, game_id: int, version: int, actor: str | None, event: Mapping[str, JSON]
    ) -> None: ...

    async def notes(self, game_id: int) -> list[Note]: ...


class Settings(Protocol):
    """What servers and players chose, the periods players are away, and the store's own values."""

    async def guild_settings(self, guild: str) -> dict[str, str]: ...

    async def set_guild_settings(self, guild: str, settings: Mapping[str, str]) -> None: ...

    async def notify(self, player: str) -> bool: ...

    async def set_notify(self, player: str, dm: bool) -> None: ...

    async def text_board(self, player: str) -> bool: ...

    async def set_text_board(self, player: str, on: bool) -> None: ...

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

    async def meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...


class Channels(Protocol):
    """Channels that refuse the bot, and what players are still to be told about them."""

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

    async def add_notices(self, players: Sequence[str], channel: str, event: Mapping[str, JSON]) -> None:
        """Keep ``event`` (an encoded message about ``channel``) for each of ``players``, to be told
        with their next answer."""
        ...

    async def take_notices(self, player: str) -> list[Notice]:
        """The player's notices, oldest first, deleted as they are read: each is told once."""
        ...

    async def noticed_players(self) -> list[str]:
        """The players with notices still to be told, each once."""
        ...


class Listings(Protocol):
    """Messages kept up to date in place: a player's card of their games, a server's list of games."""

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


class Leagues(Protocol):
    """Leagues: one document each, written over the revision its writer read."""

    async def create_league(
        self,
        *,
        channel: str,
        guild: str | None,
        name: str,
        game: str,
        creator: str,
        doc: Mapping[str, JSON],
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


class Records(Protocol):
    """Results of finished games, the ratings they make (``db.ratings``) and the names they show."""

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

    async def fill_sides(self) -> int:
        """Give the results recorded without ``sides`` (before the column existed) the sides their
        games' stored states show; how many were filled."""
        ...

    async def player_names(self, guild: str, players: Sequence[str]) -> dict[str, str]:
        """The display name each of ``players`` last sat down with at a table of server ``guild``
        ('' for games outside a server); players never seated there are left out."""
        ...


class Claims(Protocol):
    """Work one process does at a time, when several share the database."""

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


class Store(
    Games,
    Lobby,
    Moves,
    Votes,
    Announcements,
    Settings,
    Channels,
    Listings,
    Leagues,
    Records,
    Claims,
    Protocol,
):
    """What the table layer needs from persistence: every part above."""
