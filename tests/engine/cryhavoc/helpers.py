"""Shared set-ups for the Cry Havoc tests: a fresh game, then the exact position a rule needs."""

from __future__ import annotations

from typing import Any

from engine.cryhavoc import GAME, flow
from engine.cryhavoc.actions import Action, act
from engine.cryhavoc.state import St
from engine.text import Msg
from tests.engine.french_typing import words

P2 = ["alice", "bob"]
P3 = ["alice", "bob", "carol"]
P4 = ["alice", "bob", "carol", "dave"]


def new(players: list[str] | None = None, seed: int = 1, **options: str) -> St:
    return GAME.new_game(players or P2, seed=seed, options=options)


def clear_map(st: St) -> None:
    """No units outside HQs, no tokens, no crystals: a blank map to build a position on."""
    for rid, reg in st["regions"].items():
        if rid not in st["hq"]:
            reg["units"] = [0] * len(reg["units"])
            reg["token"] = None
            reg["explore"] = None
            reg["crystals"] = 0
            reg["control"] = None


def give(st: St, seat: int, *kinds: str) -> None:
    """Put cards of these kinds in the seat's hand (fresh copy ids, so decks stay untouched)."""
    hand = st["seats"][seat]["hand"]
    for i, k in enumerate(kinds):
        hand.append(f"{k}.t{len(hand) + i}")
    hand.sort()


def set_hand(st: St, seat: int, *kinds: str) -> None:
    st["seats"][seat]["hand"] = []
    give(st, seat, *kinds)


def to_actions(st: St, first: int = 0) -> None:
    """Skip to the actions phase with ``first`` to act and nobody over the hand limit."""
    n = len(st["players"])
    st["init"] = [first, *[s for s in range(n) if s != first]]
    st["upcoming"] = list(st["init"])
    st["phase"] = "actions"
    st["done"] = 0
    st["pending"] = None


def play(st: St, seat: int, text: str) -> tuple[St, list[Msg]]:
    player = st["players"][seat]
    return GAME.apply(st, player, GAME.parse_action(st, player, text, words(GAME)))


def legal(st: St, seat: int) -> list[str]:
    return [str(a) for a in GAME.legal_actions(st, st["players"][seat])]


def start_fight(
    st: St, rid: str, att: int, dfn: int, a_units: int, d_units: int, hold: bool = True
) -> list[Msg]:
    """Put a battle in ``rid`` and enter the battle phase. With ``hold`` a second battle (number 8,
    in Mirewood, bob attacking alice) waits behind it, so the round stops there once it ends."""
    reg = st["regions"][rid]
    reg["units"][att] = a_units
    reg["units"][dfn] = d_units
    reg["battle"] = 1
    st["battles"] = [[1, rid, att, dfn]]
    if hold:
        st["regions"]["mirewood"]["units"][0:2] = [1, 1]
        st["regions"]["mirewood"]["battle"] = 8
        st["battles"].append([8, "mirewood", 1, 0])
    st["tokens_used"] = len(st["battles"])
    st["phase"] = "battle"
    st["done"] = 3 * len(st["players"])
    st["pending"] = None
    ev: list[Msg] = []
    flow.after_battle(st, ev)
    return ev


def keys(events: list[Msg]) -> list[str]:
    return [e.key for e in events]


def acts(*texts: str) -> list[Action]:
    return [act(*t.split()) for t in texts]


def fight(st: St) -> dict[str, Any]:
    f: dict[str, Any] = st["fight"]
    return f


def duel(seed: int = 1, **options: str) -> St:
    """A two-player game, alice (seat 0) at Highgate and bob (seat 1) at Lowgate, blank map,
    actions phase with alice to act and both hands empty."""
    st = new(P2, seed, **options)
    if st["hq"][0] != "highgate":
        st["hq"] = ["highgate", "lowgate"]
        for rid, seat in (("highgate", 0), ("lowgate", 1)):
            reg = st["regions"][rid]
            reg["units"] = [0, 0, 0]
            reg["units"][seat] = 4
            reg["control"] = seat
    clear_map(st)
    for s in st["seats"]:
        s["hand"] = []
    to_actions(st, 0)
    return st
