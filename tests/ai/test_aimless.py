"""No aimless moves: what the computer players search leaves out the steps a person reads as aimless
(``candidates`` in ``ai/<game>/heuristics.py``), and short seeded games played by ``normal`` keep
``bench.aimless``'s figures low.

Before the pruning, the same three short games gave 9 % of troop steps taken back, 2 % of activations
that did nothing and 7.5 % of troops facing away from every enemy at the end of a turn; the bounds
below sit under those, so a return of either habit fails here.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import engine
from ai.batailles import heuristics as batailles
from ai.cryhavoc import heuristics as cryhavoc
from ai.warchest import heuristics as warchest
from bench.aimless import play, totals
from engine.batailles.actions import Deploy, Done, EndTurn, Face, Move
from engine.batailles.board import step
from engine.batailles.rules import group
from engine.batailles.state import State
from engine.cryhavoc.actions import act
from engine.rng import Rng
from engine.warchest.actions import Bolster
from tests.ai.support import midgame, players

AHEAD = {"n": (0, 1), "s": (0, -1), "e": (1, 0), "w": (-1, 0)}


def _ahead(st: State, seat: int, zone: tuple[int, int], facing: str) -> bool:
    dx, dy = AHEAD[facing]
    enemies = [t.zone for t in st.troops if t.seat != seat and t.zone is not None and not t.lost]
    return any((x - zone[0]) * dx + (y - zone[1]) * dy > 0 for x, y in enemies)


def _activations(seed: int) -> list[tuple[State, int, list[Any]]]:
    """Every position of a seeded random Batailles game where a troop is acting, with its legal steps."""
    game = engine.get_game("batailles")
    state = game.new_game(players(2), seed, {})
    chooser = Rng(seed ^ 0xA1)
    found: list[tuple[State, int, list[Any]]] = []
    while not game.is_over(state) and len(found) < 150:
        player = game.to_act(state)[0]
        seat = players(2).index(player)
        legal = game.legal_actions(state, player)
        if (
            state.phase == "play"
            and state.activation is not None
            and state.combat is None
            and state.pending is None
        ):
            found.append((state, seat, legal))
        state, _ = game.apply(state, player, legal[chooser.below(len(legal))])
    return found


@pytest.mark.parametrize("seed", [1, 2])
def test_batailles_activation_steps_have_a_purpose(seed: int) -> None:
    """No step back to a zone the troop left this turn or last, no facing without an enemy ahead, no
    ending an activation that has done nothing."""
    checked = Counter[str]()
    for st, seat, legal in _activations(seed):
        chosen = batailles.candidates(st, seat, legal)
        assert chosen and set(map(str, chosen)) <= set(map(str, legal))
        if chosen is legal:  # every step pruned: the activation keeps them all
            continue
        assert st.activation is not None
        acting = group(st, st.activation)
        here = acting[0].zone
        assert here is not None
        names = {t.name for t in acting}
        left = {z for s, n, turn, z in st.left if s == seat and n in names and turn >= st.turns[seat] - 1}
        fresh = all(
            st.activation.movement[t.name] == t.movement and st.activation.attack[t.name] == t.attack
            for t in acting
        )
        for a in chosen:
            if isinstance(a, Move):
                assert step(here, a.direction) not in left, f"{a} takes a step back"
                assert _ahead(st, seat, step(here, a.direction), a.facing), f"{a} faces no enemy"
                checked["move"] += 1
            elif isinstance(a, Face):
                assert _ahead(st, seat, here, a.direction), f"{a} faces no enemy"
                checked["face"] += 1
            elif isinstance(a, (Done, EndTurn)):
                assert not fresh, f"{a} ends an activation that did nothing"
        checked["back"] += sum(1 for a in legal if isinstance(a, Move) and step(here, a.direction) in left)
        checked["fresh"] += fresh
    assert checked["move"] and checked["face"] and checked["back"] and checked["fresh"], checked


@pytest.mark.parametrize(("seed", "army"), [(1, "classic"), (2, "classic"), (3, "raiders")])
def test_batailles_deployments_spread_the_line_and_keep_support_in_reach(seed: int, army: str) -> None:
    """Whatever the search picks among the deployments it is offered, no zone gets a third troop and
    the troops without Attack (general, supply) stand where their command or logistics reach a troop
    with Attack."""
    game = engine.get_game("batailles")
    state = game.new_game(players(2), seed, {"armies": army})
    chooser = Rng(seed)
    while state.phase == "deploy":
        player = game.to_act(state)[0]
        seat = players(2).index(player)
        chosen = batailles.candidates(state, seat, game.legal_actions(state, player))
        assert all(isinstance(a, Deploy) for a in chosen)
        state, _ = game.apply(state, player, chosen[chooser.below(len(chosen))])
    for seat in (0, 1):
        troops = state.army(seat)
        crowd = Counter(t.zone for t in troops)
        assert max(crowd.values()) <= 2, crowd
        fighters = {t.zone for t in troops if t.attack > 0}
        for t in troops:
            if t.attack == 0 and (t.command or t.logistics):
                assert t.zone is not None
                reach = 1 + t.range if t.command else 0
                assert any(
                    (fx == t.zone[0] and abs(fy - t.zone[1]) <= reach)
                    or (fy == t.zone[1] and abs(fx - t.zone[0]) <= reach)
                    for fx, fy in fighters
                ), f"{t.name} in {t.zone} serves nobody"


def test_batailles_normal_plays_short_games_without_aimless_moves() -> None:
    """Three seeded games of six rounds, ``normal`` against itself at a tenth of its iterations."""
    rows = [play("batailles", k, "normal", 0.1, {"max_rounds": "6"}) for k in range(3)]
    figures = totals(rows)[("batailles", "normal", "normal")]
    for name, most in (
        ("undone", 0.02),
        ("null", 0.01),
        ("away", 0.04),
        ("crowded", 0.0),
        ("unsupported", 0.0),
    ):
        hits, out_of = figures[name]
        assert out_of > 0 and hits <= most * out_of, (name, hits, out_of)


def test_war_chest_leaves_a_tall_unit_while_a_location_lies_open() -> None:
    """A bolster that would raise a unit above three coins is not searched while a location the team
    does not hold lies open near its units; other actions are."""
    game = engine.get_game("warchest")
    seen = 0
    for seed in range(40):
        st = midgame("warchest", 2, seed, 12)
        if game.is_over(st):
            continue
        player = game.to_act(st)[0]
        seat = players(2).index(player)
        legal = game.legal_actions(st, player)
        bolsters = [a for a in legal if isinstance(a, Bolster)]
        if not bolsters or not warchest.open_nearby(st, st.seats[seat].team):
            continue
        tall = st.clone()
        tall.board = dict(st.board)
        owner, kind, _height = tall.board[bolsters[0].hex]
        tall.board[bolsters[0].hex] = (owner, kind, warchest.TALL)
        tall.cache = {}
        chosen = warchest.candidates(tall, seat, game.legal_actions(tall, player))
        assert not any(isinstance(a, Bolster) and a.hex == bolsters[0].hex for a in chosen)
        assert chosen and len(chosen) < len(game.legal_actions(tall, player))
        seen += 1
    assert seen >= 3


def test_cry_havoc_activates_a_structure_that_pays_before_building_another() -> None:
    st = midgame("cryhavoc", 2, 5, 0)
    pays, builds, plain = (
        act("activate", "ma_bastion", "r"),
        act("construct", "ma_bastion", "r"),
        act("activate", "ma_factory", "r"),
    )
    weights = cryhavoc.weights(st, 0, [pays, builds, plain])
    assert weights[0] > weights[1] and weights[0] > weights[2]
