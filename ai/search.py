"""Information-set Monte-Carlo tree search over the engine contract.

The player searches from what its seat knows: an *observation* (the seat's view plus the public
record the view does not draw), never the game's hidden state. Every iteration samples one full
state consistent with that observation (a *determinization*: the other seats' coins or cards dealt
at random, a fresh random generator for dice and draws still to come), walks the one shared tree
with the actions legal in that sample, grows it by one node, plays a short rollout and scores the
position. Nodes stand for "this sequence of actions", so what was learnt under one sample serves
every other sample where the same actions are legal (single-observer ISMCTS).

- Selection is UCB1 with *availability* counts: a child is compared with the number of visits in
  which it was legal, not with its parent's visits, since a hidden hand may make it illegal.
- Below the root, children open one at a time in the order of the game's action weights as the node
  gathers visits (progressive widening), so long lists of small steps (a unit's every move) do not
  keep the tree one level deep; the root opens its first ``ROOT_WIDTH`` actions at once.
- Rewards are vectors, one value per seat in [0, 1]; a node keeps the value of the seat that chose
  it, so two, three and four players (and teams, which share a value) use the same code.

Each iteration's sample is the search's own and is never looked at again once an action has been
played on it, so the search plays actions with each game's ``step`` (``apply`` without the copy and
the legality check, the action coming from ``legal_actions``), which is several times faster.

Everything is deterministic given the seed: the same observation, budget and seed give the same
choice. The only exception is an optional deadline, which may cut a search short on a slow machine.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Protocol, TypedDict, TypeVar, cast

from engine.contract import Game
from engine.rng import Rng

if TYPE_CHECKING:
    from typing_extensions import ReadOnly


class SeatSeen(TypedDict):
    """A seat as every game's view lists it: the search reads its player's id."""

    id: ReadOnly[str]


class ViewSeen(TypedDict):
    """Every game's view as the search reads it: its seats, in seat order."""

    seats: ReadOnly[Sequence[SeatSeen]]


class Observation(TypedDict):
    """What a seat knows, as the search reads it: the seat's view, whose seats name the players.
    Each game's ``ai/<game>/determinize.py`` types its own (``Observation`` there), which holds
    this and what the game's sampler reads besides."""

    view: ReadOnly[ViewSeen]


Obs = TypeVar("Obs", bound=Observation)
"""A game's observation (its ``ai/<game>/determinize.py``'s ``Observation``)."""
S = TypeVar("S")
"""A game's state: the search hands it from the sampler to the game and the heuristics, never reads it."""
A = TypeVar("A")
"""A game's action: the search keys it by its text and plays it back."""
P = TypeVar("P")
"""What a game's sampler works out once per decision (``Model.prepare``) and samples from."""
ROOT_WIDTH = 30
"""Root actions tried before any is tried twice; beyond that the root widens three times as fast as
the nodes below it, so a deployment with hundreds of choices still starts from the likeliest."""


class Model(Protocol[S, A, Obs, P]):
    """What the search needs from one game, beyond the engine contract: a game over states ``S`` and
    actions ``A``, whose sampler prepares ``P`` once per decision from a seat's observation
    ``Obs``."""

    @property
    def game(self) -> Game[S, A, object]: ...

    def observe(self, state: S, seat: int) -> Obs:
        """What ``seat`` knows: JSON-safe, free of anything hidden from it."""
        ...

    def determinize(self, observation: Obs, rng: Rng) -> S:
        """A full state consistent with ``observation``, its hidden parts drawn from ``rng``."""
        ...

    def prepare(self, observation: Obs) -> P:
        """What every sample of ``observation`` shares, worked out once per decision."""
        ...

    def sample(self, prepared: P, rng: Rng) -> S:
        """``determinize`` from what ``prepare`` gave: the same state for the same ``rng``."""
        ...

    def evaluate(self, state: S) -> list[float]:
        """Per seat, how good the position is for it, in [0, 1] (about a win chance)."""
        ...

    def weights(self, state: S, seat: int, legal: Sequence[A]) -> list[float]:
        """A non-negative preference per legal action: the rollout policy and the expansion order."""
        ...

    def candidates(self, state: S, seat: int, legal: list[A]) -> list[A]:
        """The legal actions worth searching (all of them, or a subset that loses nothing real)."""
        ...

    def step(self, state: S, seat: int, action: A) -> S:
        """``apply`` for a state the search owns: may change ``state`` in place and return it."""
        ...


@dataclass(frozen=True)
class Budget:
    """How hard to think: iterations, rollout length and the tree's shape.

    ``rollout`` plies follow the game's weighted policy (``greedy`` of them taking the heaviest action
    rather than sampling), then the position is scored. ``widen`` controls how fast nodes below the
    root open new children (``widen * sqrt(visits)`` of them).
    """

    iterations: int
    rollout: int
    exploration: float = 0.6
    widen: float = 1.5
    greedy: float = 0.0
    settle: bool = True
    """Take the decisions the game settles without search (``settled`` in its heuristics) at once;
    ``False`` searches them too, for a level that can afford the time."""
    slip: float = 0.0
    """The chance that the level plays, instead of the root action it visited most, one drawn from the
    root's visited actions in proportion to their visits (the favourite included): the plausible slip
    of a casual player, which leaves ``easy`` an opponent a newcomer can beat. The draw is made after
    the search, from its generator, so the search and its figures are those of a
    level without slips, and the same seed slips the same way."""
    unsettled: float = 1.0
    """The share of ``iterations`` such a decision searches when ``settle`` is ``False``. A Batailles
    deployment's search spreads its iterations evenly over its zones (their rollouts differ little
    in value), so a quarter of them still samples each zone a dozen times, where a player waited
    for ten full searches before the first shot."""


class Node(Generic[A]):
    """One action in the tree: visits, summed reward of the seat that chose it, availability. The
    root alone stands for no action (None): the search never plays it."""

    __slots__ = ("action", "avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int, action: A | None) -> None:
        self.mover = mover
        self.action = action
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[tuple[int, str], Node[A]] = {}


@dataclass(frozen=True)
class Outcome(Generic[A]):
    """The search's answer: the action, how many iterations ran, the root's visit counts and, for each
    root action visited, its mean value for the deciding seat (about its chance of winning)."""

    action: A
    iterations: int
    visits: dict[str, int]
    values: dict[str, float] = field(default_factory=dict)


def terminal_values(game: Game[S, A, object], state: S, players: Sequence[str]) -> list[float]:
    """1 for each winner, 0 for the others; a draw is worth one half to everyone."""
    result = game.result(state)
    if result is None or result.draw or not result.winners:
        return [0.5] * len(players)
    return [1.0 if p in result.winners else 0.0 for p in players]


def weighted_pick(weights: Sequence[float], rng: Rng) -> int:
    """An index drawn with probability proportional to its weight (uniform when all are zero)."""
    total = sum(weights)
    if total <= 0:
        return rng.below(len(weights))
    # 2**53 steps keep the draw exact in floating point and reproducible across machines
    point = rng.below(1 << 53) / float(1 << 53) * total
    for i, w in enumerate(weights):
        point -= w
        if point < 0:
            return i
    return len(weights) - 1


def heaviest(weights: Sequence[float]) -> int:
    """The first index of the largest weight."""
    best = 0
    for i, w in enumerate(weights):
        if w > weights[best]:
            best = i
    return best


class Search(Generic[S, A, Obs, P]):
    """One decision: the tree, the sampler and the budget (see the module docstring)."""

    def __init__(
        self, model: Model[S, A, Obs, P], observation: Obs, seat: int, budget: Budget, rng: Rng
    ) -> None:
        self.model = model
        self.game = model.game
        self.observation = observation
        self.prepared = model.prepare(observation)
        self.seat = seat
        self.budget = budget
        self.rng = rng
        self.players: tuple[str, ...] = tuple(s["id"] for s in observation["view"]["seats"])
        self.index = {p: i for i, p in enumerate(self.players)}
        self.root: Node[A] = Node(-1, None)

    def run(
        self,
        root_legal: Sequence[A],
        clock: Callable[[], float] | None = None,
        stop_at: float | None = None,
    ) -> Outcome[A]:
        """Search ``budget.iterations`` times (fewer if the choice is settled or ``stop_at`` passes)."""
        keys = [(self.seat, str(a)) for a in root_legal]
        done = 0
        total = self.budget.iterations
        for done in range(1, total + 1):
            self._iterate(root_legal, keys)
            if done % 8 == 0:
                if clock is not None and stop_at is not None and clock() >= stop_at:
                    break
                if self._settled(keys, total - done):
                    break
        children = self.root.children
        visits = {k[1]: (children[k].visits if k in children else 0) for k in keys}
        values = {k[1]: n.total / n.visits for k in keys if (n := children.get(k)) is not None and n.visits}
        return Outcome(root_legal[self._played(keys)], done, visits, values)

    def _played(self, keys: list[tuple[int, str]]) -> int:
        """The root action played: the best (``_best``), or, with chance ``budget.slip``, one drawn in
        proportion to the root's visits. The draw follows the search on the same generator, so the
        search is the one an unslipping level would run."""
        if self.budget.slip <= 0.0 or self.rng.below(1_000_000) >= self.budget.slip * 1_000_000:
            return self._best(keys)
        counts = [float(n.visits) if (n := self.root.children.get(k)) is not None else 0.0 for k in keys]
        return weighted_pick(counts, self.rng)

    def _settled(self, keys: list[tuple[int, str]], remaining: int) -> bool:
        """No other root action could overtake the most visited one in the iterations left."""
        counts = sorted((self.root.children[k].visits for k in keys if k in self.root.children), reverse=True)
        if len(counts) < len(keys):
            return False
        return len(counts) < 2 or counts[0] - counts[1] > remaining

    def _best(self, keys: list[tuple[int, str]]) -> int:
        """The most visited root action; ties go to the better mean, then to the first listed."""
        best, best_key = 0, (-1, -1.0)
        for i, k in enumerate(keys):
            node = self.root.children.get(k)
            score = (0, 0.0) if node is None else (node.visits, node.total / max(1, node.visits))
            if score > best_key:
                best, best_key = i, score
        return best

    def _iterate(self, root_legal: Sequence[A], root_keys: list[tuple[int, str]]) -> None:
        game, budget, rng = self.game, self.budget, self.rng
        state = self.model.sample(self.prepared, rng)
        node = self.root
        path: list[Node[A]] = []
        values: list[float] | None = None
        while True:
            if game.is_over(state):
                values = terminal_values(game, state, self.players)
                break
            if node is self.root:
                mover, legal, keys = self.seat, root_legal, root_keys
            else:
                acting = game.to_act(state)
                mover = self.index[acting[0]]
                legal = self.model.candidates(state, mover, game.legal_actions(state, acting[0]))
                keys = [(mover, str(a)) for a in legal]
            if not legal:
                break
            children = node.children
            tried: list[tuple[int, Node[A]]] = []
            for i, k in enumerate(keys):
                child = children.get(k)
                if child is not None:
                    child.avail += 1
                    tried.append((i, child))
            width = budget.widen * math.sqrt(node.visits + 1)
            allowed = max(ROOT_WIDTH, int(3 * width)) if node is self.root else max(1, int(width))
            if len(tried) < len(keys) and len(tried) < allowed:
                weights = self.model.weights(state, mover, legal)
                opened = {i for i, _ in tried}
                i = max((j for j in range(len(legal)) if j not in opened), key=lambda j: (weights[j], -j))
                child = Node(mover, legal[i])
                child.avail = 1
                children[keys[i]] = child
                state = self.model.step(state, mover, legal[i])
                path.append(child)
                break
            log_c = budget.exploration
            best_child: Node[A] | None = None
            best_score = -math.inf
            for _, child in tried:
                score = child.total / child.visits + log_c * math.sqrt(math.log(child.avail) / child.visits)
                if score > best_score:
                    best_child, best_score = child, score
            assert best_child is not None
            state = self.model.step(state, mover, cast(A, best_child.action))  # not the root: an action
            path.append(best_child)
            node = best_child
        if values is None:
            values = self._rollout(state)
        self.root.visits += 1
        for n in path:
            n.visits += 1
            n.total += values[n.mover]

    def _rollout(self, state: S) -> list[float]:
        """``budget.rollout`` plies of the game's weighted policy, then the position's score."""
        game, rng = self.game, self.rng
        greedy = self.budget.greedy
        for _ in range(self.budget.rollout):
            if game.is_over(state):
                return terminal_values(game, state, self.players)
            acting = game.to_act(state)
            seat = self.index[acting[0]]
            legal = self.model.candidates(state, seat, game.legal_actions(state, acting[0]))
            if not legal:
                break
            if len(legal) == 1:
                i = 0
            else:
                weights = self.model.weights(state, seat, legal)
                greedy_now = greedy > 0 and rng.below(1000) < greedy * 1000
                i = heaviest(weights) if greedy_now else weighted_pick(weights, rng)
            state = self.model.step(state, seat, legal[i])
        if game.is_over(state):
            return terminal_values(game, state, self.players)
        return self.model.evaluate(state)
