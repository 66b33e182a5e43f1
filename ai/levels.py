"""The three levels of every game: a search budget each (iterations, rollout length, policy).

Each game's numbers are in its own package (``ai/<game>/__init__.py``, ``LEVELS``); what they were
measured with is told here, for all three games.

Budgets are iteration counts, never seconds, so that a game with computer players replays exactly on
any machine. They were sized from ``bench/ai_levels.py``'s timings on a two-core machine, where
``hard`` stays well inside the table's deadline (``bench/decision_times.py``: ``normal`` takes 0.1 to
0.4 s at full budget, ``hard`` 0.7 to 1.8 s, a Batailles ``hard`` 3 s at the slowest; War Chest's
and Cry Havoc's ``hard`` have since been given more, below). A decision with a single legal action,
and a search whose favourite can no longer be overtaken, end sooner; at
``easy`` and ``normal`` a Batailles deployment is placed by the policy without search (``settled`` in its
heuristics), while ``hard`` searches it (``Budget.settle``).

At ``easy`` and ``normal`` the decisions of a turn share its iterations (``TurnBudget``), sized so
that a player waits little for a whole turn: ``bench/bot_turns.py`` (through the table layer, on a
two-core machine at load 2.4 to 3.7) gave a ``normal`` Batailles turn 3.9 s at the median and 4.2 s
at the slowest of five, where it took 24.6 and 30.6 s, a deployment of ten troops 0.1 s (27.2 s), and
a Cry Havoc table of three with two bots back to the person in 1.8 s (3.1 s at the slowest; 27.7 s
before). ``hard`` takes more time, within limits (``bench/decision_times.py --turns``): every War
Chest and Cry Havoc decision searches its whole budget, while a Batailles turn searches its first
five decisions in full and its later ones (a troop's follow-ups, the later activations) with at
least 650 iterations of 900, and a deployment three fifths of that (``Budget.unsettled``): 82 % and
52 % of the iterations a turn and a deployment searched in full. With half (450) and a quarter
they searched 69 % and 20 %, took 9.2 s (11.2 s at the slowest of 12) and 3.1 s at load below 1
(``bench/decision_times.py --turns 6 --games 2 --levels hard --tables batailles:2``), and ``hard``
won 27 of 40 decided games against ``normal`` (68 %, 95 % interval 52-80, a quarter of the
iterations), short of 70 %; the new shares search 1.19 and 2.66 times those iterations (a turn of
fifteen decisions, a deployment of ten troops), about 11 s (13 s at the slowest) and 8 s by those
figures (measured: 10.0 s, 11.6 s at the slowest of 4, and 8.4 s at load 0.9), within the 15 s
and 10 s a player should wait, and ``hard`` won 32 of 41 decided games
(78 %, 95 % interval 63-88, a quarter of the iterations, 1 draw). With these budgets
(``bench/ai_levels.py``, a quarter or a tenth of the iterations, a few games per pairing) ``normal``
won every game against ``greedy``, and ``hard`` led ``normal`` in War Chest and Cry Havoc (6 of 6,
6 of 6, 6 of 8 and 5 of 6). In Batailles it did not while both placed their troops with the policy
(19 of 40 decided); searching its deployments and playing half of its rollout moves greedily, with
rollouts as long as ``normal``'s, ``hard`` won 39 of 50 decided games (78 %, 95 % interval 65-87):
docs/computer-players.md has the table.

War Chest's ``hard`` plays half of its rollout moves greedily (the policy's heaviest action): with
four players, four times ``normal``'s iterations and longer rollouts alone won 55 % of 96 games
against ``normal``, with rollouts as long as ``normal``'s 36 %, and with half-greedy rollouts 72 % of
99 (``bench/ai_levels.py``, a quarter of the iterations). Noisy rollouts over two teams' moves blur
the difference between the root's choices; more iterations only widen the root among them.

War Chest's and Cry Havoc's ``hard`` search three times the iterations they did (4800 and 3000, from
1600 and 900, rollouts unchanged). At 1600 and 900 a decision took 0.5 s at the median and 0.6 s at
the slowest at load below 1, a tenth of the 5 s a player may wait for one, while ``hard`` won only
68 % (58-76) of its decided games against ``normal`` with three Cry Havoc players and 72 % with four
at War Chest. The new budgets were sized by processor time (``time.process_time``, which a busy
machine's other work does not add to as it does to the wall clock), at full budget on 8 positions
per table of ``bench/decision_times.py``, at load 9 to 13: War Chest 0.40 to 0.43 ms an iteration, a
decision 1.9 to 2.0 s at the median and 2.1 s at the slowest; Cry Havoc 0.76 to 0.88 ms, 1.8 to 2.2 s
and 2.7 s at the slowest (three players; a search whose favourite can no longer be overtaken stops
early, 2,044 to 2,616 iterations at the median). The unloaded machine ran the old budgets at 0.31 and
0.55 ms an iteration, a third to a half less than these shared cores, so at load below 1 a ``hard``
decision takes some 1.5 s at the median and 2 s at the slowest: inside the table's 4 s deadline
(``table.bots.players.DECISION_SECONDS``), after which a bot would play its best move so far and a
replay could differ, and the 5 s a player should wait.

``easy`` slips: in three decisions in ten (one in two at Cry Havoc; ``Budget.slip``) it plays not
the action its search visited most but one drawn in proportion to the visits, the favourite
included, so it mostly plays sensibly and now and then takes a second-best line, as a casual player
does. Searching less alone did not make it the level a newcomer can beat: at the full budgets
``normal`` won only 15 of 20 games against it with four War Chest players and 15 of 20 with four
Cry Havoc players, and 1 of 4 at Batailles, where both levels place their troops by the policy and
``easy``'s short rollouts served it as well as ``normal``'s long ones. With half of its decisions
slipping ``normal`` won all of 53 (War Chest, Batailles, Cry Havoc with two and four players); with
three in ten, the ladder in docs/computer-players.md. Cry Havoc's learned evaluation made both of
its levels stronger, ``easy`` as much as ``normal``: with three slips in ten ``normal`` won 7 of 12
decided games against it (two, three and four players), with one in two 17 of 19 (two and four).
The draw is made after the search, from its generator: ``easy`` stays honest and reproducible.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import import_module

from ai.search import Budget
from engine import registry
from engine.errors import BadInput

LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True)
class TurnBudget:
    """The iterations a whole turn may spend, shared out over its decisions in order.

    A turn is the run of decisions one seat makes in a row (a Batailles turn of six activations is
    some fifteen of them, a Cry Havoc turn one to ten). Decision ``step`` of the turn (0 for the
    first) gets a ``spread``-th of what the turn has left, never more than ``most`` nor less than
    ``least``: the first decisions search as a single decision did, the later ones less and less,
    and a turn of ``n`` decisions spends about ``turn`` iterations plus ``least`` per decision beyond
    what the turn paid for. The share depends on the step alone, so it stays a function of the game's
    log: the same position, seed and step give the same choice.
    """

    turn: int
    most: int
    least: int
    spread: int = 4

    def iterations(self, step: int) -> int:
        """The iterations of decision ``step`` of the turn."""
        spent, share = 0, self.most
        for _ in range(max(0, step) + 1):
            share = max(self.least, min(self.most, (self.turn - spent) // self.spread))
            spent += share
        return share


@dataclass(frozen=True)
class Levels:
    """The budgets of one game's three levels, exported as ``LEVELS`` by its ``ai/<game>`` package
    (``engine.registry``).

    ``budgets``, per decision: the rollouts, and the iterations of a turn's first decisions
    (``TurnBudget.most``). ``turns``, per turn: the iterations of the whole turn and the least a
    decision gets (``TurnBudget``). ``hard`` is listed for Batailles alone (War Chest and Cry Havoc
    decisions search their whole budget): its first five decisions in full, the later ones never under
    half. Shared out like ``normal``'s (a fifth of its iterations left for the later decisions) it had
    won 1 of 11 decided Batailles games against ``normal`` (``bench/ai_levels.py`` at a quarter of the
    iterations), where it won 60 %.
    """

    budgets: Mapping[str, Budget]
    turns: Mapping[str, tuple[int, int]]


def levels(game: str) -> Levels:
    """The levels of ``game`` (``BadInput`` for a game not registered, ``ValueError`` for one without
    a computer player)."""
    entry = registry.find(game)
    if entry is None:
        raise BadInput("error.unknown_game", game=game, games=", ".join(registry.names()))
    if entry.ai is None:
        raise ValueError(f"{game!r} has no computer player")
    found: Levels = import_module(entry.ai).LEVELS
    return found


def turn_budget(game: str, level: str) -> TurnBudget:
    """How ``level`` shares a turn's iterations out in ``game``."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
    chosen = levels(game)
    most = chosen.budgets[level].iterations
    turn, least = chosen.turns.get(level, (most, most))
    return TurnBudget(turn=turn, most=most, least=least)


def budget(game: str, level: str, scale: float = 1.0, step: int = 0) -> Budget:
    """The budget of decision ``step`` of a turn of ``level`` in ``game``; ``scale`` shrinks the
    iterations (benchmarks only)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
    found = replace(levels(game).budgets[level], iterations=turn_budget(game, level).iterations(step))
    if scale == 1.0:
        return found
    return replace(found, iterations=max(1, round(found.iterations * scale)))
