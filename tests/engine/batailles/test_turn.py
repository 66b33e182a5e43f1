"""The turn around the activations: initiative, losses chosen at the end of the turn, advantage
points from hits and from advantage zones, morale tests and the reach of command."""

from __future__ import annotations

import pytest

from engine.batailles import GAME
from engine.batailles.combat import command_available, successes
from engine.batailles.rules import MORALE_COST
from engine.batailles.state import State
from engine.errors import IllegalAction, NotYourTurn
from engine.text import PlayerRef
from tests.engine.batailles.helpers import A, B, battle, dice, event, legal_texts, play, seed_for, where
from tests.engine.batailles.test_combat import board_with


def _deployed(seed: int) -> tuple[object, list[str]]:
    s = GAME.new_game([A, B], seed=seed, options={"armies": "raiders"})
    names = [t.name for t in s.army(0)]
    s, _ = play(s, A, *[f"deploy {n} {c}1 n" for n, c in zip(names, "abcdef", strict=True)])
    last = [f"deploy {n} {c}9 s" for n, c in zip(names, "abcdef", strict=True)]
    s, _ = play(s, B, *last[:-1])
    return s, [last[-1]]


def test_initiative_goes_to_the_higher_die_and_a_tie_rolls_again() -> None:
    s, last = _deployed(1)
    s.rng = seed_for(4, lambda d: d[0] == d[1] and d[2] < d[3])
    first = dice(s.rng, 4)
    s, events = play(s, B, *last)
    rolls = [e for e in events if e.key == "bt.ev.initiative_roll"]
    assert [(e.params["a"], e.params["b"]) for e in rolls] == [(first[0], first[1]), (first[2], first[3])]
    assert [e.key for e in events].count("bt.ev.initiative_tie") == 1
    assert event(events, "bt.ev.initiative").params["player"].id == B
    assert GAME.to_act(s) == [B] and s.order == [1, 0]


def _hits_then_end(hits: int, defenders: int) -> tuple[object, list[object]]:
    troops = [(A, "axe", "1 2 2 0 0 0", "a1", "n")]
    troops += [(B, f"d{k}", "1 2 2 0 0 0", "d5", "s") for k in range(defenders)]
    troops += [(B, "spare", "1 2 2 0 0 0", "h9", "s")]
    s = battle(troops)
    s.hits = {(3, 4): hits}
    return play(s, A, "end")


def test_each_full_five_hits_costs_a_troop_chosen_by_its_owner() -> None:
    s, events = _hits_then_end(7, 3)
    assert event(events, "bt.ev.advantage_hits").params["points"] == 2
    assert s.advantage == [2, 0]
    assert GAME.to_act(s) == [B] and legal_texts(s, B) == ["lose d0", "lose d1", "lose d2"]
    with pytest.raises(NotYourTurn):
        play(s, A, "lose d0")
    s, events = play(s, B, "lose d1")
    assert where(s, B, "d1") is None and s.losses == [0, 1]
    assert event(events, "bt.ev.turn").params["player"].id == B  # then bob's turn begins


def test_ten_hits_cost_two_troops_and_leave_no_advantage() -> None:
    s, _ = _hits_then_end(10, 3)
    assert s.pending is not None and s.pending.count == 2 and s.advantage == [0, 0]
    s, _ = play(s, B, "lose d0")
    assert legal_texts(s, B) == ["lose d1", "lose d2"]
    s, _ = play(s, B, "lose d2")
    assert s.losses == [0, 2] and where(s, B, "d1") == "d5"


def test_four_hits_are_no_loss_but_four_advantage_points() -> None:
    s, _ = _hits_then_end(4, 2)
    assert s.losses == [0, 0] and s.advantage == [4, 0] and s.active == 1


def test_when_every_troop_of_the_zone_must_go_nobody_is_asked() -> None:
    s, events = _hits_then_end(12, 2)
    assert s.losses == [0, 2] and s.pending is None
    assert [e.params["name"] for e in events if e.key == "bt.ev.loss"] == ["d0", "d1"]


def _charge(hits: int, *others: tuple[str, str, str, str, str], advantage: int = 0) -> State:
    """Two coordinated brutes of d4 attack d5 with ten dice scoring exactly ``hits`` (the troops
    of d5 face east, so nothing cancels them)."""
    seed = seed_for(10, lambda d: successes(d) == hits)
    troops = [(A, "p", "0 5 0 0 0 0", "d4", "n"), (A, "q", "0 5 0 0 0 0", "d4", "n"), *others]
    s, _ = play(battle(troops, rng=seed, advantage=(advantage, 0)), A, "coordinate p+q", "attack d5 5")
    assert s.hits == {(3, 4): hits}
    return s


def test_losses_come_from_real_attacks_at_the_end_of_the_turn() -> None:
    s = _charge(6, (B, "x", "1 2 2 0 0 0", "d5", "e"), (B, "y", "1 2 2 0 0 0", "d5", "e"))
    assert s.losses == [0, 0]
    s, _ = play(s, A, "end")
    assert s.advantage == [1, 0] and legal_texts(s, B) == ["lose x", "lose y"]


def test_advantage_zones_pay_their_holder_at_the_start_of_its_turn() -> None:
    troops = [(A, "guard", "1 2 2 0 0 0", "d2", "n"), (B, "foe", "1 2 2 0 0 0", "e8", "s")]
    s = battle(troops, board=board_with(d2="3", e8="1"), active=B)
    s, events = play(s, B, "end")
    assert event(events, "bt.ev.advantage_zone").params == {"player": PlayerRef(A), "zone": "d2", "points": 3}
    assert s.advantage == [3, 0]
    s, _ = play(s, A, "end")
    assert s.advantage == [3, 1]


def _morale_battle(advantage: int, defender_advantage: int = 0) -> object:
    troops = [
        (A, "axe", "1 2 2 0 0 0", "a1", "n"),
        (B, "x", "1 2 2 0 0 0", "d5", "s"),
        (B, "y", "1 2 2 0 0 0", "d5", "s"),
        (B, "gen", "1 0 1 1 2 0", "d7", "s"),
    ]
    return battle(troops, advantage=(advantage, defender_advantage))


def test_a_morale_test_needs_more_than_five_advantage_points() -> None:
    s = _morale_battle(5)
    assert not any(t.startswith("morale") for t in legal_texts(s, A))
    with pytest.raises(IllegalAction) as err:
        play(s, A, "morale d5")
    assert err.value.msg.key == "bt.err.morale_advantage"
    s = _morale_battle(6)
    assert {"morale d5", "morale d7"} <= set(legal_texts(s, A))


def test_the_defender_picks_the_troop_and_buys_dice_with_advantage_and_command() -> None:
    seed = seed_for(2, lambda d: d[0] < 4 and d[1] >= 4)
    s = _morale_battle(7, 2)
    s.rng = seed
    s, events = play(s, A, "morale d5")
    assert s.advantage == [7 - MORALE_COST, 2] and GAME.to_act(s) == [B]
    # The general two zones away (Range 1) lends its 2 command points; bob has 2 advantage points.
    assert legal_texts(s, B) == ["hold x 0", "hold x 1", "hold x 2", "hold y 0", "hold y 1", "hold y 2"]
    s, events = play(s, B, "hold y 2")
    roll = event(events, "bt.ev.morale_roll")
    assert roll.params["faces"] == " ".join(map(str, dice(seed, 2)))
    assert roll.params["outcome"].key == "bt.morale.held"
    assert where(s, B, "y") == "d5" and s.advantage == [1, 0]
    assert s.troop(1, "gen").command_left == 0  # type: ignore[union-attr]
    assert GAME.to_act(s) == [A]


def test_a_failed_morale_test_removes_the_troop() -> None:
    s = _morale_battle(6, 1)
    s.rng = seed_for(1, lambda d: d[0] < 4)
    s, _ = play(s, A, "morale d5")
    s, events = play(s, B, "hold x 1")
    assert event(events, "bt.ev.morale_roll").params["outcome"].key == "bt.morale.broken"
    assert where(s, B, "x") is None and s.losses == [0, 1]
    s = _morale_battle(6)
    s, _ = play(s, A, "morale d5")
    assert legal_texts(s, B) == ["hold x 0", "hold y 0"]  # no advantage: no dice, a sure failure
    s, _ = play(s, B, "hold x 0")
    assert s.losses == [0, 1]


def test_command_passes_over_friendly_zones_only() -> None:
    troops = [
        (B, "x", "1 2 2 0 0 0", "d3", "s"),
        (B, "pal", "1 2 2 0 0 0", "d4", "s"),
        (B, "gen", "1 0 1 2 1 0", "d6", "s"),
        (A, "axe", "1 2 2 0 0 0", "a1", "n"),
    ]
    s = battle(troops)
    assert command_available(s, (3, 2), 1) == 1  # over a friendly zone and an empty one
    troops[1] = (A, "enemy", "1 2 2 0 0 0", "d4", "n")
    assert command_available(battle(troops), (3, 2), 1) == 0
    troops[1] = (B, "pal", "1 2 2 0 0 0", "d4", "s")
    troops[2] = (B, "gen", "1 0 1 1 1 1", "d6", "s")
    assert command_available(battle(troops), (3, 2), 1) == 0  # three zones away needs Range 2


def test_hits_fall_on_the_troops_shot_not_on_the_attacker_who_takes_the_zone() -> None:
    """Five hits on d5, whose defender then breaks in a morale test: the attacker walks in, and
    at the end of the turn the hits cost nobody (the side shot at has nobody left there)."""
    s = _charge(
        5,
        (A, "rider", "1 0 4 0 0 0", "d4", "n"),
        (B, "x", "1 2 2 0 0 0", "d5", "e"),
        (B, "spare", "1 2 2 0 0 0", "h9", "s"),
        advantage=MORALE_COST,
    )
    s, _ = play(s, A, "morale d5")
    s, _ = play(s, B, "hold x 0")
    assert where(s, B, "x") is None and s.losses == [0, 1]
    s, _ = play(s, A, "activate rider", "move n n")
    assert where(s, A, "rider") == "d5"
    s, events = play(s, A, "end")
    assert where(s, A, "rider") == "d5" and s.losses == [0, 1] and s.pending is None
    assert not [e for e in events if e.key == "bt.ev.loss"]
    assert event(events, "bt.ev.turn").params["player"].id == B


def test_losses_are_asked_of_the_side_shot_at() -> None:
    s, _ = _hits_then_end(5, 2)
    assert s.pending is not None and s.pending.seat == 1 and GAME.to_act(s) == [B]
    assert legal_texts(s, B) == ["lose d0", "lose d1"]
