"""Geometry and dice of combat: who can be shot, how many dice defend, command reach.

All attacks travel in a straight orthogonal line, the way the attackers face: the
zone next to them (range 0), or up to ``range`` zones beyond it. A shot may not pass
over a zone holding troops (friend or foe) nor over a hill; forests and buildings
in the zones it crosses add their dice to the defence.
"""

from __future__ import annotations

from engine.batailles.board import DIRECTIONS, OPPOSITE, Zone, step
from engine.batailles.state import State
from engine.batailles.troops import Troop
from engine.rng import Rng

HIT = 4
"""A die showing 4 or more is a hit (attack), a cancel (defence) or a hold (morale)."""
MAX_TROOP_DEFENCE = 6


def successes(faces: list[int]) -> int:
    return sum(1 for f in faces if f >= HIT)


def failures(faces: list[int]) -> int:
    return sum(1 for f in faces if f < HIT)


def roll(state: State, count: int) -> list[int]:
    rng = Rng(state.rng)
    faces = [rng.die() for _ in range(count)]
    state.rng = rng.state
    return faces


def reroll_failed(state: State, faces: list[int], count: int) -> tuple[list[int], list[int]]:
    """Reroll the first ``count`` failed dice; returns (new faces, the rerolled results)."""
    new = list(faces)
    rerolled: list[int] = []
    for i, f in enumerate(new):
        if len(rerolled) == count:
            break
        if f < HIT:
            (face,) = roll(state, 1)
            new[i] = face
            rerolled.append(face)
    return new, rerolled


def shot_line(state: State, origin: Zone, direction: str, reach: int, seat: int) -> list[tuple[Zone, int]]:
    """Enemy zones the troops at ``origin`` facing ``direction`` may attack, with their cover dice.

    ``reach`` is the range characteristic: 0 means the adjacent zone only.
    """
    targets: list[tuple[Zone, int]] = []
    cover = 0
    for distance in range(1, reach + 2):
        zone = step(origin, direction, distance)
        if not state.board.inside(zone):
            break
        holder = state.occupant(zone)
        if holder is not None:
            if holder != seat:
                targets.append((zone, cover))
            break
        terrain = state.board.at(zone)
        if terrain.hill:
            break
        cover += terrain.cover
    return targets


def blocked_by(state: State, origin: Zone, target: Zone) -> Zone | None:
    """The first zone between ``origin`` and ``target`` (in line) that stops a shot, if any."""
    direction = direction_to(origin, target)
    if direction is None:
        return None
    zone = step(origin, direction)
    while zone != target:
        if state.occupant(zone) is not None or state.board.at(zone).hill:
            return zone
        zone = step(zone, direction)
    return None


def direction_to(origin: Zone, target: Zone) -> str | None:
    """The direction of a straight orthogonal line from ``origin`` to ``target``, if there is one."""
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    if (dx == 0) == (dy == 0):
        return None
    unit = (dx // abs(dx) if dx else 0, dy // abs(dy) if dy else 0)
    for name, vector in DIRECTIONS.items():
        if vector == unit:
            return name
    return None


def defence_dice(state: State, target: Zone, attack_direction: str) -> list[tuple[Troop, int]]:
    """Troops of ``target`` facing the attackers, with the dice each rolls.

    A troop defends with its Defence plus the forest, building and hill dice of its own
    zone, six dice at most; troops facing elsewhere do not defend against this attack, and
    neither does a troop with all five points in Movement, which, the rules say, can only move or
    turn (its zone's terrain gives it no dice: there is no defence to add them to).
    """
    bonus = state.board.at(target).defence_bonus
    return [
        (t, min(MAX_TROOP_DEFENCE, t.defence + bonus))
        for t in facing_attack(state, target, attack_direction)
        if not t.only_moves and t.defence + bonus > 0
    ]


def facing_attack(state: State, target: Zone, attack_direction: str) -> list[Troop]:
    """The troops of ``target`` that face the attackers, whether or not they have dice to roll: the
    log says why a zone rolls none (nobody faces the attack, or those who do have no Defence)."""
    facing = OPPOSITE[attack_direction]
    return [t for t in state.in_zone(target) if t.facing == facing]


def logistics_in(state: State, zone: Zone, seat: int) -> int:
    """Rerolls available to troops of ``zone``: the logistics points left of every troop there."""
    return sum(t.logistics_left for t in state.in_zone(zone) if t.seat == seat)


def spend_logistics(state: State, zone: Zone, seat: int, count: int, first: list[str]) -> None:
    """Take ``count`` logistics points from the zone's troops, the acting ``first`` ones first."""
    troops = sorted(
        (t for t in state.in_zone(zone) if t.seat == seat), key=lambda t: (t.name not in first, t.name)
    )
    for t in troops:
        used = min(count, t.logistics_left)
        t.logistics_left -= used
        count -= used


def commanders(state: State, zone: Zone, seat: int) -> list[Troop]:
    """Friendly troops whose command reaches ``zone``.

    Command reaches the troop's own zone and, in a straight line, the adjacent zone plus
    ``range`` zones beyond; it passes over empty and friendly zones but not enemy ones.
    """
    found = [t for t in state.in_zone(zone) if t.seat == seat and t.command_left > 0]
    for direction in DIRECTIONS:
        for distance in range(1, state.board.width + state.board.height):
            here = step(zone, direction, distance)
            if not state.board.inside(here):
                break
            holder = state.occupant(here)
            for t in state.in_zone(here):
                if t.seat == seat and t.command_left > 0 and t.range + 1 >= distance:
                    found.append(t)
            if holder is not None and holder != seat:
                break
    return found


def command_available(state: State, zone: Zone, seat: int) -> int:
    return sum(t.command_left for t in commanders(state, zone, seat))


def spend_command(state: State, zone: Zone, seat: int, count: int) -> None:
    for t in commanders(state, zone, seat):
        used = min(count, t.command_left)
        t.command_left -= used
        count -= used
