"""Combat: 4+ hits, facing and range, blocked shots, coordination dice, zone defence, terrain,
cover and logistics rerolls. Dice come from the generator state in the game state, chosen per
test so that every roll below is known in advance."""

from __future__ import annotations

import pytest

import i18n
from engine.batailles.combat import successes
from engine.errors import IllegalAction
from tests.engine.batailles.helpers import A, B, battle, dice, event, legal_texts, play, seed_for

EMPTY_ROW = ". . . . . . . ."


def board_with(**zones: str) -> str:
    """An open 8 x 9 map with terrain tokens at the given labels (``d3="ff"``)."""
    rows = [["."] * 8 for _ in range(9)]
    for name, token in zones.items():
        x, y = "abcdefgh".index(name[0]), int(name[1:]) - 1
        rows[y][x] = token
    return "/".join(" ".join(r) for r in reversed(rows))


def test_each_die_of_four_or_more_is_a_hit() -> None:
    seed = seed_for(4, lambda d: successes(d) == 2)
    s = battle([(A, "axe", "1 4 0 0 0 0", "d2", "n"), (B, "foe", "1 2 2 0 0 0", "d3", "e")], rng=seed)
    s, events = play(s, A, "activate axe", "attack d3 4")
    roll = event(events, "bt.ev.attack")
    assert roll.params["faces"] == " ".join(map(str, dice(seed, 4)))
    assert roll.params["hits"] == 2 and roll.params["dice"] == 4
    event(events, "bt.ev.no_defence")  # the defender faces east, away from the attack
    assert event(events, "bt.ev.hits").params["net"] == 2
    assert s.hits == {(3, 2): 2}


def test_a_troop_attacks_only_the_way_it_faces() -> None:
    s = battle([(A, "axe", "1 4 0 0 0 0", "d2", "e"), (B, "foe", "1 2 2 0 0 0", "d3", "e")])
    s, _ = play(s, A, "activate axe")
    assert not any(t.startswith("attack") for t in legal_texts(s, A))
    with pytest.raises(IllegalAction) as err:
        play(s, A, "attack d3 1")
    assert err.value.msg.key == "bt.err.not_facing"


def test_range_zero_reaches_the_adjacent_zone_only_and_range_n_reaches_n_beyond() -> None:
    s = battle([(A, "axe", "1 4 0 0 0 0", "d2", "n"), (B, "foe", "1 2 2 0 0 0", "d4", "s")])
    s, _ = play(s, A, "activate axe")
    with pytest.raises(IllegalAction) as err:
        play(s, A, "attack d4 1")
    assert err.value.msg.key == "bt.err.out_of_range"
    s = battle([(A, "bow", "1 2 0 2 0 0", "d2", "n"), (B, "foe", "1 2 2 0 0 0", "d5", "s")])
    s, _ = play(s, A, "activate bow")
    assert "attack d5 2" in legal_texts(s, A)
    s = battle([(A, "bow", "1 2 0 2 0 0", "d2", "n"), (B, "foe", "1 2 2 0 0 0", "d6", "s")])
    s, _ = play(s, A, "activate bow")
    assert not any(t.startswith("attack") for t in legal_texts(s, A))


@pytest.mark.parametrize(
    "between", [(A, "pal", "1 2 2 0 0 0", "d3", "n"), (B, "near", "1 2 2 0 0 0", "d3", "e")]
)
def test_no_shot_passes_over_an_occupied_zone(between: tuple[str, str, str, str, str]) -> None:
    s = battle([(A, "gun", "1 2 0 2 0 0", "d2", "n"), between, (B, "far", "1 2 2 0 0 0", "d5", "s")])
    s, _ = play(s, A, "activate gun")
    assert "attack d5 1" not in legal_texts(s, A)
    with pytest.raises(IllegalAction) as err:
        play(s, A, "attack d5 1")
    assert err.value.msg.key == "bt.err.shot_blocked"
    assert err.value.msg.params["blocker"] == "d3"


def test_hills_block_shots_but_can_be_targeted() -> None:
    s = battle(
        [(A, "gun", "1 2 0 2 0 0", "d2", "n"), (B, "far", "1 2 2 0 0 0", "d5", "s")], board=board_with(d3="h")
    )
    s, _ = play(s, A, "activate gun")
    with pytest.raises(IllegalAction) as err:
        play(s, A, "attack d5 1")
    assert err.value.msg.key == "bt.err.shot_blocked"
    s = battle(
        [(A, "gun", "1 2 0 2 0 0", "d2", "n"), (B, "top", "1 2 2 0 0 0", "d4", "s")], board=board_with(d4="h")
    )
    s, _ = play(s, A, "activate gun")
    assert "attack d4 2" in legal_texts(s, A)


def test_two_coordinated_cannons_roll_four_dice_at_once() -> None:
    troops = [
        (A, "art1", "1 2 0 2 0 0", "d2", "n"),
        (A, "art2", "1 2 0 2 0 0", "d2", "n"),
        (B, "foe", "1 2 2 0 0 0", "d5", "e"),
    ]
    s = battle(troops, rng=77)
    s, _ = play(s, A, "coordinate art1+art2")
    s, events = play(s, A, "attack d5 2")
    roll = event(events, "bt.ev.attack")
    assert roll.params["dice"] == 4 and len(roll.params["faces"].split()) == 4
    assert roll.params["faces"] == " ".join(map(str, dice(77, 4)))
    assert s.activation is not None and s.activation.attack == {"art1": 0, "art2": 0}


def test_defenders_facing_the_attack_add_their_dice_and_cancel_hits() -> None:
    seed = seed_for(8, lambda d: successes(d[:4]) == 3 and successes(d[4:]) == 2)
    troops = [
        (A, "axe", "1 4 0 0 0 0", "d2", "n"),
        (B, "d1", "1 2 2 0 0 0", "d3", "s"),
        (B, "d2", "1 2 2 0 0 0", "d3", "s"),
        (B, "d3", "1 2 2 0 0 0", "d3", "w"),
    ]
    s, events = play(battle(troops, rng=seed), A, "activate axe", "attack d3 4")
    defence = event(events, "bt.ev.defence")
    assert defence.params["troops"] == "d1 + d2" and defence.params["dice"] == 4
    assert defence.params["saves"] == 2
    hits = event(events, "bt.ev.hits")
    assert (hits.params["hits"], hits.params["cancelled"], hits.params["net"]) == (3, 2, 1)
    assert s.hits == {(3, 2): 1}


def _defence_dice(token: str, profile: str) -> int:
    seed = seed_for(5, lambda d: successes(d) == 5)
    troops = [(A, "axe", "0 5 0 0 0 0", "d2", "n"), (B, "foe", profile, "d3", "s")]
    s = battle(troops, board=board_with(d3=token) if token else board_with(), rng=seed)
    _, events = play(s, A, "activate axe", "attack d3 5")
    return int(event(events, "bt.ev.defence").params["dice"])


@pytest.mark.parametrize(
    ("token", "profile", "expected"),
    [
        ("", "1 2 2 0 0 0", 2),
        ("f", "1 2 2 0 0 0", 3),
        ("ff", "1 3 1 0 0 0", 3),
        ("fff", "1 3 1 0 0 0", 4),
        ("b", "1 2 2 0 0 0", 4),
        ("bb", "1 1 3 0 0 0", 6),  # 3 + 4 would be 7: six dice at most for a troop
        ("bb", "0 0 5 0 0 0", 6),
        ("h", "1 2 2 0 0 0", 3),
        ("hf", "1 2 2 0 0 0", 4),
    ],
)
def test_terrain_adds_defence_dice_up_to_six_per_troop(token: str, profile: str, expected: int) -> None:
    assert _defence_dice(token, profile) == expected


def test_a_hill_adds_one_attack_die_once_per_activation() -> None:
    troops = [(A, "axe", "1 2 0 0 0 0", "d2", "n"), (B, "foe", "1 2 2 0 0 0", "d3", "e")]
    s = battle(troops, board=board_with(d2="h"), rng=3)
    s, events = play(s, A, "activate axe", "attack d3 1")
    first = event(events, "bt.ev.attack_hill")
    assert first.params["bonus"] == 1 and len(first.params["faces"].split()) == 2
    s, events = play(s, A, "attack d3 1")
    second = event(events, "bt.ev.attack")
    assert second.params["bonus"] == 0 and len(second.params["faces"].split()) == 1


def test_terrain_crossed_by_a_shot_counts_for_the_defence() -> None:
    seed = seed_for(4, lambda d: successes(d[:2]) == 2)
    troops = [(A, "bow", "1 2 0 2 0 0", "d2", "n"), (B, "foe", "1 2 2 0 0 0", "d5", "e")]
    s = battle(troops, board=board_with(d3="ff", d4="rr"), rng=seed)
    s, events = play(s, A, "activate bow", "attack d5 2")
    defence = event(events, "bt.ev.defence_terrain")
    assert defence.params["cover"] == 2 and defence.params["dice"] == 0  # the target faces away
    assert defence.params["faces"] == " ".join(map(str, dice(seed, 4)[2:]))
    facing = [troops[0], (B, "foe", "1 2 2 0 0 0", "d5", "s")]
    s = battle(facing, board=board_with(d3="b"), rng=seed)
    _, events = play(s, A, "activate bow", "attack d5 2")
    defence = event(events, "bt.ev.defence_cover")
    assert (defence.params["dice"], defence.params["cover"]) == (2, 2)
    assert len(defence.params["faces"].split()) == 4


def test_logistics_rerolls_failed_attack_dice_even_from_a_troop_not_activated() -> None:
    seed = seed_for(6, lambda d: successes(d[:4]) == 1 and d[4] >= 4 and d[5] < 4)
    troops = [
        (A, "axe", "1 4 0 0 0 0", "d2", "n"),
        (A, "wagon", "1 0 1 0 1 2", "d2", "n"),
        (B, "foe", "1 2 2 0 0 0", "d3", "e"),
    ]
    s, _ = play(battle(troops, rng=seed), A, "activate axe", "attack d3 4")
    assert s.combat is not None and legal_texts(s, A) == ["reroll 0", "reroll 1", "reroll 2"]
    s, events = play(s, A, "reroll 2")
    reroll = event(events, "bt.ev.reroll")
    first = dice(seed, 6)
    assert reroll.params["rerolled"] == f"{first[4]} {first[5]}"
    assert reroll.params["successes"] == 2
    assert s.troop(0, "wagon").logistics_left == 0  # type: ignore[union-attr]
    assert s.hits == {(3, 2): 2}
    s, _ = play(s, A, "done")
    assert "activate wagon" in legal_texts(s, A)


def test_the_defender_may_reroll_failed_defence_dice() -> None:
    seed = seed_for(9, lambda d: successes(d[:4]) == 4 and successes(d[4:7]) == 1 and successes(d[7:9]) == 2)
    troops = [(A, "axe", "1 4 0 0 0 0", "d2", "n"), (B, "shield", "0 0 3 0 0 2", "d3", "s")]
    s, _ = play(battle(troops, rng=seed), A, "activate axe", "attack d3 4")
    assert s.combat is not None and s.combat.stage == "defence_reroll"
    assert legal_texts(s, A) == [] and legal_texts(s, B) == ["reroll 0", "reroll 1", "reroll 2"]
    s, events = play(s, B, "reroll 2")
    hits = event(events, "bt.ev.hits")
    assert (hits.params["hits"], hits.params["cancelled"], hits.params["net"]) == (4, 3, 1)
    assert s.troop(1, "shield").logistics_left == 0  # type: ignore[union-attr]
    assert s.combat is None


def test_keeping_the_roll_spends_no_logistics() -> None:
    seed = seed_for(4, lambda d: successes(d[:2]) == 0)
    troops = [(A, "axe", "1 2 0 0 0 2", "d2", "n"), (B, "foe", "1 2 2 0 0 0", "d3", "e")]
    s, _ = play(battle(troops, rng=seed), A, "activate axe", "attack d3 2")
    s, events = play(s, A, "reroll 0")
    assert event(events, "bt.ev.hits").params["hits"] == 0
    assert s.troop(0, "axe").logistics_left == 2  # type: ignore[union-attr]


def test_a_troop_with_five_in_movement_only_moves_or_turns() -> None:
    """« Une unité qui a 5 en mouvement ne peut que se déplacer ou s'orienter »: it never attacks,
    and on the defence it rolls nothing, not even the dice of the wood it stands in."""
    seed = seed_for(5, lambda d: successes(d) == 5)
    troops = [(A, "axe", "0 5 0 0 0 0", "d2", "n"), (B, "runner", "5 0 0 0 0 0", "d3", "s")]
    s = battle(troops, board=board_with(d3="ff"), rng=seed)
    s, events = play(s, A, "activate axe", "attack d3 5")
    assert "bt.ev.defence" not in [e.key for e in events]
    moving = event(events, "bt.ev.no_defence_moving")
    assert moving.params["zone"] == "d3" and moving.params["troops"] == ["runner"]
    assert s.hits == {(3, 2): 5}
    # Its own activation offers moves and turns, never an attack, though the axe stands in front of it.
    s = battle(troops, board=board_with(d3="ff"), active=B)
    s, _ = play(s, B, "activate runner")
    texts = legal_texts(s, B)
    assert any(t.startswith("move") for t in texts) and any(t.startswith("face") for t in texts)
    assert not any(t.startswith("attack") for t in texts)


def test_troops_facing_the_attack_with_defence_0_are_named_as_the_reason_for_no_dice() -> None:
    """Two troops of g6 face the attack with Defence 0: the log says so, not that nobody faces it; with
    cover on the way, the cover's dice are rolled and the same troops named."""
    seed = seed_for(4, lambda d: successes(d[:2]) == 2)
    foes = [(B, "inf1", "2 3 0 0 0 0", "g6", "s"), (B, "inf2", "3 2 0 0 0 0", "g6", "s")]
    s = battle([(A, "axe", "1 2 0 0 0 0", "g5", "n"), *foes], rng=seed)
    _, events = play(s, A, "activate axe", "attack g6 2")
    zero = event(events, "bt.ev.no_defence_zero")
    assert zero.params["troops"] == ["inf1", "inf2"] and zero.params["zone"] == "g6"
    assert "bt.ev.no_defence" not in [e.key for e in events]
    assert i18n.t(zero, "en") == "inf1 and inf2 face the attack in g6 with Defence 0: no defence dice."
    assert (
        i18n.t(zero, "fr")
        == "inf1 et inf2 font face à l'attaque en g6 avec une Défense de 0 : aucun dé de défense."
    )
    s = battle([(A, "bow", "1 2 0 2 0 0", "g4", "n"), *foes], board=board_with(g5="ff"), rng=seed)
    _, events = play(s, A, "activate bow", "attack g6 2")
    cover = event(events, "bt.ev.defence_terrain_facing")
    assert cover.params["troops"] == "inf1 + inf2" and cover.params["cover"] == 2
    assert i18n.t(cover, "en").startswith("g6 has no defence dice of its own (inf1 + inf2 facing the attack")
