"""Batailles images: the public battlefield and the armies' details (nothing is hidden).

``images`` lays out the pages; ``field`` draws the empty battlefield of a map, ``board`` puts the
troops and marks of the moment on it, ``sprites`` the cached troop bars and badges, ``panels`` the
status, rosters and legend, ``style`` the colours.

A zone is a band with its label, its advantage value right after the label (so that it is read with the zone,
never on the corner it shares with the next one) and this turn's hits at the band's right end, over the zone's
four places stacked as rows. Terrain fills places (water from the bottom, then forest, then buildings); a
troop is a bar across the zone's width with its army's mark, facing arrow and name in legible type, and its
characteristics M A D R C L when it has two places' height to itself (twice as many free places as troops); a
troop of one place (three or four troops in a zone, or a wood or river taking places) shows its Movement,
Attack and Defence on the same line, as values in the key's order ("1·2·2", which the key under the
battlefield explains). Zones are as tall as the page allows and up to 1.2 times wider (``field.WIDEST``),
using the page's width, so that such a line keeps the preset armies' names whole. A name too long for its bar
keeps its trailing digits ("ho…12"). A river spans the zone's width, meeting the next zone's river, and keeps
a strip of ground above the line under its zone. The zone an action names is read by its verb (``deploy
<troop> <zone> <facing>``, ``attack <zone> <dice>``, ``morale <zone>``), so a troop named like a zone ("b2")
never lights up that zone. A troop's bar shape is cached apart from its name and numbers (``bar_shape``), so a
troop in a new state costs its text only.

The details image shows the two rosters (every troop, its zone and its six characteristics) and the legend.
"""

from render.batailles import images, panels, text_board
from render.batailles.images import render, render_private
from render.games import GameRenderer

RENDERER = GameRenderer.of(
    images, glance=panels.glance, private_words=images.private_words, text_lines=text_board.board_lines
)
"""What ``render`` draws and says of a Batailles view (``engine.registry``)."""

__all__ = ["RENDERER", "render", "render_private"]
