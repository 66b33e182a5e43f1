"""The games' public messages as a newcomer reads them, in English and French: the player is spoken
of in the third person, verbs agree with their subject, every count with its noun, both sides of a
score are named, and every action says what it did."""

from __future__ import annotations

import pytest

import engine
import i18n
from engine.text import Msg
from tests.engine.batailles import helpers as bt
from tests.engine.cryhavoc import helpers as ch
from tests.test_golden_transcripts import playout

NAMES = {"alice": "Alice", "bob": "Bob", "carol": "Carol", "dave": "Dave"}


def said(events: list[Msg], lang: str) -> list[str]:
    return [i18n.t(e, lang, names=NAMES) for e in events]


def test_drawing_from_ones_own_deck_is_told_in_the_third_person() -> None:
    st = ch.duel()
    st["seats"][0]["deck"] = ["hu_muster.a", "hu_volley.b", "hu_sappers.c"]
    _, events = ch.play(st, 0, "draw deck")
    assert said(events, "en") == ["Alice draws two cards from their own deck to keep one."]
    assert said(events, "fr") == ["Alice pioche deux cartes dans sa propre pioche pour en garder une."]


def test_the_neutral_trogs_agree_in_the_plural_and_a_tie_names_both_sides() -> None:
    st = ch.duel()
    st["neutral"] -= 3
    ch.start_fight(st, "basalt", 0, 2, 1, 3)
    _, events = ch.play(st, 0, "place control")
    en, fr = said(events, "en"), said(events, "fr")
    assert "The neutral Trogs win Region Control in Basalt Ridge (Alice 1, the neutral Trogs 1):" in en[1]
    assert "The neutral Trogs take a unit of Alice prisoner from Region Control." in en
    assert "Les Trogs neutres font prisonnière une unité d'Alice sur l'objectif Capturer la région." in fr
    assert "(Alice 1, les Trogs neutres 1)" in fr[1]


def test_a_trog_taken_or_killed_by_a_player_is_one_neutral_trog() -> None:
    st = ch.duel()
    st["neutral"] -= 2
    ch.start_fight(st, "basalt", 0, 2, 4, 2, hold=False)
    st = ch.play(st, 0, "place control")[0]
    st = ch.play(st, 0, "place control")[0]
    st = ch.play(st, 0, "place prisoners")[0]
    st, events = ch.play(st, 0, "place attrition")
    assert "Alice wins Region Control in Basalt Ridge (Alice 2, the neutral Trogs 1) and scores 2 VP." in (
        said(events, "en")
    )
    _, events = ch.play(st, 0, "capture control")
    assert said(events, "en")[:3] == [
        "Alice takes a neutral Trog prisoner from Region Control.",
        "Alice kills a neutral Trog on Attrition.",
        "The neutral Trogs kill a unit of Alice on Attrition.",
    ]
    assert said(events, "fr")[:3] == [
        "Alice fait prisonnier un Trog neutre sur l'objectif Capturer la région.",
        "Alice élimine un Trog neutre sur l'objectif Attrition.",
        "Les Trogs neutres éliminent une unité d'Alice sur l'objectif Attrition.",
    ]


def test_ending_an_action_is_told() -> None:
    st = ch.duel()
    ch.set_hand(st, 0, "hu_forced_march")
    st, _ = ch.play(st, 0, "move hu_forced_march")
    st, events = ch.play(st, 0, "end")
    assert said(events, "en")[0] == "Alice ends the movement action."
    assert said(events, "fr")[0] == "Alice termine son action de mouvement."


def test_paying_points_counts_them_in_points() -> None:
    st = ch.duel()
    ch.set_hand(st, 0, "hu_forced_march")
    _, events = ch.play(st, 0, "move hu_forced_march")
    assert said(events, "en") == ["Alice discards Forced March for 2 movement points."]
    assert said(events, "fr") == ["Alice défausse Marche forcée pour 2 points de mouvement."]


@pytest.mark.parametrize(
    ("name", "count"), [(n, c) for n in engine.GAMES for c in engine.get_game(n).player_counts]
)
def test_every_action_of_a_random_game_says_what_was_done(name: str, count: int) -> None:
    """No log line falls back to "Carol played ...": every action kind has its own message."""
    silent = {
        str(action).split()[0]
        for seed in (3, 11)
        for _who, action, events, _state, _auto in playout(name, count, seed, 250)
        if not events
    }
    assert not silent


def test_one_troop_moves_and_several_move() -> None:
    s = bt.battle([(bt.A, "cav2", "3 1 1 0 0 0", "a2", "n"), (bt.B, "foe", "1 2 2 0 0 0", "h9", "s")])
    _, events = bt.play(s, bt.A, "activate cav2", "move n n")
    assert said(events, "en")[1] == "Alice's cav2 moves to a3, facing north."
    assert said(events, "fr")[1] == "cav2 d'Alice se déplace en a3, orientée vers le nord."
    s = bt.battle(
        [
            (bt.A, "inf1", "2 1 1 0 1 0", "a2", "n"),
            (bt.A, "inf2", "2 1 1 0 1 0", "a2", "n"),
            (bt.B, "foe", "1 2 2 0 0 0", "h9", "s"),
        ]
    )
    _, events = bt.play(s, bt.A, "coordinate inf1+inf2", "move n e")
    assert said(events, "en")[1] == "Alice's inf1 + inf2 move to a3, facing east."
    assert said(events, "fr")[1] == "inf1 + inf2 d'Alice se déplacent en a3, orientées vers l'est."


def test_one_die_is_a_die() -> None:
    seed = bt.seed_for(1, lambda d: d[0] >= 4)
    s = bt.battle(
        [(bt.A, "axe", "1 4 0 0 0 0", "d2", "n"), (bt.B, "foe", "1 2 2 0 0 0", "d3", "e")], rng=seed
    )
    _, events = bt.play(s, bt.A, "activate axe", "attack d3 1")
    attack = next(e for e in events if e.key == "bt.ev.attack")
    face = attack.params["faces"]
    assert i18n.t(attack, "en", names=NAMES) == f"Alice's axe attacks d3 from d2 with 1 die: {face}, 1 hit."
    assert (
        i18n.t(attack, "fr", names=NAMES) == f"axe d'Alice attaque d3 depuis d2 avec 1 dé : {face}, 1 touche."
    )


def test_a_region_named_with_its_article_never_opens_a_sentence() -> None:
    """The old line, "the Dunes now holds", started in lower case and had a singular verb."""
    dunes = Msg("ch.region.dunes")
    assert i18n.t("ch.ev.crystal", "en", region=dunes, value=3) == "Crystals in the Dunes are now worth 3."


def test_board_headings_say_what_players_need() -> None:
    """A Batailles deployment says who deploys in which rows; a Cry Havoc round counts the rounds the
    game will have (one per event stack left), so a game its events shortened never shows one more."""
    from engine.batailles import GAME as BATAILLES
    from engine.cryhavoc import GAME as CRYHAVOC
    from render.batailles.panels import status_lines
    from render.cryhavoc.panels import round_text

    view = BATAILLES.view(BATAILLES.new_game(["alice", "bob"], 1, {}), None)
    names = {"alice": "Ωμέγα", "bob": "Bob"}
    assert status_lines(view, names, "en")[0] == "Deployment: Ωμέγα in rows 1-2 and Bob in rows 8-9"
    assert (
        status_lines(view, names, "fr")[0]
        == "Déploiement : Ωμέγα sur les rangées 1-2 et Bob sur les rangées 8-9"
    )
    view = CRYHAVOC.view(CRYHAVOC.new_game(["alice", "bob"], 1, {}), None)
    assert round_text(view, "en") == "Round 1/5"
    ended = {**view, "round": 4, "final": True, "events": {"revealed": [], "track": []}}
    assert round_text(ended, "en") == "Round 4/4 · final round"
