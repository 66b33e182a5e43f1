"""Batailles images: the public battlefield and the armies' details (nothing is hidden).

``images`` lays out the pages; ``field`` draws the empty battlefield of a map, ``board`` puts the
troops and marks of the moment on it, ``sprites`` the cached troop bars and badges, ``panels`` the
status, rosters and legend, ``style`` the colours.
"""

from render.batailles import images, panels, text_board
from render.batailles.images import render, render_private
from render.games import GameRenderer

RENDERER = GameRenderer.of(
    images, glance=panels.glance, private_words=images.private_words, text_lines=text_board.board_lines
)
"""What ``render`` draws and says of a Batailles view (``engine.registry``)."""

__all__ = ["RENDERER", "render", "render_private"]
