"""Four players in two teams: the larger board, team turns, team friendliness, team victory."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import BadInput, IllegalAction
from engine.warchest import GAME
from engine.warchest.board import board_map
from engine.warchest.state import State
from engine.warchest.units import COINS, FIRST_GAME, FIRST_GAME_4, ROYAL, UNIT_TYPES
from i18n import t
from tests.engine.warchest.helpers import (
    P4,
    acting,
    do,
    hx,
    keys,
    pass_any,
    position4,
    random_walk,
    texts,
    unit_at,
)

ANN, BEA, CAT, DAN = P4
NAMES = {p: p.capitalize() for p in P4}
ARMY = (("swordsman",), ("archer",), ("knight",), ("lancer",))


# -- board and set-up ---------------------------------------------------------------------------------


def test_four_player_board_has_47_hexes_and_14_locations() -> None:
    bm = board_map("4p")
    assert len(bm.hexes) == 47
    assert bm.hexes == {(x, y) for x in range(7) for y in range(7)} - {(0, 0), (6, 6)}
    assert len(bm.locations) == 14 and bm.markers == 8
    assert bm.start == ((hx("e1"), hx("g2"), hx("g5")), (hx("a6"), hx("c7"), hx("a3")))
    assert {hx(s) for s in ("b1", "f7", "c2", "d3", "f4", "b4", "d5", "e6")} == bm.location_set - {
        h for team in bm.start for h in team
    }
    assert len(bm.neighbours[hx("b1")]) == 3  # (0, 0) is not on the board


def test_four_players_sit_in_alternating_teams_with_three_cards_each() -> None:
    st = GAME.new_game(P4, 11)
    assert st.board_name == "4p"
    assert [s.team for s in st.seats] == [0, 1, 0, 1]
    cards = [u for s in st.seats for u in s.units]
    assert all(len(s.units) == 3 for s in st.seats)
    assert len(set(cards)) == 12 and set(cards) <= set(UNIT_TYPES)  # no type shared by two players
    for seat in st.seats:
        assert sorted(seat.bag + seat.hand) == sorted([ROYAL] + [u for u in seat.units for _ in range(2)])
        assert len(seat.hand) == 3 and seat.supply == {u: COINS[u] - 2 for u in seat.units}
    assert st.markers == [5, 5]  # 8 per team, 3 already on the start locations
    owned = {h: team for h, team in st.control.items() if team is not None}
    assert owned == {hx("e1"): 0, hx("g2"): 0, hx("g5"): 0, hx("a6"): 1, hx("c7"): 1, hx("a3"): 1}
    assert len(st.control) == 14
    assert GAME.dump(GAME.new_game(P4, 11)) == GAME.dump(st)


def test_first_armies_with_four_players_use_the_fixed_split() -> None:
    st = GAME.new_game(P4, 2, {"armies": "first"})
    assert tuple(s.units for s in st.seats) == FIRST_GAME_4
    cards = [u for units in FIRST_GAME_4 for u in units]
    assert len(cards) == 12 and len(set(cards)) == 12
    # each team gets one side of the two-player first game
    assert set(FIRST_GAME[0]) <= set(FIRST_GAME_4[0] + FIRST_GAME_4[2])
    assert set(FIRST_GAME[1]) <= set(FIRST_GAME_4[1] + FIRST_GAME_4[3])


def test_any_of_the_four_seats_may_start() -> None:
    starters = {GAME.new_game(P4, s).initiative for s in range(40)}
    assert starters == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [["a", "b", "c"], ["a", "b", "c", "d", "e"], ["a", "b", "c", "a"]])
def test_other_table_sizes_and_repeated_players_are_refused(players: list[str]) -> None:
    with pytest.raises(BadInput) as err:
        GAME.new_game(players, 1)
    assert err.value.msg.key in ("wc.error.players", "wc.error.same_player")
    assert t(err.value.msg, "fr")


# -- turns and the initiative -------------------------------------------------------------------------


def test_play_goes_round_from_the_holder_and_nobody_claims_the_initiative() -> None:
    st = position4(
        ARMY,
        hands=(["royal"], ["archer", "royal"], ["knight", "royal"], ["royal"]),
        bags=(["swordsman"] * 3, ["archer"] * 3, ["knight"] * 3, ["lancer"] * 3),
        turn=2,
    )
    order = []
    while st.round == 1:
        assert not any(x.startswith("initiative") for x in texts(st))
        if acting(st) == BEA:
            with pytest.raises(IllegalAction):
                do(st, "initiative royal")
        order.append(acting(st))
        st = pass_any(st)
    # clockwise from the holder (cat), one coin each; empty hands are skipped
    assert order == [CAT, DAN, ANN, BEA, CAT, BEA]
    assert st.round == 2 and st.initiative == 2 and acting(st) == CAT


# -- team locations, friendliness, recruiting ----------------------------------------------------------


def test_a_teammate_deploys_on_a_location_the_other_won() -> None:
    st = position4(
        ARMY,
        board={"b1": (0, "swordsman", 1)},
        hands=(["swordsman", "swordsman"], ["archer", "royal"], ["knight", "royal"], ["royal"]),
    )
    st, events = do(st, "control swordsman b1")
    assert st.control[hx("b1")] == 0 and st.markers == [4, 5] and keys(events) == ["wc.ev.control"]
    st, _ = do(st, "pass royal")  # bea
    st, _ = do(st, "pass royal")  # cat
    st, _ = do(st, "pass royal")  # dan
    st, _ = do(st, "move swordsman b1 c1")
    assert acting(st) == BEA and "deploy archer b1" not in texts(st)  # not her team's location
    st = pass_any(st)
    assert acting(st) == CAT and "deploy knight b1" in texts(st)
    st, _ = do(st, "deploy knight b1")
    assert unit_at(st, "b1") == (2, "knight", 1)


def test_scout_deploys_next_to_a_teammates_unit() -> None:
    st = position4(
        (("scout",), ("archer",), ("knight",), ("lancer",)),
        board={"d4": (2, "knight", 1), "g3": (1, "archer", 1)},
        hands=(["scout"], [], [], []),
    )
    assert "deploy scout d5" in texts(st)
    assert "deploy scout f3" not in texts(st)  # next to an enemy only


def test_ensign_moves_a_teammates_unit_but_not_an_enemy() -> None:
    st = position4(
        (("ensign",), ("archer",), ("knight",), ("lancer",)),
        board={"d4": (0, "ensign", 1), "e4": (2, "knight", 1), "c4": (1, "archer", 1)},
        hands=(["ensign"], ["royal"], ["royal"], ["royal"]),
    )
    legal = texts(st)
    assert {"tactic ensign d4 e4 e5", "tactic ensign d4 e4 f4", "tactic ensign d4 e4 e3"} <= legal
    assert not any(x.startswith("tactic ensign d4 c4") for x in legal)
    assert not any(x.startswith("attack") and x.endswith("e4") for x in legal)  # no attack on a friend
    st, events = do(st, "tactic ensign d4 e4 e5")
    assert unit_at(st, "e5") == (2, "knight", 1) and unit_at(st, "e4") is None
    assert events[-1].key == "wc.ev.move" and events[-1].params["player"].id == CAT
    assert acting(st) == BEA


def test_marshall_has_a_teammates_unit_attack_and_the_owner_takes_its_follow_up() -> None:
    st = position4(
        (("marshall",), ("archer",), ("swordsman",), ("lancer",)),
        board={"d4": (0, "marshall", 1), "e4": (2, "swordsman", 1), "f4": (1, "archer", 1)},
        hands=(["marshall"], ["royal"], ["royal"], ["royal"]),
    )
    assert "tactic marshall d4 e4 f4" in texts(st)
    st, _ = do(st, "tactic marshall d4 e4 f4")
    assert unit_at(st, "f4") is None and st.seats[1].eliminated == {"archer": 1}
    # the Swordsman's free move belongs to its owner, cat, who decides before play goes on
    assert acting(st) == CAT and "skip" in texts(st)
    assert GAME.view(st, None)["pending"] == {"seat": 2, "kind": "swordsman"}
    st, _ = do(st, "move swordsman e4 f4")
    assert unit_at(st, "f4") == (2, "swordsman", 1)
    assert acting(st) == BEA  # the turn goes on after ann's


def test_a_player_only_manoeuvres_own_units_and_recruits_only_for_themself() -> None:
    st = position4(
        ARMY,
        board={"d4": (0, "swordsman", 1), "e4": (2, "knight", 1)},
        hands=(["royal", "swordsman"], [], ["knight"], []),
    )
    legal = texts(st)
    assert not any(" knight " in f" {x} " for x in legal)
    assert {x for x in legal if x.startswith("recruit")} == {
        "recruit swordsman royal",
        "recruit swordsman swordsman",
    }
    with pytest.raises(IllegalAction):
        do(st, "recruit knight royal")
    st, _ = do(st, "recruit swordsman royal")
    assert st.seats[0].supply["swordsman"] == COINS["swordsman"] - 3
    assert st.seats[2].supply["knight"] == COINS["knight"] - 2


# -- control and victory ------------------------------------------------------------------------------


def test_taking_an_enemy_location_gives_the_marker_back_to_that_team() -> None:
    st = position4(ARMY, board={"a6": (2, "knight", 1)}, hands=([], [], ["knight"], []), turn=2)
    st, events = do(st, "control knight a6")
    assert st.control[hx("a6")] == 0 and st.markers == [4, 6]
    assert keys(events)[0] == "wc.ev.control_from_team"
    text = t(events[0], "en", names=NAMES)
    assert "Bea and Dan" in text and "Cat" in text
    assert "Bea et Dan" in t(events[0], "fr", names=NAMES)


def test_the_team_wins_when_either_player_places_its_last_marker() -> None:
    owned = {k: 0 for k in ("b1", "c2", "d3", "f4")}
    st = position4(
        ARMY, board={"d5": (2, "knight", 1)}, hands=([], [], ["knight"], []), control=owned, turn=2
    )
    assert st.markers == [1, 5]
    st, events = do(st, "control knight d5")
    assert GAME.is_over(st) and GAME.to_act(st) == []
    result = GAME.result(st)
    assert result is not None and not result.draw
    assert set(result.winners) == {ANN, CAT} and result.reason.key == "wc.result.markers_team"
    assert events[-1].key == "wc.ev.win_team"
    assert t(events[-1], "en", names=NAMES) == "Cat places their team's last control marker: Ann and Cat win!"
    assert GAME.view(st, None)["result"]["winners"] == [ANN, CAT]


def test_retaking_a_location_the_team_held_before_is_no_progress() -> None:
    st = position4(
        ARMY,
        board={"d5": (2, "knight", 1), "d3": (0, "swordsman", 1)},
        hands=(["swordsman"], ["royal"], ["knight"], []),
        control={"d5": 1},
        turn=2,
    )
    st.ever = st.ever | {(0, hx("d5"))}  # ann's team held d5 before bea's team took it
    st, _ = do(st, "control knight d5")
    assert not st.progress and acting(st) == ANN
    st, _ = do(st, "control swordsman d3")  # never held by the team: progress
    assert st.progress and acting(st) == BEA


# -- drafts ---------------------------------------------------------------------------------------------


def _draft(seed: int) -> tuple[State, list[str], list[str], list[Any]]:
    st = GAME.new_game(P4, seed, {"armies": "draft"})
    assert st.draft is not None
    pool = list(st.draft["pool"])
    order = []
    events: list[Any] = []
    while st.phase == "draft":
        order.append(acting(st))
        offered = list(st.draft["pool"]) if st.draft is not None else []
        assert texts(st) == {f"pick {u}" for u in offered}
        st, events = do(st, f"pick {offered[-1]}")
    return st, pool, order, events


def test_four_player_draft_pick_order_follows_the_seed() -> None:
    expected = {
        ANN: [ANN, BEA, CAT, DAN, DAN, CAT, BEA, ANN, BEA, CAT, DAN, ANN],
        BEA: [BEA, CAT, DAN, ANN, ANN, DAN, CAT, BEA, CAT, DAN, ANN, BEA],
    }
    seen = set()
    for seed in range(8):
        st, pool, order, events = _draft(seed)
        first = order[0]
        seen.add(first)
        assert order == expected[first]
        assert len(pool) == 12 and len(set(pool)) == 12
        assert sorted(u for s in st.seats for u in s.units) == sorted(pool)
        assert all(len(s.units) == 3 for s in st.seats)
        assert "wc.ev.pick_last" not in keys(events)  # twelve cards, nothing left over
        # the first team's first picker holds the initiative and plays first
        assert st.phase == "play" and st.round == 1 and P4[st.initiative] == first and acting(st) == first
        assert all(len(s.hand) == 3 for s in st.seats)
    assert seen == {ANN, BEA}  # the first team is drawn by the seeded generator


def test_draft_view_shows_every_seat_s_picks() -> None:
    st = GAME.new_game(P4, 5, {"armies": "draft"})
    st, _ = do(st, f"pick {st.draft['pool'][0]}")  # type: ignore[index]
    view = GAME.view(st, None)
    assert view["phase"] == "draft" and len(view["draft"]["pool"]) == 11
    assert sorted(view["draft"]["picks"]) == ["0", "1", "2", "3"]
    assert sum(len(p) for p in view["draft"]["picks"].values()) == 1


# -- view and whole games -------------------------------------------------------------------------------


def test_view_has_four_seats_with_teams_and_markers_per_team() -> None:
    st = position4(ARMY, board={"d5": (2, "knight", 2)}, hands=([], [], ["knight"], ["lancer"]), turn=2)
    st, _ = do(st, "control knight d5")
    view = GAME.view(st, DAN)
    json.dumps(view)
    assert len(view["board"]["hexes"]) == 47 and len(view["board"]["locations"]) == 14
    assert [s["id"] for s in view["seats"]] == list(P4)
    assert [s["team"] for s in view["seats"]] == [0, 1, 0, 1]
    assert [s["markers_left"] for s in view["seats"]] == [4, 5, 4, 5]
    assert view["units"] == [
        {"hex": [3, 4], "label": "d5", "seat": 2, "team": 0, "type": "knight", "height": 2}
    ]
    assert view["to_act"] == [3] and view["private"]["seat"] == 3 and view["private"]["hand"] == ["lancer"]
    assert GAME.view(st, None)["private"] is None


WALKS = ((1, "random", 400), (2, "draft", 200), (3, "first", 200))


def test_four_player_games_parse_label_and_render_in_both_languages() -> None:
    walk = [step for seed, armies, limit in WALKS for step in random_walk(P4, seed, armies, limit)]
    for st, who, action in walk:
        assert GAME.parse_action(st, who, str(action)) == action
        _, events = GAME.apply(st, who, action)
        for m in [GAME.label(st, action), *events]:
            for lang in ("en", "fr"):
                text = t(m, lang, names=NAMES)
                assert "{" not in text and not text.startswith("wc."), text
    st = walk[-1][0]
    assert GAME.dump(GAME.load(json.loads(json.dumps(GAME.dump(st))))) == GAME.dump(st)


def test_seeded_four_player_games_end_and_winners_are_a_whole_team() -> None:
    outcomes = set()
    for seed in range(50):
        st = GAME.new_game(P4, seed)
        rnd = random.Random(seed)
        while not GAME.is_over(st):
            who = acting(st)
            st, _ = GAME.apply(st, who, rnd.choice(GAME.legal_actions(st, who)))
        result = GAME.result(st)
        assert result is not None
        assert result.draw or set(result.winners) in ({ANN, CAT}, {BEA, DAN})
        outcomes.add(result.draw)
        # no coin appears or vanishes
        for seat in st.seats:
            held = seat.bag + seat.hand + seat.discard_down
            count = {u: held.count(u) + seat.discard_up.get(u, 0) for u in (*seat.units, ROYAL)}
            for u in seat.units:
                count[u] += seat.supply.get(u, 0) + seat.eliminated.get(u, 0)
            si = st.seats.index(seat)
            for h_unit in st.board.values():
                if h_unit[0] == si:
                    count[h_unit[1]] += h_unit[2]
            assert count == {**{u: COINS[u] for u in seat.units}, ROYAL: 1}
    assert outcomes == {True, False}
