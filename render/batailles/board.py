"""The Batailles battlefield of one view: the cached empty field with the moment's state on top.

On top of the empty field come, in order: yellow outlines around the zones the last action named
(or the zone a move reached, the zone of a pending loss or morale test, the target of an attack
being resolved), the troops in the free places of their zones (those acting now glow yellow), and
the hits each zone has taken this turn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from PIL import Image

from render.batailles.field import Grid, Zone, empty_field, field_map, places, zone_of
from render.batailles.sprites import ACTIVE, DONE, IDLE, hits_badge, troop_card, zone_outline
from render.common import paste_centered

_LABEL = re.compile(r"\b([a-p])(\d{1,2})\b")


def profile_of(troop: Mapping[str, Any]) -> tuple[int, ...]:
    """The six characteristics of a troop in the rules' order (M A D R C L)."""
    p = troop.get("profile") or {}
    keys = ("movement", "attack", "defence", "range", "command", "logistics")
    return tuple(int(p.get(key, 0)) for key in keys)


def troop_state(view: Mapping[str, Any], troop: Mapping[str, Any]) -> str:
    """Whether a troop is acting now (activation or attack being resolved), has acted, or neither."""
    seat = troop.get("seat")
    name = troop.get("name")
    activation = view.get("activation") or {}
    combat = view.get("combat") or {}
    if seat == view.get("active") and name in (activation.get("troops") or []):
        return ACTIVE
    if seat == combat.get("attacker") and name in (combat.get("troops") or []):
        return ACTIVE
    if troop.get("activated"):
        return DONE
    return IDLE


def named_zones(text: str, cols: int, rows: int) -> list[Zone]:
    """The zones an action text names (``attack d6 2`` names d6), inside the board."""
    found: list[Zone] = []
    for m in _LABEL.finditer(text.lower()):
        zone = ("abcdefghijklmnop".index(m.group(1)), int(m.group(2)) - 1)
        if 0 <= zone[0] < cols and 0 <= zone[1] < rows and zone not in found:
            found.append(zone)
    return found


def marked_zones(view: Mapping[str, Any], cols: int, rows: int) -> list[Zone]:
    """Zones to outline: those of the last action, a pending choice, an attack under way."""
    zones: list[Zone] = []
    last = view.get("last") or {}
    text = str(last.get("text", ""))
    zones += named_zones(text, cols, rows)
    activation = view.get("activation") or {}
    if text.split()[:1] in (["move"], ["face"]) and activation:
        z = zone_of(activation)  # a move names no zone: show where the acting troops now stand
        if z is not None and z not in zones:
            zones.append(z)
    for item in (view.get("pending") or {}, {"zone": (view.get("combat") or {}).get("target")}):
        z = zone_of(item) if item else None
        if z is not None and z not in zones:
            zones.append(z)
    return zones


def draw_battlefield(view: Mapping[str, Any], grid: Grid) -> Image.Image:
    """The battlefield image of ``view`` (exactly ``grid.width`` x ``grid.height`` pixels)."""
    fmap = field_map(view)
    field = empty_field(fmap, grid).copy()
    s = grid.size
    for marked in marked_zones(view, grid.cols, grid.rows):
        x0, y0, x1, y1 = grid.zone_box(marked)
        paste_centered(field, zone_outline(s), ((x0 + x1) / 2, (y0 + y1) / 2))

    by_zone: dict[Zone, list[Mapping[str, Any]]] = {}
    for troop in view.get("troops") or []:
        at = zone_of(troop)
        if at is None or troop.get("lost"):
            continue
        by_zone.setdefault(at, []).append(troop)
    pw, ph = grid.place_size
    for zone, troops in by_zone.items():
        filled = places(fmap.at(zone))
        order = [i for i, kind in enumerate(filled) if kind is None]
        order += [i for i, kind in enumerate(filled) if kind is not None]  # never happens in a legal game
        for n, troop in enumerate(troops):
            x0, y0, x1, y1 = grid.place_box(zone, order[n % 4])
            card = troop_card(
                str(troop.get("name", "?")),
                int(troop.get("seat", 0)),
                profile_of(troop),
                str(troop.get("facing", "n")),
                pw,
                ph,
                troop_state(view, troop),
            )
            paste_centered(field, card, ((x0 + x1) / 2, (y0 + y1) / 2))

    badge_h = grid.strip + 12
    for item in view.get("hits") or []:
        hit_zone = zone_of(item)
        hits = int(item.get("hits", 0))
        if hit_zone is None or hits <= 0:
            continue
        x0, y0, x1, _y1 = grid.zone_box(hit_zone)
        paste_centered(field, hits_badge(hits, badge_h), ((x0 + x1) / 2, y0 + grid.strip / 2 + 1))
    return field
