"""Cry Havoc images: the public map, the players' details and a player's hand.

``images`` lays out the pages; ``board`` draws the map's regions and pieces, ``panels`` the status,
tracks, battle board, seat panels and legend, ``hand`` the private cards, ``style`` the colours,
shapes and small sprites.

The printed positions of the three- and four-player side are too close together for tiles whose names a phone
can read: drawn at that size, border lines run under other tiles and look crossed. That side is drawn from its
own positions (``layout.POSITIONS``, the printed ones spread apart until every tile has room and every line is
free; north stays north), the two-player side from its printed rows and columns stretched over the frame. No
two border lines cross and none runs under a third tile (a test checks both sides from the layout's
coordinates); regions joined across the edge get lettered arrows, each turned, where needed, to the nearest
direction that is clear. A tile shows its name on up to two lines (between words or after a hyphen), units as
the side's shape and a count, the controller's hollow mark, the region's crystal value (a gem in the colour of
its largest crystal, then the number), and its tokens. A War Party lies face down, so its token shows the
range of Trogs the box's War Parties bring out ("1–3"), the same whichever it is; a Nest shows its fixed
number. A controlled region is framed in the player's colour between two dark lines, which stands out on every
terrain. The region of the battle under way keeps showing the units fighting there (to place, and on the
battle board's objectives), which the engine takes out of the region while the battle lasts. While tactics
cards are played, a side that folded says so in a pill of the battle board's title line, beside the step. A
hand card is tall enough for the fullest one's battle effect. No Cry Havoc text is cut inside a word: texts
wrap between words or are shortened after a whole word with "…", and only a single word wider than its room is
cut.

The map keeps each region drawn with its pieces as a patch of the empty map, by the region's state
(``region_patch``): a move redraws the one to three regions it changed and pastes the others. A patch starts
at even coordinates, so that positions round as they would on the whole map, and is pasted through the mask of
the pixels it changes, so that a neighbour's highlight ring reaching into its margin stays; a test holds the
patched map to the map drawn whole.

The details image shows the tracks (score, initiative, upcoming initiative, revealed events, pools), every
player's panel (faction, skills, structures, prisoners) and the legend.
"""

from render.cryhavoc import hand, images, panels, text_board
from render.cryhavoc.images import render, render_private
from render.games import GameRenderer

RENDERER = GameRenderer.of(
    images, glance=panels.glance, private_words=hand.private_words, text_lines=text_board.board_lines
)
"""What ``render`` draws and says of a Cry Havoc view (``engine.registry``)."""

__all__ = ["RENDERER", "render", "render_private"]
