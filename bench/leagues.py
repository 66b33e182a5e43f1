"""How long a league's round takes to pair, and its standings to count: a 200-player Swiss.

``python -m bench.leagues [players] [rounds] [runs]`` plays ``rounds`` Swiss rounds of ``players`` (each
game's result drawn from a seeded generator), then times, over ``runs`` runs, the pairing of the next
round (pairing-core's Dutch system through ``table.leagues.pairing.swiss``) and the standings after it
(``table.leagues.standings``, every tiebreak). It prints the median and slowest of each, and what the
pairing kept to: rematches and repeated byes (none expected).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter

from table.leagues.pairing import History, swiss
from table.leagues.standings import Scored, standings


def field(players: int, rounds: int, seed: int = 1) -> tuple[list[str], History, list[Scored]]:
    """``rounds`` Swiss rounds of ``players`` played with seeded random results."""
    rng = random.Random(seed)
    names = [f"p{i:03d}" for i in range(1, players + 1)]
    history = History()
    scored: list[Scored] = []
    for number in range(1, rounds + 1):
        found = swiss([history.entrant(p, i) for i, p in enumerate(names, start=1)], number)
        for table in found.tables:
            roll = rng.random()
            first, second = table
            points = {first: 1.0, second: 0.0} if roll < 0.45 else {first: 0.0, second: 1.0}
            if roll > 0.9:
                points = {first: 0.5, second: 0.5}
            history.table(table, points)
            scored.append(
                Scored(number, table, points, {first: rng.randint(0, 6), second: rng.randint(0, 6)})
            )
        for player in found.byes:
            history.bye(player, 1.0)
            scored.append(Scored(number, (player,), {player: 1.0}, bye=True))
    return names, history, scored


def main(argv: list[str]) -> None:
    players = int(argv[0]) if argv else 200
    rounds = int(argv[1]) if len(argv) > 1 else 6
    runs = int(argv[2]) if len(argv) > 2 else 5
    names, history, scored = field(players, rounds)
    pair_times, standing_times = [], []
    found = None
    for _ in range(runs):
        began = time.perf_counter()
        found = swiss([history.entrant(p, i) for i, p in enumerate(names, start=1)], rounds + 1)
        pair_times.append(time.perf_counter() - began)
        began = time.perf_counter()
        rows = standings(names, scored, swiss=True, measured=True)
        standing_times.append(time.perf_counter() - began)
    assert found is not None and len(rows) == players
    rematches = sum(1 for a, b in found.tables if b in history.opponents.get(a, set()))
    byes = Counter(p for p in history.byes) + Counter(found.byes)
    print(f"Swiss of {players} players, round {rounds + 1} ({len(scored)} results before it), {runs} runs:")
    print(
        f"  pairing the round: median {statistics.median(pair_times) * 1000:.0f} ms,"
        f" slowest {max(pair_times) * 1000:.0f} ms ({len(found.tables)} tables, {len(found.byes)} bye)"
    )
    print(
        f"  the standings: median {statistics.median(standing_times) * 1000:.1f} ms,"
        f" slowest {max(standing_times) * 1000:.1f} ms"
    )
    print(f"  rematches: {rematches}; players with two byes: {sum(1 for n in byes.values() if n > 1)}")


if __name__ == "__main__":
    main(sys.argv[1:])
