"""War Chest (Champ d'honneur) images: the public board, the seat details and a player's coins.

``images`` lays out the pages; ``board`` draws the hexes and what stands on them, ``sprites`` the
cached tokens and marks, ``panels`` the seat tables, ``style`` the team colours and unit names.

A hex holds, from its top corner down, its label, then the control ring with the token inside it, a little
below the centre; the start flag stands at the left edge. The sizes come from the hex size
(``board.hex_style``) so that the label is never covered: the last-action highlight is a band along the inside
of the hex edge (and a light wash, over which the label is printed again). With four players teammates share a
colour and a shape, so each token carries its owner's letter: the first letter of the display name the fonts
can draw, the first two when teammates' names start alike, the seat number when they still match; the strip
shows each player's letter by the name. The letter stands in a white pill at the token's bottom left, under
the unit's code (never over it, nor over the hex label above), legible in every script: the pill is as wide as
the letters and tall enough for a Chinese or Korean initial. The private image's bag row lays its coins out at
their own widths, so a name is cut only when it is wider than the whole row. The tables' number columns are as
wide as their headers need, and unit names take the rest.

The details image shows the unit tables (coins on the board, in supply, discarded, eliminated) and the legend.
"""

from render.games import GameRenderer
from render.warchest import images, panels, text_board
from render.warchest.images import render, render_private

RENDERER = GameRenderer.of(
    images, glance=images.glance, private_words=panels.private_words, text_lines=text_board.board_lines
)
"""What ``render`` draws and says of a War Chest view (``engine.registry``)."""

__all__ = ["RENDERER", "render", "render_private"]
