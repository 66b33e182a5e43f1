"""Saved games: the format number, old saves upgraded on loading, unknown formats refused.

``save_format0.json`` is a game saved mid-turn by the bot before saves carried a number (round 3,
Alice to play, two hits of hers on Bob's cavalry in f5): it must load and play on to the end.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import i18n
from engine.batailles import GAME
from engine.batailles.state import FORMAT
from engine.errors import GameError

SAVE_0 = Path(__file__).with_name("save_format0.json")


def _save_0() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SAVE_0.read_text(encoding="utf-8"))
    return data


def test_the_committed_save_is_of_the_unnumbered_format() -> None:
    assert "format" not in _save_0()


def test_a_save_without_a_format_number_loads_and_plays_on() -> None:
    s = GAME.load(_save_0())
    assert s.phase == "play" and s.round == 3 and GAME.to_act(s) == ["alice"]
    assert s.hits == {(5, 4): 2} and s.advantage == [4, 0] and s.activated == ["cav1", "art2"]
    assert GAME.dump(s)["format"] == FORMAT == 3
    assert GAME.dump(s)["trail"] == [] and GAME.view(s, None)["since"] == []
    s, events = GAME.apply(s, "alice", GAME.parse_action(s, "alice", "end"))
    assert s.advantage == [6, 0], "the saved hits became advantage at the end of the turn"
    assert [e.params["player"].id for e in events if e.key == "bt.ev.turn"] == ["bob"]
    rng = random.Random(3)
    for _ in range(3000):
        if GAME.is_over(s):
            break
        player = rng.choice(GAME.to_act(s))
        s, _ = GAME.apply(s, player, rng.choice(GAME.legal_actions(s, player)))
    assert GAME.is_over(s) and GAME.result(s) is not None


def test_a_numbered_save_loads_back_the_same() -> None:
    s = GAME.load(_save_0())
    data = GAME.dump(s)
    assert GAME.dump(GAME.load(json.loads(json.dumps(data)))) == data


@pytest.mark.parametrize("found", [4, 99, "1", None, True])
def test_an_unknown_format_is_refused_clearly(found: object) -> None:
    data = {**GAME.dump(GAME.load(_save_0())), "format": found}
    with pytest.raises(GameError) as err:
        GAME.load(data)
    assert err.value.msg.key == "bt.err.save_format"
    for lang in i18n.LOCALES:
        text = i18n.t(err.value.msg, lang)
        assert str(found) in text and str(FORMAT) in text and "{" not in text
