"""Pure game rules: no Discord, no images, no database, no I/O beyond reading
the package's own data files. Every game implements ``engine.contract.Game``.
"""

from __future__ import annotations

from importlib import import_module

from engine.contract import Game, OptionSpec, Result
from engine.errors import BadInput, GameError, GameOver, IllegalAction, NotYourTurn, StaleAction
from engine.text import Msg, PlayerRef, msg

# name -> module that defines ``GAME``; imported on first use.
_MODULES = {
    "warchest": "engine.warchest",
    "batailles": "engine.batailles",
    "cryhavoc": "engine.cryhavoc",
}

GAMES: tuple[str, ...] = tuple(_MODULES)


def get_game(name: str) -> Game:
    """The game object registered under ``name``; ``BadInput`` lists the known ones."""
    try:
        module = _MODULES[name]
    except KeyError:
        raise BadInput("error.unknown_game", game=name, games=", ".join(GAMES)) from None
    game: Game = import_module(module).GAME
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
