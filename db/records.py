"""Plain values the store hands to the table layer.

They carry JSON already decoded (options, state, result, events) so that callers
never see SQL types, and a different store implementation can build the same values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Status = Literal["lobby", "active", "over", "aborted"]
VoteKind = Literal["draw", "abort"]

OPEN_STATUSES: tuple[Status, ...] = ("lobby", "active")


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
    state: dict[str, Any] | None
    result: dict[str, Any] | None
    seats: tuple[Seat, ...]
    created_at: str
    updated_at: str

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
    events: list[Any]
    created_at: str
