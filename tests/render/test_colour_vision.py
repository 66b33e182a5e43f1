"""Colours every eye tells apart, computed from the render layer's own palettes.

Each game's seat colours (and what belongs to nobody: War Chest's neutral, Cry Havoc's Trogs) stay at
least ``MIN_DIFFERENCE`` apart in CIEDE2000, for normal colour vision and under simulated protanopia,
deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, at full severity, applied to
linear sRGB as the model asks); the highlight stays as far from the backgrounds it is drawn on, and
``MIN_HIGHLIGHT_DIFFERENCE`` from the seat colours it is drawn beside. The
model and the difference come from ``colour-science``; nothing here is a hand-written matrix. Each
seat also has a shape of its own, the cue that needs no colour at all.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Sequence

import pytest

from render.batailles import style as batailles
from render.common import HIGHLIGHT, PANEL, PAPER, RGB
from render.cryhavoc import style as cryhavoc
from render.palette import MIN_DIFFERENCE, MIN_HIGHLIGHT_DIFFERENCE
from render.warchest import style as warchest

with warnings.catch_warnings():  # it tells at import which optional plotting packages are missing
    warnings.simplefilter("ignore")
    import colour
    import numpy as np

VISIONS = ("normal", "Protanomaly", "Deuteranomaly", "Tritanomaly")
"""Normal vision, then the three deficiencies at severity 1: protanopia, deuteranopia, tritanopia."""

SEATS: dict[str, list[RGB]] = {
    "warchest": [warchest.TEAM_COLOR[0], warchest.TEAM_COLOR[1], warchest.TEAM_COLOR[None]],
    "batailles": [batailles.seat_color(0), batailles.seat_color(1)],
    "cryhavoc": [cryhavoc.side_color(seat) for seat in (0, 1, 2, 3, None)],
}
SHAPES: dict[str, list[str]] = {
    "warchest": [warchest.TEAM_SHAPE[0], warchest.TEAM_SHAPE[1]],
    "batailles": [batailles.seat_shape(0), batailles.seat_shape(1)],
    "cryhavoc": [cryhavoc.side_shape(seat) for seat in (0, 1, 2, 3, None)],
}
BACKGROUNDS: list[RGB] = [PAPER, PANEL, batailles.GROUND]
"""What the highlight (the player to act, the last action, the winner) is drawn on."""


def _lab(color: RGB, vision: str) -> np.ndarray:
    linear = colour.models.eotf_sRGB(np.asarray(color, dtype=float) / 255)
    if vision != "normal":
        with warnings.catch_warnings():  # the tritan model's own caveat, printed at every call
            warnings.simplefilter("ignore")
            matrix = colour.blindness.matrix_cvd_Machado2009(vision, 1.0)
        linear = np.clip(matrix @ linear, 0, 1)
    xyz = colour.RGB_to_XYZ(linear, colour.RGB_COLOURSPACES["sRGB"], apply_cctf_decoding=False)
    return colour.XYZ_to_Lab(xyz, colour.CCS_ILLUMINANTS["CIE 1931 2 Degree Standard Observer"]["D65"])


def difference(a: RGB, b: RGB, vision: str) -> float:
    """CIEDE2000 between two sRGB colours as seen with ``vision``."""
    return float(colour.delta_E(_lab(a, vision), _lab(b, vision), method="CIE 2000"))


def smallest(pairs: Sequence[tuple[RGB, RGB]], vision: str) -> tuple[float, RGB, RGB]:
    return min((difference(a, b, vision), a, b) for a, b in pairs)


def test_the_difference_is_the_one_published() -> None:
    """CIEDE2000 as Sharma, Wu and Dalal's test data give it (their first pair), so that the
    threshold means what it says."""
    value = colour.delta_E(
        np.array([50.0, 2.6772, -79.7751]), np.array([50.0, 0.0, -82.7485]), method="CIE 2000"
    )
    assert round(float(value), 4) == 2.0425
    assert difference((255, 0, 0), (0, 255, 0), "normal") > 50
    assert difference((255, 0, 0), (0, 255, 0), "Deuteranomaly") < difference(
        (255, 0, 0), (0, 255, 0), "normal"
    )


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("game", sorted(SEATS))
def test_seat_colours_stay_apart_for_every_eye(game: str, vision: str) -> None:
    pairs = list(itertools.combinations(SEATS[game], 2))
    value, a, b = smallest(pairs, vision)
    assert value >= MIN_DIFFERENCE, f"{game}, {vision}: {a} and {b} are {value:.1f} apart"


@pytest.mark.parametrize("vision", VISIONS)
def test_the_highlight_stands_out_from_every_background(vision: str) -> None:
    value, _a, b = smallest([(HIGHLIGHT, ground) for ground in BACKGROUNDS], vision)
    assert value >= MIN_DIFFERENCE, f"{vision}: the highlight is {value:.1f} from {b}"


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("game", sorted(SEATS))
def test_the_highlight_stands_out_from_every_seat_colour(game: str, vision: str) -> None:
    """The player to act, the last action and the winner are marked in the highlight right beside
    their seat's colour (amber against the vermilion is the closest call, for a deuteranope)."""
    value, _a, b = smallest([(HIGHLIGHT, seat) for seat in SEATS[game]], vision)
    assert value >= MIN_HIGHLIGHT_DIFFERENCE, f"{game}, {vision}: the highlight is {value:.1f} from {b}"


@pytest.mark.parametrize("game", sorted(SHAPES))
def test_every_seat_has_a_shape_of_its_own(game: str) -> None:
    assert len(set(SHAPES[game])) == len(SHAPES[game]), SHAPES[game]
