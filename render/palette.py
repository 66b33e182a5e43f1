"""Seat colours and shapes shared by every game, and the light and dark variants drawn from them.

Every board gives seat 0 blue with round marks and seat 1 vermilion with square ones, then (Cry Havoc,
up to four seats) sky blue with triangles and plum with diamonds, and a darker grey for what belongs
to nobody. Any two of them (the Trogs' dark grey too) stay at least ``MIN_DIFFERENCE`` apart in
CIEDE2000 for normal colour vision and under simulated protanopia, deuteranopia and tritanopia (the
Okabe-Ito bluish green and reddish purple did not: blue and green merge for a tritanope, green and
purple for a deuteranope); ``tests/render/test_colour_vision.py`` measures it. Each seat also has a
shape, so that nobody depends on colour alone. A player who knows one board reads the others at once.

The seat colours stay ``MIN_DIFFERENCE`` = 20 apart (CIEDE2000; the simulations are Machado 2009 through
``colour-science``). The highlight stays 20 from the grounds it is drawn on and ``MIN_HIGHLIGHT_DIFFERENCE`` =
15 from the seat colours it is drawn beside across a dark line: no yellow keeps 20 from both the paper and the
vermilion for a deuteranope.
"""

from __future__ import annotations

from render.common import RGB, WHITE, mix

CIRCLE, SQUARE, TRIANGLE, DIAMOND = "circle", "square", "triangle", "diamond"

SEAT_COLOR: tuple[RGB, ...] = ((0, 114, 178), (225, 105, 0), (0, 210, 240), (60, 0, 60))
SEAT_SHAPE: tuple[str, ...] = (CIRCLE, SQUARE, TRIANGLE, DIAMOND)
NEUTRAL: RGB = (90, 86, 76)
"""Marks that belong to no seat (an uncontrolled location, an unknown team)."""
MIN_DIFFERENCE = 20.0
"""The smallest CIEDE2000 difference between two seat colours of one board, with and without a
simulated colour-vision deficiency: about ten times the just-noticeable difference, enough to tell
two small marks apart at a glance on a phone when they are not side by side (two colours side by
side are told apart from about 2)."""
MIN_HIGHLIGHT_DIFFERENCE = 15.0
"""The smallest CIEDE2000 difference between the highlight and any seat colour, for every eye. The
highlight always meets a seat's colour side by side, across a dark edge (a hex's band around a
token, a pill beside a name), where a difference of about 2 is seen; a highlight that also stays 20
from the paper cannot be much further from the vermilion for a deuteranope: over the whole sRGB
cube, keeping 20 from the paper, panels and ground and 4.5:1 under ink, the best yellow reaches 15.4
(``render.common.HIGHLIGHT``), and only greys, which do not stand out, reach 20."""


def lighten(color: RGB, amount: float = 0.8) -> RGB:
    """``color`` washed towards white, for fills behind dark text."""
    return mix(color, WHITE, amount)


def darken(color: RGB, amount: float = 0.4) -> RGB:
    """``color`` darkened towards black, for edges and stacked marks."""
    return mix(color, (0, 0, 0), amount)
