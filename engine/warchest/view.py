"""What one viewer may see: the dict the renderer draws (docs/architecture.md, "War Chest view").

Hidden information (hands, bag contents, the types of face-down discards, a Warrior Priest's drawn
coin) appears only in ``private``, and only for the viewer's own seat.

``GAME.view(state, viewer)`` returns a JSON-safe dict; ``viewer`` is a player id or ``None`` (a spectator).
The public part never contains hidden coins (hands, bag contents, face-down discards' types). Schema::

    {
      "game": "warchest",
      "viewer": "111",                       # or null
      "board": {
        "hexes": [[0, 3], [0, 4], ...],      # every playable hex, axial (x, y)
        "locations": [                       # control locations
          {"hex": [4, 0], "label": "e1", "team": 0}   # team that controls it, or null
        ]
      },
      "units": [                             # one entry per unit on the board
        {"hex": [3, 2], "label": "d3", "seat": 0, "team": 0, "type": "archer", "height": 2}
      ],
      "seats": [                             # in seat order
        {
          "id": "111", "team": 0,
          "units": ["swordsman", "pikeman", "crossbowman", "light_cavalry"],   # unit cards
          "supply": {"swordsman": 3, ...},   # coins left in supply per type
          "discard_up": {"pikeman": 1, "royal": 0},   # face-up discard, per type (public)
          "discard_down": 2,                 # face-down discard: count only
          "bag": 5,                          # count only
          "hand": 2,                         # count only
          "eliminated": {"archer": 1},       # coins removed from the game, per type
          "markers_left": 4                  # control markers not yet on the board (per team in 4p)
        }
      ],
      "round": 3,
      "initiative": 0,                       # seat holding the initiative marker
      "to_act": [1],                         # seats that must act now (empty when over)
      "pending": null,                       # or {"seat": 1, "kind": "swordsman_move"} during a follow-up
      "phase": "play",                       # "draft" | "play" | "over"
      "draft": null,                         # or {"pool": ["archer", ...], "picks": {"0": [...], "1": [...]}}
      "last": {"seat": 0, "text": "attack swordsman c4 d4", "hexes": [[2, 3], [3, 3]],   # or null
               "path": null,                # hexes: those the action touched (outlined);
                                            # path: a move's [from, to] (an arrow)
               "struck": [{"hex": [3, 3], "label": "d4", "seat": 1, "type": "knight", "removed": true}],
               "label": {"key": "wc.did.attack", "params": {...}},   # the describer's words
               "outcome": [{"key": "wc.then.removed", "params": {...}}]},
                                            # what it did: "the Knight on d4 is removed"
      "since": [{"seat": 0, "text": "...", "hexes": [...], "path": null, "struck": [...]}],
                                             # every move on the board
                                             # since the players to act last changed, oldest first
                                             # (`last` is the latest of them, else the last action)
      "result": null,                        # or Result.to_json()
      "private": {"seat": 1, "hand": ["archer", "royal"], "bag": {"archer": 2, "royal": 1}}
                                             # only for the viewer's own seat, else null
    }

Unit type ids: ``archer berserker cavalry crossbowman ensign footman knight lancer light_cavalry marshall
mercenary pikeman royal_guard scout swordsman warrior_priest``, and ``royal`` for the Royal Coin.
"""

from __future__ import annotations

from typing import Any

from engine.text import Msg, encode_msg, msg
from engine.warchest.board import label
from engine.warchest.labels import last_description
from engine.warchest.manoeuvres import bmap
from engine.warchest.rules import acting_seat, unit_name
from engine.warchest.state import Last, State, Struck
from engine.warchest.units import ROYAL


def public_text(action_text: str) -> str:
    """The action text with the paying coin of a face-down discard left out."""
    words = action_text.split()
    if words and words[0] in ("initiative", "pass"):
        return words[0]
    if words and words[0] == "recruit":
        return " ".join(words[:2])
    return action_text


def _marks(record: Last) -> dict[str, Any]:
    """What the board marks of one action: the hexes it touched, a move's path (an arrow) and the
    units it struck (a removed one is crossed out where it stood)."""
    seat, text, touched, struck = record
    hexes = [list(h) for h in touched]
    moved = text.split()[:1] == ["move"] and len(hexes) == 2
    return {
        "seat": seat,
        "text": text,
        "hexes": hexes,
        "path": hexes if moved else None,
        "struck": [
            {"hex": list(h), "label": label(h), "seat": s, "type": kind, "removed": gone}
            for h, s, kind, gone in struck
        ],
    }


def outcome(struck: tuple[Struck, ...]) -> list[Msg]:
    """What an action did to the units it struck, for the board's last-action line: "the Knight on d4
    is removed", "the Pikeman on c3 loses a coin"."""
    return [
        msg("wc.then.removed" if gone else "wc.then.coin", unit=unit_name(kind), hex=label(h))
        for h, _seat, kind, gone in struck
    ]


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
    shown = st.trail[-1] if st.trail else st.last  # the last action that changed the board
    last = None
    if shown is not None:
        told = {
            "label": encode_msg(last_description(shown[1])),
            "outcome": [encode_msg(o) for o in outcome(shown[3])],
        }
        last = {**_marks(shown), **told}
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
        "since": [_marks(t) for t in st.trail],
        "result": result_json,
        "private": private,
    }
