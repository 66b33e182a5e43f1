"""Every text on every image reads at WCAG AA: a contrast of 4.5 or more with what it is drawn on.

The text recorder (``render.text.recording``) gives each text's colour and the colour most of its box
had just before it was drawn. The views are those of a seeded random game of each title at its
largest table, sampled along the game (the busiest boards: most units, battles, full tracks), each
drawn as the public board, the details and the first seat's hand, in both languages.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

import engine
import render
from engine.playout import random_steps
from engine.rng import Rng
from render.common import contrast
from render.text import Drawn
from tests.render.golden import texts_of

AA = 4.5
NAMES = {"p0": "Alice", "p1": "Bérénice", "p2": "Chloé", "p3": "Dmitri"}
SEED = 5
EVERY, MOVES = 40, 240
DRAW: dict[str, Callable[..., bytes]] = {
    "board": render.render,
    "details": render.render_details,
    "private": render.render_private,
}


def sampled_views(name: str) -> list[tuple[str, dict[str, Any]]]:
    """(kind, view) along a seeded random game of ``name`` at its largest table."""
    game = engine.get_game(name)
    players = list(NAMES)[: max(game.player_counts)]
    views = []
    for index, step in enumerate(random_steps(game, players, SEED, Rng(SEED), limit=MOVES)):
        if index % EVERY == 0 or game.is_over(step.after):
            views += [(kind, game.view(step.after, None)) for kind in ("board", "details")]
            views.append(("private", game.view(step.after, players[0])))
    return views


def lowest(found: list[Drawn]) -> tuple[float, Drawn] | None:
    measured = [(contrast(d.ink, d.ground), d) for d in found if d.ink and d.ground]
    return min(measured, key=lambda m: m[0]) if measured else None


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("name", list(engine.GAMES))
def test_every_text_reads_on_its_background(name: str, locale: str) -> None:
    checked = 0
    for kind, view in sampled_views(name):
        found, _image = texts_of(partial(DRAW[kind], view, names=NAMES, locale=locale))
        checked += sum(1 for d in found if d.ink and d.ground)
        worst = lowest(found)
        if worst is not None:
            value, drawn = worst
            assert value >= AA, f"{kind}: {drawn.shown!r} {drawn.ink} on {drawn.ground}: {value:.2f}"
    assert checked >= 500, "the texts' colours and backgrounds were recorded"


def test_a_faint_text_is_caught() -> None:
    """The recorder sees a pale grey on white (what the check would refuse)."""
    from PIL import Image, ImageDraw

    from render.text import draw_text, recording

    image = Image.new("RGB", (200, 60), (255, 255, 255))
    with recording() as found:
        draw_text(ImageDraw.Draw(image), (10, 30), "faint", 24, (205, 198, 182), anchor="lc")
    worst = lowest(found)
    assert worst is not None and worst[0] < AA and worst[1].ground == (255, 255, 255)


@pytest.mark.parametrize("state", ["idle", "active", "done"])
@pytest.mark.parametrize("seat", [0, 1])
def test_a_troops_characteristics_read_on_its_bar(seat: int, state: str) -> None:
    """A Batailles troop's characteristics are drawn on a transparent layer (squeezed when long)
    before they reach the bar, where the recorder cannot see under them: their colours are held to
    the bar's own fill in each state instead."""
    from render.batailles import sprites

    state = getattr(sprites, state.upper())
    bar = sprites.bar_shape(seat, 200, 60, state).convert("RGB")
    fill = bar.getpixel((100, 30))
    assert isinstance(fill, tuple)
    for ink in sprites.stat_inks(state):
        assert contrast(ink, fill) >= AA, (ink, fill)
