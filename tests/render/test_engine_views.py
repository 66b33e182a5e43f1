"""Views produced by the real War Chest engine draw without error and without leaks."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
import render
from render.warchest.images import WIDTH
from tests.render.golden import decode

NAMES = {"111": "Alice", "222": "Bérénice"}


def _playout(options: dict[str, str], seed: int, stops: set[int]) -> list[tuple[Any, Any]]:
    """States along a random game (at the action counts in ``stops``, plus the last one)."""
    game = engine.get_game("warchest")
    state = game.new_game(["111", "222"], seed=seed, options=options)
    chooser = random.Random(seed)
    kept = []
    for count in range(1000):
        if count in stops:
            kept.append((game, state))
        if game.is_over(state):
            break
        player = game.to_act(state)[0]
        state, _events = game.apply(state, player, chooser.choice(game.legal_actions(state, player)))
    kept.append((game, state))
    return kept


@pytest.mark.parametrize(("options", "seed"), [({}, 3), ({"armies": "draft"}, 11)])
def test_engine_views_render_in_both_languages(options: dict[str, str], seed: int) -> None:
    for n, (game, state) in enumerate(_playout(options, seed, {0, 5, 60})):
        locale = "fr" if n % 2 else "en"
        for viewer in ("111", "222"):
            view = game.view(state, viewer)
            public = render.render(view, names=NAMES, locale=locale)
            spectator = render.render(game.view(state, None), names=NAMES, locale=locale)
            assert public == spectator, "the public image depends on who is looking"
            image = decode(public)
            assert image.width == WIDTH
            private = decode(render.render_private(view, names=NAMES, locale=locale))
            assert private.width > 0
            if n:  # one viewer is enough for the states after the first
                break


def test_finished_engine_game_draws_its_result() -> None:
    game, state = _playout({}, 3, set())[-1]
    assert game.is_over(state)
    view: dict[str, Any] = game.view(state, None)
    assert view["result"] is not None
    assert decode(render.render(view, names=NAMES, locale="fr")).width == WIDTH
