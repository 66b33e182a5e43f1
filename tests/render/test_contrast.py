"""Every text on every image reads at WCAG AA: a contrast of 4.5 or more with what it is drawn on.

The text recorder (``render.text.recording``) gives each text's colour and the colour most of its box
had just before it was drawn; a text drawn on a transparent layer (a sprite, a squeezed line, a
heading strip) is measured where each paste of its layer puts it (``render.grounds``), so no text
goes unmeasured. The views are those of a seeded random game of each title at its
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
        unmeasured = {d.shown for d in found if d.ground is None}
        assert not unmeasured, f"{kind}: no ground found under {sorted(unmeasured)[:5]}"
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


def test_a_text_on_a_layer_is_measured_where_each_paste_puts_it() -> None:
    """A label drawn on a transparent sprite (painted large and reduced, like War Chest's hex labels)
    has no ground where it is drawn; each paste records it on what lies there, the sprite's own
    wash over the picture: readable on white, faint once pasted again on a dark grey."""
    from PIL import Image, ImageDraw

    from render.common import MUTED, paste_centered, sprite
    from render.text import draw_text, recording

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        draw.rectangle([0, 0, 80 * k, 40 * k], fill=(255, 255, 255, 40))
        draw_text(draw, (40 * k, 20 * k), "e4", 24 * k, MUTED, anchor="mc", bold=True)

    page = Image.new("RGBA", (200, 60), (255, 255, 255, 255))
    page.paste((60, 60, 60, 255), (100, 0, 200, 60))
    with recording() as found:
        label = sprite(80, 40, paint)
        assert [d.ground for d in found] == [None], "not pasted yet"
        paste_centered(page, label, (50, 30))
        paste_centered(page, label, (150, 30))
    assert [d.shown for d in found] == ["e4", "e4"]
    assert found[0].ground == (255, 255, 255) and contrast(MUTED, found[0].ground) >= AA
    grey = found[1].ground
    assert grey == (91, 91, 91) and contrast(MUTED, grey) < AA  # 40 of 255 of white over (60, 60, 60)


def test_every_text_of_a_squeezed_characteristics_line_finds_its_bar() -> None:
    """Batailles squeezes a troop's long characteristics line on a layer of its own before it reaches
    the bar: each of its texts is measured on the bar's fill, in every state of the bar."""
    from render.batailles import sprites
    from render.text import recording

    for state in (sprites.IDLE, sprites.ACTIVE, sprites.DONE):
        sprites.troop_bar.cache_clear()
        with recording() as found:
            sprites.troop_bar("inf1", 0, (3, 3, 3, 3, 3, 3), "n", 150, 60, state)
        stats = [d for d in found if d.role == "stat"]
        assert stats and all(d.ground is not None for d in stats), stats
        value = lowest(stats)
        assert value is not None and value[0] >= AA, (state, value)


def test_the_rating_charts_texts_read_on_its_paper() -> None:
    from render.chart import rating_chart

    view = {"title": "War Chest", "start": 0.0, "points": [1.5, -2.0, 4.25], "caption": "3 rated games"}
    found, _image = texts_of(partial(rating_chart, view, names={}, locale="en"))
    worst = lowest(found)
    assert len(found) >= 4 and all(d.ground for d in found)
    assert worst is not None and worst[0] >= AA, worst
