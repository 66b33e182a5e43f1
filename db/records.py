"""Plain values the store hands to the table layer.

They carry JSON already decoded (options, state, result, events) so that callers
never see SQL types, and a different store implementation can build the same values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypedDict

from db.ratings import Change, Place
from db.values import JSON

Status = Literal["lobby", "active", "over", "aborted"]
VoteKind = Literal["draw", "abort"]
LeagueStatus = Literal["signup", "running", "over"]

OPEN_STATUSES: tuple[Status, ...] = ("lobby", "active")


class PlayerWaitJson(TypedDict, total=False):
    """A player's part of a wait as an announcement stores it (``table.core.timing``): only what is set."""

    next: str
    ping: str
    pace: int
    told: str
    reminded: int


class TimingJson(TypedDict, total=False):
    """The per-player part of an announcement as it is stored (``table.core.timing``): only what is set."""

    players: dict[str, PlayerWaitJson]
    paused: dict[str, int]
    raw: str
    accounted: str
    last: bool


@dataclass(frozen=True)
class Seat:
    """A seated player: id (Discord snowflake or console name), display name at join time, team."""

    player: str
    name: str
    team: int | None = None


@dataclass(frozen=True)
class GameRecord:
    """One game as stored: the lobby settings, the seats and, once started, the engine's dump."""

    id: int
    channel: str
    game: str
    status: Status
    creator: str
    players: int
    options: dict[str, str]
    seed: int
    version: int
    state: dict[str, JSON] | None
    result: dict[str, JSON] | None
    seats: tuple[Seat, ...]
    created_at: str
    updated_at: str
    guild: str | None = None
    locale: str | None = None
    settings: dict[str, str] = field(default_factory=dict)

    @property
    def player_ids(self) -> list[str]:
        """Seat order, which is the engine's player order."""
        return [s.player for s in self.seats]

    def seat_of(self, player: str) -> Seat | None:
        return next((s for s in self.seats if s.player == player), None)

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


@dataclass(frozen=True)
class ActionRecord:
    """One applied action; ``seq`` is the game version it produced."""

    game_id: int
    seq: int
    player: str
    action: str
    events: list[JSON]
    created_at: str
    kind: str = "move"  # "move": an action of the game; "undo": an accepted undo of earlier moves
    undone: bool = False  # taken back by a later undo (kept in the log, skipped by replays)
    auto: bool = False  # played for its player, whom the rules left no other action (a forced move)


@dataclass(frozen=True)
class Forced:
    """An action the rules left its player no choice in, played for them at once: stored with the
    action (or the start) that led to it, in the same transaction, marked automatic in the log."""

    player: str
    action: str
    events: list[JSON]


@dataclass(frozen=True)
class UndoRequest:
    """A player's standing request to take back their actions ``first``..``version``."""

    game_id: int
    player: str
    first: int
    version: int
    accepted: tuple[str, ...] = ()


@dataclass(frozen=True)
class Announcement:
    """What a started game's channel was last shown, and the wait that began with it.

    ``version`` and ``status`` are the last ones announced: a game whose stored version or status is
    ahead has something unannounced (a crash between storing a move and posting it). ``message`` is
    the handover post that is edited while the same players keep acting; ``since`` is the version at
    which that handover began, ``summary_from`` the version its summary starts after, and ``to_act``
    who it asked to act. Times are ISO 8601 in UTC, from the table layer's clock. ``rev`` counts the
    writes: a write names the ``rev`` it read and fails if another writer came first.
    """

    game_id: int
    version: int
    status: Status
    since: int
    summary_from: int
    to_act: tuple[str, ...] = ()
    message: str | None = None
    posted_at: str | None = None
    waiting_since: str | None = None
    reminders: int = 0
    next_reminder: str | None = None
    deadline: str | None = None
    deadline_done: bool = False
    rev: int = 0
    timing: TimingJson = field(default_factory=TimingJson)
    """Each waited-for player's part of the wait and the pauses of the game (``table.core.timing``)."""


@dataclass(frozen=True)
class Away:
    """A period ``player`` said they were away in server ``guild`` ('' outside any server), from
    ``since`` to ``until`` (ISO 8601 in UTC; brought forward when they came back early)."""

    id: int
    player: str
    guild: str
    since: str
    until: str


@dataclass(frozen=True)
class Note:
    """A table-level event in a game's log (moderation, a deadline), after action ``version``."""

    game_id: int
    version: int
    actor: str | None
    event: dict[str, JSON]
    created_at: str


@dataclass(frozen=True)
class Announcing:
    """What posting a game's news reads, as one snapshot shows it, in one trip to the store: the game,
    what its channel was shown, the log from where that post's summary begins (``after``: the
    announcement's ``summary_from``, 0 when there is none; a post summarises from there or later),
    the game's notes and its server's settings (the language of its posts)."""

    game: GameRecord | None
    announcement: Announcement | None
    after: int = 0
    log: tuple[ActionRecord, ...] = ()
    notes: tuple[Note, ...] = ()
    guild_settings: dict[str, str] = field(default_factory=dict)

    def actions(self, after: int, upto: int) -> list[ActionRecord]:
        """The log's actions in ``(after, upto]`` (``after`` no earlier than this read's), as
        ``Store.actions(offset=after, limit=upto - after)`` gives them."""
        if upto <= after:
            return []
        if after < self.after:
            raise ValueError(f"the log was read after {self.after}, not {after}")
        return list(self.log[after - self.after : upto - self.after])


@dataclass(frozen=True)
class ChannelFault:
    """A channel that refuses the bot's posts until someone changes something there.

    ``kind`` is what the front end said (``permissions``, ``locked``, ``archived``), ``missing`` the
    permissions it lacks there when known (the front end's names). ``tries`` counts the refusals since
    ``since``; the channel is left alone until ``next_try``. Times are ISO 8601 in UTC, from the
    table layer's clock.
    """

    channel: str
    kind: str
    missing: tuple[str, ...]
    since: str
    tries: int
    next_try: str


@dataclass(frozen=True)
class Listing:
    """A message the bot keeps up to date in place: a player's card of all their games (a direct
    message; ``owner`` is ``player:<id>``) or a server's list of its open games (``server:<id>``, in
    ``channel``). ``message`` is the message edited (None until it is first sent), in ``locale``;
    ``changed`` counts the changes that concern it and ``shown`` the count its message shows, so a
    message behind (``behind``) is brought up to date by whichever process comes to it."""

    owner: str
    channel: str | None
    locale: str
    message: str | None
    changed: int
    shown: int
    updated_at: str

    @property
    def behind(self) -> bool:
        return self.changed > self.shown


@dataclass(frozen=True)
class Notice:
    """A message (an encoded ``Msg``) a player is still to be told, about a channel."""

    id: int
    player: str
    channel: str
    event: dict[str, JSON]
    created_at: str


@dataclass(frozen=True)
class GameLength:
    """How long a game went on, from its log: the moves played (taken-back ones left out) and the
    times (ISO 8601, UTC) of the first and the last one."""

    moves: int
    first: str
    last: str


@dataclass(frozen=True)
class ResultRecord:
    """How a finished game ended, as recorded for ratings and history (``db.ratings``).

    ``id`` is the order results were recorded in, which is the order ratings take them in;
    ``changes`` is what the result did to its players' ratings (none when it is not rated)."""

    id: int
    game_id: int
    guild: str
    pool: str
    rated: bool
    places: tuple[Place, ...]
    finished_at: str
    changes: tuple[Change, ...] = ()
    sides: dict[str, tuple[str, ...]] | None = None
    """What each player played (``db.sides``); None while not known yet."""

    def change_of(self, player: str) -> Change | None:
        return next((c for c in self.changes if c.player == player), None)

    def side_of(self, player: str) -> tuple[str, ...]:
        """What ``player`` played (nothing when it is not known)."""
        return (self.sides or {}).get(player, ())

    def place_of(self, player: str) -> Place | None:
        return next((p for p in self.places if p.player == player), None)


@dataclass(frozen=True)
class LeagueRecord:
    """A league as stored: where it lives, what it plays, and its document (``doc``: players, rounds,
    tables, results as counted, the posts kept edited), which ``table.leagues`` reads and writes whole.
    ``rev`` counts the writes: a write names the ``rev`` it read and fails if another writer came first."""

    id: int
    channel: str
    guild: str | None
    name: str
    game: str
    status: LeagueStatus
    creator: str
    doc: dict[str, JSON]
    rev: int
    created_at: str
    updated_at: str
