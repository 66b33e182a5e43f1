"""The War Chest board: axial hex coordinates, labels, neighbours and the two-player map.

Hexes are ``(x, y)`` tuples; players type labels such as ``e1`` (``"abcdefg"[x] + str(y + 1)``).
The map itself (playable hexes, control locations, start locations) lives in ``boards.json`` so a
four-player map can be added as data.

So ``(4, 0)`` is ``e1`` and ``(2, 6)`` is ``c7``: players type these labels, the board image prints them, and
action texts use them. The 2-player board uses the 37 hexes of docs/rules/warchest.md; the 4-player board
(later) 47 hexes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TypedDict

Hex = tuple[int, int]

COLUMNS = "abcdefg"
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def label(h: Hex) -> str:
    """``(4, 0)`` -> ``"e1"``."""
    try:
        text = _LABELS.get(h)
    except TypeError:  # a hex given as a list reads the same, without the table
        text = None
    return text if text is not None else _label(h)


def _label(h: Hex) -> str:
    return COLUMNS[h[0]] + str(h[1] + 1)


_LABELS = {(x, y): _label((x, y)) for x in range(len(COLUMNS)) for y in range(len(COLUMNS) + 2)}
"""The labels of every hex a map may have, made once: every action's text names one or two, and
action texts are made many times a move (listed, matched, recorded)."""


def parse_label(text: str) -> Hex | None:
    """``"e1"`` -> ``(4, 0)``; ``None`` when the text is not a hex label at all."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        return None
    return (COLUMNS.index(text[0]), int(text[1:]) - 1)


def distance(a: Hex, b: Hex) -> int:
    dx = a[0] - b[0]
    dy = a[1] - b[1]
    return (abs(dx) + abs(dy) + abs(dx + dy)) // 2


@dataclass(frozen=True)
class BoardMap:
    """One map: the playable hexes and where the control locations are."""

    hexes: frozenset[Hex]
    order: tuple[Hex, ...]
    locations: tuple[Hex, ...]
    start: tuple[tuple[Hex, ...], ...]  # per team
    markers: int  # control markers per team
    neighbours: dict[Hex, tuple[Hex, ...]]
    within2: dict[Hex, tuple[Hex, ...]]  # hexes at distance 1 or 2
    lines: dict[Hex, tuple[tuple[Hex, ...], ...]]  # per direction, the next hexes in a straight line
    location_set: frozenset[Hex]


class BoardSpec(TypedDict):
    """A map's entry in ``boards.json``: hexes as labels, the start hexes per team (keyed by the
    team's number as text) and the control markers per team."""

    hexes: list[str]
    locations: list[str]
    start: dict[str, list[str]]
    markers: int


def _build(spec: BoardSpec) -> BoardMap:
    """A map from its entry in ``boards.json``."""
    order = tuple(_must(parse_label(s)) for s in spec["hexes"])
    hexes = frozenset(order)
    locations = tuple(_must(parse_label(s)) for s in spec["locations"])
    start_spec = spec["start"]
    start = tuple(tuple(_must(parse_label(s)) for s in start_spec[k]) for k in sorted(start_spec))
    neighbours: dict[Hex, tuple[Hex, ...]] = {}
    lines: dict[Hex, tuple[tuple[Hex, ...], ...]] = {}
    for h in order:
        neighbours[h] = tuple(
            (h[0] + dx, h[1] + dy) for dx, dy in DIRECTIONS if (h[0] + dx, h[1] + dy) in hexes
        )
        per_dir = []
        for dx, dy in DIRECTIONS:
            line = []
            cur = (h[0] + dx, h[1] + dy)
            while cur in hexes:
                line.append(cur)
                cur = (cur[0] + dx, cur[1] + dy)
            if line:
                per_dir.append(tuple(line))
        lines[h] = tuple(per_dir)
    within2 = {h: tuple(o for o in order if 1 <= distance(h, o) <= 2) for h in order}
    markers = int(spec["markers"])
    return BoardMap(hexes, order, locations, start, markers, neighbours, within2, lines, frozenset(locations))


def _must(h: Hex | None) -> Hex:
    if h is None:
        raise ValueError("bad hex label in boards.json")
    return h


@cache
def board_map(name: str = "2p") -> BoardMap:
    """The map called ``name`` in boards.json (``"2p"`` for two players)."""
    data = json.loads((Path(__file__).parent / "boards.json").read_text(encoding="utf-8"))
    return _build(data[name])
