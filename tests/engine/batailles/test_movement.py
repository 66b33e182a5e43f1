"""Activations and movement: points, free facing on entry, 0 Movement, terrain and zone limits,
coordination and the six-troop limit."""

from __future__ import annotations

import pytest

import i18n
from engine.errors import IllegalAction, NotYourTurn
from tests.engine.batailles.helpers import A, B, battle, legal_texts, play, where

FAR_ENEMY = (B, "foe", "1 2 2 0 0 0", "h9", "s")


def row(*zones: str) -> str:
    return " ".join(zones)


def test_a_move_costs_one_point_and_the_facing_on_entry_is_free() -> None:
    s = battle([(A, "cav", "2 3 0 0 0 0", "d2", "n"), FAR_ENEMY])
    s, _ = play(s, A, "activate cav", "move n e")
    assert where(s, A, "cav") == "d3"
    assert s.troop(0, "cav").facing == "e"  # type: ignore[union-attr]
    assert s.activation is not None and s.activation.movement == {"cav": 1}
    s, events = play(s, A, "move e s")
    assert where(s, A, "cav") == "e3"
    assert events[-1].key == "bt.ev.activation_over"  # nothing left to spend: it ends by itself
    assert s.activation is None and "activate cav" not in legal_texts(s, A)


def test_turning_costs_a_movement_point() -> None:
    s = battle([(A, "inf", "1 2 2 0 0 0", "d2", "n"), FAR_ENEMY])
    s, _ = play(s, A, "activate inf", "face e")
    assert s.troop(0, "inf").facing == "e"  # type: ignore[union-attr]
    assert s.activation is None  # its single point is spent and no enemy is adjacent


def test_zero_movement_can_neither_move_nor_turn() -> None:
    s = battle([(A, "gun", "0 3 0 2 0 0", "d2", "n"), FAR_ENEMY, (B, "near", "1 2 2 0 0 0", "d4", "s")])
    s, _ = play(s, A, "activate gun")
    texts = legal_texts(s, A)
    assert not any(t.startswith(("move", "face")) for t in texts)
    assert "attack d4 3" in texts
    for text in ("face e", "move n n"):
        with pytest.raises(IllegalAction) as err:
            play(s, A, text)
        assert err.value.msg.key == "bt.err.no_movement_stat"
        assert err.value.msg.params["name"] == "gun"


def test_a_forest_of_four_pieces_blocks_entry() -> None:
    board = "/".join(
        [row(*"........")] * 6 + [row(".", ".", ".", "ffff", ".", ".", ".", "."), *[row(*"........")] * 2]
    )
    s = battle([(A, "inf", "2 1 2 0 0 0", "d2", "n"), FAR_ENEMY], board=board)
    s, _ = play(s, A, "activate inf")
    assert not any(t.startswith("move n") for t in legal_texts(s, A))
    with pytest.raises(IllegalAction) as err:
        play(s, A, "move n n")
    assert err.value.msg.key == "bt.err.impassable"
    assert err.value.msg.params["zone"] == "d3"


def test_terrain_places_limit_how_many_troops_enter() -> None:
    board = "/".join(
        [row(*"........")] * 6 + [row(".", ".", ".", "fff", ".", ".", ".", "."), *[row(*"........")] * 2]
    )
    troops = [(A, "x", "1 2 2 0 0 0", "d2", "n"), (A, "y", "1 2 2 0 0 0", "d2", "n"), FAR_ENEMY]
    s = battle(troops, board=board)
    s2, _ = play(s, A, "coordinate x+y")
    with pytest.raises(IllegalAction) as err:
        play(s2, A, "move n n")
    assert err.value.msg.key == "bt.err.zone_full"
    s3, _ = play(s, A, "activate x", "move n n")
    assert where(s3, A, "x") == "d3"


def test_a_zone_holds_four_troops_of_one_army_only() -> None:
    four = [(A, f"f{k}", "1 1 3 0 0 0", "d3", "n") for k in range(4)]
    s = battle([*four, (A, "late", "2 1 2 0 0 0", "d2", "n"), (B, "foe", "1 2 2 0 0 0", "e2", "w")])
    s, _ = play(s, A, "activate late")
    texts = legal_texts(s, A)
    assert not any(t.startswith(("move n", "move e")) for t in texts)
    with pytest.raises(IllegalAction) as err:
        play(s, A, "move e n")
    assert err.value.msg.key == "bt.err.enemy_zone"
    with pytest.raises(IllegalAction) as err:
        play(s, A, "move n n")
    assert err.value.msg.key == "bt.err.zone_full"


def test_coordinated_troops_move_and_turn_together() -> None:
    s = battle([(A, "x", "2 1 2 0 0 0", "d2", "n"), (A, "y", "1 2 2 0 0 0", "d2", "e"), FAR_ENEMY])
    s, events = play(s, A, "coordinate x+y")
    assert events[0].key == "bt.ev.coordinate"
    s, _ = play(s, A, "move n w")
    assert where(s, A, "x") == where(s, A, "y") == "d3"
    assert {s.troop(0, n).facing for n in "xy"} == {"w"}  # type: ignore[union-attr]
    # y has no Movement left, so the group can neither move nor turn any more.
    assert not any(t.startswith(("move", "face")) for t in legal_texts(s, A))


def test_coordination_needs_one_zone() -> None:
    s = battle([(A, "x", "2 1 2 0 0 0", "d2", "n"), (A, "y", "1 2 2 0 0 0", "e2", "n"), FAR_ENEMY])
    assert "coordinate x+y" not in legal_texts(s, A)
    with pytest.raises(IllegalAction) as err:
        play(s, A, "coordinate x+y")
    assert err.value.msg.key == "bt.err.coordinate_zone"


def test_up_to_six_troops_act_each_turn_counting_coordinated_ones() -> None:
    troops = [(A, f"t{k}", "1 1 3 0 0 0", "abcdefgh"[k % 4] + ("1" if k < 4 else "2"), "n") for k in range(8)]
    s = battle([*troops, FAR_ENEMY])
    s, _ = play(
        s, A, "activate t0", "done", "activate t1", "done", "activate t2", "done", "activate t3", "done"
    )
    texts = legal_texts(s, A)
    assert "activate t4" in texts and "coordinate t4+t5" not in texts  # t4, t5 are in different zones
    s, _ = play(s, A, "activate t4", "done")
    with pytest.raises(IllegalAction) as err:
        play(s, A, "activate t0")
    assert err.value.msg.key == "bt.err.already_activated"
    s, _ = play(s, A, "activate t5", "done")
    assert legal_texts(s, A) == ["end"]
    with pytest.raises(IllegalAction) as err:
        play(s, A, "activate t6")
    assert err.value.msg.key == "bt.err.six_troops"


def test_a_coordinated_group_uses_one_place_per_troop_in_the_six() -> None:
    troops = [(A, f"t{k}", "1 1 3 0 0 0", "d2", "n") for k in range(4)]
    troops += [(A, f"u{k}", "1 1 3 0 0 0", "e2", "n") for k in range(3)]
    s = battle([*troops, FAR_ENEMY])
    s, _ = play(s, A, "coordinate t0+t1+t2+t3", "done")
    texts = legal_texts(s, A)
    assert "coordinate u0+u1" in texts and "coordinate u0+u1+u2" not in texts


def test_the_war_chariot_moves_shoots_moves_and_shoots_again() -> None:
    foe = (B, "foe", "1 1 0 0 0 0", "d5", "e")
    s = battle([(A, "chariot", "2 2 0 1 0 0", "d2", "n"), foe])
    s, _ = play(s, A, "activate chariot", "move n n", "attack d5 1")
    assert s.activation is not None and s.activation.attack == {"chariot": 1}
    s, _ = play(s, A, "move n n")
    assert where(s, A, "chariot") == "d4"
    s, events = play(s, A, "attack d5 1")
    assert events[-1].key == "bt.ev.activation_over"


def test_only_the_active_player_acts() -> None:
    s = battle([(A, "inf", "1 2 2 0 0 0", "d2", "n"), FAR_ENEMY])
    with pytest.raises(NotYourTurn):
        play(s, B, "activate foe")
    assert legal_texts(s, B) == []


def test_a_river_takes_two_places_so_only_two_troops_stand_in_it() -> None:
    river = "/".join(
        [row(*"........")] * 6 + [row(".", ".", ".", "rr", ".", ".", ".", "."), *[row(*"........")] * 2]
    )
    two = [(A, "x", "1 2 2 0 0 0", "d3", "n"), (A, "y", "1 2 2 0 0 0", "d3", "n")]
    s = battle([*two, (A, "z", "2 1 2 0 0 0", "d2", "n"), FAR_ENEMY], board=river)
    s, _ = play(s, A, "activate z")
    with pytest.raises(IllegalAction) as err:
        play(s, A, "move n n")
    assert err.value.msg.key == "bt.err.zone_full" and err.value.msg.params["used"] == 4


def test_an_activation_that_could_do_nothing_is_not_offered_and_spends_nothing() -> None:
    """A troop with no Movement and no enemy in its line of attack (or no Attack) has nothing to do:
    it is not offered, typing it is refused with the reason, and it never uses one of the six."""
    troops = [
        (A, "wall", "0 0 5 0 0 0", "d2", "n"),
        (A, "gun", "0 3 0 2 0 0", "e2", "n"),
        (A, "inf", "1 2 2 0 0 0", "f2", "n"),
        FAR_ENEMY,
    ]
    s = battle(troops)
    texts = legal_texts(s, A)
    assert "activate inf" in texts
    assert "activate wall" not in texts and "activate gun" not in texts
    for text in ("activate wall", "activate gun"):
        with pytest.raises(IllegalAction) as err:
            play(s, A, text)
        assert err.value.msg.key == "bt.err.nothing_to_do"
    assert s.activated == []
    # The gun gets something to do once an enemy stands in its line of fire.
    s = battle([*troops, (B, "near", "1 2 2 0 0 0", "e5", "s")])
    assert "activate gun" in legal_texts(s, A) and "activate wall" not in legal_texts(s, A)


def test_a_group_is_offered_only_when_it_can_act_together() -> None:
    # The wall cannot move or turn, so neither can a group it is in; facing two ways, they cannot
    # attack together either: that coordination would be empty.
    troops = [
        (A, "wall", "0 2 3 0 0 0", "d2", "n"),
        (A, "inf", "1 2 2 0 0 0", "d2", "e"),
        (B, "near", "1 2 2 0 0 0", "d3", "s"),
    ]
    s = battle(troops)
    texts = legal_texts(s, A)
    assert "activate wall" in texts and "activate inf" in texts
    assert "coordinate inf+wall" not in texts


def test_naming_another_troop_ends_the_activation_under_way() -> None:
    """cav1 attacks with one of its two Attack points, then the player names inf3: cav1's activation
    ends with its points said lost, and the next move is inf3's."""
    foe = (B, "foe", "1 1 0 0 0 0", "d4", "s")
    cav, inf = (A, "cav1", "2 2 1 0 0 0", "d3", "n"), (A, "inf3", "1 2 2 0 0 0", "f2", "n")
    s = battle([cav, inf, foe])
    s, _ = play(s, A, "activate cav1", "attack d4 1")
    assert s.activation is not None and s.activation.names == ["cav1"] and s.activation.attack == {"cav1": 1}
    s, events = play(s, A, "activate inf3")
    over, activated = events
    assert over.key == "bt.ev.activation_left" and over.params["names"] == "cav1"
    assert [m.params["n"] for m in over.params["left"]] == [2, 1]  # 2 Movement, 1 Attack unspent
    assert activated.key == "bt.ev.activate"
    assert s.activation is not None and s.activation.names == ["inf3"]
    s, _ = play(s, A, "move n n")
    assert where(s, A, "inf3") == "f3" and where(s, A, "cav1") == "d3"
    assert s.activated == ["cav1", "inf3"], "both count among the six"
    with pytest.raises(IllegalAction):
        play(s, A, "activate cav1")


def test_the_log_says_whose_troop_acts() -> None:
    """Both armies may have a cav1: every step says whose."""
    s = battle([(A, "cav1", "2 2 1 0 0 0", "d3", "n"), (B, "cav1", "1 1 0 0 0 0", "d5", "s")])
    s, events = play(s, A, "activate cav1", "move n", "done")
    moved, over = events[1], events[2]
    assert i18n.t(moved, "en", names={A: "Alice"}) == "Alice's cav1 moves to d4, facing north."
    assert i18n.t(moved, "fr", names={A: "Alice"}) == "cav1 d'Alice se déplace en d4, orientée vers le nord."
    assert i18n.t(over, "en", names={A: "Alice"}) == "Alice's cav1: activation over."
