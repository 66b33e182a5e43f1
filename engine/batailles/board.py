"""The battlefield: a grid of square zones, their terrain, and the map text format.

Zones are ``(x, y)`` pairs, ``x`` the column from the west edge, ``y`` the row from the
south edge. Labels read like a chessboard: ``(2, 0)`` is ``c1``. The first seat deploys on
the southern rows and the second on the northern rows, so "forward" is north for the
first seat and south for the second.

Map text format (presets in ``maps/*.txt``, custom maps through the ``custom_map``
option): one line per row, the first line being the northern edge; rows may also be
separated by ``/`` so that a whole map fits in one option value. Zones in a row are
separated by spaces or commas. A zone is ``.`` (open ground) or a group of letters,
one per terrain piece, plus an optional number:

- ``f`` one forest piece (one place; four pieces make the zone impassable)
- ``b`` one building or fortification piece (one place)
- ``r`` one place of river; a river takes at least two places, so ``rr`` or more
- ``h`` a hill (covers the whole zone without taking a place)
- a number, e.g. ``2``: an advantage zone worth that many advantage points per turn

For example ``hbb3`` is a hill carrying two buildings, worth 3 advantage points.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from engine.errors import BadInput

Zone = tuple[int, int]

DIRECTIONS: dict[str, Zone] = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}
OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e"}
FACINGS = ("n", "e", "s", "w")
COLUMNS = "abcdefghijklmnop"
PLACES = 4
"""Elements (terrain places plus troops) a zone holds."""
GAP = 5
"""Zones that must separate the two armies at deployment."""
MIN_SIZE = (2, 7)
MAX_SIZE = (len(COLUMNS), 16)
MAX_ADVANTAGE = 9

_MAPS = Path(__file__).parent / "maps"
_ZONE_RE = re.compile(r"^([fbrh]*)(\d*)$")
_LABEL_RE = re.compile(r"^([a-p])(\d{1,2})$")


def label(zone: Zone) -> str:
    """``(2, 0)`` -> ``c1``: what players type and the image prints."""
    return f"{COLUMNS[zone[0]]}{zone[1] + 1}"


def parse_label(text: str) -> Zone | None:
    """The zone a label names, or None when it is not a label (bounds are checked elsewhere)."""
    m = _LABEL_RE.match(text.strip().lower())
    if not m or int(m.group(2)) < 1:
        return None
    return (COLUMNS.index(m.group(1)), int(m.group(2)) - 1)


def step(zone: Zone, direction: str, n: int = 1) -> Zone:
    dx, dy = DIRECTIONS[direction]
    return (zone[0] + dx * n, zone[1] + dy * n)


@dataclass(frozen=True)
class Terrain:
    """What stands in one zone besides troops."""

    forest: int = 0
    building: int = 0
    river: int = 0
    hill: bool = False
    advantage: int = 0

    @property
    def places(self) -> int:
        """Places taken by terrain pieces; the hill carries them and takes none itself."""
        return self.forest + self.building + self.river

    @property
    def impassable(self) -> bool:
        return self.places >= PLACES

    @property
    def cover(self) -> int:
        """Defence dice these pieces give: one per forest piece (three at most), two per building."""
        return min(self.forest, 3) + 2 * self.building

    @property
    def defence_bonus(self) -> int:
        """Defence dice a troop standing here adds: the cover plus one for a hill."""
        return self.cover + (1 if self.hill else 0)

    def token(self) -> str:
        text = "h" * self.hill + "f" * self.forest + "b" * self.building + "r" * self.river
        if self.advantage:
            text += str(self.advantage)
        return text or "."


OPEN = Terrain()


@dataclass(frozen=True)
class Board:
    """An immutable battlefield; states share it and store its text."""

    width: int
    height: int
    terrain: tuple[tuple[Zone, Terrain], ...]
    _lookup: dict[Zone, Terrain] = field(init=False, repr=False, compare=False, hash=False)
    _text: str = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        # Derived once: the board is immutable and read on every rule check.
        object.__setattr__(self, "_lookup", dict(self.terrain))
        rows = []
        for y in reversed(range(self.height)):
            rows.append(" ".join(self.at((x, y)).token() for x in range(self.width)))
        object.__setattr__(self, "_text", "/".join(rows))

    def at(self, zone: Zone) -> Terrain:
        return self._lookup.get(zone, OPEN)

    def inside(self, zone: Zone) -> bool:
        return 0 <= zone[0] < self.width and 0 <= zone[1] < self.height

    def zones(self) -> list[Zone]:
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    @property
    def deploy_depth(self) -> int:
        """Rows each army deploys on: two at most, leaving at least five rows between the armies."""
        return min(2, (self.height - GAP) // 2)

    def front_row(self, seat: int) -> int:
        """The row of ``seat``'s deployment nearest the enemy."""
        return self.deploy_depth - 1 if seat == 0 else self.height - self.deploy_depth

    def deploy_zones(self, seat: int) -> list[Zone]:
        depth = self.deploy_depth
        rows = range(depth) if seat == 0 else range(self.height - depth, self.height)
        return [(x, y) for y in rows for x in range(self.width) if not self.at((x, y)).impassable]

    def advantage_zones(self) -> list[tuple[Zone, int]]:
        return [(z, t.advantage) for z, t in self.terrain if t.advantage]

    def to_text(self) -> str:
        """The map in the text format, rows joined by ``/`` (north first)."""
        return self._text


@cache
def parse_map(text: str) -> Board:
    """Read the map text format; ``BadInput`` names the faulty zone and the rule it breaks."""
    lines = [ln.strip() for ln in re.split(r"[/\n]", text) if ln.strip()]
    rows = [[token for token in re.split(r"[,\s]+", ln) if token] for ln in lines]
    height = len(rows)
    width = len(rows[0]) if rows else 0
    if not (MIN_SIZE[0] <= width <= MAX_SIZE[0] and MIN_SIZE[1] <= height <= MAX_SIZE[1]):
        raise BadInput(
            "bt.err.map_size",
            width=width,
            height=height,
            min_w=MIN_SIZE[0],
            min_h=MIN_SIZE[1],
            max_w=MAX_SIZE[0],
            max_h=MAX_SIZE[1],
        )
    terrain: list[tuple[Zone, Terrain]] = []
    for row_index, row in enumerate(rows):
        y = height - 1 - row_index
        if len(row) != width:
            raise BadInput("bt.err.map_row", line=row_index + 1, row=y + 1, count=len(row), width=width)
        for x, token in enumerate(row):
            zone = (x, y)
            found = _zone_terrain(token.lower(), zone, row_index + 1)
            if found != OPEN:
                terrain.append((zone, found))
    board = Board(width, height, tuple(sorted(terrain, key=lambda item: (item[0][1], item[0][0]))))
    for seat in (0, 1):
        if not board.deploy_zones(seat):
            raise BadInput("bt.err.map_no_deploy", seat=seat + 1)
    return board


def _zone_terrain(token: str, zone: Zone, line: int) -> Terrain:
    """One zone's terrain; ``line`` is the map line it is on (1 = the northern row), for the error."""
    if token == ".":
        return OPEN
    m = _ZONE_RE.match(token)
    if not m or not token or m.group(1).count("h") > 1:
        raise BadInput("bt.err.map_zone", zone=label(zone), line=line, column=zone[0] + 1, token=token)
    pieces, number = m.group(1), m.group(2)
    river = pieces.count("r")
    if river == 1:
        raise BadInput("bt.err.map_river", zone=label(zone))
    found = Terrain(
        forest=pieces.count("f"),
        building=pieces.count("b"),
        river=river,
        hill="h" in pieces,
        advantage=int(number) if number else 0,
    )
    if found.places > PLACES:
        raise BadInput("bt.err.map_full", zone=label(zone), places=found.places, max=PLACES)
    if found.advantage > MAX_ADVANTAGE:
        raise BadInput("bt.err.map_advantage", zone=label(zone), max=MAX_ADVANTAGE)
    return found


PRESET_MAPS = ("default", "open_field", "forest_river", "hill_village")


def preset_map(name: str) -> Board:
    return parse_map((_MAPS / f"{name}.txt").read_text(encoding="utf-8"))
