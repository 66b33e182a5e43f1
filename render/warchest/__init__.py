"""War Chest (Champ d'honneur) images: the public board, the seat details and a player's coins.

``images`` lays out the pages; ``board`` draws the hexes and what stands on them, ``sprites`` the
cached tokens and marks, ``panels`` the seat tables, ``style`` the team colours and unit names.
"""

from render.games import GameRenderer
from render.warchest import images, panels, text_board
from render.warchest.images import render, render_private

RENDERER = GameRenderer.of(
    images, glance=images.glance, private_words=panels.private_words, text_lines=text_board.board_lines
)
"""What ``render`` draws and says of a War Chest view (``engine.registry``)."""

__all__ = ["RENDERER", "render", "render_private"]
