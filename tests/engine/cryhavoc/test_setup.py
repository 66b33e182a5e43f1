"""Setting up: map side per player count, factions, HQs, starting units, tokens, first round."""

from __future__ import annotations

import pytest

from engine.cryhavoc import GAME
from engine.cryhavoc.content import FACTIONS
from engine.errors import BadInput

from .helpers import P2, P3, P4, new


def test_two_players_use_the_small_side_without_trog_player() -> None:
    st = new(P2)
    assert st["side"] == "small"
    assert "trogs" not in st["factions"] and len(set(st["factions"])) == 2
    assert sorted(st["hq"]) == ["highgate", "lowgate"]
    assert not any(r["tunnel"] for r in st["regions"].values())


def test_three_players_are_humans_machines_pilgrims_on_the_large_side() -> None:
    st = new(P3)
    assert st["side"] == "large"
    assert sorted(st["factions"]) == ["humans", "machines", "pilgrims"]
    assert "hive" not in st["hq"]


def test_four_players_bring_the_trog_player_into_the_hive() -> None:
    st = new(P4)
    t = st["factions"].index("trogs")
    assert st["hq"][t] == "hive"
    hive = st["regions"]["hive"]
    trogs = FACTIONS["trogs"]
    assert hive["units"][t] == trogs["start_units"] and hive["tunnel"] and hive["control"] == t
    tunnels = [r for r, reg in st["regions"].items() if reg["tunnel"]]
    assert len(tunnels) == 4
    # The rest of the faction's units wait in the reserve; the number is content, tuned for balance.
    assert st["seats"][t]["reserve"] == trogs["units"] - trogs["start_units"] > 0


def test_every_player_starts_with_four_units_in_a_controlled_hq_and_four_cards() -> None:
    st = new(P3, seed=5)
    for seat, rid in enumerate(st["hq"]):
        faction = FACTIONS[st["factions"][seat]]
        assert st["regions"][rid]["units"][seat] == faction["start_units"] == 4
        assert st["regions"][rid]["control"] == seat
        assert st["seats"][seat]["reserve"] == faction["units"] - 4 > 0
        assert len(st["seats"][seat]["hand"]) == 4
    assert st["round"] == 1 and st["phase"] == "actions"
    assert st["init"] == st["upcoming"]
    assert len(st["revealed"]) == 1 and len(st["track"]) == 4


def test_tokens_and_crystals_are_on_the_map() -> None:
    st = new(P2)
    regs = st["regions"]
    assert sum(1 for r in regs.values() if r["token"]) == 4
    assert sum(1 for r in regs.values() if r["explore"]) == 6
    assert all(regs[r]["crystals"] == 0 for r in [*st["hq"], "hive"])
    if st["revealed"][0] in ("ev_monsoon", "ev_supplies", "ev_tremor"):  # events that spare these two
        assert regs["dunes"]["crystals"] == 3 and regs["thornwood"]["crystals"] == 1
    assert sum(r["crystals"] for r in regs.values()) > 20


def test_skills_option() -> None:
    assert [len(s["skills"]) for s in new(P2)["seats"]] == [1, 1]
    assert len(new(P2, skills="random")["seats"][0]["skills"]) in (2, 3)
    assert [len(s["skills"]) for s in new(P2, skills="all")["seats"]] == [5, 5]
    with pytest.raises(BadInput):
        new(P2, skills="many")
    with pytest.raises(BadInput):
        new(P2, colour="red")


@pytest.mark.parametrize("players", [["a"], ["a", "b", "c", "d", "e"], ["a", "a"]])
def test_bad_tables_are_refused(players: list[str]) -> None:
    with pytest.raises(BadInput):
        GAME.new_game(players, seed=1)


def test_same_seed_same_game() -> None:
    assert GAME.dump(new(P4, seed=9)) == GAME.dump(new(P4, seed=9))
    assert GAME.dump(new(P4, seed=9)) != GAME.dump(new(P4, seed=10))


def test_random_skills_add_one_or_two_drawn_skills_to_the_default_one() -> None:
    """The seed: "augmentant votre réserve d'une ou deux compétences aléatoires"."""
    added: set[int] = set()
    for seed in range(40):
        st = new(P4, seed=seed, skills="random")
        for faction, seat in zip(st["factions"], st["seats"], strict=True):
            fd = FACTIONS[faction]
            assert seat["skills"][0] == fd["default_skill"]
            extra = seat["skills"][1:]
            assert len(set(extra)) == len(extra) and set(extra) <= set(fd["skills"]) - {fd["default_skill"]}
            added.add(len(extra))
    assert added == {1, 2}, "both counts happen, and never none or three"
