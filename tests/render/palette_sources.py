"""Reference boards for the fixed palettes, and their rebuild: ``python -m tests.render.palette_sources``.

``make regen-golden`` runs it before redrawing the golden images, since they are drawn in these
palettes. The references are the golden views (every kind of board the tests know) and seeded random
games of every table size, so that the palette has the colours of what players actually see.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

from PIL import Image

import engine
from engine.rng import Rng
from render import palettes
from render.batailles import images as batailles
from render.cryhavoc import images as cryhavoc
from render.warchest import images as warchest
from tests.render import test_batailles_images as batailles_cases
from tests.render import test_cryhavoc_images as cryhavoc_cases
from tests.render import test_warchest_images as warchest_cases
from tests.render import views

NAMES = {"111": "Alice", "222": "Bérénice", "333": "Chloé", "444": "Dmitri"}
COMPOSE: dict[str, Callable[..., Image.Image]] = {
    "warchest": warchest.compose,
    "batailles": batailles.compose,
    "cryhavoc": cryhavoc.compose,
}
TABLES = {"warchest": (2, 4), "batailles": (2,), "cryhavoc": (2, 3, 4)}
GAMES = sorted(COMPOSE)


def seeded_views(game: str, players: int, seed: int, moves: int) -> Iterator[dict[str, Any]]:
    """The public view after each move of a seeded random game of ``game`` (``moves`` moves, or
    until the game ends)."""
    rules = engine.get_game(game)
    state = rules.new_game(list(NAMES)[:players], seed=seed, options={})
    chooser = Rng(seed)
    for _step in range(moves):
        if rules.is_over(state):
            return
        player = rules.to_act(state)[0]
        legal = rules.legal_actions(state, player)
        state, _ = rules.apply(state, player, legal[chooser.below(len(legal))])
        yield rules.view(state, None)


def boards(game: str, seeds: range, every: int, moves: int) -> Iterator[Image.Image]:
    """Public boards of seeded random games of ``game`` at each table size, one every ``every``
    moves for ``moves`` moves (or until the game ends)."""
    for players in TABLES[game]:
        for seed in seeds:
            view: dict[str, Any] | None = None
            for step, view in enumerate(seeded_views(game, players, seed, moves)):
                if step % every == every - 1:
                    yield COMPOSE[game](view, names=NAMES, locale="en")
            if view is None:
                view = engine.get_game(game).view(
                    engine.get_game(game).new_game(list(NAMES)[:players], seed=seed, options={}), None
                )
            yield COMPOSE[game](view, names=NAMES, locale="fr")


def golden_boards(game: str) -> Iterator[Image.Image]:
    cases: list[tuple[str, Callable[[], dict[str, Any]], str]] = {
        "warchest": warchest_cases.PUBLIC_CASES,
        "batailles": batailles_cases.CASES,
        "cryhavoc": cryhavoc_cases.CASES,
    }[game]
    for name, make, locale in cases:
        if not name.startswith("details_"):
            yield COMPOSE[game](make(), names=views.NAMES if game == "warchest" else NAMES, locale=locale)


def rebuild(game: str) -> list[tuple[int, int, int]]:
    """Build ``game``'s palette from its golden boards and three seeded games per table size, and
    write it."""
    references = [*golden_boards(game), *boards(game, range(100, 103), 40, 200)]
    colours = palettes.build(references)
    palettes.write(game, colours)
    return colours


if __name__ == "__main__":
    for name in sys.argv[1:] or GAMES:
        print(f"{name}: {len(rebuild(name))} colours in {palettes.path(name)}")
