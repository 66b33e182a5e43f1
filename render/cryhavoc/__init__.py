"""Cry Havoc images: the public map, the players' details and a player's hand.

``images`` lays out the pages; ``board`` draws the map's regions and pieces, ``panels`` the status,
tracks, battle board, seat panels and legend, ``hand`` the private cards, ``style`` the colours,
shapes and small sprites.
"""

from render.cryhavoc import hand, images, panels, text_board
from render.cryhavoc.images import render, render_private
from render.games import GameRenderer

RENDERER = GameRenderer.of(
    images, glance=panels.glance, private_words=hand.private_words, text_lines=text_board.board_lines
)
"""What ``render`` draws and says of a Cry Havoc view (``engine.registry``)."""

__all__ = ["RENDERER", "render", "render_private"]
