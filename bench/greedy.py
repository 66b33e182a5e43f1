"""One-step greedy players for every game: the yardstick the computer players are measured against.

A greedy player tries each legal action once and keeps the one leaving the best position by a plain
measure of the game, ties broken at random. It looks at its own seat's knowledge only: the action is
tried on a state sampled from the seat's observation (``ai/<game>/determinize.py``), so a die it
is about to roll or a card it is about to draw is not known in advance.

- War Chest: locations held, then coins on the board, then coins owned (each team's lead).
- Batailles: the opponent's losses minus one's own, then the hits scored this turn.
- Cry Havoc: ``bench.cryhavoc_factions.position`` (VP, crystals and regions held, units on the map).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import engine
from engine.rng import Rng

Measure = Callable[[Any, int], float]


def _warchest(st: Any, seat: int) -> float:
    team = st.seats[seat].team
    held: int = sum(1 if t == team else -1 for t in st.control.values() if t is not None)
    board: int = sum(h if st.seats[s].team == team else -h for s, _k, h in st.board.values())
    owned = 0
    for s in st.seats:
        n = len(s.bag) + len(s.hand) + len(s.discard_down) + sum(s.discard_up.values())
        owned += n if s.team == team else -n
    return held + 0.2 * board + 0.05 * owned


def _batailles(st: Any, seat: int) -> float:
    lead: int = st.losses[1 - seat] - st.losses[seat]
    hits: int = sum(st.hits.values()) if st.phase == "play" else 0
    sign = 1 if st.order[st.turn_index] == seat else -1
    advantage: int = st.advantage[seat] - st.advantage[1 - seat]
    return lead + 0.2 * sign * hits + 0.02 * advantage


def _cryhavoc(st: Any, seat: int) -> float:
    from bench.cryhavoc_factions import position

    return position(st, seat)


MEASURES: dict[str, Measure] = {"warchest": _warchest, "batailles": _batailles, "cryhavoc": _cryhavoc}


def choose_greedy(name: str, state: Any, seat: int, rng: Rng) -> Any:
    """The legal action of ``seat`` whose outcome scores best, tried on a sample of what it knows."""
    from ai.models import model

    m = model(name)
    game = m.game
    player = game.to_act(state)[0] if seat < 0 else _player(game, state, seat)
    legal = game.legal_actions(state, player)
    if len(legal) == 1:
        return legal[0]
    observation = m.observe(state, seat)
    measure = MEASURES[name]
    best: list[Any] = []
    best_value = float("-inf")
    for action in legal:
        sample = m.determinize(observation, rng)
        if action not in game.legal_actions(sample, player):
            continue
        after, _ = game.apply(sample, player, action)
        if game.is_over(after):
            result = game.result(after)
            value = 1e6 if result is not None and player in result.winners else -1e6
        else:
            value = measure(after, seat)
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif value > best_value - 1e-9:
            best.append(action)
    return best[rng.below(len(best))] if best else legal[rng.below(len(legal))]


def _player(game: engine.Game, state: Any, seat: int) -> str:
    return str(game.view(state, None)["seats"][seat]["id"])
