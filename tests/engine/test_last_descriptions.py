"""Every action kind of every game is told on the board in the third person, with display names.

Over seeded random games of every game and table size, the view's last action (what the board's
"Last action" line says) is rendered in English and French after every action: it names the player who
acted, shows no id, key or unfilled placeholder, and never says "you" (the whole table reads it).
"""

from __future__ import annotations

import re

import pytest

import engine
import i18n
from engine.playout import random_steps
from engine.rng import Rng
from engine.text import decode_msg

STEPS = 250
PLAYERS = ["alice", "bob", "carol", "dave"]
CASES = [(name, count) for name in engine.GAMES for count in engine.get_game(name).player_counts]
LEFTOVER = re.compile(r"\b[a-z]+_[a-z_]+\b|\b(?:wc|bt|ch)\.[a-z_.]+|[{}]")
YOU = re.compile(r"\b(?:you|your|vous|votre|vos)\b", re.I)


@pytest.mark.parametrize(("name", "count"), CASES, ids=[f"{n}-{c}p" for n, c in CASES])
def test_the_last_action_is_told_in_the_third_person(name: str, count: int) -> None:
    game = engine.get_game(name)
    kinds: set[str] = set()
    for step in random_steps(game, PLAYERS[:count], 23, Rng(23), limit=STEPS):
        last = game.view(step.after, None)["last"]
        label = decode_msg(last["label"])
        kinds.add(label.key)
        for lang in ("en", "fr"):
            said = i18n.t(label, lang, player="Zoé")
            assert "Zoé" in said, (lang, said, last)
            assert not LEFTOVER.search(said), (lang, said, last)
            assert not YOU.search(said), (lang, said, last)
            raw = re.search(rf"\b{re.escape(last['text'])}\b", said)
            assert not raw or len(last["text"].split()) == 1, (lang, said)
    assert len(kinds) >= 4, kinds
