"""Seat colours and shapes shared by every game, and the light and dark variants drawn from them.

Every board gives seat 0 blue with round marks and seat 1 vermilion with square ones, then (Cry Havoc,
up to four seats) bluish green with triangles and reddish purple with diamonds: the Okabe-Ito set,
distinct under every common colour-vision deficiency, and a shape each so that nobody depends on
colour alone. A player who knows one board reads the others at once.
"""

from __future__ import annotations

from render.common import RGB, WHITE, mix

CIRCLE, SQUARE, TRIANGLE, DIAMOND = "circle", "square", "triangle", "diamond"

SEAT_COLOR: tuple[RGB, ...] = ((0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167))
SEAT_SHAPE: tuple[str, ...] = (CIRCLE, SQUARE, TRIANGLE, DIAMOND)
NEUTRAL: RGB = (120, 114, 100)
"""Marks that belong to no seat (an uncontrolled location, an unknown team)."""


def lighten(color: RGB, amount: float = 0.8) -> RGB:
    """``color`` washed towards white, for fills behind dark text."""
    return mix(color, WHITE, amount)


def darken(color: RGB, amount: float = 0.4) -> RGB:
    """``color`` darkened towards black, for edges and stacked marks."""
    return mix(color, (0, 0, 0), amount)
