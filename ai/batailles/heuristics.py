"""Position scores and action preferences for Batailles' computer players.

Random Batailles armies wander, turn about and rarely meet: most random games reach the round limit
with few losses. The search scores the positions where its rollouts stop (``evaluate``) and plays
those rollouts with a policy that closes on the enemy, faces it and attacks with every die it can
(``weights``).

A position is worth the difference in losses (the victory condition, at the break or at the round
limit), plus the losses this turn's hits will cause at its end, plus a little for advantage points
(morale tests), for the advantage zones held (the points they will pay), for troops facing an
enemy they can shoot next and for the ground taken (rows beyond the deployment rows). The lead
becomes a value in [0, 1] through a logistic curve.

Without the zones held, two searching players each waited behind their lines, since the side that
walks into range is shot first, and five games in six between ``hard`` and ``normal`` ended drawn
at the round limit; valuing the zones' income makes them contest the middle, and one in six did.
Still, the zones lie beyond a rollout's reach for troops that move one zone a turn, and ``normal``
drew 6 of 20 games against a random player and 6 of 20 against the greedy one, keeping to its own
rows while the other army wandered; valuing the ground taken, it won all 40.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.batailles import combat
from engine.batailles.actions import (
    Action,
    Activate,
    Attack,
    Deploy,
    Done,
    EndTurn,
    Face,
    Hold,
    Lose,
    Morale,
    Move,
    Reroll,
)
from engine.batailles.board import Zone, step
from engine.batailles.rules import group
from engine.batailles.state import Phase, State
from engine.batailles.troops import Troop

LEFTOVER_HIT = 0.12
"""A hit short of the five that kill a troop: it turns into an advantage point, and may add up."""
ADVANTAGE = 0.07
"""One advantage point: six call a morale test that may remove a troop."""
READY = 0.06
"""Per attack die of a troop facing an enemy it can shoot: a hit threatened for next turn."""
HELD = 0.15
"""Per advantage point a turn from the advantage zones a side holds: the income that pays for
morale tests, which is what makes a side that stays back lose troops without a shot fired."""
ADVANCE = 0.02
"""Per row a troop stands beyond its own deployment rows: ground taken, which is what makes a side
go and fight a foe who stays away instead of waiting for the round limit's draw."""
SCALE = 1.2
"""Loss lead that makes a position worth about 70 % to the leader."""
FORWARD = ("n", "s")
"""The way each seat's army faces the enemy at deployment (north for the first seat)."""


def _zone_troops(st: State) -> dict[Zone, list[Troop]]:
    found: dict[Zone, list[Troop]] = {}
    for t in st.troops:
        if t.zone is not None and not t.lost:
            found.setdefault(t.zone, []).append(t)
    return found


def _expected_losses(st: State, zones: dict[Zone, list[Troop]]) -> float:
    """The opponent's losses this turn's hits will cause when the active player ends the turn."""
    if st.phase != Phase.PLAY:
        return 0.0
    defender = 1 - st.active
    total = 0.0
    for zone, hits in st.hits.items():
        troops = sum(1 for t in zones.get(zone, []) if t.seat == defender)
        total += min(troops, hits // 5) + LEFTOVER_HIT * (hits % 5)
    return total


def _readiness(st: State, zones: dict[Zone, list[Troop]], seat: int) -> float:
    """Attack dice of ``seat``'s troops that face an enemy in their line of fire."""
    total = 0.0
    for zone, troops in zones.items():
        for t in troops:
            if t.seat == seat and t.attack > 0 and combat.shot_line(st, zone, t.facing, t.range, seat):
                total += t.attack
    return total


def _held(st: State, zones: dict[Zone, list[Troop]], seat: int) -> int:
    """Advantage points a turn from the advantage zones ``seat`` holds."""
    return sum(
        value
        for zone, value in st.board.advantage_zones()
        if any(t.seat == seat for t in zones.get(zone, []))
    )


def _advance(st: State, zones: dict[Zone, list[Troop]], seat: int) -> int:
    """Rows ``seat``'s troops stand beyond its deployment rows, all troops together."""
    front = st.board.front_row(seat)
    forward = 1 if seat == 0 else -1
    return sum(
        max(0, (zone[1] - front) * forward) * sum(1 for t in troops if t.seat == seat)
        for zone, troops in zones.items()
    )


def lead(st: State) -> float:
    """How far the first seat is ahead (positive) or behind, in troops."""
    zones = _zone_troops(st)
    d = float(st.losses[1] - st.losses[0])
    if st.phase == Phase.PLAY:
        sign = 1.0 if st.active == 0 else -1.0
        d += sign * _expected_losses(st, zones)
    d += ADVANTAGE * (st.advantage[0] - st.advantage[1])
    d += HELD * (_held(st, zones, 0) - _held(st, zones, 1))
    d += READY * (_readiness(st, zones, 0) - _readiness(st, zones, 1))
    d += ADVANCE * (_advance(st, zones, 0) - _advance(st, zones, 1))
    return d


def evaluate(st: State) -> list[float]:
    """Per seat, the logistic of its lead: about the chance that it wins."""
    x = max(-50.0, min(50.0, lead(st) / SCALE))
    first = 1.0 / (1.0 + math.exp(-x))
    return [first, 1.0 - first]


class _Looks:
    """Distances to the nearest enemy and lines of fire, each worked out once per position."""

    def __init__(self, st: State, seat: int) -> None:
        self.st = st
        self.seat = seat
        self._enemies: list[Zone] | None = None
        self._distance: dict[Zone, int] = {}
        self._lines: dict[tuple[Zone, str, int], bool] = {}

    def distance(self, zone: Zone) -> int:
        found = self._distance.get(zone)
        if found is None:
            if self._enemies is None:
                self._enemies = [
                    t.zone
                    for t in self.st.troops
                    if t.seat != self.seat and t.zone is not None and not t.lost
                ]
            x, y = zone
            found = 1 << 30
            for ex, ey in self._enemies:  # a plain loop: this runs for every move the policy weighs
                d = abs(x - ex) + abs(y - ey)
                if d < found:
                    found = d
            if found == 1 << 30:
                found = 0
            self._distance[zone] = found
        return found

    def shoots(self, zone: Zone, facing: str, reach: int) -> bool:
        key = (zone, facing, reach)
        found = self._lines.get(key)
        if found is None:
            found = bool(combat.shot_line(self.st, zone, facing, reach, self.seat))
            self._lines[key] = found
        return found


FIXED: dict[type, float] = {Morale: 2.0, Done: 0.5, EndTurn: 0.2}
"""Preferences that do not depend on the position; anything else not weighed below weighs 1."""


def weights(st: State, seat: int, legal: Sequence[Action]) -> list[float]:
    """A preference per legal action: attack with many dice, close in, face the enemy, end turns late."""
    looks = _Looks(st, seat)
    acting: list[Troop] = group(st, st.activation) if st.activation is not None else []
    here = acting[0].zone if acting else None
    reach = min((t.range for t in acting), default=0)
    mine: dict[str, Troop] = {}
    crowds: dict[Zone, int] | None = None
    out: list[float] = []
    for a in legal:
        if isinstance(a, Attack):
            w = 5.0 + 2.0 * a.dice
        elif isinstance(a, Move) and here is not None:
            dest = step(here, a.direction)
            closer = looks.distance(dest)
            w = 1.0 + 1.5 * (looks.distance(here) - closer)
            if looks.distance(step(dest, a.facing)) < closer:  # facing the way to the enemy
                w += 1.0
            w = max(0.1, w)
        elif isinstance(a, Face) and here is not None:
            w = 4.0 if looks.shoots(here, a.direction, reach) else 0.3
        elif isinstance(a, Activate):
            if not mine:
                mine = {t.name: t for t in st.troops if t.seat == seat}
            troops = [mine[n] for n in a.names]
            zone = troops[0].zone
            facing = troops[0].facing
            ready = (
                zone is not None
                and all(t.facing == facing and t.attack > 0 for t in troops)
                and looks.shoots(zone, facing, min(t.range for t in troops))
            )
            w = 3.0 * (1.0 + 0.3 * (len(troops) - 1)) if ready else 1.5 / len(troops)
        elif isinstance(a, Reroll):
            w = 1.0 + 2.0 * a.count
        elif isinstance(a, Hold):
            w = 1.0 + a.dice
        elif isinstance(a, Lose):
            t = st.troop(seat, a.name)
            w = 1.0 / (1.0 + (t.attack + t.defence if t is not None else 0))
        elif isinstance(a, Deploy):
            w = 3.0 if a.facing == FORWARD[seat] else 0.05
            if a.zone[1] == st.board.front_row(seat):
                w *= 2.0
            if crowds is None:  # once per position: a deployment weighs one action per zone
                crowds = {zone: len(troops) for zone, troops in _zone_troops(st).items()}
            w /= 1.0 + crowds.get(a.zone, 0)
        else:
            w = FIXED.get(type(a), 1.0)
        out.append(w)
    return out


def candidates(st: State, seat: int, legal: list[Action]) -> list[Action]:
    """The actions worth searching: a deployment as ``_deployments`` narrows it, an activation's steps
    as ``_purposeful`` does, anything else as it is."""
    if not legal:
        return legal
    if st.phase == Phase.DEPLOY and isinstance(legal[0], Deploy):
        return _deployments(st, seat, legal)
    if st.phase == Phase.PLAY and st.activation is not None and st.combat is None and st.pending is None:
        return _purposeful(st, seat, legal)
    return legal


def _support(t: Troop) -> bool:
    """A troop that serves others rather than fights: no Attack, but command or logistics."""
    return t.attack == 0 and (t.command > 0 or t.logistics > 0)


def _serves(t: Troop, zone: Zone, fighters: set[Zone]) -> bool:
    """Whether support troop ``t`` standing in ``zone`` reaches a zone of troops with Attack: its
    logistics serve its own zone's attacks, its command the zones in a straight line up to one plus
    its Range away."""
    if zone in fighters:
        return True
    reach = 1 + t.range if t.command > 0 else 0
    x, y = zone
    return any(
        (fx == x and abs(fy - y) <= reach) or (fy == y and abs(fx - x) <= reach) for fx, fy in fighters
    )


def _deployments(st: State, seat: int, legal: list[Action]) -> list[Action]:
    """The deployments worth searching: one troop still to place, facing the enemy, in a zone that
    keeps the line spread and its general and supply within reach of it.

    Troops are placed one at a time, so placing them in a fixed order reaches every arrangement the
    army could end in; a troop deployed facing away from the enemy only has to turn round. That
    leaves one choice per zone instead of the hundreds of (troop, zone, facing) a big army offers.
    The fighting troops go first and the support troops (a general, a supply train) last, each to a
    zone where its command or logistics reach a fighting troop; no zone gets a third troop while
    another has room. Searched freely, ``hard`` once put eight troops in two corner zones with its
    general and supply far from them: a zone of four is one target for every shot, and a general out
    of reach commands nobody.
    """
    army = st.army(seat)
    waiting = [t for t in army if t.zone is None]
    if not waiting:
        return legal
    troop = next((t for t in waiting if not _support(t)), waiting[0])
    chosen = [
        a for a in legal if isinstance(a, Deploy) and a.name == troop.name and a.facing == FORWARD[seat]
    ]
    crowd: dict[Zone, int] = {}
    for t in army:
        if t.zone is not None:
            crowd[t.zone] = crowd.get(t.zone, 0) + 1
    spread = [a for a in chosen if crowd.get(a.zone, 0) < 2]
    chosen = spread or chosen
    if _support(troop):
        fighters = {t.zone for t in army if t.zone is not None and t.attack > 0}
        serving = [a for a in chosen if _serves(troop, a.zone, fighters)]
        chosen = serving or chosen
    deployments: list[Action] = list(chosen)
    return deployments or legal


def _purposeful(st: State, seat: int, legal: list[Action]) -> list[Action]:
    """An activation's steps that have a purpose: no step back to a zone one of its troops left this
    turn or the side's last, no facing with no enemy ahead, and no ending it before it did anything.

    With these open, a short search among steps its rollouts hardly tell apart walked troops to and
    fro (``cav1`` to h3 and back to h2), turned archers to face their own back row, and activated a
    troop in most turns only to end its activation at once: ending the turn does that better. An
    activation whose steps are all pruned keeps them all (it must be able to end).
    """
    activation = st.activation
    assert activation is not None
    names = activation.names
    here: Zone | None = None
    fresh = True
    top = east = -1
    bottom = west = 1 << 30
    for t in st.troops:  # one pass, plain comparisons: this runs at every step the search plays
        zone = t.zone
        if t.seat == seat:
            if t.name in names:
                here = zone
                if fresh and (
                    activation.movement[t.name] != t.movement or activation.attack[t.name] != t.attack
                ):
                    fresh = False
        elif zone is not None and not t.lost:
            x, y = zone
            if y > top:
                top = y
            if y < bottom:
                bottom = y
            if x > east:
                east = x
            if x < west:
                west = x
    if here is None or top < 0:
        return legal
    recent = st.turns[seat] - 1
    left = {zone for s, name, turn, zone in st.left if s == seat and turn >= recent and name in names}

    def ahead(zone: Zone, facing: str) -> bool:
        """Whether an enemy stands ahead: the farthest one that way is beyond ``zone`` (north is a
        higher row)."""
        if facing == "n":
            return top > zone[1]
        if facing == "s":
            return bottom < zone[1]
        return east > zone[0] if facing == "e" else west < zone[0]

    kept: list[Action] = []
    for a in legal:
        if isinstance(a, Move):
            dest = step(here, a.direction)
            if dest in left or not ahead(dest, a.facing):
                continue
        elif isinstance(a, Face):
            if not ahead(here, a.direction):
                continue
        elif isinstance(a, (Done, EndTurn)) and fresh:
            continue
        kept.append(a)
    return kept or legal


def settled(st: State, seat: int, legal: list[Action]) -> Action | None:
    """A decision that search buys nothing for, taken at once: a deployment, or None (search it).

    Where a troop stands at the start matters less than what it does next, and a search over the
    twenty-odd zones of one troop's deployment spends a whole turn's thinking (ten troops took as long
    as five turns) to choose among places its short rollouts hardly tell apart. The policy's favourite
    is taken instead: the front row facing the enemy, the least crowded zone first.
    """
    chosen = candidates(st, seat, legal)
    if st.phase != Phase.DEPLOY or not chosen or not isinstance(chosen[0], Deploy):
        return None
    preference = weights(st, seat, chosen)
    return chosen[max(range(len(chosen)), key=lambda i: (preference[i], -i))]
