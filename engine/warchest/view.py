"""What one viewer may see: the dict the renderer draws, a ``WarChestView`` (below).

Hidden information (hands, bag contents, the types of face-down discards, a Warrior Priest's drawn
coin) appears only in ``private``, and only for the viewer's own seat.

The view is a ``WarChestView`` (a ``TypedDict``, so it stays the plain dict that worker processes
pickle and the golden tests read): ``render/warchest`` takes it, so the type check holds both sides
to the same keys.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from engine.contract import EncodedMsg, ResultJson
from engine.text import Msg, encode_msg, msg
from engine.warchest.board import label
from engine.warchest.labels import last_description
from engine.warchest.manoeuvres import bmap
from engine.warchest.rules import acting_seat, unit_name
from engine.warchest.state import Last, PendingKind, Phase, State, Struck
from engine.warchest.units import ROYAL

HexView = list[int]
"""A hex as ``[x, y]`` (``engine.warchest.board.Hex`` as JSON)."""


class StruckView(TypedDict):
    """A unit an action struck, crossed out where it stood when ``removed``."""

    hex: HexView
    label: str
    seat: int
    type: str
    removed: bool


class MarksView(TypedDict):
    """What the board marks of one action (``_marks``)."""

    seat: int
    text: str
    hexes: list[HexView]
    path: list[HexView] | None
    struck: list[StruckView]


class LastView(MarksView):
    """The last action that changed the board, with its description and what it did to units."""

    label: EncodedMsg
    outcome: list[EncodedMsg]


class SeatView(TypedDict):
    """One seat's public panel. ``away`` is the table layer's mark on an absent player."""

    id: str
    team: int
    units: list[str]
    supply: dict[str, int]
    discard_up: dict[str, int]
    discard_down: int
    bag: int
    hand: int
    eliminated: dict[str, int]
    markers_left: int
    away: NotRequired[str]


class LocationView(TypedDict):
    hex: HexView
    label: str
    team: int | None


class BoardView(TypedDict):
    hexes: list[HexView]
    locations: list[LocationView]


class UnitView(TypedDict):
    """A stack on the board: its unit type, owner and number of coins (``height``)."""

    hex: HexView
    label: str
    seat: int
    team: int
    type: str
    height: int


class PendingView(TypedDict):
    seat: int
    kind: PendingKind


class DraftView(TypedDict):
    """The draft's open pool and each seat's picks, keyed by seat index as text (JSON keys)."""

    pool: list[str]
    picks: dict[str, list[str]]


class PrivateView(TypedDict):
    """The viewer's own hidden coins: their hand and the count of each coin in their bag."""

    seat: int
    hand: list[str]
    bag: dict[str, int]


class WarChestView(TypedDict):
    """What ``view`` returns and ``render/warchest`` draws; the key names are the renderers' too."""

    game: Literal["warchest"]
    viewer: str | None
    board: BoardView
    units: list[UnitView]
    seats: list[SeatView]
    round: int
    initiative: int
    to_act: list[int]
    pending: PendingView | None
    phase: Phase
    draft: DraftView | None
    last: LastView | None
    since: list[MarksView]
    result: ResultJson | None
    private: PrivateView | None


def public_text(action_text: str) -> str:
    """The action text with the paying coin of a face-down discard left out."""
    words = action_text.split()
    if words and words[0] in ("initiative", "pass"):
        return words[0]
    if words and words[0] == "recruit":
        return " ".join(words[:2])
    return action_text


def _marks(record: Last) -> MarksView:
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


def view(st: State, viewer: str | None, result_json: ResultJson | None) -> WarChestView:
    bm = bmap(st)
    seats: list[SeatView] = []
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
    pending: PendingView | None = None
    if st.pending and st.phase == Phase.PLAY:
        top = st.pending[-1]
        pending = {"seat": top.seat, "kind": top.kind}
    draft: DraftView | None = None
    if st.phase == Phase.DRAFT and st.draft is not None:
        draft = {
            "pool": list(st.draft["pool"]),
            "picks": {str(i): list(p) for i, p in enumerate(st.draft["picks"])},
        }
    shown = st.trail[-1] if st.trail else st.last  # the last action that changed the board
    last: LastView | None = None
    if shown is not None:
        last = {
            **_marks(shown),
            "label": encode_msg(last_description(shown[1])),
            "outcome": [encode_msg(o) for o in outcome(shown[3])],
        }
    private: PrivateView | None = None
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
