"""Turn flow and the effects of actions: coins, rounds, follow-ups, control, the stall rule.

``legal_actions`` is the single source of legality; ``play`` applies an already-checked action to
a cloned state and returns the events. Triggered choices are pushed onto ``State.pending`` (the top
acts first), so every decision is an ordinary action offered by ``legal_actions``.
"""

from __future__ import annotations

from engine.kept import kept
from engine.rng import Rng
from engine.text import Msg, PlayerRef, msg
from engine.warchest.actions import (
    Action,
    Attack,
    Bolster,
    Control,
    Deploy,
    GuardChoice,
    Initiative,
    Move,
    Pass,
    Pick,
    Recruit,
    Skip,
    Tactic,
    hexes_of,
)
from engine.warchest.board import Hex, distance, label
from engine.warchest.manoeuvres import bmap, is_friend, royal_guard_tactics, unit_manoeuvres
from engine.warchest.state import EndReason, Pending, PendingKind, Phase, Seat, State
from engine.warchest.units import (
    BERSERKER,
    CAVALRY,
    COINS,
    ENSIGN,
    FOOTMAN,
    LANCER,
    LIGHT_CAVALRY,
    MARSHALL,
    MERCENARY,
    PIKEMAN,
    ROYAL,
    ROYAL_GUARD,
    SCOUT,
    SWORDSMAN,
    WARRIOR_PRIEST,
)

STALL_ROUNDS = 12
"""Complete rounds in a row without progress after which the game ends in a draw.

Progress is: a coin removed from the game, a unit deployed, a coin recruited, or a team taking a
location it has never controlled before. Each of these can happen only finitely often (supply and
coins only shrink; a redeploy needs a unit removed first), so every game ends.
"""

HAND_SIZE = 3


def unit_name(kind: str) -> Msg:
    return msg(f"wc.unit.{kind}")


def player(st: State, seat: int) -> PlayerRef:
    return PlayerRef(st.players[seat])


def team_refs(st: State, team: int) -> list[PlayerRef]:
    """The players of ``team`` in seat order (one player with two at the table)."""
    return [PlayerRef(st.players[s]) for s in st.team_seats(team)]


# -- legality ---------------------------------------------------------------------------------------


def acting_seat(st: State) -> int | None:
    """The seat that must decide now, or ``None`` when the game is over."""
    if st.phase == Phase.OVER:
        return None
    if st.phase == Phase.DRAFT:
        assert st.draft is not None
        return int(st.draft["order"][0])
    if st.pending:
        return st.pending[-1].seat
    return st.turn


def legal_for(st: State, seat: int) -> list[Action]:
    if acting_seat(st) != seat:
        return []
    if st.phase == Phase.DRAFT:
        assert st.draft is not None
        return [Pick(u) for u in st.draft["pool"]]
    if st.pending:
        return pending_actions(st, st.pending[-1])
    return coin_actions(st, seat, st.seats[seat].hand)


_deploy = kept(Deploy)
_bolster = kept(Bolster)
_initiative = kept(Initiative)
_recruit = kept(Recruit)
_pass = kept(Pass)


def coin_actions(st: State, si: int, coins: list[str]) -> list[Action]:
    """Everything ``si`` may do with one of ``coins`` from the hand."""
    seat = st.seats[si]
    team = seat.team
    bm = bmap(st)
    board = st.board
    kinds = sorted(set(coins))
    # The seat's units by kind (in board order) and the empty hexes (in map order, with whether the
    # seat's team controls them) are read once for all the coins of the hand.
    mine_by_kind: dict[str, list[Hex]] = {}
    for h, unit in board.items():
        if unit[0] == si:
            mine_by_kind.setdefault(unit[1], []).append(h)
    empty: list[tuple[Hex, bool]] | None = None
    out: list[Action] = []
    for coin in kinds:
        if coin == ROYAL:
            for h in mine_by_kind.get(ROYAL_GUARD, ()):
                out.extend(royal_guard_tactics(st, h))
            continue
        mine = mine_by_kind.get(coin, [])
        if len(mine) < (2 if coin == FOOTMAN else 1):
            if empty is None:
                empty = [
                    (h, h in bm.location_set and st.control.get(h) == team)
                    for h in bm.order
                    if h not in board
                ]
            for h, ours in empty:
                if ours or (coin == SCOUT and any(is_friend(st, si, board.get(n)) for n in bm.neighbours[h])):
                    out.append(_deploy(coin, h))
        for h in mine:
            out.append(_bolster(coin, h))
        for h in mine:
            out.extend(unit_manoeuvres(st, h))
        if coin == FOOTMAN and mine:
            # With a single Footman on the board the tactic is allowed too, as in the online game:
            # it is then a plain manoeuvre of that Footman, paid with a Footman coin.
            out.append(Tactic(FOOTMAN, None, ()))
    # the seed rules the claim out with four players: the holder never changes there
    may_claim = (
        len(st.seats) == 2 and si != st.initiative and si != st.initiative_start and not st.initiative_moved
    )
    recruitable = [u for u in seat.units if seat.supply.get(u, 0) > 0]
    for coin in kinds:
        if may_claim:
            out.append(_initiative(coin))
        for u in recruitable:
            out.append(_recruit(u, coin))
        out.append(_pass(coin))
    return out


def _unit_is(st: State, h: Hex, seat: int, kind: str) -> bool:
    u = st.board.get(h)
    return u is not None and u[0] == seat and u[1] == kind


def pending_actions(st: State, p: Pending) -> list[Action]:
    """The choices of a pending follow-up; an optional one ends with ``skip``."""
    out: list[Action] = []
    if p.kind == PendingKind.GUARD:
        return [GuardChoice("supply"), GuardChoice("stack")]
    if p.kind == PendingKind.PRIEST:
        return coin_actions(st, p.seat, [p.coin])
    if p.kind == PendingKind.SWORDSMAN:
        h = p.hexes[0]
        if _unit_is(st, h, p.seat, SWORDSMAN):
            out = [Move(SWORDSMAN, h, n) for n in bmap(st).neighbours[h] if n not in st.board]
    elif p.kind == PendingKind.BERSERKER:
        h = p.hexes[0]
        if _unit_is(st, h, p.seat, BERSERKER) and st.board[h][2] >= 2:
            out = unit_manoeuvres(st, h, height=st.board[h][2] - 1, tactics=False)
    elif p.kind == PendingKind.MERCENARY:
        h = p.hexes[0]
        if _unit_is(st, h, p.seat, MERCENARY):
            out = unit_manoeuvres(st, h, tactics=False)
    elif p.kind == PendingKind.FOOTMAN:
        for h in p.hexes:
            if _unit_is(st, h, p.seat, FOOTMAN):
                out.extend(unit_manoeuvres(st, h, tactics=False))
    if out:
        out.append(Skip())
    return out


# -- applying ---------------------------------------------------------------------------------------


def equip(seat: Seat, units: tuple[str, ...]) -> None:
    """Two coins of each unit type and the Royal Coin in the bag, the rest in the supply."""
    seat.units = units
    bag = [ROYAL]
    for u in units:
        bag.extend([u, u])
        seat.supply[u] = COINS[u] - 2
    seat.bag = sorted(bag)


def draft_pick(st: State, si: int, action: Pick, ev: list[Msg]) -> None:
    """Take one card from the pool; after the last pick, hand out the remaining card and start.

    A pick is played like any other action, so it lives with ``play``; ``setup`` (the other armies)
    imports this module, never the reverse."""
    assert st.draft is not None
    pool = [u for u in st.draft["pool"] if u != action.unit]
    picks = [list(p) for p in st.draft["picks"]]
    picks[si].append(action.unit)
    order = list(st.draft["order"][1:])
    ev.append(msg("wc.ev.pick", player=player(st, si), unit=unit_name(action.unit)))
    first = int(st.draft["first"])
    if order:
        st.draft = {"pool": pool, "picks": picks, "order": order, "first": first}
        return
    if pool:  # two players: the eighth card goes to the first picker
        last = pool[0]
        picks[first].append(last)
        ev.append(msg("wc.ev.pick_last", player=player(st, first), unit=unit_name(last)))
    st.draft = None
    st.phase = Phase.PLAY
    for seat, units in zip(st.seats, picks, strict=True):
        equip(seat, tuple(units))
    # two players: the second picker takes the initiative; four: the first team's first picker
    st.initiative = 1 - first if len(st.seats) == 2 else first
    start_round(st, ev)


def play(st: State, si: int, action: Action) -> list[Msg]:
    """Apply a legal ``action`` of seat ``si`` to ``st`` (a fresh clone) and return the events."""
    ev: list[Msg] = []
    if st.phase == Phase.DRAFT:
        assert isinstance(action, Pick)
        draft_pick(st, si, action, ev)
        return ev
    if st.pending:
        p = st.pending[-1]
        st.pending = st.pending[:-1]
        _resolve_pending(st, p, action, ev)
    else:
        _play_coin(st, si, action, ev)
    settle(st, ev)
    return ev


def _play_coin(st: State, si: int, a: Action, ev: list[Msg]) -> None:
    seat = st.seats[si]
    who = player(st, si)
    coin = _coin(a)
    seat.hand.remove(coin)
    if isinstance(a, Deploy):
        st.board[a.hex] = (si, a.unit, 1)
        st.progress = True
        ev.append(msg("wc.ev.deploy", player=who, unit=unit_name(a.unit), hex=label(a.hex)))
    elif isinstance(a, Bolster):
        s, kind, height = st.board[a.hex]
        st.board[a.hex] = (s, kind, height + 1)
        ev.append(msg("wc.ev.bolster", player=who, unit=unit_name(kind), hex=label(a.hex), height=height + 1))
    elif isinstance(a, Initiative):
        seat.add_down(coin)
        st.initiative = si
        st.initiative_moved = True
        ev.append(msg("wc.ev.initiative", player=who))
    elif isinstance(a, Recruit):
        seat.add_down(coin)
        seat.supply[a.unit] -= 1
        seat.add_up(a.unit)
        st.progress = True
        ev.append(msg("wc.ev.recruit", player=who, unit=unit_name(a.unit)))
        if a.unit == MERCENARY:
            for h, u in st.board.items():
                if u[0] == si and u[1] == MERCENARY and unit_manoeuvres(st, h, tactics=False):
                    st.pending = (*st.pending, Pending(PendingKind.MERCENARY, si, (h,)))
                    ev.append(msg("wc.ev.mercenary", player=who, hex=label(h)))
                    break
    elif isinstance(a, Pass):
        seat.add_down(coin)
        ev.append(msg("wc.ev.pass", player=who))
    else:
        seat.add_up(coin)
        _manoeuvre(st, si, a, ev)


def _coin(a: Action) -> str:
    if isinstance(a, (Initiative, Pass, Recruit)):
        return a.coin
    if isinstance(a, Tactic) and a.unit == ROYAL_GUARD:
        return ROYAL
    assert isinstance(a, (Deploy, Bolster, Move, Control, Attack, Tactic))
    return a.unit


def _resolve_pending(st: State, p: Pending, a: Action, ev: list[Msg]) -> None:
    who = player(st, p.seat)
    if p.kind == PendingKind.PRIEST:
        _play_coin(st, p.seat, a, ev)
        return
    if p.kind == PendingKind.GUARD:
        assert isinstance(a, GuardChoice)
        if a.source == "supply":
            seat = st.seats[p.seat]
            seat.supply[ROYAL_GUARD] -= 1
            seat.eliminate(ROYAL_GUARD)
            st.progress = True
            ev.append(msg("wc.ev.guard_supply", player=who, hex=label(p.hexes[0])))
        else:
            _lose_coin(st, p.hexes[0], ev)
        return
    if isinstance(a, Skip):
        ev.append(msg("wc.ev.skip", player=who, what=msg(f"wc.pending.{p.kind}")))
        return
    if p.kind == PendingKind.BERSERKER:
        h = p.hexes[0]
        s, kind, height = st.board[h]
        st.board[h] = (s, kind, height - 1)
        st.seats[s].add_up(BERSERKER)
        ev.append(msg("wc.ev.berserker", player=who, hex=label(h), height=height - 1))
    elif p.kind == PendingKind.FOOTMAN:
        assert isinstance(a, (Control, Move, Attack))  # a footman's manoeuvres, tactics aside
        src = a.hex if isinstance(a, Control) else a.src
        rest = tuple(h for h in p.hexes if h != src)
        if rest:
            st.pending = (*st.pending, Pending(PendingKind.FOOTMAN, p.seat, rest))
    elif p.kind == PendingKind.SWORDSMAN:
        assert isinstance(a, Move)
        _relocate(st, a.src, a.dst)
        ev.append(
            msg("wc.ev.free_move", player=who, unit=unit_name(SWORDSMAN), src=label(a.src), dst=label(a.dst))
        )
        return
    _manoeuvre(st, p.seat, a, ev)


def _relocate(st: State, src: Hex, dst: Hex) -> None:
    st.board[dst] = st.board.pop(src)


def _manoeuvre(st: State, si: int, a: Action, ev: list[Msg]) -> None:
    """Move, control, attack or tactic, then push the acting units' triggered follow-ups.

    Triggers go below anything the manoeuvre itself pushed (a Royal Guard's choice), so the
    defender answers first and the attacker's Swordsman move or Berserker repeat comes after.
    """
    mark = len(st.pending)
    who = player(st, si)
    acts: list[tuple[Hex, int, str, bool, bool]] = []  # (final hex, owner, type, attacked, controlled)
    if isinstance(a, Move):
        _relocate(st, a.src, a.dst)
        ev.append(msg("wc.ev.move", player=who, unit=unit_name(a.unit), src=label(a.src), dst=label(a.dst)))
        acts.append((a.dst, si, a.unit, False, False))
    elif isinstance(a, Control):
        _take_control(st, si, a.hex, a.unit, ev)
        acts.append((a.hex, si, a.unit, False, True))
    elif isinstance(a, Attack):
        _strike(st, si, a.src, a.target, ev)
        acts.append((a.src, si, a.unit, True, False))
    elif isinstance(a, Tactic):
        ev.append(msg("wc.ev.tactic", player=who, unit=unit_name(a.unit)))
        kind = a.unit
        if kind == FOOTMAN:
            feet = tuple(h for h, u in st.board.items() if u[0] == si and u[1] == FOOTMAN)
            st.pending = (*st.pending, Pending(PendingKind.FOOTMAN, si, feet))
        elif kind in (CAVALRY, LANCER):
            assert a.src is not None
            dst, target = a.args
            _relocate(st, a.src, dst)
            ev.append(msg("wc.ev.move", player=who, unit=unit_name(kind), src=label(a.src), dst=label(dst)))
            _strike(st, si, dst, target, ev)
            acts.append((dst, si, kind, True, False))
        elif kind in (LIGHT_CAVALRY, ROYAL_GUARD):
            assert a.src is not None
            _relocate(st, a.src, a.args[0])
            ev.append(
                msg("wc.ev.move", player=who, unit=unit_name(kind), src=label(a.src), dst=label(a.args[0]))
            )
            acts.append((a.args[0], si, kind, False, False))
        elif kind == ENSIGN:
            other, dst = a.args
            owner, other_kind, _ = st.board[other]
            _relocate(st, other, dst)
            ev.append(
                msg(
                    "wc.ev.move",
                    player=player(st, owner),
                    unit=unit_name(other_kind),
                    src=label(other),
                    dst=label(dst),
                )
            )
            acts.append((dst, owner, other_kind, False, False))
        elif kind == MARSHALL:
            other, target = a.args
            owner, other_kind, _ = st.board[other]
            _strike(st, owner, other, target, ev)
            acts.append((other, owner, other_kind, True, False))
        else:  # Archer, Crossbowman: a ranged attack
            assert a.src is not None
            _strike(st, si, a.src, a.args[0], ev)
            acts.append((a.src, si, kind, True, False))
    if st.result is not None:
        return
    triggers: list[Pending] = []
    for h, owner, kind, attacked, controlled in acts:
        alive = _unit_is(st, h, owner, kind)
        if kind == SWORDSMAN and attacked and alive:
            triggers.append(Pending(PendingKind.SWORDSMAN, owner, (h,)))
        elif kind == BERSERKER and alive and st.board[h][2] >= 2:
            triggers.append(Pending(PendingKind.BERSERKER, owner, (h,)))
        elif kind == WARRIOR_PRIEST and (attacked or controlled):
            coin = draw_coin(st, owner)
            if coin is not None:
                st.seats[owner].add_hand(coin)
                triggers.append(Pending(PendingKind.PRIEST, owner, (), coin))
                ev.append(msg("wc.ev.priest", player=player(st, owner)))
    if triggers:
        st.pending = st.pending[:mark] + tuple(triggers) + st.pending[mark:]


def _strike(st: State, si: int, src: Hex, target: Hex, ev: list[Msg]) -> None:
    """One attack: the target loses a coin (or its owner answers, for a Royal Guard); a Pikeman
    hit from an adjacent hex takes a coin from the attacker at the same time."""
    attacker = st.board[src]
    defender = st.board[target]
    ev.append(
        msg(
            "wc.ev.attack",
            player=player(st, si),
            unit=unit_name(attacker[1]),
            src=label(src),
            owner=player(st, defender[0]),
            target_unit=unit_name(defender[1]),
            target=label(target),
        )
    )
    if defender[1] == PIKEMAN and distance(src, target) == 1:
        ev.append(msg("wc.ev.pikeman", owner=player(st, defender[0]), hex=label(target)))
        _lose_coin(st, src, ev)
    if defender[1] == ROYAL_GUARD and st.seats[defender[0]].supply.get(ROYAL_GUARD, 0) > 0:
        st.pending = (*st.pending, Pending(PendingKind.GUARD, defender[0], (target,)))
    else:
        _lose_coin(st, target, ev)


def _lose_coin(st: State, h: Hex, ev: list[Msg]) -> None:
    seat, kind, height = st.board[h]
    st.seats[seat].eliminate(kind)
    st.progress = True
    if height <= 1:
        del st.board[h]
        ev.append(msg("wc.ev.removed", player=player(st, seat), unit=unit_name(kind), hex=label(h)))
    else:
        st.board[h] = (seat, kind, height - 1)
        ev.append(
            msg("wc.ev.lost", player=player(st, seat), unit=unit_name(kind), hex=label(h), height=height - 1)
        )


def _take_control(st: State, si: int, h: Hex, kind: str, ev: list[Msg]) -> None:
    team = st.seats[si].team
    previous = st.control.get(h)
    who = player(st, si)
    if previous is not None:
        st.markers[previous] += 1
        owners = team_refs(st, previous)
        if len(owners) == 1:
            ev.append(
                msg("wc.ev.control_from", player=who, unit=unit_name(kind), hex=label(h), owner=owners[0])
            )
        else:
            ev.append(
                msg("wc.ev.control_from_team", player=who, unit=unit_name(kind), hex=label(h), team=owners)
            )
    else:
        ev.append(msg("wc.ev.control", player=who, unit=unit_name(kind), hex=label(h)))
    st.control[h] = team
    st.markers[team] -= 1
    if (team, h) not in st.ever:
        st.ever = st.ever | {(team, h)}
        st.progress = True
    if st.markers[team] <= 0:
        st.result = {"winners": st.team_seats(team), "reason": str(EndReason.MARKERS), "draw": False}
        st.phase = Phase.OVER
        st.pending = ()
        if len(st.seats) == 2:
            ev.append(msg("wc.ev.win", player=who))
        else:
            ev.append(msg("wc.ev.win_team", player=who, team=team_refs(st, team)))


def draw_coin(st: State, si: int) -> str | None:
    """Draw one coin at random; an empty bag is first refilled from both discard piles."""
    seat = st.seats[si]
    if not seat.bag:
        refill = seat.discard_down[:]
        for coin, n in seat.discard_up.items():
            refill.extend([coin] * n)
        seat.discard_down = []
        seat.discard_up = {}
        seat.bag = sorted(refill)
        if not seat.bag:
            return None
    rng = Rng(st.rng)
    i = rng.below(len(seat.bag))
    st.rng = rng.state
    return seat.bag.pop(i)


# -- flow -------------------------------------------------------------------------------------------


def settle(st: State, ev: list[Msg]) -> None:
    """Drop follow-ups that offer nothing, then pass the turn on when no decision is pending."""
    while st.phase == Phase.PLAY:
        if st.pending:
            if pending_actions(st, st.pending[-1]):
                return
            st.pending = st.pending[:-1]
            continue
        _advance(st, ev)
        return


def _advance(st: State, ev: list[Msg]) -> None:
    n = len(st.seats)
    for k in range(1, n + 1):
        s = (st.turn + k) % n
        if st.seats[s].hand:
            st.turn = s
            return
    end_round(st, ev)


def end_round(st: State, ev: list[Msg]) -> None:
    st.stall = 0 if st.progress else st.stall + 1
    st.progress = False
    if st.stall >= STALL_ROUNDS:
        st.result = {"winners": [], "reason": str(EndReason.STALL), "draw": True}
        st.phase = Phase.OVER
        ev.append(msg("wc.ev.stall", rounds=STALL_ROUNDS))
        return
    start_round(st, ev)


def start_round(st: State, ev: list[Msg]) -> None:
    """Everyone draws up to three coins; the initiative holder plays first."""
    st.round += 1
    st.initiative_start = st.initiative
    st.initiative_moved = False
    st.turn = st.initiative
    ev.append(msg("wc.ev.round", round=st.round, player=player(st, st.initiative)))
    for si, seat in enumerate(st.seats):
        for _ in range(HAND_SIZE):
            coin = draw_coin(st, si)
            if coin is None:
                break
            seat.add_hand(coin)
        if len(seat.hand) < HAND_SIZE:
            ev.append(msg("wc.ev.short", player=player(st, si), count=len(seat.hand)))


def touched_hexes(st: State, seat: int, a: Action) -> tuple[Hex, ...]:
    """The hexes ``a`` touches, read from the state before it is played (the board outlines them):
    those its text names, the Footmen a Footman tactic sets going and the Royal Guard whose owner
    chooses where its lost coin comes from. Draft picks, initiative, recruitment, passing and
    skipping a follow-up touch none."""
    if isinstance(a, Tactic) and a.unit == FOOTMAN:
        return tuple(sorted(h for h, u in st.board.items() if u[0] == seat and u[1] == FOOTMAN))
    if isinstance(a, GuardChoice) and st.pending:
        return tuple(st.pending[-1].hexes)
    return hexes_of(a)
