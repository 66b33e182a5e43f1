"""What one viewer may see: the dict the renderer draws (docs/architecture.md, "War Chest view").

Hidden information (hands, bag contents, the types of face-down discards, a Warrior Priest's drawn
coin) appears only in ``private``, and only for the viewer's own seat.
"""

from __future__ import annotations

from typing import Any

from engine.text import encode_msg
from engine.warchest.board import label
from engine.warchest.labels import last_description
from engine.warchest.manoeuvres import bmap
from engine.warchest.rules import acting_seat
from engine.warchest.state import State
from engine.warchest.units import ROYAL


def public_text(action_text: str) -> str:
    """The action text with the paying coin of a face-down discard left out."""
    words = action_text.split()
    if words and words[0] in ("initiative", "pass"):
        return words[0]
    if words and words[0] == "recruit":
        return " ".join(words[:2])
    return action_text


def view(st: State, viewer: str | None, result_json: Any) -> dict[str, Any]:
    bm = bmap(st)
    seats = []
    for i, seat in enumerate(st.seats):
        kinds = list(seat.units)
        seats.append(
            {
                "id": st.players[i],
                "team": seat.team,
                "units": kinds,
                "supply": {u: seat.supply.get(u, 0) for u in kinds},
                "discard_up": {u: seat.discard_up.get(u, 0) for u in [*kinds, ROYAL]},
                "discard_down": len(seat.discard_down),
                "bag": len(seat.bag),
                "hand": len(seat.hand),
                "eliminated": {u: seat.eliminated.get(u, 0) for u in kinds},
                "markers_left": st.markers[seat.team],
            }
        )
    acting = acting_seat(st)
    pending = None
    if st.pending and st.phase == "play":
        top = st.pending[-1]
        pending = {"seat": top.seat, "kind": top.kind}
    draft = None
    if st.phase == "draft" and st.draft is not None:
        draft = {
            "pool": list(st.draft["pool"]),
            "picks": {str(i): list(p) for i, p in enumerate(st.draft["picks"])},
        }
    last = None
    if st.last is not None:
        hexes = [list(h) for h in st.last[2]]
        moved = st.last[1].split()[:1] == ["move"] and len(hexes) == 2  # a move's path: an arrow
        last = {
            "seat": st.last[0],
            "text": st.last[1],
            "hexes": hexes,
            "path": hexes if moved else None,
            "label": encode_msg(last_description(st.last[1])),
        }
    private = None
    seat_index = st.seat_of(viewer) if viewer is not None else None
    if seat_index is not None:
        own = st.seats[seat_index]
        bag: dict[str, int] = {}
        for coin in own.bag:
            bag[coin] = bag.get(coin, 0) + 1
        private = {"seat": seat_index, "hand": list(own.hand), "bag": bag}
    return {
        "game": "warchest",
        "viewer": viewer,
        "board": {
            "hexes": [list(h) for h in bm.order],
            "locations": [
                {"hex": list(h), "label": label(h), "team": st.control.get(h)} for h in bm.locations
            ],
        },
        "units": [
            {
                "hex": list(h),
                "label": label(h),
                "seat": u[0],
                "team": st.seats[u[0]].team,
                "type": u[1],
                "height": u[2],
            }
            for h, u in sorted(st.board.items())
        ],
        "seats": seats,
        "round": st.round,
        "initiative": st.initiative,
        "to_act": [] if acting is None else [acting],
        "pending": pending,
        "phase": st.phase,
        "draft": draft,
        "last": last,
        "result": result_json,
        "private": private,
    }
