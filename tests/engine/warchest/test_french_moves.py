"""Actions typed in French (the glossary's verbs, the catalog's unit names) mean what the English
text means, accents and apostrophes optional; ``str(action)`` stays the English text."""

from __future__ import annotations

import pytest

from engine import BadInput
from engine.warchest import GAME
from engine.warchest.actions import GuardChoice, Initiative, Move, Recruit, Skip
from engine.warchest.state import State
from i18n import t
from tests.engine.french_typing import kinds_typed_in_french, words
from tests.engine.warchest.helpers import PLAYERS, A, do, hx, position, random_walk

FRENCH_VERBS = {
    "deploy": "déployer",
    "bolster": "renforcer",
    "move": "déplacer",
    "control": "contrôler",
    "attack": "attaquer",
    "tactic": "tactique",
    "initiative": "prendre l'initiative",
    "recruit": "recruter",
    "pass": "passer",
    "guard": "garde",
    "skip": "renoncer",
    "pick": "choisir",
}
"""The French verb of each action kind, from the glossary (``skip``: the catalog's "Renoncer")."""
FRENCH_WORDS = {"supply": "réserve", "stack": "pile"}


def french(text: str) -> str:
    """An English action text as a French player types it: French verb, French unit names as the
    catalog shows them (``Cavalerie légère``, ``Sceau royal``), hexes unchanged."""
    verb, *args = text.split()
    out = [FRENCH_VERBS[verb]]
    for word in args:
        name = t(f"wc.unit.{word}", "fr")
        out.append(FRENCH_WORDS.get(word, word if name.startswith("wc.") else name))
    return " ".join(out)


def _guard_choice() -> tuple[State, str]:
    st = position(
        units=(("royal_guard",), ("swordsman",)),
        hands=(["royal"], ["swordsman"]),
        board={"d4": (0, "royal_guard", 1), "e4": (1, "swordsman", 1)},
        supply=({"royal_guard": 2}, {"swordsman": 3}),
        turn=1,
    )
    st, _ = do(st, "attack swordsman e4 d4")
    return st, A


@pytest.fixture(scope="module")
def positions() -> list[tuple[State, str]]:
    walks = (
        random_walk(PLAYERS, 7, "random", 400)
        + random_walk(PLAYERS, 8, "draft", 150)
        + random_walk(PLAYERS, 9, "first", 300)
        + random_walk(("ann", "bea", "cat", "dan"), 3, "random", 200)
    )
    return [(st, who) for st, who, _ in walks[::2]] + [_guard_choice()]


def test_every_action_kind_typed_in_french_is_the_english_action(positions: list[tuple[State, str]]) -> None:
    kinds = kinds_typed_in_french(GAME, positions, french)
    assert kinds == set(FRENCH_VERBS), f"kinds never offered: {set(FRENCH_VERBS) - kinds}"


def test_french_names_and_abbreviations() -> None:
    st = position(
        units=(("light_cavalry", "warrior_priest"), ("scout",)),
        hands=(["light_cavalry", "royal"], ["scout"]),
        board={"e1": (0, "light_cavalry", 1)},
        supply=({"light_cavalry": 3, "warrior_priest": 2}, {"scout": 3}),
        initiative=1,
    )
    assert GAME.parse_action(st, A, "déplacer Cavalerie-Légère d2", words(GAME)) == Move(
        "light_cavalry", hx("e1"), hx("d2")
    )
    assert GAME.parse_action(st, A, "deplace cavalerie_legere e1 d2", words(GAME)) == Move(
        "light_cavalry", hx("e1"), hx("d2")
    )
    assert GAME.parse_action(st, A, "Prendre l’initiative pièce Sceau royal", words(GAME)) == Initiative(
        "royal"
    )
    assert GAME.parse_action(st, A, "initiative sceau", words(GAME)) == Initiative("royal")
    assert GAME.parse_action(st, A, "recruter Prêtre guerrier cavalerie légère", words(GAME)) == Recruit(
        "warrior_priest", "light_cavalry"
    )
    assert GAME.parse_action(st, A, "recruter pretre-guerrier royal", words(GAME)) == Recruit(
        "warrior_priest", "royal"
    )
    with pytest.raises(BadInput):
        GAME.parse_action(st, A, "prendre sceau", words(GAME))


def test_guard_choice_and_skip_in_french() -> None:
    st, who = _guard_choice()
    assert GAME.parse_action(st, who, "garde réserve", words(GAME)) == GuardChoice("supply")
    assert GAME.parse_action(st, who, "Garde pile", words(GAME)) == GuardChoice("stack")
    st = position(
        units=(("swordsman",), ("pikeman",)),
        hands=(["swordsman"], ["pikeman"]),
        board={"d4": (0, "swordsman", 2), "e4": (1, "pikeman", 2)},
    )
    st, _ = do(st, "attaquer soldat e4")
    assert (
        GAME.parse_action(st, A, "renoncer", words(GAME))
        == Skip()
        == GAME.parse_action(st, A, "ignorer", words(GAME))
    )
