"""Build exact War Chest positions for short tests: place units, set hands, bags and control."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from engine.text import Msg
from engine.warchest import GAME
from engine.warchest.actions import Action
from engine.warchest.board import Hex, parse_label
from engine.warchest.state import State
from engine.warchest.units import COINS, FIRST_GAME
from tests.engine.french_typing import words

A, B = "alice", "bob"
PLAYERS = (A, B)


def hx(text: str) -> Hex:
    h = parse_label(text)
    assert h is not None
    return h


def position(
    units: Sequence[Iterable[str]] = FIRST_GAME,
    board: Mapping[str, tuple[int, str, int]] | None = None,
    hands: Sequence[Iterable[str]] = ((), ()),
    bags: Sequence[Iterable[str]] = ((), ()),
    turn: int = 0,
    initiative: int | None = None,
    control: Mapping[str, int | None] | None = None,
    supply: Sequence[Mapping[str, int]] | None = None,
    seed: int = 1,
) -> State:
    """A play-phase position: ``board`` maps labels to (seat, type, height); seat 0 is alice.

    Supplies default to the full supply (coins minus the two that start in the bag); discards
    start empty. ``control`` overrides location ownership (team per label); the markers left
    follow from it.
    """
    st = GAME.new_game(PLAYERS, seed, {"armies": "first"})
    return _arrange(st, units, board, hands, bags, turn, initiative, control, supply, markers=6)


def _arrange(
    st: State,
    units: Sequence[Iterable[str]],
    board: Mapping[str, tuple[int, str, int]] | None,
    hands: Sequence[Iterable[str]],
    bags: Sequence[Iterable[str]],
    turn: int,
    initiative: int | None,
    control: Mapping[str, int | None] | None,
    supply: Sequence[Mapping[str, int]] | None,
    markers: int,
) -> State:
    """Turn a fresh game into the described play-phase position; ``markers`` is a team's full set,
    so that the markers left follow from the locations ``control`` gives each team."""
    for i, seat in enumerate(st.seats):
        seat.units = tuple(units[i])
        seat.supply = dict(supply[i]) if supply else {u: COINS[u] - 2 for u in seat.units}
        seat.hand = sorted(hands[i])
        seat.bag = sorted(bags[i])
        seat.discard_up = {}
        seat.discard_down = []
        seat.eliminated = {}
    st.board = {hx(k): v for k, v in (board or {}).items()}
    for k, team in (control or {}).items():
        st.control[hx(k)] = team
    for team in range(2):
        st.markers[team] = markers - sum(1 for t in st.control.values() if t == team)
    st.ever = frozenset((t, h) for h, t in st.control.items() if t is not None)
    st.turn = turn
    st.initiative = turn if initiative is None else initiative
    st.initiative_start = st.initiative
    st.initiative_moved = False
    st.pending = ()
    st.round = 1
    st.cache = {}
    return st


def acting(st: State) -> str:
    return GAME.to_act(st)[0]


def texts(st: State, player: str | None = None) -> set[str]:
    return {str(a) for a in GAME.legal_actions(st, player or acting(st))}


def do(st: State, text: str, player: str | None = None) -> tuple[State, list[Msg]]:
    """Parse ``text`` for the acting player (or ``player``) and apply it."""
    who = player or acting(st)
    action = GAME.parse_action(st, who, text, words(GAME))
    return GAME.apply(st, who, action)


def pass_any(st: State) -> State:
    """The acting player passes, with the first coin in text order: moves a round along."""
    return do(st, next(x for x in sorted(texts(st)) if x.startswith("pass")))[0]


def unit_at(st: State, label: str) -> tuple[int, str, int] | None:
    return st.board.get(hx(label))


def keys(events: Iterable[Msg]) -> list[str]:
    return [e.key for e in events]


def random_walk(
    players: Sequence[str], seed: int, armies: str, limit: int
) -> list[tuple[State, str, Action]]:
    """(state, player, chosen action) along one seeded random game, at most ``limit`` steps: many
    varied positions for checks that every legal action parses, labels and renders."""
    st = GAME.new_game(players, seed, {"armies": armies})
    rnd = random.Random(seed)
    out: list[tuple[State, str, Action]] = []
    while not GAME.is_over(st) and len(out) < limit:
        who = acting(st)
        action = rnd.choice(GAME.legal_actions(st, who))
        out.append((st, who, action))
        st, _ = GAME.apply(st, who, action)
    return out


# -- four players -----------------------------------------------------------------------------------

P4 = ("ann", "bea", "cat", "dan")
"""Seats 0-3: ann and cat are team 0, bea and dan team 1."""

NO_UNITS4: tuple[tuple[str, ...], ...] = ((), (), (), ())


def position4(
    units: Sequence[Iterable[str]],
    board: Mapping[str, tuple[int, str, int]] | None = None,
    hands: Sequence[Iterable[str]] = NO_UNITS4,
    bags: Sequence[Iterable[str]] = NO_UNITS4,
    turn: int = 0,
    initiative: int | None = None,
    control: Mapping[str, int | None] | None = None,
    seed: int = 1,
) -> State:
    """A four-player play-phase position, like ``position``: ``board`` maps labels to
    (seat, type, height), ``control`` sets a location's team; the markers left follow from it."""
    st = GAME.new_game(P4, seed, {"armies": "first"})
    return _arrange(st, units, board, hands, bags, turn, initiative, control, None, markers=8)
