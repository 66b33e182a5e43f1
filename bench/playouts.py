"""Random self-play speed per game: games per second and actions per second.

Usage: python -m bench.playouts [games] [name ...]
"""

from __future__ import annotations

import sys
import time

import engine
from engine.rng import Rng


def playout(game: engine.Game, seed: int, count: int) -> int:
    """Play one seeded random game to the end; return the number of actions."""
    players = [str(i) for i in range(count)]
    state = game.new_game(players, seed=seed, options={})
    chooser = Rng(seed ^ 0x5EED)
    steps = 0
    while not game.is_over(state):
        acting = game.to_act(state)
        player = acting[chooser.below(len(acting))]
        legal = game.legal_actions(state, player)
        state, _ = game.apply(state, player, legal[chooser.below(len(legal))])
        steps += 1
    return steps


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
