"""The undo rule of each game (``engine.undo``, the games' ``can_undo``): what the asker showed of
their own never blocks; a die, a draw, or something hidden shown to the asker does.

Each case looks through seeded random games for the first step of the kind it is about (chosen by
what happened in the state, never by what ``can_undo`` answers), then asks ``can_undo``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import engine
from bench.undoable import random_steps

ROOT = Path(__file__).resolve().parents[2]
Step = tuple[Any, str, Any, Any]
"""A position, the player who acts, their action, the position after it."""


def steps(name: str, players: int, seeds: range = range(12)) -> Iterator[Step]:
    """Every step of seeded random games of ``name`` at a table of ``players``."""
    for seed in seeds:
        yield from random_steps(name, [f"p{i}" for i in range(players)], seed, salt=seed * 7 + 1)


def first(found: Iterator[Step], wanted: Callable[[Step], bool], what: str) -> Step:
    for step in found:
        if wanted(step):
            return step
    raise AssertionError(f"no step where {what}")


def pairs(name: str, players: int) -> Iterator[tuple[Step, Step]]:
    """Two steps in a row of the random games: an action and the reply that follows it."""
    previous: Step | None = None
    for step in steps(name, players):
        if previous is not None and previous[3] is step[0]:
            yield previous, step
        previous = step


def key(name: str, before: Any, moves: list[tuple[str, Any]], asker: str) -> str | None:
    why = engine.get_game(name).can_undo(before, moves, asker)
    return None if why is None else why.key


# ---- War Chest ---------------------------------------------------------------------------------------------


def wc_seat(state: Any, player: str) -> Any:
    return state.seats[state.seat_of(player)]


def wc_face_up(step: Step) -> bool:
    """The actor's coin left their hand and did not go face down; nothing drawn."""
    before, player, _action, after = step
    was, now = wc_seat(before, player), wc_seat(after, player)
    return (
        before.rng == after.rng
        and len(now.hand) < len(was.hand)
        and len(now.discard_down) == len(was.discard_down)
    )


def wc_face_down(step: Step) -> bool:
    before, player, _action, after = step
    was, now = wc_seat(before, player), wc_seat(after, player)
    return before.rng == after.rng and len(now.discard_down) == len(was.discard_down) + 1


@pytest.mark.parametrize("players", [2, 4])
def test_war_chest_own_coin_played_face_up_can_be_taken_back(players: int) -> None:
    before, player, action, _after = first(steps("warchest", players), wc_face_up, "a coin is played face up")
    assert key("warchest", before, [(player, action)], player) is None


@pytest.mark.parametrize("players", [2, 4])
def test_war_chest_a_bag_draw_blocks(players: int) -> None:
    before, player, action, _after = first(
        steps("warchest", players), lambda s: s[0].rng != s[3].rng and s[0].phase == "play", "a coin is drawn"
    )
    assert key("warchest", before, [(player, action)], player) == "svc.undo.random"


@pytest.mark.parametrize("players", [2, 4])
def test_war_chest_another_players_coin_shown_blocks_and_a_face_down_one_does_not(players: int) -> None:
    """The asker's action followed by a reply (as against computer players): a coin the reply
    plays face up was hidden from the asker, also when it is their teammate's."""
    own = [p for p in pairs("warchest", players) if p[0][0].rng == p[1][3].rng and p[0][1] != p[1][1]]
    up = next(p for p in own if wc_face_up(p[1]))
    down = next(p for p in own if wc_face_down(p[1]))
    cases = ((*up, "svc.undo.shown"), (*down, None))
    for (before, asker, action, _), (_, actor, reply, _), expected in cases:
        assert key("warchest", before, [(asker, action), (actor, reply)], asker) == expected, str(reply)
        assert key("warchest", before, [(asker, action)], asker) is None


# ---- Cry Havoc ---------------------------------------------------------------------------------------------


def ch_quiet(step: Step) -> bool:
    """No shuffle, no deck or stack shorter, no token turned over."""
    before, _player, _action, after = step
    seats = zip(before["seats"], after["seats"], strict=True)
    return (
        before["rng"] == after["rng"]
        and all(len(a["deck"]) >= len(b["deck"]) for b, a in seats)
        and all(len(after["terrain"][t]) >= len(c) for t, c in before["terrain"].items())
        and before["revealed"] == after["revealed"]
        and all(
            (r["explore"] is None) == (after["regions"][rid]["explore"] is None)
            and r["token"] == after["regions"][rid]["token"]
            for rid, r in before["regions"].items()
        )
    )


def ch_pays(step: Step) -> bool:
    """The actor's card left their hand for the face-up discard pile."""
    before, player, _action, after = step
    seat = before["players"].index(player)
    return len(after["seats"][seat]["discard"]) > len(before["seats"][seat]["discard"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cry_havoc_own_card_paid_can_be_taken_back(players: int) -> None:
    before, player, action, _after = first(
        steps("cryhavoc", players), lambda s: ch_quiet(s) and ch_pays(s), "a card is paid"
    )
    assert key("cryhavoc", before, [(player, action)], player) is None


@pytest.mark.parametrize("players", [2, 3])
def test_cry_havoc_a_draw_blocks(players: int) -> None:
    """Drawing two to keep one takes cards off a shuffled deck without the generator moving."""
    before, player, action, _after = first(
        steps("cryhavoc", players),
        lambda s: s[2].verb == "draw" and s[0]["rng"] == s[3]["rng"],
        "a card is drawn",
    )
    assert key("cryhavoc", before, [(player, action)], player) == "svc.undo.random"


def test_cry_havoc_a_token_turned_over_blocks() -> None:
    before, player, action, _after = first(
        steps("cryhavoc", 2),
        lambda s: (
            s[0]["rng"] == s[3]["rng"]
            and any(
                r["explore"] is not None and s[3]["regions"][rid]["explore"] is None
                for rid, r in s[0]["regions"].items()
            )
        ),
        "an exploration token is turned over",
    )
    assert key("cryhavoc", before, [(player, action)], player) == "svc.undo.shown"


@pytest.mark.parametrize("players", [2, 3])
def test_cry_havoc_another_players_card_shown_blocks(players: int) -> None:
    (before, asker, action, _), (_, actor, reply, _) = next(
        p
        for p in pairs("cryhavoc", players)
        if p[0][1] != p[1][1] and ch_quiet(p[0]) and ch_quiet(p[1]) and ch_pays(p[1])
    )
    assert key("cryhavoc", before, [(asker, action), (actor, reply)], asker) == "svc.undo.shown"
    assert key("cryhavoc", before, [(asker, action)], asker) is None


# ---- Batailles ---------------------------------------------------------------------------------------------


def test_batailles_steps_of_an_activation_are_taken_back_one_by_one() -> None:
    """The issue's example: after the initiative roll, Bob coordinates two troops, then moves them;
    the move alone can be taken back, then the coordination; the roll before them cannot."""
    game = engine.get_game("batailles")
    script = (ROOT / "docs" / "examples" / "batailles-console.txt").read_text(encoding="utf-8")
    lines = [line for line in script.splitlines() if ": /play action:" in line]
    state = game.new_game(["alice", "bob"], 12, {"map": "default", "armies": "classic", "max_rounds": "6"})
    history = []
    for line in lines[:20]:  # the deployments, the last of which rolls the initiative
        player, text = line.split(": /play action:")
        history.append(state)
        state, _events = game.apply(state, player, game.parse_action(state, player, text))
    rolled_from = history[-1]
    assert rolled_from.rng != state.rng, "the last deployment rolled the initiative"
    coordinate = game.parse_action(state, "bob", "coordinate cav1+inf2")
    after_coordinate, _ = game.apply(state, "bob", coordinate)
    move = game.parse_action(after_coordinate, "bob", "move s s")
    assert key("batailles", after_coordinate, [("bob", move)], "bob") is None
    assert key("batailles", state, [("bob", coordinate)], "bob") is None
    last_deploy = game.parse_action(rolled_from, "bob", lines[19].split(":")[-1])
    assert key("batailles", rolled_from, [("bob", last_deploy)], "bob") == "svc.undo.random"


def test_batailles_dice_block() -> None:
    """Whatever rolled them (an attack, a morale test, the initiative), dice block; the other steps
    of the same game can be taken back."""
    game = engine.get_game("batailles")
    played = list(random_steps("batailles", ["p0", "p1"], 2, prefer="attack"))
    rolled = [s for s in played if s[0].rng != s[3].rng]
    assert {str(s[2]).split()[0] for s in rolled} >= {"attack", "deploy"}, "attacks and the initiative roll"
    for before, player, action, _after in rolled[:40]:
        assert key("batailles", before, [(player, action)], player) == "svc.undo.random", str(action)
    quiet = [s for s in played if s[0].rng == s[3].rng][:40]
    for before, player, action, _after in quiet:
        assert game.can_undo(before, [(player, action)], player) is None, str(action)
