"""Where a Cry Havoc map side is drawn: one tile per region, the borders between them and the edge
arrows, laid out so that no two borders cross and no border runs under a third region's tile.

The printed positions (0..100 on both axes) place the regions of the three- and four-player side
too close together for tiles whose names a phone can read: drawn at that size, borders run under
other tiles and look crossed. That side is therefore drawn from positions of its own, found by
spreading the printed ones apart until every tile has room and every border is free (the table
below); they keep each region where the printed map has it (north stays north). The two-player
side's printed rows and columns already have room: it is drawn from them, stretched over the frame.

Regions joined across the map edge get a short arrow each, with the same letter at both ends. Each
arrow leaves its tile away from the middle of the map, or, where another tile or a border is in the
way, in the nearest direction that is clear.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

Point = tuple[float, float]
Box = tuple[float, float, float, float]
Segment = tuple[Point, Point]

FRAME: dict[str, tuple[int, int]] = {"small": (1180, 860), "large": (1180, 1000)}
"""Width and height of each side's map in pixels."""
TILE: dict[str, tuple[int, int]] = {"small": (300, 100), "large": (176, 124)}
"""Width and height of a region's tile on each side: room for its name in legible type and a row
(two rows on the large side) of pieces."""
SIDE_MARGIN = 50
"""Room kept at the left and right of the two-player side for its edge arrows."""

POSITIONS: dict[str, dict[str, Point]] = {
    "large": {
        "dawnkeep": (963, 66),
        "mossdeep": (669, 143),
        "stonecrown": (462, 184),
        "flintpeak": (874, 206),
        "ashplain": (312, 324),
        "pearlcove": (1024, 346),
        "skyforge": (718, 346),
        "deepwell": (523, 360),
        "rootmaze": (866, 486),
        "scorchwaste": (1084, 500),
        "hive": (674, 500),
        "vineholt": (290, 501),
        "stormkeep": (92, 502),
        "hollowgrove": (482, 532),
        "mirrorlake": (816, 640),
        "dustbowl": (1024, 654),
        "sunpit": (620, 673),
        "driftwater": (309, 677),
        "kelpshoal": (874, 794),
        "wildbloom": (462, 817),
        "frostcrag": (669, 857),
        "duskkeep": (963, 934),
    }
}
"""Tile centres of the regions of the large side, in pixels of its frame."""

ARROW_LENGTH = 24
BADGE_RADIUS = 14
LETTERS = "ABCDEFGH"


@dataclass(frozen=True)
class Layout:
    """The pixel layout of one map side: frame, tile size and every region's tile centre."""

    width: int
    height: int
    tile_w: int
    tile_h: int
    centers: tuple[tuple[str, Point], ...]

    def center(self, rid: str) -> Point:
        return dict(self.centers)[rid]

    def box(self, rid: str) -> Box:
        cx, cy = self.center(rid)
        return (cx - self.tile_w / 2, cy - self.tile_h / 2, cx + self.tile_w / 2, cy + self.tile_h / 2)


@lru_cache(maxsize=8)
def layout_for(side: str, printed: tuple[tuple[str, float, float], ...]) -> Layout:
    """The layout of ``side`` for regions at their printed positions (``(id, x, y)``): the table's
    positions when it has every region, else the printed ones stretched over the frame."""
    width, height = FRAME.get(side, FRAME["large"])
    tile_w, tile_h = TILE.get(side, TILE["large"])
    table = POSITIONS.get(side, {})
    if printed and all(rid in table for rid, _x, _y in printed):
        centers = tuple((rid, table[rid]) for rid, _x, _y in printed)
        return Layout(width, height, tile_w, tile_h, centers)
    xs = [x for _r, x, _y in printed] or [0.0, 100.0]
    ys = [y for _r, _x, y in printed] or [0.0, 100.0]
    left, right = tile_w / 2 + SIDE_MARGIN, width - tile_w / 2 - SIDE_MARGIN
    top, bottom = tile_h / 2 + 8, height - tile_h / 2 - 8
    sx = (right - left) / max(1.0, max(xs) - min(xs))
    sy = (bottom - top) / max(1.0, max(ys) - min(ys))
    centers = tuple((rid, (left + (x - min(xs)) * sx, top + (y - min(ys)) * sy)) for rid, x, y in printed)
    return Layout(width, height, tile_w, tile_h, centers)


def borders(
    adjacency: Iterable[tuple[str, str]], arrows: Iterable[Sequence[str]], layout: Layout
) -> list[tuple[str, str]]:
    """The pairs of regions joined by a border line: adjacent, both on the map, not joined by an
    edge arrow (those are drawn as arrows), each pair once."""
    ids = dict(layout.centers)
    across = {tuple(sorted(pair)) for pair in arrows}
    pairs = {tuple(sorted(pair)) for pair in adjacency}
    return sorted((a, b) for a, b in pairs if a in ids and b in ids and a != b and (a, b) not in across)


def border_segments(pairs: Iterable[tuple[str, str]], layout: Layout) -> list[Segment]:
    """Each border as drawn: a line between the two tiles' centres (the tiles cover its ends)."""
    return [(layout.center(a), layout.center(b)) for a, b in pairs]


@dataclass(frozen=True)
class Arrow:
    """An edge arrow: it leaves ``region``'s tile at ``start``, ends at ``tip``, and carries
    ``letter`` in a disc centred on ``badge``."""

    region: str
    start: Point
    tip: Point
    badge: Point
    letter: str

    @property
    def segment(self) -> Segment:
        """From where the arrow leaves its tile to the far side of its letter's disc."""
        dx, dy = self.badge[0] - self.tip[0], self.badge[1] - self.tip[1]
        n = math.hypot(dx, dy) or 1.0
        return (self.start, (self.badge[0] + dx / n * BADGE_RADIUS, self.badge[1] + dy / n * BADGE_RADIUS))


def arrows_for(arrows: Sequence[Sequence[str]], layout: Layout, lines: Sequence[Segment]) -> list[Arrow]:
    """The edge arrows of ``arrows`` (pairs of regions), lettered A, B... by pair: each leaves its tile
    away from the map's middle, or in the nearest clear direction when a tile, a border line, another
    arrow or the frame is in the way."""
    ids = dict(layout.centers)
    wanted: list[tuple[str, str]] = []
    for i, pair in enumerate(arrows):
        wanted += [(rid, LETTERS[i % len(LETTERS)]) for rid in pair if rid in ids]
    mid = (layout.width / 2, layout.height / 2)
    placed: list[Arrow] = []
    for rid, letter in wanted:
        cx, cy = ids[rid]
        base = math.atan2(cy - mid[1], cx - mid[0])
        same = sum(1 for a in placed if a.region == rid)
        best: Arrow | None = None
        for step in range(37):
            turn = (step + 1) // 2 * (1 if step % 2 else -1) * math.radians(10)
            angle = base + turn + same * math.radians(35)
            candidate = _arrow(layout, rid, angle, letter)
            if _clear(candidate, layout, lines, placed):
                best = candidate
                break
        placed.append(best or _arrow(layout, rid, base, letter))
    return placed


def _arrow(layout: Layout, rid: str, angle: float, letter: str) -> Arrow:
    dx, dy = math.cos(angle), math.sin(angle)
    start = exit_point(layout.box(rid), (dx, dy))
    tip = (start[0] + dx * ARROW_LENGTH, start[1] + dy * ARROW_LENGTH)
    badge = (tip[0] + dx * (BADGE_RADIUS + 2), tip[1] + dy * (BADGE_RADIUS + 2))
    return Arrow(rid, start, tip, badge, letter)


def _clear(arrow: Arrow, layout: Layout, lines: Sequence[Segment], placed: Sequence[Arrow]) -> bool:
    bx, by = arrow.badge
    r = BADGE_RADIUS + 3
    if bx - r < 0 or by - r < 0 or bx + r > layout.width or by + r > layout.height:
        return False
    seg = arrow.segment
    for rid, _center in layout.centers:
        box = layout.box(rid)
        if rid != arrow.region and segment_hits_box(seg, box, 4):
            return False
    if any(segments_cross(seg, line) or point_segment_distance(arrow.badge, line) < r for line in lines):
        return False
    return all(
        not segments_cross(seg, other.segment) and math.dist(arrow.badge, other.badge) > 2 * r
        for other in placed
    )


def exit_point(box: Box, direction: Point) -> Point:
    """Where a ray from the middle of ``box`` along ``direction`` leaves the box."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    dx, dy = direction
    tx = (box[2] - cx) / abs(dx) if dx else math.inf
    ty = (box[3] - cy) / abs(dy) if dy else math.inf
    t = min(tx, ty)
    return (cx + dx * t, cy + dy * t)


def segments_cross(s: Segment, t: Segment) -> bool:
    """Whether two segments cross at a point inside both (touching at a shared end does not count)."""

    def side(a: Point, b: Point, c: Point) -> int:
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (v > 1e-9) - (v < -1e-9)

    (p1, p2), (p3, p4) = s, t
    return side(p1, p2, p3) * side(p1, p2, p4) < 0 and side(p3, p4, p1) * side(p3, p4, p2) < 0


def segment_hits_box(s: Segment, box: Box, margin: float = 0.0) -> bool:
    """Whether segment ``s`` passes through ``box`` grown by ``margin`` on every side."""
    (ax, ay), (bx, by) = s
    x0, y0, x1, y1 = box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin
    dx, dy = bx - ax, by - ay
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    return t0 < t1


def point_segment_distance(p: Point, s: Segment) -> float:
    (ax, ay), (bx, by) = s
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if not length else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def printed_positions(regions: Iterable[Mapping[str, object]]) -> tuple[tuple[str, float, float], ...]:
    """``(id, x, y)`` of a view's regions, the key of ``layout_for``."""
    out = []
    for r in regions:
        pos = r["pos"]
        assert isinstance(pos, Sequence)
        out.append((str(r["id"]), float(pos[0]), float(pos[1])))
    return tuple(out)
