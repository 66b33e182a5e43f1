"""War Chest (Champ d'honneur) images: the public board, the seat details and a player's coins.

``images`` lays out the pages; ``board`` draws the hexes and what stands on them, ``sprites`` the
cached tokens and marks, ``panels`` the seat tables, ``style`` the team colours and unit names.
"""

from render.warchest.images import render, render_private

__all__ = ["render", "render_private"]
