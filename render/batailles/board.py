"""The Batailles battlefield of one view: the cached empty field with the moment's state on top.

On top of the empty field come, in order: yellow outlines around the zones the last action touched
(the view's ``last["zones"]``: both ends of a move or an attack, the zone of a deployment, an
activation, a morale test or a loss), the zone of a pending loss or morale test and the target of
an attack being resolved, the troops in the free places of their zones (those acting now glow yellow), and
the hits each zone has taken this turn, at the right end of the zone's band.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image

from engine.batailles.view import BataillesView, MarksView, TroopView, ZoneView
from render.batailles.field import FieldMap, Grid, Zone, badge_boxes, empty_field, field_map, places, zone_of
from render.batailles.sprites import (
    ACTIVE,
    DONE,
    IDLE,
    STAT_LETTERS,
    hits_badge,
    removed_badge,
    troop_bar,
    zone_outline,
)
from render.common import arrow, marked_actions
from render.layers import Layers, Piece, Shelf, centered


def profile_of(troop: TroopView) -> tuple[int, ...]:
    """The six characteristics of a troop in the rules' order (M A D R C L)."""
    p = troop.get("profile") or {}
    keys = ("movement", "attack", "defence", "range", "command", "logistics")
    return tuple(int(p.get(key, 0)) for key in keys)


def troop_state(view: BataillesView, troop: TroopView) -> str:
    """Whether a troop is acting now (activation or attack being resolved), has acted, or neither."""
    seat = troop.get("seat")
    name = troop.get("name")
    activation = view.get("activation")
    combat = view.get("combat")
    if activation and seat == view.get("active") and name in (activation.get("troops") or []):
        return ACTIVE
    if combat and seat == combat.get("attacker") and name in (combat.get("troops") or []):
        return ACTIVE
    if troop.get("activated"):
        return DONE
    return IDLE


def marked_zones(view: BataillesView, cols: int, rows: int) -> list[Zone]:
    """Zones to outline: those the moves since the last handover touched (the last action's
    included) or lost troops in, a pending choice's, an attack's under way."""
    zones: list[Zone] = []
    touched = [z for m in marked_actions(view, "zones") for z in [*(m.get("zones") or []), *removed_in(m)]]
    for item in [
        *({"zone": z} for z in touched),
        view.get("pending") or {},
        {"zone": combat.get("target") if (combat := view.get("combat")) else None},
    ]:
        z = zone_of(item) if item else None
        if z is not None and z not in zones and 0 <= z[0] < cols and 0 <= z[1] < rows:
            zones.append(z)
    return zones


def removed_in(marked: MarksView) -> list[ZoneView]:
    """The zones an action removed troops from, one entry per troop."""
    return [r.get("zone") for r in marked.get("removed") or [] if r.get("zone") is not None]


def removed_count(view: BataillesView) -> dict[Zone, int]:
    """How many troops the moves since the last handover removed from each zone."""
    counts: dict[Zone, int] = {}
    for marked in marked_actions(view, "zones"):
        for z in removed_in(marked):
            at = zone_of({"zone": z})
            if at is not None:
                counts[at] = counts.get(at, 0) + 1
    return counts


def move_paths(view: BataillesView, cols: int, rows: int) -> list[tuple[Zone, Zone]]:
    """The zones each move since the last handover went from and to (``path``), drawn as arrows."""
    paths: list[tuple[Zone, Zone]] = []
    for marked in marked_actions(view, "zones"):
        path = [zone_of({"zone": z}) for z in marked.get("path") or []]
        inside = [z for z in path if z is not None and 0 <= z[0] < cols and 0 <= z[1] < rows]
        if len(inside) == 2 and (inside[0], inside[1]) not in paths:
            paths.append((inside[0], inside[1]))
    return paths


def move_path(view: BataillesView, cols: int, rows: int) -> tuple[Zone, Zone] | None:
    """The last move's path (the view's ``last["path"]``), one of ``move_paths``."""
    last = view.get("last")
    path = [zone_of({"zone": z}) for z in (last.get("path") if last else None) or []]
    inside = [z for z in path if z is not None and 0 <= z[0] < cols and 0 <= z[1] < rows]
    return (inside[0], inside[1]) if len(inside) == 2 else None


def _middle(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


LAYERS_KEPT = 4
"""Battlefields (maps and sizes) whose last drawing is kept to be re-laid: a few MB each."""
_layers: Shelf[tuple[FieldMap, Grid]] = Shelf(LAYERS_KEPT)


def draw_battlefield(view: BataillesView, grid: Grid, letters: tuple[str, ...] = STAT_LETTERS) -> Image.Image:
    """The battlefield image of ``view`` (exactly ``grid.width`` x ``grid.height`` pixels); the
    troops' characteristics are written after ``letters``, their initials in the reader's language.
    A copy: the page itself pastes the kept picture (``kept_battlefield``)."""
    return kept_battlefield(view, grid, letters).canvas.copy()


def kept_battlefield(view: BataillesView, grid: Grid, letters: tuple[str, ...] = STAT_LETTERS) -> Layers:
    """What ``draw_battlefield`` draws, re-laid from the battlefield's last drawing where its pieces
    changed (``render.layers``), with what changed."""
    fmap = field_map(view)
    layers = _layers.get((fmap, grid), empty_field(fmap, grid))
    layers.draw(battlefield_pieces(view, grid, letters))
    return layers


def battlefield_pieces(view: BataillesView, grid: Grid, letters: tuple[str, ...]) -> list[Piece]:
    """What goes on the empty battlefield, bottom first: the outlines of the marked zones, the last
    move's arrow, the troops' bars, the hits badges."""
    fmap = field_map(view)
    pieces: list[Piece] = []
    s = grid.size
    for marked in marked_zones(view, grid.cols, grid.rows):
        x0, y0, x1, y1 = grid.zone_box(marked)
        pieces.append(centered(zone_outline(s, round(x1 - x0)), ((x0 + x1) / 2, (y0 + y1) / 2)))
    for path in move_paths(view, grid.cols, grid.rows):  # from the middle of the zone left to the
        (ax, ay), (bx, by) = (_middle(grid.zone_box(z)) for z in path)  # edge of the zone reached
        drawn = arrow((ax, ay), (ax + (bx - ax) * 0.55, ay + (by - ay) * 0.55))
        if drawn is not None:
            pieces.append(drawn)

    by_zone: dict[Zone, list[TroopView]] = {}
    for troop in view.get("troops") or []:
        at = zone_of(troop)
        if at is None or troop.get("lost"):
            continue
        by_zone.setdefault(at, []).append(troop)
    for zone, troops in by_zone.items():
        for troop, (place, span) in zip(troops, allot(places(fmap.at(zone)), len(troops)), strict=False):
            x0, y0, x1, y1 = grid.place_box(zone, place, span)
            bar = troop_bar(
                str(troop.get("name", "?")),
                int(troop.get("seat", 0)),
                profile_of(troop),
                str(troop.get("facing", "n")),
                math.floor(x1 - x0),
                math.floor(y1 - y0),
                troop_state(view, troop),
                letters,
            )
            pieces.append((bar, round(x0), round(y0)))

    right: dict[Zone, float] = {}  # where the next badge of a zone's band ends
    for item in view.get("hits") or []:
        hit_zone = zone_of(item)
        hits = int(item.get("hits", 0))
        if hit_zone is None or hits <= 0:
            continue
        _box, room = badge_boxes(grid, hit_zone, fmap.at(hit_zone))
        badge = hits_badge(hits, grid.strip - 2)
        if badge.width > room[2] - room[0]:
            badge = hits_badge(hits, grid.strip - 2, burst=False)
        pieces.append((badge, round(room[2] - badge.width), round(room[1])))
        right[hit_zone] = room[2] - badge.width - 3
    for zone, count in removed_count(view).items():  # left of the hits: the troops lost there
        if not (0 <= zone[0] < grid.cols and 0 <= zone[1] < grid.rows):
            continue
        _box, room = badge_boxes(grid, zone, fmap.at(zone))
        badge = removed_badge(count, grid.strip - 2)
        end = right.get(zone, room[2])
        if end - badge.width >= room[0]:
            pieces.append((badge, round(end - badge.width), round(room[1])))
    return pieces


def allot(filled: Sequence[str | None], count: int) -> list[tuple[int, int]]:
    """The (first place, places spanned) of ``count`` troops in a zone whose places hold ``filled``:
    the free places top to bottom, two each when there are twice as many free places as troops
    next to each other, so that a troop with room shows its characteristics."""
    free = [i for i, kind in enumerate(filled) if kind is None]
    free += [i for i, kind in enumerate(filled) if kind is not None]  # never happens in a legal game
    out: list[tuple[int, int]] = []
    wide = count and len([i for i in free if filled[i] is None]) >= 2 * count
    n = 0
    while len(out) < count and n < len(free):
        place = free[n]
        if wide and n + 1 < len(free) and free[n + 1] == place + 1:
            out.append((place, 2))
            n += 2
        else:
            out.append((place, 1))
            n += 1
    while len(out) < count:  # more troops than places: share the last one
        out.append(out[-1] if out else (0, 1))
    return out
