"""Position scores and action preferences for Cry Havoc's computer players.

A whole game is a few hundred small decisions (every unit's step, every card paid), far more than a
search can play out at each one. The search therefore stops its rollouts after a few decisions and
scores the position (``evaluate``), and plays those rollouts with a policy that spends cards on
movement into regions worth holding, ends actions once their points are spent, and puts units on
Region Control (``weights``).

``evaluate`` is the learned evaluation: each seat's share of a softmax over a few numbers per seat
(``features``), their weights fitted by self-play (``training/``). Against the same level scoring
with the hand-weighed evaluation it replaced (``hand_evaluate``), ``normal`` won most decided games
at every table size (docs/computer-players.md). That one, kept for the benches, gives a seat its VP
plus what its position will likely turn into VP: the crystals of the regions it holds (scored at
least once more, in the final round, halved for Trogs), the Region Control and region of a battle it
should win on numbers, prisoners (each pays a VP every round it is held), structures, units on the
map and in reserve, and cards in hand. With two players the score lead becomes a value through a
logistic curve; with more, each seat's share of a softmax.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ai.cryhavoc import features
from engine.cryhavoc.actions import Action
from engine.cryhavoc.content import CARDS, OBJECTIVES, STRUCTURES, TOKENS
from engine.cryhavoc.state import Phase, St, n_players, trog_seat

CRYSTAL = 0.9
"""A crystal in a held region: one more scoring is certain (the final round), others are likely."""
REGION = 0.4
"""A held region: it scores for the seat that enables scoring, and is a base to move from."""
UNIT = 0.3
"""A unit on the map: it holds and takes regions."""
RESERVE = 0.1
"""A unit in reserve: recruiting is cheap, so it is worth little more than nothing."""
CARD = 0.35
"""A card in hand: about two points of actions to come, or a battle effect."""
STRUCTURE = 0.6
"""A structure: a guard or an effect to activate in later rounds."""
SCALE = 3.0
"""Two players: the VP lead worth about 73 % to the leader."""
TEMPERATURE = 2.5
"""Three or four players: the softmax's temperature, in VP."""


def seat_scores(st: St) -> list[float]:
    """Each seat's VP plus the VP its position should bring (see the module docstring)."""
    n = n_players(st)
    scores = [float(v) for v in st["vp"]]
    if st["phase"] == Phase.OVER:
        return scores
    trogs = trog_seat(st)
    rounds_left = len(st["track"]) + 1
    scorings = 1.0 + features.LATER * (rounds_left - 1)
    for rid, (holder, crystals, won) in features.holders(st).items():
        if holder >= n:
            continue
        reg = st["regions"][rid]
        if won:
            scores[holder] += TOKENS["control_vp"]
        value = crystals * CRYSTAL * scorings
        scores[holder] += (value / 2 if holder == trogs else value) + REGION
        for side in range(n):
            scores[side] += UNIT * reg["units"][side]
    for seat, s in enumerate(st["seats"]):
        scores[seat] += RESERVE * s["reserve"] + CARD * len(s["hand"])
        scores[seat] += STRUCTURE * sum(s["built"].values())
        held = sum(st["prisoners"][seat])
        scores[seat] += held * rounds_left
    return scores


def evaluate(st: St) -> list[float]:
    """Per seat, its chance of winning as the weights fitted by self-play put it: its share of a
    softmax over the seats' weighted features (``features``, ``ai.learned``)."""
    return features.weights().shares(features.sides(st))


def hand_evaluate(st: St) -> list[float]:
    """Per seat, about its chance of winning, from the hand-weighed scores of ``seat_scores``: the
    evaluation the learned one replaced, kept for the benches that measure what the replacement
    bought."""
    scores = seat_scores(st)
    if len(scores) == 2:
        x = max(-50.0, min(50.0, (scores[0] - scores[1]) / SCALE))
        first = 1.0 / (1.0 + math.exp(-x))
        return [first, 1.0 - first]
    top = max(scores)
    exps = [math.exp((s - top) / TEMPERATURE) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def _points(kind: str) -> int:
    return sum(int(v) for v in CARDS[kind]["points"].values())


def _printed(kind: str, ptype: str) -> float:
    return float(CARDS[kind]["points"].get(ptype, 0))


def _paid_vp(structure: str) -> float:
    """The VP one activation of ``structure`` pays at once."""
    return float(sum(int(e.get("n", 1)) for e in STRUCTURES[structure]["effect"] if e["do"] == "vp"))


def _step_weight(st: St, seat: int, src: str, dst: str) -> float:
    """How promising one unit's step is: into regions worth holding, battles it should win."""
    regs = st["regions"]
    reg = regs[dst]
    crystals = float(reg["crystals"])
    others = [i for i, c in enumerate(reg["units"]) if c > 0 and i != seat]
    if reg["battle"] is not None or others:
        mine = regs[src]["units"][seat] + reg["units"][seat]
        theirs = max((reg["units"][i] for i in others), default=0)
        return max(0.2, 1.0 + 0.4 * crystals + (1.5 if mine > theirs else -0.5))
    if reg["token"] is not None and seat != trog_seat(st):
        return 0.4
    if reg["control"] != seat:
        return 2.0 + crystals + (1.0 if reg["explore"] is not None else 0.0)
    return 0.5


FIXED = {
    "build": 0.8,
    "draw": 0.7,
    "score": 2.0,
    "skill": 2.5,
    "pass": 0.05,
    "pay": 0.6,
    "construct": 3.0,
    "activate": 3.0,
    "play": 2.0,
    "ransom": 0.3,
}
"""Preferences that do not depend on the position; fold, capture, kill, retreat and done weigh 1."""


def weights(st: St, seat: int, legal: Sequence[Action]) -> list[float]:
    """A preference per legal action (see the module docstring)."""
    p = st["pending"]
    out: list[float] = []
    for a in legal:
        # the verb tells the kinds apart (see ``engine.cryhavoc.actions``), the most frequent first
        if a.verb == "go":
            w = _step_weight(st, seat, a.origin, a.to)
        elif a.verb == "end":
            w = 4.0 if p is None or p["points"] <= 0 else 0.3
        elif a.verb == "discard":
            w = 1.0 / (1.0 + _points(a.card))
        elif a.verb == "move":
            w = 2.5 + _printed(a.card, "move")
        elif a.verb == "recruit":
            w = 1.2 + _printed(a.card, "recruit")
        elif a.verb == "keep":
            w = 1.0 + _points(a.card)
        elif a.verb == "activate":
            # a structure that pays VP first: building another while one stood ready to pay left
            # its points unspent at the end of the turn
            w = FIXED["activate"] + 3.0 * _paid_vp(a.structure)
        elif a.verb == "play":
            # a card played onto Region Control decides the 2 VP of the region's control token
            w = FIXED["play"] + (1.5 if a.objectives and a.objectives[-1] == OBJECTIVES[0] else 0.0)
        elif a.verb == "place":
            w = 3.0 if a.objective == OBJECTIVES[0] else 1.5
        else:
            w = FIXED.get(a.verb, 1.0)
        out.append(w)
    return out
