"""Pixel geometry of a hex board in axial coordinates, pointy-top hexes.

Axial ``(x, y)`` maps to rows: every hex of one ``y`` sits on one horizontal row, each row shifted half
a hex to the right of the one above. On the War Chest board this puts the first player's side (low
``y``) at the top of the image and the second player's at the bottom, next to their panels.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SQRT3 = math.sqrt(3.0)

Hex = tuple[int, int]


def unit_center(h: Hex) -> tuple[float, float]:
    """Centre of hex ``h`` for a hex of size 1 (centre to corner)."""
    x, y = h
    return SQRT3 * (x + y / 2), 1.5 * y


def corners(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hex, clockwise from the top."""
    pts = []
    for i in range(6):
        angle = math.radians(-90 + 60 * i)
        pts.append((cx + size * math.cos(angle), cy + size * math.sin(angle)))
    return pts


@dataclass(frozen=True)
class Layout:
    """Where a set of hexes lands in an area of the image; hashable, so it can key caches."""

    size: float
    origin_x: float
    origin_y: float
    width: int
    height: int

    def center(self, h: Hex) -> tuple[float, float]:
        ux, uy = unit_center(h)
        return self.origin_x + ux * self.size, self.origin_y + uy * self.size


def fit(hexes: Iterable[Hex], max_width: int, max_size: float, margin: float = 8) -> Layout:
    """The largest hex size (at most ``max_size``) that lays ``hexes`` within ``max_width`` pixels."""
    centers = [unit_center(h) for h in hexes]
    min_x = min(c[0] for c in centers)
    max_x = max(c[0] for c in centers)
    min_y = min(c[1] for c in centers)
    max_y = max(c[1] for c in centers)
    span_w = max_x - min_x + SQRT3
    span_h = max_y - min_y + 2.0
    size = min(max_size, (max_width - 2 * margin) / span_w)
    width = math.ceil(span_w * size + 2 * margin)
    height = math.ceil(span_h * size + 2 * margin)
    origin_x = margin + (SQRT3 / 2 - min_x) * size
    origin_y = margin + (1.0 - min_y) * size
    return Layout(size, origin_x, origin_y, width, height)
