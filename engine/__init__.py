"""Pure game rules: no Discord, no images, no database, no I/O beyond reading
the package's own data files. Every game implements ``engine.contract.Game``.
"""

from __future__ import annotations

from importlib import import_module

from engine import registry
from engine.contract import Game, OptionSpec, Result
from engine.errors import BadInput, GameError, GameOver, IllegalAction, NotYourTurn, StaleAction
from engine.text import Msg, PlayerRef, msg

GAMES: tuple[str, ...] = tuple(entry.name for entry in registry.BUILT_IN)
"""The bot's own games (``engine.registry``); a game registered at run time is found by ``get_game``."""


def get_game(name: str) -> Game:
    """The game object registered under ``name`` (its module imported on first use); ``BadInput``
    lists the known ones."""
    entry = registry.find(name)
    if entry is None:
        raise BadInput("error.unknown_game", game=name, games=", ".join(registry.names()))
    game: Game = import_module(entry.engine).GAME
    return game


__all__ = [
    "GAMES",
    "BadInput",
    "Game",
    "GameError",
    "GameOver",
    "IllegalAction",
    "Msg",
    "NotYourTurn",
    "OptionSpec",
    "PlayerRef",
    "Result",
    "StaleAction",
    "get_game",
    "msg",
]
