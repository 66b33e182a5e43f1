"""Self-play positions, the logistic fit and the weights file (the package docstring says why)."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from types import ModuleType

import numpy as np
import numpy.typing as npt

import engine
from ai.models import model
from ai.search import heaviest, weighted_pick
from engine import registry
from engine.rng import Rng

GREEDY = (0.0, 0.25, 0.5, 0.75)
"""The shares of greedy moves a game's players may draw: a spread of styles, so that the positions
cover more than one way of playing."""
STRIDE = 4
"""One position kept in this many decisions: neighbouring positions say nearly the same thing."""
NEWTON = 30
"""Newton steps of the fit: a logistic fit on a dozen features settles in well under this."""
RIDGE = 1e-3
"""The ridge penalty per position, which keeps weights of rare features (a last marker) finite."""
HELD_OUT = 5
"""One game in this many is held out of the fit and scored, to report what the model predicts."""
DIGITS = 4
"""Decimals of the written weights: the file reads the same after a refit on another machine."""
TURN_CAP = 2000
"""Decisions after which a self-play game is abandoned (the rules' stall ends games long before)."""


@dataclass
class Positions:
    """Feature differences (side 0 minus side 1) and whether side 0 won, per kept position."""

    rows: list[list[float]]
    wins: list[float]


def features_of(game_name: str) -> ModuleType:
    """The feature module of ``game_name``'s computer player (``ai/<game>/features.py``)."""
    entry = registry.find(game_name)
    if entry is None or entry.ai is None:
        raise SystemExit(f"{game_name!r} has no computer player")
    return import_module(f"{entry.ai}.features")


def play(game_name: str, players: int, seed: int, into: tuple[Positions, Positions]) -> bool:
    """One self-play game from ``seed``; its kept positions go to ``into[0]`` (fit) or ``into[1]``
    (held out). Whether the game was decided."""
    m = model(game_name)
    game = m.game
    feats = features_of(game_name)
    rng = Rng(seed)
    ids = [f"p{i}" for i in range(players)]
    state = game.new_game(ids, seed, {})
    greedy = [GREEDY[rng.below(len(GREEDY))] for _ in ids]
    offset = rng.below(STRIDE)
    seen: list[list[float]] = []
    for n in range(TURN_CAP):
        if game.is_over(state):
            break
        player = game.to_act(state)[0]
        seat = ids.index(player)
        if n % STRIDE == offset:
            first, second = feats.sides(state)
            seen.append([a - b for a, b in zip(first, second, strict=True)])
        legal = m.candidates(state, seat, game.legal_actions(state, player))
        if len(legal) == 1:
            i = 0
        else:
            weights = m.weights(state, seat, legal)
            i = heaviest(weights) if rng.below(1000) < greedy[seat] * 1000 else weighted_pick(weights, rng)
        state = m.step(state, seat, legal[i])
    result = game.result(state) if game.is_over(state) else None
    if result is None or result.draw or not result.winners:
        return False
    won = 1.0 if feats.side(state, ids.index(result.winners[0])) == 0 else 0.0
    target = into[1] if seed % HELD_OUT == 0 else into[0]
    target.rows += seen
    target.wins += [won] * len(seen)
    return True


def fit(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Logistic regression without intercept by ``NEWTON`` Newton steps from zero, ridge-penalised."""
    n, k = x.shape
    w = np.zeros(k)
    ridge = RIDGE * n * np.eye(k)
    for _ in range(NEWTON):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30.0, 30.0)))
        gradient = x.T @ (p - y) + ridge @ w
        hessian = (x * (p * (1.0 - p))[:, None]).T @ x + ridge
        w = w - np.linalg.solve(hessian, gradient)
    return w


def score(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], w: Sequence[float]) -> dict[str, float]:
    """Accuracy and mean log-loss of weights ``w`` on positions ``x`` with outcomes ``y``."""
    p = 1.0 / (1.0 + np.exp(-np.clip(x @ np.asarray(w), -30.0, 30.0)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    accuracy = np.mean((p > 0.5) == (y > 0.5))
    return {"accuracy": round(float(accuracy), DIGITS), "log_loss": round(float(loss), DIGITS)}


def train(game_name: str, seed: int, games: int, tables: Sequence[int]) -> dict[str, object]:
    """The weights file's content: ``games`` self-play games from ``seed``, fitted and scored."""
    engine.get_game(game_name)  # an unknown game fails here, before any game is played
    names: tuple[str, ...] = tuple(features_of(game_name).NAMES)
    kept = (Positions([], []), Positions([], []))
    decided = 0
    seeds = Rng(seed)
    for k in range(games):
        decided += play(game_name, tables[k % len(tables)], seeds.next_u64() >> 1, kept)
    x, y = np.asarray(kept[0].rows, dtype=np.float64), np.asarray(kept[0].wins, dtype=np.float64)
    w = [round(float(v), DIGITS) for v in fit(x, y)]
    held = np.asarray(kept[1].rows, dtype=np.float64), np.asarray(kept[1].wins, dtype=np.float64)
    return {
        "game": game_name,
        "trained": {
            "seed": seed,
            "games": games,
            "players": list(tables),
            "decided": decided,
            "positions": len(y),
            "held_out": {"positions": len(held[1]), **score(*held, w)},
        },
        "weights": dict(zip(names, w, strict=True)),
    }


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m training", description=__doc__)
    parser.add_argument("--game", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--players", default="2", help="table sizes, played in turn: 2,4")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    found = train(args.game, args.seed, args.games, [int(p) for p in args.players.split(",")])
    args.out.write_text(json.dumps(found, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(json.dumps(found["trained"], sort_keys=True), f"in {time.perf_counter() - start:.0f} s")
