"""The computer player never reads what its seat could not see.

Positions that differ only in hidden parts (another seat's hand and bag, the order and contents of
decks, face-down tokens, the generator deciding the dice and draws to come) show the player the
same view, so it must choose the same action in both.
"""

from __future__ import annotations

from typing import Any

import pytest

import ai
import engine
from ai.models import model
from ai.search import Budget
from tests.ai.support import decision

PLAN = Budget(iterations=48, rollout=4)


def _same_choice(name: str, first: Any, second: Any, seat: int) -> None:
    game = engine.get_game(name)
    a, b = game.dump(first), game.dump(second)
    assert a != b, "the two positions should differ in hidden parts"
    player = game.view(first, None)["seats"][seat]["id"]
    assert game.view(first, player) == game.view(second, player)
    m = model(name)
    assert m.observe(first, seat) == m.observe(second, seat)
    choices = {str(ai.search(name, d, seat, PLAN, seed=11).action) for d in (a, b)}
    assert len(choices) == 1


def _other_seats(state_players: int, seat: int) -> list[int]:
    return [s for s in range(state_players) if s != seat]


@pytest.mark.parametrize(("count", "seed"), [(2, 3), (2, 8), (4, 5)])
def test_war_chest_coins_out_of_sight(count: int, seed: int) -> None:
    state, seat = decision("warchest", count, seed, steps=25)
    other = state.clone()
    swapped = False
    for s in _other_seats(count, seat):
        hidden = other.seats[s]
        for coin in list(hidden.hand):
            swap = next((c for c in hidden.bag if c != coin), None)
            if swap is not None:
                hidden.hand.remove(coin)
                hidden.bag.remove(swap)
                hidden.add_hand(swap)
                hidden.bag = sorted([*hidden.bag, coin])
                swapped = True
                break
    assert swapped, "no other seat had different coins in hand and bag"
    other.rng = state.rng ^ 0xDEADBEEF
    _same_choice("warchest", state, other, seat)


@pytest.mark.parametrize(("count", "seed"), [(2, 4), (3, 6), (4, 2)])
def test_cry_havoc_cards_and_tokens_out_of_sight(count: int, seed: int) -> None:
    state, seat = decision("cryhavoc", count, seed, steps=30)
    other = engine.get_game("cryhavoc").load(engine.get_game("cryhavoc").dump(state))
    for s in _other_seats(count, seat):
        hidden = other["seats"][s]
        hidden["deck"].reverse()
        if hidden["hand"] and hidden["deck"]:
            hidden["hand"][0], hidden["deck"][0] = hidden["deck"][0], hidden["hand"][0]
            hidden["hand"].sort()
    other["seats"][seat]["deck"].reverse()  # even the seat's own deck order is unknown to it
    for cards in other["terrain"].values():
        cards.reverse()
    other["track"] = [{"pos": t["pos"], "ids": list(reversed(t["ids"]))} for t in other["track"]]
    other["rng"] = state["rng"] ^ 0xDEADBEEF
    _same_choice("cryhavoc", state, other, seat)


@pytest.mark.parametrize("seed", [1, 9])
def test_batailles_dice_to_come(seed: int) -> None:
    state, seat = decision("batailles", 2, seed, steps=60)
    game = engine.get_game("batailles")
    other = game.load(game.dump(state))
    other.rng = state.rng ^ 0xDEADBEEF
    _same_choice("batailles", state, other, seat)
