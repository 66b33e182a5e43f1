"""Store failures that the table layer turns into player-facing messages.

The store knows no game and imports nothing of the engine, so its refusals are its own: a write
against a version that is no longer the game's (``StaleVersion``) and a write to a finished game
(``GameEnded``) carry what the player's message needs, and the table layer
(``table.core.errors.player_facing``) raises the engine's ``StaleAction`` and ``GameOver`` from them.
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


class StaleVersion(StoreError):
    """A write chosen against version ``given`` came when the game was at ``current`` (a lobby game
    counts as version 0, which no move may be applied to): nothing was written."""

    def __init__(self, game_id: int, given: int, current: int) -> None:
        super().__init__(f"game #{game_id} is at version {current}, not {given}")
        self.game_id = game_id
        self.given = given
        self.current = current


class GameEnded(StoreError):
    """The game is over or aborted and takes no more writes: nothing was written."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game #{game_id} has ended")
        self.game_id = game_id
