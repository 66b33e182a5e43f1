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


Array = npt.NDArray[np.float64]


@dataclass
class Positions:
    """Per kept position, the features of every side (``sides`` of the game's feature module) and
    the side that went on to win."""

    sides: list[list[list[float]]]
    winners: list[int]

    def differences(self) -> tuple[Array, Array]:
        """Two sides' positions as the logistic fit reads them: side 0's features minus side 1's,
        and whether side 0 won."""
        rows = [[a - b for a, b in zip(first, second, strict=True)] for first, second in self.sides]
        wins = [1.0 if w == 0 else 0.0 for w in self.winners]
        return np.asarray(rows, dtype=np.float64), np.asarray(wins, dtype=np.float64)

    def stacked(self, count: int, width: int) -> tuple[Array, npt.NDArray[np.bool_], npt.NDArray[np.intp]]:
        """Positions of up to ``count`` sides of ``width`` features as the softmax fit reads them: the
        features (a position of fewer sides padded with zeros), which sides are present, and the
        winner."""
        x = np.zeros((len(self.sides), count, width))
        present = np.zeros((len(self.sides), count), dtype=np.bool_)
        for i, rows in enumerate(self.sides):
            x[i, : len(rows)] = rows
            present[i, : len(rows)] = True
        return x, present, np.asarray(self.winners, dtype=np.intp)


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
    seen: list[list[list[float]]] = []
    for n in range(TURN_CAP):
        if game.is_over(state):
            break
        player = game.to_act(state)[0]
        seat = ids.index(player)
        if n % STRIDE == offset:
            seen.append(feats.sides(state))
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
    won: int = feats.side(state, ids.index(result.winners[0]))
    target = into[1] if seed % HELD_OUT == 0 else into[0]
    target.sides += seen
    target.winners += [won] * len(seen)
    return True


def fit(x: Array, y: Array) -> Array:
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


def shares(x: Array, present: npt.NDArray[np.bool_], w: Array) -> Array:
    """Each present side's share of the softmax of its weighted features, per position."""
    logits = np.where(present, x @ w, -np.inf)
    exps = np.exp(logits - logits.max(axis=1, keepdims=True))
    out: Array = exps / exps.sum(axis=1, keepdims=True)
    return out


def fit_shares(x: Array, present: npt.NDArray[np.bool_], winners: npt.NDArray[np.intp]) -> Array:
    """The softmax over sides with one weight per feature (a conditional logit), by ``NEWTON``
    Newton steps from zero, ridge-penalised: ``fit`` for positions of more than two sides."""
    n, count, k = x.shape
    w = np.zeros(k)
    ridge = RIDGE * n * np.eye(k)
    flat = x.reshape(n * count, k)
    chosen = x[np.arange(n), winners]
    for _ in range(NEWTON):
        p = shares(x, present, w)
        mean = np.einsum("ns,nsk->nk", p, x)
        gradient = (mean - chosen).sum(axis=0) + ridge @ w
        hessian = (flat * p.reshape(-1)[:, None]).T @ flat - mean.T @ mean + ridge
        w = w - np.linalg.solve(hessian, gradient)
    return w


def _scored(loss: float, accuracy: float) -> dict[str, float]:
    return {"accuracy": round(accuracy, DIGITS), "log_loss": round(loss, DIGITS)}


def score(x: Array, y: Array, w: Sequence[float]) -> dict[str, float]:
    """Accuracy and mean log-loss of weights ``w`` on positions ``x`` with outcomes ``y``."""
    p = 1.0 / (1.0 + np.exp(-np.clip(x @ np.asarray(w), -30.0, 30.0)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    accuracy = np.mean((p > 0.5) == (y > 0.5))
    return _scored(float(loss), float(accuracy))


def score_shares(
    x: Array, present: npt.NDArray[np.bool_], winners: npt.NDArray[np.intp], w: Sequence[float]
) -> dict[str, float]:
    """``score`` for positions of more than two sides: called right when the winner gets the
    largest share; the loss is the mean of minus the log of the winner's share."""
    p = shares(x, present, np.asarray(w))
    won = np.clip(p[np.arange(len(winners)), winners], 1e-9, 1.0)
    return _scored(float(-np.mean(np.log(won))), float(np.mean(p.argmax(axis=1) == winners)))


def fitted(kept: tuple[Positions, Positions], width: int) -> tuple[list[float], dict[str, float]]:
    """The rounded weights of ``width`` features fitted on ``kept[0]``, and their score on
    ``kept[1]`` (none when a tiny run held no decided game out).

    Positions that all have two sides are fitted as the logistic of their difference, the same model
    as the softmax over two sides, with the arithmetic the shipped two-sided weights were fitted by."""
    if all(len(rows) == 2 for part in kept for rows in part.sides):
        w = [round(float(v), DIGITS) for v in fit(*kept[0].differences())]
        return w, score(*kept[1].differences(), w) if kept[1].sides else {}
    count = max(len(rows) for part in kept for rows in part.sides)
    w = [round(float(v), DIGITS) for v in fit_shares(*kept[0].stacked(count, width))]
    return w, score_shares(*kept[1].stacked(count, width), w) if kept[1].sides else {}


def train(game_name: str, seed: int, games: int, tables: Sequence[int]) -> dict[str, object]:
    """The weights file's content: ``games`` self-play games from ``seed``, fitted and scored."""
    engine.get_game(game_name)  # an unknown game fails here, before any game is played
    names: tuple[str, ...] = tuple(features_of(game_name).NAMES)
    kept = (Positions([], []), Positions([], []))
    decided = 0
    seeds = Rng(seed)
    for k in range(games):
        decided += play(game_name, tables[k % len(tables)], seeds.next_u64() >> 1, kept)
    w, held = fitted(kept, len(names))
    return {
        "game": game_name,
        "trained": {
            "seed": seed,
            "games": games,
            "players": list(tables),
            "decided": decided,
            "positions": len(kept[0].winners),
            "held_out": {"positions": len(kept[1].winners), **held},
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
