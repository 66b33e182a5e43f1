"""Which manoeuvres (move, control, attack, tactic) a unit on the board may make.

Kept apart from the turn flow because every unit ability that changes *what is possible* lives
here (Archer, Crossbowman, Cavalry, Lancer, Light Cavalry, Ensign, Marshall, Royal Guard tactics,
the Knight's protection, the no-normal-attack restriction), while abilities that change *what
happens next* (Swordsman, Berserker, Warrior Priest, Mercenary, Pikeman) live in ``rules.py``.
"""

from __future__ import annotations

from engine.kept import kept
from engine.warchest.actions import Action, Attack, Control, Move, Tactic
from engine.warchest.board import BoardMap, Hex, board_map, distance
from engine.warchest.state import State, Unit
from engine.warchest.units import (
    ARCHER,
    CAVALRY,
    CROSSBOWMAN,
    ENSIGN,
    KNIGHT,
    LANCER,
    LIGHT_CAVALRY,
    MARSHALL,
    NO_NORMAL_ATTACK,
    ROYAL_GUARD,
)


def bmap(st: State) -> BoardMap:
    return board_map(st.board_name)


def team_of(st: State, seat: int) -> int:
    return st.seats[seat].team


def is_enemy(st: State, seat: int, unit: Unit | None) -> bool:
    return unit is not None and st.seats[unit[0]].team != st.seats[seat].team


def is_friend(st: State, seat: int, unit: Unit | None) -> bool:
    return unit is not None and st.seats[unit[0]].team == st.seats[seat].team


def can_hit(st: State, seat: int, height: int, target: Hex) -> bool:
    """An enemy stands on ``target`` and an attacker of ``height`` may attack it (Knight: only 2+)."""
    unit = st.board.get(target)
    if unit is None or st.seats[unit[0]].team == st.seats[seat].team:
        return False
    return unit[1] != KNIGHT or height >= 2


_move = kept(Move)
_control = kept(Control)
_attack = kept(Attack)


def unit_manoeuvres(st: State, h: Hex, height: int | None = None, tactics: bool = True) -> list[Action]:
    """Move, control, attack and (when ``tactics``) the coin-paid tactic of the unit on ``h``.

    ``height`` overrides the unit's stack (a Berserker that pays for a repeat with a stacked coin is
    one lower when it acts). The Royal Guard's tactic is paid with the Royal Coin, so it is listed by
    ``royal_guard_tactics`` instead; the Footman's by the caller (it needs both Footmen).
    """
    seat, kind, real_height = st.board[h]
    if height is None:
        height = real_height
    bm = bmap(st)
    board = st.board
    out: list[Action] = []
    for n in bm.neighbours[h]:
        if n not in board:
            out.append(_move(kind, h, n))
    if h in bm.location_set and st.control.get(h) != st.seats[seat].team:
        out.append(_control(kind, h))
    if kind not in NO_NORMAL_ATTACK:
        for n in bm.neighbours[h]:
            if can_hit(st, seat, height, n):
                out.append(_attack(kind, h, n))
    if tactics:
        maker = _TACTICS.get(kind)
        if maker is not None:
            out.extend(maker(st, bm, h, seat, height))
    return out


def _archer(st: State, bm: BoardMap, h: Hex, seat: int, height: int) -> list[Action]:
    return [
        Tactic(ARCHER, h, (t,)) for t in bm.within2[h] if distance(h, t) == 2 and can_hit(st, seat, height, t)
    ]


def _crossbowman(st: State, bm: BoardMap, h: Hex, seat: int, height: int) -> list[Action]:
    out: list[Action] = []
    for line in bm.lines[h]:
        if len(line) >= 2 and line[0] not in st.board and can_hit(st, seat, height, line[1]):
            out.append(Tactic(CROSSBOWMAN, h, (line[1],)))
    return out


def _cavalry(st: State, bm: BoardMap, h: Hex, seat: int, height: int) -> list[Action]:
    out: list[Action] = []
    for n in bm.neighbours[h]:
        if n in st.board:
            continue
        for t in bm.neighbours[n]:
            if t != h and can_hit(st, seat, height, t):
                out.append(Tactic(CAVALRY, h, (n, t)))
    return out


def _lancer(st: State, bm: BoardMap, h: Hex, seat: int, height: int) -> list[Action]:
    out: list[Action] = []
    for line in bm.lines[h]:
        for steps in (1, 2):
            if len(line) <= steps or any(x in st.board for x in line[:steps]):
                break
            if can_hit(st, seat, height, line[steps]):
                out.append(Tactic(LANCER, h, (line[steps - 1], line[steps])))
    return out


def _light_cavalry(st: State, bm: BoardMap, h: Hex, seat: int, height: int) -> list[Action]:
    ends: set[Hex] = set()
    for n in bm.neighbours[h]:
        if n in st.board:
            continue
        for m in bm.neighbours[n]:
            if m not in st.board and distance(h, m) == 2:
                ends.add(m)
    return [Tactic(LIGHT_CAVALRY, h, (m,)) for m in bm.order if m in ends]


def _ensign(st: State, bm: BoardMap, h: Hex, seat: int, height: int) -> list[Action]:
    out: list[Action] = []
    for o in bm.within2[h]:
        if not is_friend(st, seat, st.board.get(o)):
            continue
        for d in bm.neighbours[o]:
            if d not in st.board and distance(d, h) <= 2:
                out.append(Tactic(ENSIGN, h, (o, d)))
    return out


def _marshall(st: State, bm: BoardMap, h: Hex, seat: int, height: int) -> list[Action]:
    out: list[Action] = []
    for o in bm.within2[h]:
        friend = st.board.get(o)
        if not is_friend(st, seat, friend) or friend is None or friend[1] in NO_NORMAL_ATTACK:
            continue
        for t in bm.neighbours[o]:
            if can_hit(st, seat, friend[2], t):
                out.append(Tactic(MARSHALL, h, (o, t)))
    return out


def royal_guard_tactics(st: State, h: Hex) -> list[Action]:
    """Royal Guard: 1 or 2 steps through empty hexes, ending on a location its team controls."""
    seat = st.board[h][0]
    team = st.seats[seat].team
    bm = bmap(st)
    ends: set[Hex] = set()
    for n in bm.neighbours[h]:
        if n in st.board:
            continue
        ends.add(n)
        for m in bm.neighbours[n]:
            if m != h and m not in st.board:
                ends.add(m)
    return [
        Tactic(ROYAL_GUARD, h, (m,))
        for m in bm.order
        if m in ends and m in bm.location_set and st.control.get(m) == team
    ]


_TACTICS = {
    ARCHER: _archer,
    CROSSBOWMAN: _crossbowman,
    CAVALRY: _cavalry,
    LANCER: _lancer,
    LIGHT_CAVALRY: _light_cavalry,
    ENSIGN: _ensign,
    MARSHALL: _marshall,
}
