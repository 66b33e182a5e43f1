"""Random self-play speed per game: games per second and actions per second.

Usage: python -m bench.playouts [games] [name ...]
"""

from __future__ import annotations

import sys
import time

import engine
from engine.playout import random_steps
from engine.rng import Rng


def playout(game: engine.Game, seed: int, count: int) -> int:
    """Play one seeded random game to the end; return the number of actions."""
    players = [str(i) for i in range(count)]
    return sum(1 for _step in random_steps(game, players, seed, Rng(seed ^ 0x5EED)))


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 200
    names = argv[1:] or list(engine.GAMES)
    for name in names:
        game = engine.get_game(name)
        for count in game.player_counts:
            start = time.perf_counter()
            actions = sum(playout(game, seed, count) for seed in range(games))
            elapsed = time.perf_counter() - start
            print(
                f"{name} {count}p: {games} games in {elapsed:.2f} s = {games / elapsed:.1f} games/s, "
                f"{actions / games:.0f} actions/game, {actions / elapsed:.0f} actions/s"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
