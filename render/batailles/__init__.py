"""Batailles images: the public battlefield and the armies' details (nothing is hidden).

``images`` lays out the pages; ``field`` draws the empty battlefield of a map, ``board`` puts the
troops and marks of the moment on it, ``sprites`` the cached troop bars and badges, ``panels`` the
status, rosters and legend, ``style`` the colours.
"""

from render.batailles.images import render, render_private

__all__ = ["render", "render_private"]
