"""The action texts a hint quotes are in the reader's words and read back as the actions they name.

A French player shown `déployer soldat e1` or `aller Hauteporte Bois-d'Épines` types exactly that; an
English player sees `deploy swordsman e1`. Over seeded random games of every size, every legal action
of every position is quoted in both languages and parsed back.
"""

from __future__ import annotations

import re
from typing import get_args

import pytest

import engine
import i18n
from engine.batailles import actions as bt_actions
from engine.cryhavoc import parse as ch_parse
from engine.cryhavoc.content import CARDS, SKILLS, STRUCTURES
from engine.errors import BadInput, IllegalAction
from engine.matching import fold_words
from engine.rng import Rng
from engine.warchest import parse as wc_parse
from tests.engine.french_typing import words

STEPS = 90
PLAYERS = ["alice", "bob", "carol", "dave"]
TYPED = {"warchest": wc_parse.typed, "cryhavoc": ch_parse.typed, "batailles": bt_actions.typed}
CASES = [(name, count) for name in TYPED for count in engine.get_game(name).player_counts]
ENGLISH_VERBS = re.compile(
    r"`(?:deploy|bolster|move|control|attack|tactic|recruit|pass|pick|skip|go|discard|draw|face|end|done"
    r"|ready|activate|coordinate|reroll|hold|lose|dismiss|retrain|profile)\b"
)


@pytest.mark.parametrize(("name", "count"), CASES, ids=[f"{n}-{c}p" for n, c in CASES])
def test_every_quoted_action_reads_back_in_both_languages(name: str, count: int) -> None:
    game = engine.get_game(name)
    state = game.new_game(PLAYERS[:count], 17, {})
    chooser = Rng(17)
    checked = 0
    for _ in range(STEPS):
        if game.is_over(state):
            break
        who = game.to_act(state)[0]
        legal = game.legal_actions(state, who)
        for action in legal:
            for lang in ("en", "fr"):
                quoted = i18n.t(TYPED[name](action), lang)
                assert quoted.startswith("`") and quoted.endswith("`"), quoted
                assert "_" not in quoted, quoted  # names, never ids
                assert game.parse_action(state, who, quoted.strip("`"), words(game)) == action, (
                    lang,
                    quoted,
                    str(action),
                )
                checked += 1
        state, _ = game.apply(state, who, legal[chooser.below(len(legal))])
    assert checked > 200


@pytest.mark.parametrize("name", ["warchest", "cryhavoc"])  # Batailles refuses at apply: the test below
def test_a_refusal_quotes_french_texts_to_a_french_reader(name: str) -> None:
    game = engine.get_game(name)
    state = game.new_game(PLAYERS[:2], 3, {})
    who = game.to_act(state)[0]
    for typed in ("dance wildly", "attack nowhere"):
        with pytest.raises((BadInput, IllegalAction)) as err:
            game.parse_action(state, who, typed, words(game))
        english, french = i18n.t(err.value.msg, "en"), i18n.t(err.value.msg, "fr")
        assert "`" in english and "`" in french
        assert not ENGLISH_VERBS.search(french), french
        assert english != french


def test_every_batailles_action_kind_reads_back_in_both_languages() -> None:
    """The kinds random play seldom reaches (army building, attacks, morale, the hardcore variant) too;
    a troop named ``w`` stays ``w`` where west becomes ``o``."""
    game = engine.get_game("batailles")
    state = game.new_game(PLAYERS[:2], 3, {})
    texts = ["recruit w 1 2 2 0 0 0", "dismiss inf1", "ready", "deploy w c4 w", "activate w",
             "coordinate arch1+w", "move w n", "face w", "attack d5 2", "reroll 1", "done", "end",
             "morale b2", "hold w 3", "lose inf2", "retrain gen", "profile 1 0 1 1 2 0"]  # fmt: skip
    kinds = set()
    for text in texts:
        action = game.parse_action(state, "alice", text, words(game))
        kinds.add(type(action))
        french = i18n.t(bt_actions.typed(action), "fr").strip("`")
        assert i18n.t(bt_actions.typed(action), "en") == f"`{text}`"
        assert game.parse_action(state, "alice", french, words(game)) == action, (french, text)
        assert not ENGLISH_VERBS.search(f"`{french}"), french
    assert len(kinds) == len(get_args(bt_actions.Action))


def test_a_batailles_refusal_quotes_french_texts_to_a_french_reader() -> None:
    """Batailles reads any well-formed action and refuses it when applied: the refusal quotes the
    action and the legal ones as the reader types them; a text it cannot read gets the reader's verbs."""
    game = engine.get_game("batailles")
    state = game.new_game(PLAYERS[:2], 3, {})
    who = game.to_act(state)[0]
    for typed in ("fin tour", "attaquer d5 1", "déplacer n o", "move n w"):
        action = game.parse_action(state, who, typed, words(game))
        with pytest.raises(IllegalAction) as err:
            game.apply(state, who, action)
        english, french = i18n.t(err.value.msg, "en"), i18n.t(err.value.msg, "fr")
        assert french.startswith(i18n.t(bt_actions.typed(action), "fr")), french
        assert english.startswith(f"`{action}`"), english
        assert "`déployer " in french and "`deploy " in english
        assert not ENGLISH_VERBS.search(french), french
    for typed in ("dance wildly", "attack nowhere"):
        with pytest.raises(BadInput) as bad:
            game.parse_action(state, who, typed, words(game))
        french = i18n.t(bad.value.msg, "fr").replace(typed, "")
        assert not re.search(r"\b" + ENGLISH_VERBS.pattern.removeprefix("`"), french), french


def test_the_names_cry_havoc_reads_are_the_catalogs() -> None:
    """Cards, structures and skills are read by the names every catalog shows (``ch.card.*``...), the
    same entries hints quote: a name changed in a catalog is read as it is shown."""
    game = engine.get_game("cryhavoc")
    reading = ch_parse._reading(words(game))
    areas = {"ch.card": CARDS, "ch.structure": STRUCTURES, "ch.skill": SKILLS}
    for area, things in areas.items():
        for thing in things:
            for lang in ("en", "fr"):
                name = tuple(fold_words(i18n.t(f"{area}.{thing}", lang), hyphens=True))
                assert reading.arguments[name] == thing, (lang, name)
