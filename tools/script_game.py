"""Write a console script of a whole War Chest game that ends with a winner.

Usage: python tools/script_game.py [seed] [--players 2|4] > docs/examples/<file>.txt

    python tools/script_game.py > docs/examples/warchest-console.txt
    python tools/script_game.py --players 4 > docs/examples/warchest-4p-console.txt
    python tools/script_game.py --game batailles > docs/examples/batailles-console.txt
    python tools/script_game.py --game cryhavoc > docs/examples/cryhavoc-console.txt

A simple greedy player (control, then attack, then deploy, then step towards a location the
side does not hold) plays every seat on a fixed seed; the moves are printed as console lines
(``alice: /play action:...``) after the lobby commands. Because the table deals from the same
seed, piping the file into ``make run`` replays the same game to the same winner. With four
players, two of them choose a team when they join and the others are placed by the lobby, so
the seat order is the lobby's own (``table.play.lobby.seat_order``). A move the rules leave its
player no choice in is not written: the table plays it for them (``engine.forced``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from db import Seat
from engine.rng import Rng
from engine.warchest.board import distance, parse_label
from table.play.lobby import seat_order, team_slots

Move = tuple[str, str, bool]
"""Who played, the action's text, and whether it was the only legal action (the table plays it)."""

OPTIONS = "armies=first"
NAMES = {2: "two", 4: "four"}
CREATOR = "alice"
# Who joins after the creator, and the team (1-based) each asks for, if any.
JOINS: dict[int, tuple[tuple[str, int | None], ...]] = {
    2: (("bob", None),),
    4: (("bob", 2), ("carol", None), ("dave", 1)),
}


def _score(view: dict[str, Any], seat: int, text: str) -> float:
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


def seats(count: int) -> list[str]:
    """The engine's player order for the lobby of ``count`` players, as the table will seat it."""
    game = engine.get_game("warchest")
    joined = [Seat(CREATOR, CREATOR)] + [
        Seat(name, name, None if team is None else team - 1) for name, team in JOINS[count]
    ]
    return [s.player for s in seat_order(joined, team_slots(game, count, {"armies": "first"}))]


def play(seed: int, count: int = 2, limit: int = 600) -> list[Move] | None:
    """The moves of a game won within ``limit`` actions, or None."""
    game = engine.get_game("warchest")
    players = seats(count)
    state = game.new_game(players, seed, {"armies": "first"})
    chooser = Rng(seed)
    moves: list[Move] = []
    while not game.is_over(state) and len(moves) < limit:
        player = game.to_act(state)[0]
        seat = players.index(player)
        view = game.view(state, player)
        legal = game.legal_actions(state, player)
        best = max(_score(view, seat, str(a)) for a in legal)
        options = [a for a in legal if _score(view, seat, str(a)) == best]
        action = options[chooser.below(len(options))]
        moves.append((player, str(action), len(legal) == 1))
        state, _ = game.apply(state, player, action)
    result = game.result(state)
    return moves if result is not None and result.winners else None


def played(moves: list[Move]) -> list[str]:
    """The console lines of ``moves``, but for those the table plays by itself (forced)."""
    return [f"{player}: /play action:{text}" for player, text, forced in moves if not forced]


def script(seed: int, count: int = 2) -> list[str]:
    """The console lines of the first game won from ``seed`` on, lobby commands included."""
    while (moves := play(seed, count)) is None:
        seed += 1
    players = "" if count == 2 else f" players:{count}"
    lines = [
        f"# A scripted {NAMES[count]}-player War Chest game (seed {seed}): pipe it into `make run`.",
        f"{CREATOR}: /game new game:warchest{players} options:{OPTIONS} seed={seed}",
    ]
    lines += [
        f"{name}: /game join" + ("" if team is None else f" team:{team}") for name, team in JOINS[count]
    ]
    lines += [f"{CREATOR}: /game start", f"{CREATOR}: /hand"]
    lines += played(moves)
    lines.append(f"{CREATOR}: /game status")
    return lines


BATAILLES_OPTIONS = "map=default armies=classic max_rounds=6"
BATAILLES_PLAYERS = ("alice", "bob")
BATAILLES_FORWARD = ("n", "s")  # towards the enemy: seat 0 deploys in the southern rows


def _batailles_score(text: str, seat: int) -> float:
    """Higher is better: fight with every point, reroll and hold with every die, march forward."""
    words = text.split()
    verb, forward = words[0], BATAILLES_FORWARD[seat]
    scores = {"lose": 85.0, "morale": 75.0, "coordinate": 51.0, "activate": 50.0, "done": 10.0, "end": 5.0}
    if verb == "attack":
        return 100 + int(words[2])
    if verb in ("reroll", "hold"):
        return (90 if verb == "reroll" else 80) + int(words[-1])
    if verb == "deploy":
        return 60 + (words[3] == forward)
    if verb == "face":
        return 45 if words[1] == forward else 0
    if verb == "move":
        return (40 if words[1] == forward else 0) + (words[2] == forward)
    return scores.get(verb, 0.0)


def play_batailles(seed: int, limit: int = 600) -> list[Move] | None:
    """The moves of a Batailles game with preset armies won within ``limit`` actions, or None.

    Both players deploy at the same time; the script lets them take turns at it, as two
    people typing in one channel would.
    """
    game = engine.get_game("batailles")
    players = list(BATAILLES_PLAYERS)
    options = dict(word.split("=", 1) for word in BATAILLES_OPTIONS.split())
    state = game.new_game(players, seed, options)
    chooser = Rng(seed)
    moves: list[Move] = []
    while not game.is_over(state) and len(moves) < limit:
        acting = game.to_act(state)
        player = acting[len(moves) % len(acting)]
        seat = players.index(player)
        legal = [str(a) for a in game.legal_actions(state, player)]
        best = max(_batailles_score(text, seat) for text in legal)
        choices = [text for text in legal if _batailles_score(text, seat) == best]
        text = choices[chooser.below(len(choices))]
        moves.append((player, text, len(legal) == 1))
        state, _ = game.apply(state, player, game.parse_action(state, player, text))
    result = game.result(state)
    return moves if result is not None and result.winners else None


def batailles_script(seed: int) -> list[str]:
    """The console lines of the first Batailles game won from ``seed`` on, lobby commands included."""
    while (moves := play_batailles(seed)) is None:
        seed += 1
    first, second = BATAILLES_PLAYERS
    lines = [
        f"# A scripted Batailles game, preset armies (seed {seed}): pipe it into `make run`.",
        f"{first}: /game new game:batailles options:{BATAILLES_OPTIONS} seed={seed}",
        f"{second}: /game join",
        f"{first}: /game start",
    ]
    lines += played(moves)
    lines.append(f"{first}: /game status")
    return lines


CRYHAVOC_PLAYERS = ("alice", "bob")
CRYHAVOC_WEIGHTS = {
    "score": 50,
    "capture": 30,
    "kill": 30,
    "place": 25,
    "retreat": 25,
    "ransom": 15,
    "construct": 12,
    "recruit": 10,
    "move": 10,
    "go": 10,
    "done": 8,
    "build": 6,
    "play": 5,
    "end": 5,
    "fold": 4,
    "draw": 3,
    "pay": 2,
}
"""How often the Cry Havoc script picks each verb, relative to the others (1 when not listed)."""


def _weighted(texts: list[str], chooser: Rng) -> str:
    """One of ``texts`` drawn with ``CRYHAVOC_WEIGHTS``: varied play that still marches and fights."""
    weights = [CRYHAVOC_WEIGHTS.get(text.split()[0], 1) for text in texts]
    roll = chooser.below(sum(weights))
    for text, weight in zip(texts, weights, strict=True):
        if roll < weight:
            return text
        roll -= weight
    raise AssertionError("unreachable: the roll is below the sum of the weights")


def play_cryhavoc(seed: int, limit: int = 1000) -> list[Move]:
    """The moves of a two-player Cry Havoc game played to its end (the event track ends every game).

    Whoever must act draws a move at random, weighted by verb; the table dealing from the same seed
    gives the same factions, decks and tokens, so the moves replay exactly through the console.
    """
    game = engine.get_game("cryhavoc")
    players = list(CRYHAVOC_PLAYERS)
    state = game.new_game(players, seed, {"skills": "basic"})
    chooser = Rng(seed)
    moves: list[Move] = []
    while not game.is_over(state):
        if len(moves) >= limit:
            raise RuntimeError(f"no end after {limit} moves (seed {seed})")
        (player,) = game.to_act(state)
        legal = [str(a) for a in game.legal_actions(state, player)]
        text = _weighted(legal, chooser)
        moves.append((player, text, len(legal) == 1))
        state, _ = game.apply(state, player, game.parse_action(state, player, text))
    return moves


def cryhavoc_script(seed: int) -> list[str]:
    """The console lines of a two-player Cry Havoc game from ``seed``, lobby commands included."""
    first, second = CRYHAVOC_PLAYERS
    lines = [
        f"# A scripted two-player Cry Havoc game (seed {seed}): pipe it into `make run`.",
        f"{first}: /game new game:cryhavoc options:seed={seed}",
        f"{second}: /game join",
        f"{first}: /game start",
        f"{first}: /hand",
    ]
    lines += played(play_cryhavoc(seed))
    lines.append(f"{first}: /game status")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seed", nargs="?", type=int, default=1, help="first seed tried")
    parser.add_argument("--players", type=int, choices=sorted(JOINS), default=2)
    parser.add_argument(
        "--game", choices=("warchest", "batailles", "cryhavoc"), default="warchest", help="the game to script"
    )
    args = parser.parse_args()
    if args.game == "cryhavoc":
        print("\n".join(cryhavoc_script(args.seed)))
        return
    if args.game == "batailles":
        print("\n".join(batailles_script(args.seed)))
        return
    print("\n".join(script(args.seed, args.players)))


if __name__ == "__main__":
    main()
