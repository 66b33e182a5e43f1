"""The two-player draft: 8 cards, picks 1-2-2-2, last card to the first picker."""

from __future__ import annotations

import pytest

from engine import IllegalAction, NotYourTurn
from engine.warchest import GAME
from engine.warchest.units import UNIT_TYPES
from i18n import t
from tests.engine.warchest.helpers import PLAYERS, acting, do, texts


def test_draft_pick_order_and_last_card() -> None:
    st = GAME.new_game(PLAYERS, 3, {"armies": "draft"})
    assert st.phase == "draft" and st.round == 0
    pool = list(st.draft["pool"])  # type: ignore[index]
    assert len(pool) == 8 and len(set(pool)) == 8 and set(pool) <= set(UNIT_TYPES)
    first = acting(st)
    second = PLAYERS[1 - PLAYERS.index(first)]
    order = []
    while st.phase == "draft":
        who = acting(st)
        order.append(who)
        assert texts(st) == {f"pick {u}" for u in st.draft["pool"]}  # type: ignore[index]
        st, events = do(st, f"pick {st.draft['pool'][0]}")  # type: ignore[index]
    assert order == [first, second, second, first, first, second, second]
    assert [e.key for e in events][:2] == ["wc.ev.pick", "wc.ev.pick_last"]
    units = {PLAYERS[i]: s.units for i, s in enumerate(st.seats)}
    assert len(units[first]) == 4 and len(units[second]) == 4
    assert set(units[first]) | set(units[second]) == set(pool)
    # the second picker takes the initiative and starts
    assert st.phase == "play" and st.round == 1
    assert PLAYERS[st.initiative] == second and acting(st) == second
    assert all(len(s.hand) == 3 for s in st.seats)


def test_first_picker_comes_from_the_seed() -> None:
    firsts = {acting(GAME.new_game(PLAYERS, s, {"armies": "draft"})) for s in range(20)}
    assert firsts == set(PLAYERS)


def test_draft_refuses_cards_outside_the_pool_and_the_wrong_player() -> None:
    st = GAME.new_game(PLAYERS, 3, {"armies": "draft"})
    missing = next(u for u in UNIT_TYPES if u not in st.draft["pool"])  # type: ignore[index]
    with pytest.raises(IllegalAction) as err:
        do(st, f"pick {missing}")
    assert "`pick " in t(err.value.msg, "en") and "`choisir " in t(err.value.msg, "fr")
    other = PLAYERS[1 - PLAYERS.index(acting(st))]
    with pytest.raises(NotYourTurn):
        do(st, f"pick {st.draft['pool'][0]}", player=other)  # type: ignore[index]
