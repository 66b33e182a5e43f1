"""What one seat knows of a War Chest game, and full states drawn consistent with it.

A computer player must not read the coins it could not see at the table: the other seats' hands,
bags and face-down discards, and the generator that decides every future draw. ``observation``
keeps only what the seat knows: its view (``view.py``: board, supplies, face-up discards, the counts
of hidden coins and, in ``private``, its own hand and bag) and the public record the view leaves
out (the stall counter, who claimed the initiative this round, the follow-ups under way...), all of
which every player could work out from the moves played.

``determinize`` deals the hidden coins back at random. Which coins a seat has in hiding is public:
every coin of a unit type is in the supply, eliminated, on the board, face up in the discard, or
hidden (bag, hand, face-down discard), so the hidden multiset is what the public counts leave. The
seat's own hand and bag are known and its face-down discard is the rest; another seat's hidden
coins are shuffled into hand, face-down discard and bag of the sizes the view gives. A Warrior
Priest's drawn coin waiting to be played is one of its owner's hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, TypedDict

from engine.jsonvalues import copy_json
from engine.rng import Rng
from engine.warchest import rules
from engine.warchest.actions import Action
from engine.warchest.state import PendingKind, State
from engine.warchest.trail import remember
from engine.warchest.units import COINS, ROYAL
from engine.warchest.view import SeatView, UnitView, WarChestView, view

HIDDEN_SEAT_FIELDS = ("bag", "hand", "discard_down")


class Observation(TypedDict):
    """What a seat knows (``observation``): its view, and the state's record without the generator
    and without the coins out of its sight (``State.to_json``'s form, which ``prepare`` reads back)."""

    seat: int
    view: WarChestView
    public: dict[str, Any]


def observation(st: State, seat: int) -> Observation:
    """What ``seat`` knows: ``{"seat", "view", "public"}``, JSON-safe and free of hidden coins."""
    public = st.to_json()
    del public["rng"]
    for s in public["seats"]:
        for name in HIDDEN_SEAT_FIELDS:
            del s[name]
    for p in public["pending"]:
        if p["seat"] != seat:
            p["coin"] = ""
    return {"seat": seat, "view": view(st, st.players[seat], None), "public": public}


def hidden_coins(seat_view: SeatView, seat_index: int, units: list[UnitView]) -> list[str]:
    """The coins a seat holds out of sight (bag, hand, face-down discard), from public counts only."""
    out: list[str] = []
    board: dict[str, int] = {}
    for u in units:
        if u["seat"] == seat_index:
            board[u["type"]] = board.get(u["type"], 0) + u["height"]
    for kind in seat_view["units"]:
        left = (
            COINS[kind]
            - seat_view["supply"].get(kind, 0)
            - seat_view["eliminated"].get(kind, 0)
            - seat_view["discard_up"].get(kind, 0)
            - board.get(kind, 0)
        )
        out.extend([kind] * left)
    if seat_view["units"]:
        out.extend([ROYAL] * (1 - seat_view["discard_up"].get(ROYAL, 0)))
    return sorted(out)


def _without(pool: list[str], taken: list[str]) -> list[str]:
    rest = list(pool)
    for coin in taken:
        rest.remove(coin)
    return rest


@dataclass(frozen=True)
class Template:
    """One observation parsed once: the public state and, per seat, the coins to deal out.

    A search samples thousands of states from one observation; parsing its JSON every time cost a
    quarter of a decision. ``sample`` copies ``state`` and deals the hidden coins into the copy.
    """

    me: int
    state: State
    """The public record as a state; every seat's bag, hand and face-down discard are empty."""
    own: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    """The deciding seat's hand, bag and face-down discard, all known to it."""
    pools: tuple[tuple[str, ...], ...]
    """Per seat, the coins it holds out of sight, sorted (empty for the deciding seat)."""
    sizes: tuple[tuple[int, int], ...]
    """Per seat, how many hidden coins are in its hand and in its face-down discard."""


def prepare(obs: Observation) -> Template:
    """The parts of ``obs`` every sample shares (see ``Template``)."""
    me = obs["seat"]
    v = obs["view"]
    d = copy_json(obs["public"])
    pools: list[tuple[str, ...]] = []
    own: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] = ((), (), ())
    for i, (sd, sv) in enumerate(zip(d["seats"], v["seats"], strict=True)):
        pool = hidden_coins(sv, i, v["units"])
        if i == me:
            private = v["private"]
            assert private is not None, "a seat's own view shows its hand and bag"
            hand = list(private["hand"])
            bag = sorted(c for c, n in private["bag"].items() for _ in range(n))
            own = (tuple(hand), tuple(bag), tuple(_without(pool, hand + bag)))
            pool = []
        pools.append(tuple(pool))
        sd["hand"], sd["bag"], sd["discard_down"] = [], [], []
    d["rng"] = "0"
    sizes = tuple((sv["hand"], sv["discard_down"]) for sv in v["seats"])
    return Template(me, State.from_json(d), own, tuple(pools), sizes)


def sample(template: Template, rng: Rng) -> State:
    """A full state consistent with the template's observation, hidden coins dealt from ``rng``."""
    me = template.me
    st = template.state.clone()
    for i, seat in enumerate(st.seats):
        if i == me:
            seat.hand, seat.bag, seat.discard_down = (list(part) for part in template.own)
            continue
        pool = list(template.pools[i])
        rng.shuffle(pool)
        h, dd = template.sizes[i]
        seat.hand, seat.discard_down, seat.bag = (
            sorted(pool[:h]),
            sorted(pool[h : h + dd]),
            sorted(pool[h + dd :]),
        )
    if any(p.kind == PendingKind.PRIEST and p.seat != me for p in st.pending):
        pending = list(st.pending)
        for n, p in enumerate(pending):
            if p.kind == PendingKind.PRIEST and p.seat != me:
                hand = st.seats[p.seat].hand
                pending[n] = replace(p, coin=hand[rng.below(len(hand))])
        st.pending = tuple(pending)
    st.rng = rng.next_u64()
    return st


def determinize(obs: Observation, rng: Rng) -> State:
    """A full state that shows ``obs["seat"]`` exactly its view, hidden coins dealt from ``rng``."""
    return sample(prepare(obs), rng)


def step(st: State, seat: int, action: Action) -> State:
    """``apply`` on a state the caller owns and will not look at again: ``st`` itself moves on.

    A search plays thousands of actions on its sampled states, each taken from ``legal_actions``;
    skipping the copy and the legality check of ``apply`` makes it several times faster. The result
    is the state ``apply`` would return (a test checks it).
    """
    st.cache = {}
    touched = rules.touched_hexes(st, seat, action)
    before = (st.board.copy(), rules.acting_seat(st))
    rules.play(st, seat, action)
    remember(st, seat, action, touched, before)
    return st
