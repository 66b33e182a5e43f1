"""Cry Havoc faction balance under random play: how often each faction wins, per player count.

Usage: python -m bench.cryhavoc_factions [games] [players ...]

Plays ``games`` seeded games (500 by default) for each player count (2, 3 and 4 by default), every
seat choosing uniformly among its legal actions, and prints each faction's games, wins, win rate and
mean victory points. Random play says nothing about skilled play, but a faction far from the others
here points at a card, skill or map feature that is worth a second look. Seeds 0..games-1 make the
numbers repeatable.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import engine
from engine.rng import Rng

GAME = engine.get_game("cryhavoc")


@dataclass
class Tally:
    """Per-faction totals over the games of one player count."""

    games: Counter[str] = field(default_factory=Counter)
    wins: Counter[str] = field(default_factory=Counter)
    vp: Counter[str] = field(default_factory=Counter)


def playout(seed: int, count: int) -> tuple[list[str], list[int], int]:
    """One random game: the seats' factions, their final VP, and the winning seat."""
    players = [f"p{i}" for i in range(count)]
    state = GAME.new_game(players, seed, {})
    chooser = Rng(seed ^ 0xFAC7)
    while not GAME.is_over(state):
        (player,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, player)
        state, _ = GAME.apply(state, player, legal[chooser.below(len(legal))])
    result = GAME.result(state)
    assert result is not None
    return list(state["factions"]), list(state["vp"]), players.index(result.winners[0])


def tally(games: int, count: int) -> Tally:
    out = Tally()
    for seed in range(games):
        factions, vp, winner = playout(seed, count)
        for faction, points in zip(factions, vp, strict=True):
            out.games[faction] += 1
            out.vp[faction] += points
        out.wins[factions[winner]] += 1
    return out


def report(count: int, result: Tally, games: int, seconds: float) -> str:
    lines = [f"{count} players, {games} games ({seconds:.1f} s):"]
    for faction in sorted(result.games, key=lambda f: -result.wins[f] / result.games[f]):
        played, won = result.games[faction], result.wins[faction]
        lines.append(
            f"  {faction:<9} {won:>4}/{played:<4} wins = {100 * won / played:5.1f} %, "
            f"mean {result.vp[faction] / played:5.1f} VP"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 500
    counts = [int(a) for a in argv[1:]] or list(GAME.player_counts)
    for count in counts:
        start = time.perf_counter()
        result = tally(games, count)
        print(report(count, result, games, time.perf_counter() - start), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
