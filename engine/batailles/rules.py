"""The rules of Batailles: who acts, what is legal, and what each action does.

``legal`` is the single source of legality (apart from the free-text troop names of
army building, which are checked by rule); ``apply`` mutates the state it is given,
so the game object hands it a copy. The turn is a small machine:

    build -> deploy -> [initiative] -> turn: advantage zones, activations (steps,
    attacks with their reroll decisions), morale tests -> end of turn: losses chosen
    by their owner, remaining hits become advantage -> next turn / round
    (hardcore: characteristics reassigned, initiative rolled again) -> over
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from engine.batailles import combat
from engine.batailles.actions import (
    Action,
    Activate,
    Attack,
    Deploy,
    Dismiss,
    Done,
    EndTurn,
    Face,
    Hold,
    Lose,
    Morale,
    Move,
    Ready,
    Recruit,
    Reroll,
    Retrain,
    SetProfile,
    typed,
)
from engine.batailles.board import FACINGS, PLACES, Zone, label, step
from engine.batailles.state import (
    Activation,
    Combat,
    Outcome,
    Pending,
    PendingKind,
    Phase,
    Record,
    Stage,
    State,
)
from engine.batailles.troops import Troop, all_profiles, profile_text
from engine.errors import GameOver, IllegalAction, NotYourTurn
from engine.kept import kept
from engine.rng import Rng
from engine.text import Msg, PlayerRef, msg

ACTIVATIONS_PER_TURN = 6
MORALE_COST = 6
"""A morale test needs "more than 5" advantage points; calling one spends those 6."""
MAX_RETRAINED = 6


# --------------------------------------------------------------------------- who acts


def to_act(s: State) -> list[int]:
    if s.phase == Phase.OVER:
        return []
    if s.phase in (Phase.BUILD, Phase.RETRAIN):
        return [seat for seat in (0, 1) if not s.ready[seat]]
    if s.phase == Phase.DEPLOY:
        return [seat for seat in (0, 1) if any(t.zone is None for t in s.army(seat))]
    if s.pending is not None:
        return [s.pending.seat]
    if s.combat is not None:
        return [s.combat.attacker if s.combat.stage == Stage.ATTACK_REROLL else 1 - s.combat.attacker]
    return [s.active]


# --------------------------------------------------------------------------- legal actions


def legal(s: State, seat: int) -> list[Action]:
    return [a for part in _candidates(s, seat) for a in part]


def _candidates(s: State, seat: int) -> list[Iterable[Action]]:
    """The legal actions in ``legal``'s order, in parts; during the play phase the troops' parts are
    lazy, so that checking one action (``_is_legal``) stops where it is found instead of trying
    every group of troops, and the fixed last part (done, end of turn) can be checked first."""
    if seat not in to_act(s):
        return []
    if s.phase == Phase.BUILD:
        return [_legal_build(s, seat)]
    if s.phase == Phase.DEPLOY:
        return [_legal_deploy(s, seat)]
    if s.phase == Phase.RETRAIN:
        return [_legal_retrain(s, seat)]
    if s.pending is not None:
        return [_legal_pending(s, s.pending)]
    if s.combat is not None:
        return [[Reroll(k) for k in range(_max_reroll(s, s.combat) + 1)]]
    if s.activation is not None:
        return [_activation_steps(s, s.activation), (Done(), EndTurn())]
    return [_activations(s, seat), _morale_targets(s, seat), (EndTurn(),)]


def army_cap(s: State, seat: int) -> int:
    """As many troops as the player wishes, up to what their deployment rows hold: every place
    there that terrain leaves free takes one troop, so any army within the cap can be deployed."""
    return sum(PLACES - s.board.at(z).places for z in s.board.deploy_zones(seat))


def default_name(s: State, seat: int) -> str:
    taken = {t.name for t in s.army(seat)}
    return next(f"t{k}" for k in itertools.count(1) if f"t{k}" not in taken)


def _legal_build(s: State, seat: int) -> list[Action]:
    army = s.army(seat)
    found: list[Action] = []
    if len(army) < army_cap(s, seat):
        name = default_name(s, seat)
        found += _recruits(name)
    found += [Dismiss(t.name) for t in army]
    if army:
        found.append(Ready())
    return found


@functools.lru_cache(maxsize=128)
def _recruits(name: str) -> tuple[Recruit, ...]:
    """A recruit of ``name`` with each profile: the build phase lists them at every step, for the
    same few default names (``t1``, ``t2``... up to an army's size; 252 recruits each, so few are
    kept)."""
    return tuple(Recruit(name, p) for p in all_profiles())


@functools.cache
def _set_profiles() -> tuple[SetProfile, ...]:
    """Every new profile a hardcore retrain may choose, offered at each retraining step."""
    return tuple(SetProfile(p) for p in all_profiles())


def _deploy_room(s: State, seat: int, zone: Zone) -> bool:
    used = s.board.at(zone).places + sum(1 for t in s.in_zone(zone))
    return used < PLACES and s.occupant(zone) in (None, seat)


def _deploy_choices(s: State, seat: int) -> tuple[list[str], list[Zone]]:
    """The troops still to deploy and the zones with room for one more: any troop may go to any
    of these zones, facing any way."""
    return [t.name for t in s.army(seat) if t.zone is None], deploy_zones_with_room(s, seat)


def deploy_zones_with_room(s: State, seat: int) -> list[Zone]:
    """The zones of ``seat``'s deployment rows with room for one more of its troops."""
    return [z for z in s.board.deploy_zones(seat) if _deploy_room(s, seat, z)]


_deploy = kept(Deploy, 1 << 16)
"""Deployments are frozen values: a big army lists thousands of them at every step of its deployment
(troops x zones x facings), and reusing them costs a fraction of building them again."""


def _legal_deploy(s: State, seat: int) -> list[Action]:
    names, zones = _deploy_choices(s, seat)
    return [_deploy(n, z, f) for n in names for z in zones for f in FACINGS]


def _is_legal(s: State, seat: int, action: Action) -> bool:
    """``action in legal(s, seat)``, without listing every deployment of a big army to find out."""
    if isinstance(action, Deploy) and s.phase == Phase.DEPLOY and seat in to_act(s):
        names, zones = _deploy_choices(s, seat)
        return action.name in names and action.zone in zones and action.facing in FACINGS
    # Whether an action is in the list does not depend on the order of its parts: the last part,
    # fixed and short, is looked at before the troops are.
    parts = _candidates(s, seat)
    return bool(parts) and (action in parts[-1] or any(action in part for part in parts[:-1]))


def _legal_retrain(s: State, seat: int) -> list[Action]:
    if s.retrain_pick[seat] is not None:
        return list(_set_profiles())
    found: list[Action] = []
    if len(s.retrained[seat]) < MAX_RETRAINED:
        found += [Retrain(t.name) for t in s.army(seat) if t.on_field and t.name not in s.retrained[seat]]
    found.append(Ready())
    return found


def _legal_pending(s: State, p: Pending) -> list[Action]:
    troops = sorted(_owned(s, p.zone, p.seat), key=lambda t: t.name)
    if p.kind == PendingKind.LOSS:
        return [Lose(t.name) for t in troops]
    most = min(s.advantage[p.seat], combat.command_available(s, p.zone, p.seat))
    return [Hold(t.name, k) for t in troops for k in range(most + 1)]


def _max_reroll(s: State, c: Combat) -> int:
    if c.stage == Stage.ATTACK_REROLL:
        return min(combat.failures(c.attack_faces), combat.logistics_in(s, c.origin, c.attacker))
    return min(combat.failures(c.defence_faces), combat.logistics_in(s, c.target, 1 - c.attacker))


def _activations(s: State, seat: int) -> Iterator[Action]:
    """Troops and groups not yet activated that have something to do: an activation that could
    neither move, turn nor attack is not offered, so it never costs one of the six."""
    left = ACTIVATIONS_PER_TURN - len(s.activated)
    by_zone: dict[Zone, list[Troop]] = {}
    for t in s.army(seat):
        if t.on_field and t.name not in s.activated and t.zone is not None:
            by_zone.setdefault(t.zone, []).append(t)
    for zone in sorted(by_zone, key=lambda z: (z[1], z[0])):
        troops = sorted(by_zone[zone], key=lambda t: t.name)
        for size in range(1, min(len(troops), left) + 1):
            for chosen in itertools.combinations(troops, size):
                if _can_act(s, zone, chosen):
                    yield Activate(tuple(t.name for t in chosen))


def _can_act(s: State, zone: Zone, troops: tuple[Troop, ...]) -> bool:
    """Whether a fresh activation of ``troops`` (standing in ``zone``) has a step to take.

    The quick form of "``_activation_steps`` yields a step", which legality asks of every group:
    troops that all have Movement can always turn (a group has fewer troops than facings), and
    otherwise only an attack is left, which needs Attack, one facing and an enemy in line.
    """
    if all(t.movement >= 1 for t in troops):
        return True
    facings = {t.facing for t in troops}
    if len(facings) != 1 or any(t.attack < 1 for t in troops):
        return False
    reach = min(t.range for t in troops)
    return bool(combat.shot_line(s, zone, troops[0].facing, reach, troops[0].seat))


def _new_activation(s: State, seat: int, names: tuple[str, ...]) -> Activation:
    """The activation of ``names`` before it spends anything: every point of the turn still there."""
    troops = [t for t in s.army(seat) if t.name in names]
    return Activation(list(names), {t.name: t.movement for t in troops}, {t.name: t.attack for t in troops})


def _owned(s: State, zone: Zone, seat: int) -> list[Troop]:
    """The troops of ``seat`` in ``zone``: hits and morale tests only ever fall on the side shot at."""
    return [t for t in s.in_zone(zone) if t.seat == seat]


def _morale_targets(s: State, seat: int) -> Iterator[Action]:
    if s.advantage[seat] < MORALE_COST:
        return
    for zone in s.board.zones():
        if s.occupant(zone) == 1 - seat:
            yield Morale(zone)


def group(s: State, a: Activation) -> list[Troop]:
    return [t for t in s.army(s.active) if t.name in a.names]


_MOVES = {d: tuple(Move(d, f) for f in FACINGS) for d in FACINGS}
_FACES = {d: Face(d) for d in FACINGS}
"""Moves and turns are frozen values, listed again after every step of an activation."""


def _activation_steps(s: State, a: Activation) -> Iterator[Action]:
    """The steps the activation may take next, one at a time: whether it has any left (asked after
    each of its steps) is known from the first, and a step's legality stops where it is found."""
    troops = group(s, a)
    zone = troops[0].zone
    assert zone is not None
    if all(a.movement[t.name] >= 1 for t in troops):
        for d in FACINGS:
            if _move_problem(s, troops, step(zone, d)) is None:
                yield from _MOVES[d]
        yield from (_FACES[d] for d in FACINGS if any(t.facing != d for t in troops))
    facings = {t.facing for t in troops}
    if all(a.attack[t.name] >= 1 for t in troops) and len(facings) == 1:
        (facing,) = facings
        reach = min(t.range for t in troops)
        most = min(a.attack[t.name] for t in troops)
        for target, _cover in combat.shot_line(s, zone, facing, reach, s.active):
            yield from (Attack(target, k) for k in range(1, most + 1))


def _move_problem(s: State, troops: list[Troop], dest: Zone) -> Msg | None:
    """Why the troops may not enter ``dest`` (None when they may)."""
    if not s.board.inside(dest):
        return msg("bt.err.off_board")
    terrain = s.board.at(dest)
    if terrain.impassable:
        return msg("bt.err.impassable", zone=label(dest))
    seat = troops[0].seat
    holder = s.occupant(dest)
    if holder is not None and holder != seat:
        return msg("bt.err.enemy_zone", zone=label(dest))
    used = terrain.places + len(s.in_zone(dest))
    if used + len(troops) > PLACES:
        return msg("bt.err.zone_full", zone=label(dest), used=used, count=len(troops), places=PLACES)
    return None


# --------------------------------------------------------------------------- errors


def refuse(s: State, seat: int, action: Action) -> Exception:
    """The most precise error for an action that is not legal now."""
    if s.phase == Phase.OVER:
        return GameOver()
    acting = to_act(s)
    if seat not in acting:
        return NotYourTurn(waiting=[PlayerRef(s.players[p]) for p in acting])
    reason = _reason(s, seat, action)
    if reason is not None:
        return IllegalAction(reason.key, **reason.params)
    examples = [typed(a) for a in legal(s, seat)[:8]]  # in the reader's words, as they would type them
    return IllegalAction("bt.err.illegal", input=typed(action), legal=examples or "—")


def _reason(s: State, seat: int, action: Action) -> Msg | None:
    if isinstance(action, Recruit):
        return recruit_problem(s, seat, action)
    if isinstance(action, (Activate, Lose, Hold, Retrain, Deploy, Dismiss)):
        names = action.names if isinstance(action, Activate) else (action.name,)
        for name in names:
            if s.troop(seat, name) is None:
                return msg("bt.err.unknown_troop", name=name, troops=_names(s, seat))
    if s.phase != Phase.PLAY or s.combat is not None or s.pending is not None:
        return None
    if isinstance(action, Activate):
        chosen = [s.troop(seat, n) for n in action.names]
        for t in chosen:
            assert t is not None
            if t.lost or t.zone is None:
                return msg("bt.err.troop_lost", name=t.name)
            if t.name in s.activated:
                return msg("bt.err.already_activated", name=t.name)
        if len({t.zone for t in chosen if t is not None}) > 1:
            return msg("bt.err.coordinate_zone", names=" ".join(action.names))
        if len(s.activated) + len(chosen) > ACTIVATIONS_PER_TURN:
            return msg("bt.err.six_troops", most=ACTIVATIONS_PER_TURN, used=len(s.activated))
        zone = chosen[0].zone if chosen[0] else None
        if zone is not None and not _can_act(s, zone, tuple(t for t in chosen if t is not None)):
            return msg("bt.err.nothing_to_do", names=" + ".join(action.names))
    if isinstance(action, Morale) and s.advantage[seat] < MORALE_COST:
        return msg("bt.err.morale_advantage", have=s.advantage[seat], need=MORALE_COST)
    a = s.activation
    if isinstance(action, (Move, Face, Attack)) and a is None:
        return msg("bt.err.no_activation")
    if a is None:
        return None
    troops = group(s, a)
    if isinstance(action, (Move, Face)):
        for t in troops:
            if t.movement == 0:
                return msg("bt.err.no_movement_stat", name=t.name)
            if a.movement[t.name] == 0:
                return msg("bt.err.no_movement_left", name=t.name)
        if isinstance(action, Move):
            zone = troops[0].zone
            assert zone is not None
            return _move_problem(s, troops, step(zone, action.direction))
    if isinstance(action, Attack):
        return _attack_problem(s, a, troops, action)
    return None


def _attack_problem(s: State, a: Activation, troops: list[Troop], action: Attack) -> Msg | None:
    origin = troops[0].zone
    assert origin is not None
    for t in troops:
        if a.attack[t.name] < action.dice:
            return msg("bt.err.no_attack_left", name=t.name, left=a.attack[t.name], dice=action.dice)
    direction = combat.direction_to(origin, action.zone)
    if direction is None or any(t.facing != direction for t in troops):
        return msg("bt.err.not_facing", zone=label(action.zone))
    distance = abs(action.zone[0] - origin[0]) + abs(action.zone[1] - origin[1])
    reach = min(t.range for t in troops)
    if distance > reach + 1:
        return msg("bt.err.out_of_range", zone=label(action.zone), range=reach, most=reach + 1)
    blocker = combat.blocked_by(s, origin, action.zone)
    if blocker is not None:
        return msg("bt.err.shot_blocked", zone=label(action.zone), blocker=label(blocker))
    if s.occupant(action.zone) != 1 - s.active:
        return msg("bt.err.no_enemy", zone=label(action.zone))
    return None


def recruit_problem(s: State, seat: int, action: Recruit) -> Msg | None:
    if s.phase != Phase.BUILD or s.ready[seat]:
        return msg("bt.err.not_building")
    if s.troop(seat, action.name) is not None:
        return msg("bt.err.name_taken", name=action.name)
    cap = army_cap(s, seat)
    if len(s.army(seat)) >= cap:
        return msg("bt.err.army_full", most=cap)
    return None


def _names(s: State, seat: int) -> str:
    return " ".join(t.name for t in s.army(seat) if not t.lost) or "-"


# --------------------------------------------------------------------------- apply


def apply(s: State, seat: int, action: Action) -> list[Msg]:
    """Check and perform ``action``; raises ``GameError`` (and changes nothing) when illegal."""
    if isinstance(action, Recruit):
        problem = recruit_problem(s, seat, action) if seat in to_act(s) else None
        if seat not in to_act(s) or problem is not None:
            raise refuse(s, seat, action) if problem is None else IllegalAction(problem.key, **problem.params)
    elif not _is_legal(s, seat, action) and not _switches(s, seat, action):
        raise refuse(s, seat, action)
    events: list[Msg] = []
    play(s, seat, action, events)
    return events


def _switches(s: State, seat: int, action: Action) -> bool:
    """Whether ``action`` names other troops to act while some are acting, and may: the player need
    not type ``done`` first (``_do_activate`` ends the activation under way). It is ``done`` then that
    activation in one step, so ``legal`` lists those two and not this shortcut: the search and the
    random playouts weigh each step apart, as they did, and a recruit's own name is legal the same way."""
    if not isinstance(action, Activate) or s.activation is None or s.combat is not None:
        return False
    if s.pending is not None or seat not in to_act(s):
        return False
    acting, s.activation = s.activation, None
    try:
        return action in _activations(s, seat)
    finally:
        s.activation = acting


def play(s: State, seat: int, action: Action, events: list[Msg]) -> None:
    """Perform ``action`` (legal) on ``s`` and record it: as the last action, and in the stretch of
    moves since the players to act last changed (``State.trail``), which the board marks."""
    acting = to_act(s)
    standing = {(t.seat, t.name): t.zone for t in s.troops if not t.lost and t.zone is not None}
    record = last_record(s, seat, action)
    _DISPATCH[type(action)](s, seat, action, events)
    record["removed"] = [
        {"seat": t.seat, "name": t.name, "zone": list(standing[(t.seat, t.name)])}
        for t in s.troops
        if t.lost and (t.seat, t.name) in standing
    ]
    s.last = record
    trail = [] if s.handed else s.trail
    if changes_board(record):
        trail = [*trail, record][-TRAIL_MAX:]
    s.trail = trail
    s.handed = to_act(s) != acting


TRAIL_MAX = 64
"""The most moves a stretch keeps: far more than one turn's, so that a state stays small."""

UNCHANGING = frozenset({"activate", "coordinate", "done"})
"""Kinds that frame the troops' zone but change nothing on the battlefield: the board's last-action
line names the move, attack or loss before them instead."""


def changes_board(record: Record) -> bool:
    """Whether the action of ``record`` changed the battlefield: it put, moved, turned or removed
    troops, attacked, rerolled or called a morale test (it touched zones, other than to pick the
    troops that act or to end their activation), or troops were lost by it (the end of a turn)."""
    verb = str(record.get("text", "")).split(" ", 1)[0]
    return bool(record.get("removed")) or (bool(record.get("zones")) and verb not in UNCHANGING)


def last_record(s: State, seat: int, action: Action) -> Record:
    """The state's ``last`` for ``action`` about to be played from ``s``: who, the action's text and
    the zones it touches (``touched``), so that the board frames them without reading the text
    (``play`` adds the troops it removed)."""
    return {"seat": seat, "text": str(action), "zones": [list(z) for z in touched(s, seat, action)]}


def touched(s: State, seat: int, action: Action) -> list[Zone]:
    """The zones ``action`` touches, read from the state before it is played: a move's start then its
    end, an attack's origin then its target, the zone of a deployment, an activation, a facing, a
    morale test or a loss. Army building, rerolls of nothing and the end of a turn touch none.
    (Searches play this on every step: one lookup by the action's type.)"""
    find = _TOUCHED.get(type(action))
    return find(s, seat, action) if find is not None else []


def _acting_zone(s: State) -> Zone | None:
    troop = s.troop(s.active, s.activation.names[0]) if s.activation is not None else None
    return troop.zone if troop is not None else None


def _touched_by_move(s: State, _seat: int, a: Move) -> list[Zone]:
    at = _acting_zone(s)
    return [] if at is None else [at, step(at, a.direction)]


def _touched_by_attack(s: State, _seat: int, a: Attack) -> list[Zone]:
    at = _acting_zone(s)
    return [] if at is None else [at, a.zone]


def _touched_where_acting(s: State, _seat: int, _a: Action) -> list[Zone]:
    at = _acting_zone(s)
    return [] if at is None else [at]


def _touched_by_activate(s: State, seat: int, a: Activate) -> list[Zone]:
    troop = s.troop(seat, a.names[0])
    return [troop.zone] if troop is not None and troop.zone is not None else []


_TOUCHED: dict[type, Callable[[State, int, Any], list[Zone]]] = {
    Deploy: lambda _s, _seat, a: [a.zone],
    Morale: lambda _s, _seat, a: [a.zone],
    Activate: _touched_by_activate,
    Move: _touched_by_move,
    Attack: _touched_by_attack,
    Face: _touched_where_acting,
    Done: _touched_where_acting,
    Reroll: lambda s, _seat, _a: [s.combat.origin, s.combat.target] if s.combat is not None else [],
    Hold: lambda s, _seat, _a: [s.pending.zone] if s.pending is not None else [],
    Lose: lambda s, _seat, _a: [s.pending.zone] if s.pending is not None else [],
}


def _player(s: State, seat: int) -> PlayerRef:
    return PlayerRef(s.players[seat])


def _do_recruit(s: State, seat: int, a: Recruit, ev: list[Msg]) -> None:
    s.troops.append(Troop(a.name, seat, a.profile))
    ev.append(msg("bt.ev.recruit", player=_player(s, seat), name=a.name, profile=profile_text(a.profile)))


def _do_dismiss(s: State, seat: int, a: Dismiss, ev: list[Msg]) -> None:
    s.troops = [t for t in s.troops if not (t.seat == seat and t.name == a.name)]
    ev.append(msg("bt.ev.dismiss", player=_player(s, seat), name=a.name))


def _do_ready(s: State, seat: int, a: Ready, ev: list[Msg]) -> None:
    s.ready[seat] = True
    ev.append(msg("bt.ev.ready", player=_player(s, seat)))
    if not all(s.ready):
        return
    if s.phase == Phase.BUILD:
        s.phase = Phase.DEPLOY
        ev.append(msg("bt.ev.deploy_phase"))
    else:
        s.retrain_pick = [None, None]
        _roll_initiative(s, ev)
        s.phase = Phase.PLAY
        s.turn_index = 0
        _start_turn(s, ev)


def _do_deploy(s: State, seat: int, a: Deploy, ev: list[Msg]) -> None:
    t = s.troop(seat, a.name)
    assert t is not None
    t.zone, t.facing = a.zone, a.facing
    # both armies deploy at the same time, each unseen by the other (view.hidden_seats): what everyone
    # is told names the troop, never its place, until both are deployed and the battlefield shows them
    left = sum(1 for troop in s.army(seat) if troop.zone is None)
    ev.append(msg("bt.ev.deploy_hidden", player=_player(s, seat), name=a.name, left=left))
    if not to_act(s):
        ev.append(msg("bt.ev.deployed"))
        _start_battle(s, ev)


def _start_battle(s: State, ev: list[Msg]) -> None:
    smaller = min(len(s.army(0)), len(s.army(1)))
    s.threshold = (3 * smaller) // 4 + 1
    s.phase = Phase.PLAY
    ev.append(msg("bt.ev.threshold", losses=s.threshold, troops=smaller))
    _roll_initiative(s, ev)
    s.round = 1
    s.turn_index = 0
    _start_turn(s, ev)


def _roll_initiative(s: State, ev: list[Msg]) -> None:
    """Each player rolls a die, the higher starts; a tie rolls again."""
    rng = Rng(s.rng)
    while True:
        dice = [rng.die(), rng.die()]
        ev.append(
            msg("bt.ev.initiative_roll", first=_player(s, 0), a=dice[0], second=_player(s, 1), b=dice[1])
        )
        if dice[0] != dice[1]:
            break
        ev.append(msg("bt.ev.initiative_tie"))
    s.rng = rng.state
    winner = 0 if dice[0] > dice[1] else 1
    s.order = [winner, 1 - winner]
    ev.append(msg("bt.ev.initiative", player=_player(s, winner)))


def _start_turn(s: State, ev: list[Msg]) -> None:
    s.left = [e for e in s.left if e[2] >= s.turns[e[0]] - 1]  # the side's current and previous turn
    s.activated = []
    s.activation = None
    s.hits = {}
    for t in s.troops:
        t.refresh()
    ev.append(msg("bt.ev.turn", player=_player(s, s.active), round=s.round))
    gain = 0
    for zone, value in s.board.advantage_zones():
        if s.occupant(zone) == s.active:
            gain += value
            ev.append(
                msg("bt.ev.advantage_zone", player=_player(s, s.active), zone=label(zone), points=value)
            )
    s.advantage[s.active] += gain


def _do_activate(s: State, seat: int, a: Activate, ev: list[Msg]) -> None:
    """Activate a troop or a group; naming them while another is acting ends that activation first.

    A turn plays troops one after the other, and what one troop leaves unspent is lost when the next
    acts (docs/rules/batailles.md, "Switching troops"): the player need not type ``done`` first, and
    is told what was left."""
    if s.activation is not None:
        _end_for_another(s, seat, s.activation, ev)
    troops = [s.troop(seat, n) for n in a.names]
    s.activation = _new_activation(s, seat, a.names)
    s.activated += list(a.names)
    key = "bt.ev.activate" if len(a.names) == 1 else "bt.ev.coordinate"
    zone = troops[0].zone if troops[0] else None
    ev.append(msg(key, player=_player(s, seat), names=" + ".join(a.names), zone=label(zone) if zone else "?"))
    _maybe_finish_activation(s, ev)


def _do_move(s: State, seat: int, a: Move, ev: list[Msg]) -> None:
    act = s.activation
    assert act is not None
    troops = group(s, act)
    origin = troops[0].zone
    assert origin is not None
    dest = step(origin, a.direction)
    s.left = [*s.left, *((seat, t.name, s.turns[seat], origin) for t in troops)]
    for t in troops:
        t.zone, t.facing = dest, a.facing
        act.movement[t.name] -= 1
    ev.append(
        msg(
            "bt.ev.move",
            player=_player(s, seat),
            names=" + ".join(act.names),
            count=len(act.names),
            zone=label(dest),
            facing=_dir(a.facing),
        )
    )
    _maybe_finish_activation(s, ev)


def _do_face(s: State, seat: int, a: Face, ev: list[Msg]) -> None:
    act = s.activation
    assert act is not None
    for t in group(s, act):
        t.facing = a.direction
        act.movement[t.name] -= 1
    ev.append(
        msg(
            "bt.ev.face",
            player=_player(s, seat),
            names=" + ".join(act.names),
            count=len(act.names),
            facing=_dir(a.direction),
        )
    )
    _maybe_finish_activation(s, ev)


def _do_attack(s: State, seat: int, a: Attack, ev: list[Msg]) -> None:
    act = s.activation
    assert act is not None
    troops = group(s, act)
    origin = troops[0].zone
    assert origin is not None
    direction = troops[0].facing
    for t in troops:
        act.attack[t.name] -= a.dice
    dice = a.dice * len(troops)
    bonus = 0
    if s.board.at(origin).hill and not act.hill_bonus_used:
        bonus = len(troops)
        act.hill_bonus_used = True
    cover = next(
        c
        for z, c in combat.shot_line(s, origin, direction, min(t.range for t in troops), seat)
        if z == a.zone
    )
    faces = combat.roll(s, dice + bonus)
    ev.append(
        msg(
            "bt.ev.attack_hill" if bonus else "bt.ev.attack",
            player=_player(s, seat),
            names=" + ".join(act.names),
            count=len(act.names),
            origin=label(origin),
            zone=label(a.zone),
            dice=dice,
            bonus=bonus,
            faces=_faces(faces),
            hits=combat.successes(faces),
        )
    )
    s.combat = Combat(Stage.ATTACK_REROLL, seat, list(act.names), origin, a.zone, direction, cover, faces)
    _advance_combat(s, ev)


def _advance_combat(s: State, ev: list[Msg]) -> None:
    """Run a combat whose attack was just rolled until it needs a reroll decision or is resolved."""
    c = s.combat
    assert c is not None and c.stage == Stage.ATTACK_REROLL
    if _max_reroll(s, c) > 0:
        return
    _defence_then_hits(s, c, ev)


def _defence_then_hits(s: State, c: Combat, ev: list[Msg]) -> None:
    """The attack dice are final: the defenders roll, then the hits land, unless the defender may
    still reroll a defence that does not cancel every hit (the reroll decision resolves it)."""
    _roll_defence(s, c, ev)
    if s.combat is None:
        return
    if _max_reroll(s, c) > 0 and combat.successes(c.defence_faces) < combat.successes(c.attack_faces):
        return
    _resolve_hits(s, c, ev)


def _roll_defence(s: State, c: Combat, ev: list[Msg]) -> None:
    c.stage = Stage.DEFENCE_REROLL
    hits = combat.successes(c.attack_faces)
    if hits == 0:
        _resolve_hits(s, c, ev)
        return
    troops = combat.defence_dice(s, c.target, c.direction)
    dice = sum(n for _, n in troops) + c.cover
    c.defence_faces = combat.roll(s, dice)
    facing = [t.name for t in combat.facing_attack(s, c.target, c.direction)]
    if dice:
        troop_dice = dice - c.cover
        if not c.cover:
            key = "bt.ev.defence"
        elif troop_dice:
            key = "bt.ev.defence_cover"
        else:  # the cover alone: nobody faces the attack, or those who do have no dice
            key = "bt.ev.defence_terrain_facing" if facing else "bt.ev.defence_terrain"
        ev.append(
            msg(
                key,
                player=_player(s, 1 - c.attacker),
                zone=label(c.target),
                troops=" + ".join(t.name for t, _ in troops) or " + ".join(facing) or "-",
                dice=troop_dice,
                cover=c.cover,
                faces=_faces(c.defence_faces),
                saves=combat.successes(c.defence_faces),
            )
        )
    else:
        ev.append(_no_defence(s, c, facing))


def _no_defence(s: State, c: Combat, facing: list[str]) -> Msg:
    """Why a zone attacked rolls no defence dice: nobody there faces the attack; or those who do have
    Defence 0 and no terrain to add to it; or they have all five points in Movement, and never defend."""
    zone = label(c.target)
    if not facing:
        return msg("bt.ev.no_defence", zone=zone)
    troops = [t for t in s.in_zone(c.target) if t.name in facing]
    if all(t.only_moves for t in troops):
        return msg("bt.ev.no_defence_moving", zone=zone, troops=facing, count=len(facing))
    still = [t.name for t in troops if not t.only_moves]
    return msg("bt.ev.no_defence_zero", zone=zone, troops=still, count=len(still))


def _resolve_hits(s: State, c: Combat, ev: list[Msg]) -> None:
    hits = combat.successes(c.attack_faces)
    cancelled = min(hits, combat.successes(c.defence_faces))
    net = hits - cancelled
    if net:
        s.hits[c.target] = s.hits.get(c.target, 0) + net
    ev.append(
        msg(
            "bt.ev.hits",
            zone=label(c.target),
            hits=hits,
            cancelled=cancelled,
            net=net,
            total=s.hits.get(c.target, 0),
        )
    )
    s.combat = None
    _maybe_finish_activation(s, ev)


def _do_reroll(s: State, seat: int, a: Reroll, ev: list[Msg]) -> None:
    c = s.combat
    assert c is not None
    attacking = c.stage == Stage.ATTACK_REROLL
    if a.count:
        zone = c.origin if attacking else c.target
        combat.spend_logistics(s, zone, seat, a.count, c.names if attacking else [])
        faces = c.attack_faces if attacking else c.defence_faces
        new, rerolled = combat.reroll_failed(s, faces, a.count)
        if attacking:
            c.attack_faces = new
        else:
            c.defence_faces = new
        ev.append(
            msg(
                "bt.ev.reroll",
                player=_player(s, seat),
                count=a.count,
                rerolled=_faces(rerolled),
                faces=_faces(new),
                successes=combat.successes(new),
            )
        )
    if attacking:
        _defence_then_hits(s, c, ev)
    else:
        _resolve_hits(s, c, ev)


def _maybe_finish_activation(s: State, ev: list[Msg]) -> None:
    """An activation with nothing left to do ends by itself (saves a needless "done")."""
    act = s.activation
    if act is None or s.combat is not None:
        return
    if next(_activation_steps(s, act), None) is None:
        s.activation = None
        ev.append(msg("bt.ev.activation_over", player=_player(s, s.active), names=" + ".join(act.names)))


def _end_for_another(s: State, seat: int, act: Activation, ev: list[Msg]) -> None:
    """The acting troops give way to others the player named: their activation ends, and what they
    had left is said, since it is lost."""
    s.activation = None
    movement, attack = sum(act.movement.values()), sum(act.attack.values())
    left = [msg("bt.points.movement", n=movement)] if movement else []
    left += [msg("bt.points.attack", n=attack)] if attack else []
    names = " + ".join(act.names)
    if not left:
        ev.append(msg("bt.ev.activation_over", player=_player(s, seat), names=names))
        return
    ev.append(
        msg("bt.ev.activation_left", player=_player(s, seat), names=names, left=left, count=len(act.names))
    )


def _do_done(s: State, seat: int, a: Done, ev: list[Msg]) -> None:
    act = s.activation
    assert act is not None
    s.activation = None
    ev.append(msg("bt.ev.activation_over", player=_player(s, seat), names=" + ".join(act.names)))


def _do_morale(s: State, seat: int, a: Morale, ev: list[Msg]) -> None:
    s.advantage[seat] -= MORALE_COST
    s.pending = Pending(PendingKind.MORALE, 1 - seat, a.zone)
    ev.append(msg("bt.ev.morale_call", player=_player(s, seat), zone=label(a.zone), cost=MORALE_COST))


def _do_hold(s: State, seat: int, a: Hold, ev: list[Msg]) -> None:
    p = s.pending
    assert p is not None
    s.pending = None
    s.advantage[seat] -= a.dice
    combat.spend_command(s, p.zone, seat, a.dice)
    faces = combat.roll(s, a.dice)
    held = combat.successes(faces) > 0
    ev.append(
        msg(
            "bt.ev.morale_roll" if a.dice else "bt.ev.morale_no_dice",
            player=_player(s, seat),
            name=a.name,
            dice=a.dice,
            faces=_faces(faces),
            outcome=msg("bt.morale.held" if held else "bt.morale.broken"),
        )
    )
    if not held:
        t = s.troop(seat, a.name)
        assert t is not None
        _remove(s, t, ev)


def _remove(s: State, t: Troop, ev: list[Msg]) -> None:
    zone = t.zone
    t.lost = True
    s.losses[t.seat] += 1
    ev.append(
        msg(
            "bt.ev.loss",
            player=_player(s, t.seat),
            name=t.name,
            zone=label(zone) if zone else "?",
            losses=s.losses[t.seat],
            threshold=s.threshold,
        )
    )


def _do_end_turn(s: State, seat: int, a: EndTurn, ev: list[Msg]) -> None:
    s.activation = None
    ev.append(msg("bt.ev.end_turn", player=_player(s, seat)))
    gained = 0
    for zone in sorted(s.hits, key=lambda z: (z[1], z[0])):
        rest = s.hits[zone] % 5
        if rest:
            gained += rest
            ev.append(msg("bt.ev.advantage_hits", player=_player(s, seat), zone=label(zone), points=rest))
        if s.hits[zone] >= 5:
            s.loss_queue.append(zone)
    s.advantage[seat] += gained
    _next_losses(s, ev)


def _next_losses(s: State, ev: list[Msg]) -> None:
    """Take the losses of each zone in turn; the owner chooses when there is a choice.

    The hits of a turn are the active player's, scored on the opponent: losses fall on the
    opponent's troops of the zone only. Whoever stands there at the end of the turn (the
    attacker, having walked into a zone a morale test emptied) loses nothing to them.
    """
    defender = 1 - s.active
    while s.loss_queue:
        zone = s.loss_queue[0]
        troops = _owned(s, zone, defender)
        count = min(s.hits[zone] // 5, len(troops))
        if count < len(troops):
            s.pending = Pending(PendingKind.LOSS, defender, zone, count)
            ev.append(msg("bt.ev.choose_losses", player=_player(s, defender), zone=label(zone), count=count))
            return
        for t in troops:
            _remove(s, t, ev)
        s.loss_queue.pop(0)
    _finish_turn(s, ev)


def _do_lose(s: State, seat: int, a: Lose, ev: list[Msg]) -> None:
    p = s.pending
    assert p is not None
    t = s.troop(seat, a.name)
    assert t is not None
    _remove(s, t, ev)
    p.count -= 1
    remaining = _owned(s, p.zone, seat)
    if p.count > 0 and p.count < len(remaining):
        return
    if p.count > 0:
        for other in remaining:
            _remove(s, other, ev)
    s.pending = None
    s.loss_queue.pop(0)
    _next_losses(s, ev)


def _finish_turn(s: State, ev: list[Msg]) -> None:
    s.turns[s.active] += 1
    s.hits = {}
    broken = [seat for seat in (0, 1) if s.losses[seat] >= s.threshold]
    even = s.turns[0] == s.turns[1]
    if broken and even:
        _game_over(s, broken, ev)
        return
    if even and s.round >= s.max_rounds:
        _game_over(s, [], ev)
        return
    if s.turn_index == 0:
        s.turn_index = 1
        _start_turn(s, ev)
        return
    s.round += 1
    s.turn_index = 0
    if s.hardcore:
        s.phase = Phase.RETRAIN
        s.ready = [False, False]
        s.retrained = [[], []]
        s.retrain_pick = [None, None]
        ev.append(msg("bt.ev.retrain_phase", round=s.round, most=MAX_RETRAINED))
        return
    _start_turn(s, ev)


def _game_over(s: State, broken: list[int], ev: list[Msg]) -> None:
    s.phase = Phase.OVER
    s.activation = None
    s.pending = None
    outcome: Outcome
    if len(broken) == 2:
        outcome = {"winners": [], "draw": True, "key": "bt.result.both_broken", "loser": None}
    elif broken:
        loser = broken[0]
        outcome = {"winners": [1 - loser], "draw": False, "key": "bt.result.broken", "loser": loser}
    elif s.losses[0] == s.losses[1]:
        outcome = {"winners": [], "draw": True, "key": "bt.result.rounds_draw", "loser": None}
    else:
        loser = 0 if s.losses[0] > s.losses[1] else 1
        outcome = {"winners": [1 - loser], "draw": False, "key": "bt.result.rounds", "loser": loser}
    s.outcome = outcome
    ev.append(result_msg(s))


def result_msg(s: State) -> Msg:
    o = s.outcome
    assert o is not None
    loser = o["loser"]
    return msg(
        o["key"],
        loser=_player(s, loser) if loser is not None else "-",
        winner=_player(s, 1 - loser) if loser is not None else "-",
        first=_player(s, 0),
        second=_player(s, 1),
        losses_a=s.losses[0],
        losses_b=s.losses[1],
        rounds=s.max_rounds,
    )


def _do_retrain(s: State, seat: int, a: Retrain, ev: list[Msg]) -> None:
    s.retrain_pick[seat] = a.name
    ev.append(msg("bt.ev.retrain_pick", player=_player(s, seat), name=a.name))


def _do_profile(s: State, seat: int, a: SetProfile, ev: list[Msg]) -> None:
    name = s.retrain_pick[seat]
    assert name is not None
    s.retrain_pick[seat] = None
    t = s.troop(seat, name)
    assert t is not None
    if a.profile == t.profile:
        ev.append(msg("bt.ev.retrain_same", player=_player(s, seat), name=name))
        return
    t.profile = a.profile
    s.retrained[seat].append(name)
    ev.append(msg("bt.ev.retrain", player=_player(s, seat), name=name, profile=profile_text(a.profile)))


def _dir(d: str) -> Msg:
    return msg(f"bt.dir.{d}")


def _faces(faces: list[int]) -> str:
    return " ".join(str(f) for f in faces) or "-"


_DISPATCH: dict[type, Callable[[State, int, Any, list[Msg]], None]] = {
    Recruit: _do_recruit,
    Dismiss: _do_dismiss,
    Ready: _do_ready,
    Deploy: _do_deploy,
    Activate: _do_activate,
    Move: _do_move,
    Face: _do_face,
    Attack: _do_attack,
    Reroll: _do_reroll,
    Done: _do_done,
    EndTurn: _do_end_turn,
    Morale: _do_morale,
    Hold: _do_hold,
    Lose: _do_lose,
    Retrain: _do_retrain,
    SetProfile: _do_profile,
}
