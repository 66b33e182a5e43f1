"""Store failures that the table layer turns into player-facing messages.

A stale version is not here: it raises ``engine.errors.StaleAction`` directly, because
the player-facing meaning (choose again on the latest board) is the same at every layer.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base class of refusals by the store."""


class ChannelBusy(StoreError):
    """The channel already has a game in the lobby or running."""

    def __init__(self, channel: str, game_id: int | None = None, game: str | None = None) -> None:
        super().__init__(f"channel {channel} already has an open game ({game} #{game_id})")
        self.channel = channel
        self.game_id = game_id
        self.game = game


class LeagueBusy(StoreError):
    """The channel already has a league signing up or running."""

    def __init__(self, channel: str, league_id: int | None = None, name: str | None = None) -> None:
        super().__init__(f"channel {channel} already has a league ({name} #{league_id})")
        self.channel = channel
        self.league_id = league_id
        self.name = name


class Conflict(StoreError):
    """The game changed under the caller (status or seats no longer what was expected)."""
