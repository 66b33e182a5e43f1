"""Write a console script of a whole War Chest game that ends with a winner.

Usage: python tools/script_game.py [seed] > docs/examples/warchest-console.txt

A simple greedy player (control, then attack, then deploy, then step towards a location the
side does not hold) plays both seats on a fixed seed; the moves are printed as console lines
(``alice: /play action:...``) after the lobby commands. Because the table deals from the same
seed, piping the file into ``make run`` replays the same game to the same winner.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine.rng import Rng
from engine.warchest.board import distance, parse_label

PLAYERS = ("alice", "bob")
OPTIONS = "armies=first"


def _score(view: dict, seat: int, text: str) -> float:
    """Higher is better; ties are broken by the seeded chooser."""
    words = text.split()
    verb = words[0]
    team = view["seats"][seat]["team"]
    targets = [tuple(loc["hex"]) for loc in view["board"]["locations"] if loc["team"] != team]
    if verb == "control":
        return 100
    if verb == "attack" or (verb == "tactic" and len(words) > 3):
        return 80
    if verb == "deploy":
        return 60
    if verb == "move" and len(words) == 4 and targets:
        src, dst = parse_label(words[2]), parse_label(words[3])
        assert src is not None and dst is not None
        gain = min(distance(src, t) for t in targets) - min(distance(dst, t) for t in targets)
        return 40 + 10 * gain
    if verb in ("bolster", "recruit"):
        return 20
    return 0


def play(seed: int, limit: int = 600) -> list[tuple[str, str]] | None:
    """The moves of a game won within ``limit`` actions, or None."""
    game = engine.get_game("warchest")
    state = game.new_game(list(PLAYERS), seed, {"armies": "first"})
    chooser = Rng(seed)
    moves: list[tuple[str, str]] = []
    while not game.is_over(state) and len(moves) < limit:
        player = game.to_act(state)[0]
        seat = PLAYERS.index(player)
        view = game.view(state, player)
        legal = game.legal_actions(state, player)
        best = max(_score(view, seat, str(a)) for a in legal)
        options = [a for a in legal if _score(view, seat, str(a)) == best]
        action = options[chooser.below(len(options))]
        moves.append((player, str(action)))
        state, _ = game.apply(state, player, action)
    result = game.result(state)
    return moves if result is not None and result.winners else None


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    while (moves := play(seed)) is None:
        seed += 1
    print(f"# A scripted two-player War Chest game (seed {seed}): pipe it into `make run`.")
    print(f"alice: /game new game:warchest options:{OPTIONS} seed={seed}")
    print("bob: /game join")
    print("alice: /game start")
    print("alice: /hand")
    for player, text in moves:
        print(f"{player}: /play action:{text}")
    print("alice: /game status")


if __name__ == "__main__":
    main()
