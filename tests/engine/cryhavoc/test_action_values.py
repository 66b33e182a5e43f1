"""Cry Havoc's actions as values: each text reads back as the same action, of the class its verb names."""

from __future__ import annotations

import pytest

from engine.cryhavoc import GAME
from engine.cryhavoc.actions import (
    VERBS,
    Action,
    Go,
    Play,
    UseSkill,
    act,
    card_of,
    parse,
)
from engine.errors import BadInput
from engine.rng import Rng

from .helpers import P2, P3, P4


def _positions(seed: int, players: list[str], skills: str) -> list[list[Action]]:
    """The legal actions of every position of a random game."""
    st = GAME.new_game(players, seed=seed, options={"skills": skills})
    rng = Rng(seed)
    seen: list[list[Action]] = []
    while not GAME.is_over(st):
        p = GAME.to_act(st)[0]
        options = GAME.legal_actions(st, p)
        seen.append(options)
        st, _ = GAME.apply(st, p, options[rng.below(len(options))])
    return seen


def test_every_legal_action_reads_back_as_itself() -> None:
    verbs: set[str] = set()
    for seed in range(6):
        players = [P2, P3, P4][seed % 3]
        for options in _positions(seed, players, ("basic", "random", "all")[seed % 3]):
            for a in options:
                text = str(a)
                back = parse(text)
                assert back == a and type(back) is type(a), text
                assert back is parse(text), "the same value handed out again"
                assert text.split()[0] == a.verb
                verbs.add(a.verb)
    assert verbs <= set(VERBS)
    assert {"go", "move", "pay", "end", "place", "play", "fold"} <= verbs, "the games reach battles"


def test_fields_name_the_words() -> None:
    step = parse("go mossdeep flintpeak")
    assert isinstance(step, Go) and (step.origin, step.to) == ("mossdeep", "flintpeak")
    shift = parse("play hu_feint control attrition")
    assert isinstance(shift, Play) and shift.objectives == ("control", "attrition")
    assert parse("play hu_feint") == Play("hu_feint")
    assert parse("skill hu_rally") == UseSkill("hu_rally")
    assert str(UseSkill("tr_nest", "mossdeep")) == "skill tr_nest mossdeep"
    assert card_of(shift) == "hu_feint" and card_of(step) is None
    assert act("pay", "ma_protocol") != act("move", "ma_protocol"), "the verb tells them apart"


@pytest.mark.parametrize("text", ["", "go mossdeep", "end now", "fly mossdeep", "play", "play a b c d"])
def test_text_of_no_action_is_refused(text: str) -> None:
    with pytest.raises(BadInput):
        parse(text)
