"""Actions typed in French: the rules' verbs (and ``o`` for west) read as the same actions as their
English text, which stays the one form the log stores."""

from __future__ import annotations

import pytest

import i18n
from engine.batailles import GAME
from engine.batailles.actions import _PARSERS
from engine.errors import BadInput
from tests.engine.batailles.helpers import A, B, battle, play, where
from tests.engine.french_typing import words

SAME = [
    ("recruter canon1 1 2 0 2 0 0", "recruit canon1 1 2 0 2 0 0"),
    ("renvoyer canon1", "dismiss canon1"),
    ("prêt", "ready"),
    ("déployer inf1 c2 o", "deploy inf1 c2 w"),
    ("deployer inf1 c2 n", "deploy inf1 c2 n"),
    ("activer inf1", "activate inf1"),
    ("coordonner art2+art1", "coordinate art1+art2"),
    ("déplacer n o", "move n w"),
    ("se déplacer o e", "move w e"),
    ("Déplacer S S", "move s s"),
    ("move north north", "move n n"),
    ("deployer inf1 c2 nord", "deploy inf1 c2 n"),
    ("déplacer Ouest Est", "move w e"),
    ("orienter sud", "face s"),
    ("move n", "move n n"),
    ("déplacer o", "move w w"),
    ("orienter o", "face w"),
    ("s'orienter e", "face e"),
    ("s’orienter e", "face e"),
    ("attaquer d5 1", "attack d5 1"),
    ("tirer d5 2", "attack d5 2"),
    ("relancer 2", "reroll 2"),
    ("fini", "done"),
    ("fin activation", "done"),
    ("terminer activation", "done"),
    ("fin", "end"),
    ("terminer", "end"),
    ("fin tour", "end"),
    ("moral d5", "morale d5"),
    ("tenir inf1 2", "hold inf1 2"),
    ("perdre inf1", "lose inf1"),
    ("retirer inf1", "lose inf1"),
    ("changer inf1", "retrain inf1"),
    ("profil 5 0 0 0 0 0", "profile 5 0 0 0 0 0"),
]


def _state() -> object:
    return battle([(A, "inf1", "1 2 2 0 0 0", "d4", "n"), (B, "foe", "1 2 2 0 0 0", "d5", "s")])


@pytest.mark.parametrize(("french", "english"), SAME)
def test_a_french_action_is_the_english_one(french: str, english: str) -> None:
    s = _state()
    action = GAME.parse_action(s, A, french, words(GAME))
    assert action == GAME.parse_action(s, A, english, words(GAME))
    assert str(action) == english, "the stable text form stays English"


def test_every_english_verb_has_a_french_one() -> None:
    english = {e.split()[0] for _f, e in SAME}
    assert english == set(_PARSERS)


def test_a_french_turn_plays_like_an_english_one() -> None:
    s, _ = play(_state(), A, "activer inf1", "orienter o", "fin")
    t, _ = play(_state(), A, "activate inf1", "face w", "end")
    assert GAME.dump(s) == GAME.dump(t)
    assert s.last == {"seat": 0, "text": "end", "zones": [], "removed": []}
    assert where(s, A, "inf1") == "d4" and s.troop(0, "inf1").facing == "w"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("déplacer nordique n", "déplacer <n|e|s|o> [<orientation n|e|s|o>]"),
        ("orienter", "orienter <n|e|s|o>"),
        ("fin de partie", "forme attendue : fin."),
        ("voler n", "commence par recruter, renvoyer, prêt, déployer"),
    ],
)
def test_a_french_mistake_is_explained_in_french(text: str, shown: str) -> None:
    with pytest.raises(BadInput) as err:
        GAME.parse_action(_state(), A, text, words(GAME))
    french = i18n.t(err.value.msg, "fr")
    assert text in french and shown in french
    assert "{" not in i18n.t(err.value.msg, "en")
