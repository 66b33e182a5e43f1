"""The small vocabulary of effects that skills, structures, exploration tokens and events are made of.

Content files combine these effects; only this module knows what each one does. ``here`` is the
region the effect belongs to (a structure's or exploration token's region).
"""

from __future__ import annotations

from engine.cryhavoc.content import EVENTS, Effect
from engine.cryhavoc.state import St, add_crystals, board, draw_cards, move_up, place_units
from engine.text import Msg, PlayerRef, msg


def _who(st: St, seat: int) -> PlayerRef:
    return PlayerRef(st["players"][seat])


def region_name(rid: str) -> Msg:
    return msg(f"ch.region.{rid}")


def apply_simple(st: St, seat: int, effects: list[Effect], here: str | None, ev: list[Msg]) -> None:
    """Effects that need no further choice: draw, vp, recruit, units_here, crystal_here, initiative."""
    who = _who(st, seat)
    for e in effects:
        do = e["do"]
        if do == "draw":
            got = draw_cards(st, seat, e["n"])
            ev.append(msg("ch.ev.draws", player=who, n=got))
        elif do == "vp":
            st["vp"][seat] += e["n"]
            ev.append(msg("ch.ev.vp", player=who, n=e["n"]))
        elif do == "recruit":
            got = place_units(st, seat, st["hq"][seat], e["n"])
            ev.append(msg("ch.ev.recruits", player=who, n=got))
        elif do == "units_here" and here is not None:
            got = place_units(st, seat, here, e["n"])
            ev.append(msg("ch.ev.units_here", player=who, n=got, region=region_name(here)))
        elif do == "crystal_here" and here is not None:
            add_crystals(st, here, e["n"])
            ev.append(msg("ch.ev.crystal", region=region_name(here), value=st["regions"][here]["crystals"]))
        elif do == "initiative":
            move_up(st, seat)
            ev.append(msg("ch.ev.initiative", player=who))


def reveal_event(st: St, eid: str, ev: list[Msg]) -> None:
    """Resolve one event token (the events phase)."""
    e = EVENTS[eid]
    bd = board(st)
    ev.append(msg("ch.ev.event", event=msg(f"ch.event.{eid}")))
    regions = st["regions"]
    do = e["do"]
    if do == "bloom":
        for rid, reg in regions.items():
            if reg["crystals"] > 0:
                add_crystals(st, rid, 1)
    elif do == "terrain_crystals":
        for rid in regions:
            if bd.terrain(rid) == e["terrain"]:
                add_crystals(st, rid, e["n"])
    elif do == "seed":
        for rid, reg in regions.items():
            if bd.terrain(rid) in e["terrains"] and reg["crystals"] == 0 and rid not in st["hq"]:
                add_crystals(st, rid, 1)
    elif do == "trog_crystals":
        for rid, reg in regions.items():
            if reg["token"] is not None:
                add_crystals(st, rid, 1)
    elif do == "all_draw":
        for seat in st["init"]:
            draw_cards(st, seat, e["n"])
