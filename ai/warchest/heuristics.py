"""Position scores and action preferences for War Chest's computer players.

Random play almost never wins War Chest: controlling six locations takes a plan, and coins spent at
random mostly pass or shuffle units about until the stall rule ends the game. The search therefore
scores the positions where its short rollouts stop (``evaluate``) and plays those rollouts with a
policy that prefers what usually matters (``weights``): taking locations, hitting units, putting
units on the board, walking towards locations the team does not hold.

``evaluate`` is the learned evaluation: a logistic model over a few numbers per team
(``features``), its weights fitted by self-play (``training/``). Against the same level scoring
with the hand-weighed evaluation it replaced (``hand_evaluate``), ``normal`` and ``hard`` won most
decided games (docs/computer-players.md). That one, kept for the benches, counts a team's control
markers placed (the win condition), its units on the board and their coins, units standing on a
location they could take next, and every coin it still owns (coins in the bag are future actions;
recruited coins are more of them); the difference of the two teams' scores becomes a value in
[0, 1] through a logistic curve.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ai.warchest import features
from ai.warchest.features import nearest, open_locations
from engine.warchest.actions import (
    Action,
    Attack,
    Bolster,
    Control,
    Deploy,
    Initiative,
    Move,
    Pass,
    Recruit,
    Skip,
    Tactic,
)
from engine.warchest.board import distance
from engine.warchest.manoeuvres import bmap
from engine.warchest.rules import STALL_ROUNDS
from engine.warchest.state import State

CONTROL = 3.0
"""Value of one controlled location; six (eight with four players) win."""
BOARD_COIN = 0.8
"""Each coin of a unit on the board: its strength, what an attack must remove."""
ON_LOCATION = 1.0
"""A unit on a location its team does not control: a control action away from a marker."""
OWNED_COIN = 0.4
"""Each coin still owned (bag, hand, discards, board): actions to come."""
NEAR = 0.15
"""Per hex of distance from a unit to the nearest location its team does not hold."""
SCALE = 3.0
"""Score difference that makes a position worth about 73 % to the better team."""
RANGED = ("archer", "crossbowman", "cavalry", "lancer", "marshall")
"""Units whose tactic is (or ends in) an attack."""
TALL = 3
"""Coins a unit may hold before bolstering it further waits for the locations to be taken."""


def team_scores(st: State) -> list[float]:
    """Each team's score (see the module docstring), teams in order 0, 1."""
    bm = bmap(st)
    scores = [0.0, 0.0]
    for team in (0, 1):
        scores[team] += CONTROL * sum(1 for t in st.control.values() if t == team)
        if st.markers[team] == 1:
            scores[team] += CONTROL / 2  # one more location wins: the other side must answer now
    targets = [open_locations(st, team) for team in (0, 1)]
    near = [nearest(st.board_name, t) for t in targets]
    for h, (seat, _kind, height) in st.board.items():
        team = st.seats[seat].team
        scores[team] += BOARD_COIN * height
        if h in bm.location_set and st.control.get(h) != team:
            scores[team] += ON_LOCATION
        elif targets[team]:
            scores[team] -= NEAR * near[team][h]
    for s in st.seats:
        owned = len(s.bag) + len(s.hand) + len(s.discard_down) + sum(s.discard_up.values())
        scores[s.team] += OWNED_COIN * owned
    for seat, _kind, height in st.board.values():
        scores[st.seats[seat].team] += OWNED_COIN * height
    return scores


def hand_evaluate(st: State) -> list[float]:
    """Per seat, the logistic of its team's hand-weighed score lead (``team_scores``): the evaluation
    the learned one replaced, kept for the benches that measure what the replacement bought."""
    a, b = team_scores(st)
    return _per_seat(st, 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, (a - b) / SCALE)))))


def evaluate(st: State) -> list[float]:
    """Per seat, its team's chance of winning as the weights fitted by self-play put it
    (``features``, ``ai.learned``)."""
    first, second = features.sides(st)
    return _per_seat(st, features.weights().chance(first, second))


def _per_seat(st: State, first: float) -> list[float]:
    """Each seat's value from team 0's chance ``first``, pulled towards a draw as the stall rises.

    A game that makes no progress ends in a draw after ``STALL_ROUNDS`` rounds, so a lead counts for
    less as the stall counter rises: a team ahead must take a new location, recruit or remove coins
    rather than sit on its lead until the draw.
    """
    first = 0.5 + (first - 0.5) * (1.0 - st.stall / STALL_ROUNDS)
    return [first if s.team == 0 else 1.0 - first for s in st.seats]


FIXED: dict[type, float] = {
    Control: 8.0,
    Deploy: 3.0,
    Recruit: 2.0,
    Bolster: 1.5,
    Initiative: 1.0,
    Skip: 0.3,
    Pass: 0.2,
}
"""Preferences that do not depend on the position; guard choices and draft picks weigh 1."""


def weights(st: State, seat: int, legal: Sequence[Action]) -> list[float]:
    """A preference per legal action: control and attacks first, passing last."""
    bm = bmap(st)
    team = st.seats[seat].team
    targets = open_locations(st, team)
    near = nearest(st.board_name, targets)
    out: list[float] = []
    for a in legal:
        if isinstance(a, Attack):
            target = st.board.get(a.target)
            w = 6.0 + (2.0 if target is not None and target[2] == 1 else 0.0)
        elif isinstance(a, Tactic):
            w = 5.0 if a.unit in RANGED else 2.0
        elif isinstance(a, Move):
            w = 1.0
            if a.dst in bm.location_set and st.control.get(a.dst) != team:
                w += 2.5
            elif targets:
                w += 0.8 * (near[a.src] - near[a.dst])
            w = max(0.2, w)
        else:
            w = FIXED.get(type(a), 1.0)
        out.append(w)
    return out


def open_nearby(st: State, team: int) -> bool:
    """Whether a location ``team`` does not hold lies empty within two hexes of one of its units: a
    place a coin could take the unit to, or the control action it could pay for there."""
    bm = bmap(st)
    units = [h for h, (seat, _kind, _height) in st.board.items() if st.seats[seat].team == team]
    return any(
        st.control.get(h) != team and h not in st.board and any(distance(h, u) <= 2 for u in units)
        for h in bm.locations
    )


def candidates(st: State, seat: int, legal: list[Action]) -> list[Action]:
    """The legal actions worth searching: every one but a bolster that raises a unit above ``TALL``
    coins while a location lies open nearby (``open_nearby``).

    A tall unit is hard to remove, and the search, which scores every coin on the board, kept piling
    coins on one: ``hard`` bolstered its Royal Guard to four while the opponent spread over the
    board. Six locations win, and a coin spent on a fourth layer takes none of them.
    """
    tall = [a for a in legal if isinstance(a, Bolster) and st.board[a.hex][2] >= TALL]
    if not tall or not open_nearby(st, st.seats[seat].team):
        return legal
    kept = [a for a in legal if not (isinstance(a, Bolster) and st.board[a.hex][2] >= TALL)]
    return kept or legal
