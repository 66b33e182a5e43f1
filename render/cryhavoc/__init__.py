"""Cry Havoc images: the public map, the players' details and a player's hand.

``images`` lays out the pages; ``board`` draws the map's regions and pieces, ``panels`` the status,
tracks, battle board, seat panels and legend, ``hand`` the private cards, ``style`` the colours,
shapes and small sprites.
"""

from render.cryhavoc.images import render, render_private

__all__ = ["render", "render_private"]
