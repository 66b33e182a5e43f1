"""The one error family every game and layer raises for bad player input.

Each error carries a ``Msg`` written for the player: it names what was wrong and,
where it can, what would be legal instead. Front ends catch ``GameError`` and show
the message (ephemerally on Discord); anything else is a bug, never shown raw.
"""

from __future__ import annotations

from engine.text import Msg


class GameError(Exception):
    """Base class: a refused request that changes nothing."""

    default_key = "error.generic"

    def __init__(self, key: str | None = None, /, **params: object) -> None:
        self.msg = Msg(key or self.default_key, params)
        super().__init__(str(self.msg))


class IllegalAction(GameError):
    """The action is well formed but the rules forbid it now."""

    default_key = "error.illegal"


class NotYourTurn(GameError):
    """The player may not act at this moment."""

    default_key = "error.not_your_turn"


class GameOver(GameError):
    """The game has ended; no more actions are taken."""

    default_key = "error.game_over"


class BadInput(GameError):
    """The text could not be understood as an action or option."""

    default_key = "error.bad_input"


class StaleAction(GameError):
    """The action was chosen against an older version of the game."""

    default_key = "error.stale"
