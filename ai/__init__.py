"""Computer players for every game: a search player over the engine contract, with levels.

``choose(game_name, state_dump, seat, level, seed)`` is the one entry point. Its arguments are
JSON-safe and its answer is an action text that the game's ``parse_action`` reads, so a table can
run it in a worker process; the same arguments always give the same answer. Like ``engine/``, this
package is pure: no Discord, images, database or I/O.

The player searches from its seat's knowledge only (``ai.search``): it keeps the seat's view of the
game and the public record, and samples everything hidden from it.

One search serves every game (``search.py``, its budgets per level in ``levels.py``); each game's
package (``ai/warchest``, ...) brings its sampler of what is hidden (``determinize.py``) and its
heuristics, which ``models.py`` gathers for the search.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import replace
from typing import Any

from ai.explain import weighed
from ai.levels import LEVELS, budget
from ai.models import model
from ai.search import Budget, Outcome, Search
from engine.contract import JSON
from engine.rng import Rng

_MASK = (1 << 64) - 1


def seed_for(game_seed: int, version: int, seat: int) -> int:
    """The search seed of ``seat`` deciding at ``version`` of a game started from ``game_seed``.

    Mixing the three through the generator makes every decision's seed different, and a replay of
    the game (same seed, same moves) asks for the same decisions with the same seeds.
    """
    rng = Rng((game_seed & _MASK) ^ ((version & 0xFFFFFFFF) << 32) ^ ((seat & 0xFFFF) * 0x9E3779B1))
    rng.next_u64()
    return rng.next_u64()


def seed_at(game_seed: int, state_dump: dict[str, JSON], seat: int) -> int:
    """The search seed of ``seat`` deciding in the position ``state_dump`` of a game started from
    ``game_seed``: ``seed_for`` with a digest of the position in place of the game's version.

    The version grows with every stored change, an undo included, so a seed drawn from it would give a
    player who takes a move back and plays it again another reply each time, to be fished for until
    one suits. A position reached again (the same dump, its generator included) gets the same seed,
    and so the same reply; a replay of the game still asks for the same decisions with the same seeds.
    """
    text = json.dumps(state_dump, sort_keys=True, separators=(",", ":"))
    digest = hashlib.blake2b(text.encode(), digest_size=4).digest()
    return seed_for(game_seed, int.from_bytes(digest, "big"), seat)


def search(
    game_name: str,
    state_dump: dict[str, JSON],
    seat: int,
    plan: Budget,
    seed: int,
    deadline: float | None = None,
    evaluation: str = "evaluate",
) -> Outcome[object]:
    """Search the decision of ``seat`` with an explicit budget (``choose`` picks one by level), scoring
    rollouts with the heuristics' function named ``evaluation`` (``ai.models.model``).

    A decision with one candidate, or one the game settles without search (``settled`` in its
    heuristics: a Batailles deployment) when ``plan.settle`` allows it, is answered at once with no
    iteration; when it does not, such a decision searches ``plan.unsettled`` of the iterations.
    """
    m = model(game_name, evaluation)
    game = m.game
    state = game.load(state_dump)
    players = [s["id"] for s in game.view(state, None)["seats"]]
    if not 0 <= seat < len(players):
        raise ValueError(f"seat {seat} is not at this table of {len(players)}")
    player = players[seat]
    if player not in game.to_act(state):
        raise ValueError(f"seat {seat} has no decision to make now")
    everything = game.legal_actions(state, player)
    legal = m.candidates(state, seat, everything)
    if len(legal) == 1:
        return Outcome(legal[0], 0, {str(legal[0]): 0})
    quick = m.settled(state, seat, everything)
    if quick is not None:
        if plan.settle:
            return Outcome(quick, 0, {str(quick): 0})
        plan = _unsettled(plan)
    observation = m.observe(state, seat)
    del state  # from here on, only what the seat knows
    start = time.monotonic()
    stop_at = None if deadline is None else start + deadline
    return Search(m, observation, seat, plan, Rng(seed)).run(legal, time.monotonic, stop_at)


def _unsettled(plan: Budget) -> Budget:
    """The budget of a decision the game would settle, searched all the same (``Budget.unsettled``)."""
    if plan.unsettled >= 1.0:
        return plan
    return replace(plan, iterations=max(1, round(plan.iterations * plan.unsettled)))


def choose(
    game_name: str,
    state_dump: dict[str, JSON],
    seat: int,
    level: str,
    seed: int,
    deadline: float | None = None,
    step: int = 0,
) -> str:
    """The action text that ``seat`` plays at ``level`` in the game saved as ``state_dump``.

    ``seat`` is the index of the player in the game's seat order and ``seed`` should come from
    ``seed_for``. ``step`` is how many decisions the seat made in a row just before this one (0 for
    the first of its turn): the turn's decisions share one budget (``ai.levels.TurnBudget``).
    ``deadline`` (seconds) caps the search on an overloaded machine; the answer is then the best found
    so far, and only then may it differ from one run to the next.
    """
    return str(decide(game_name, state_dump, seat, level, seed, deadline, step)["action"])


def decide(
    game_name: str,
    state_dump: dict[str, JSON],
    seat: int,
    level: str,
    seed: int,
    deadline: float | None = None,
    step: int = 0,
) -> dict[str, Any]:
    """``choose``, with what the search weighed (``ai.explain.weighed``): the action text under
    ``action``, and the action played and the ones the search visited most, each with its estimated
    chance of winning and its share of the search. The same arguments give the same answer."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
    outcome = search(game_name, state_dump, seat, budget(game_name, level, step=step), seed, deadline)
    return weighed(outcome)


__all__ = ["LEVELS", "Budget", "choose", "decide", "search", "seed_at", "seed_for"]
