"""What one viewer may see: the JSON-safe dict the renderer draws, typed as ``CryHavocView`` (a
``TypedDict``, a plain dict at run time) which ``render/cryhavoc`` takes, so that both sides agree
on its keys under the type check.

Hidden information (hands, deck order, the two cards of a draw-two-keep-one, face-down exploration
and Trog tokens) appears only as counts or kinds, and cards only in ``private`` for the viewer's
own seat. Schema::

    {
      "game": "cryhavoc",
      "viewer": "111" | null,
      "side": "small" | "large",             # map side (2 players / 3-4 players)
      "round": 2, "final": false,
      "phase": "discard" | "actions" | "battle" | "prisoners" | "scoring" | "over",
      "to_act": [0],                          # seats that must act now
      "initiative": [2, 0, 1], "upcoming": [0, 2, 1],   # seats, first acts first
      "actions_taken": 4,                     # actions completed this round (3 per player)
      "scoring_by": 1 | null,                 # who played Enable Scoring this round
      "events": {"revealed": ["ev_bloom"], "track": [{"pos": 10, "count": 1}]},
      "regions": [{
        "id": "mossdeep", "terrain": "jungle" | null, "hq": 0 | null, "hive": false,
        "pos": [50, 16],                      # where to draw it: x, y in 0..100 (printed layout)
        "units": {"0": 3, "trogs": 2},        # seat -> units; "trogs" = neutral Trogs
        "control": 0 | null, "crystals": 4, "crystal_tokens": {"red": 0, "yellow": 1, "green": 1},
        "token": "war_party" | "nest" | null, "explore": true, "tunnel": false,
        "structures": [{"type": "hu_barracks", "seat": 0}], "battle": 1 | null,
        "adjacent": ["flintpeak", ...]        # printed borders and arrows
      }],
      "arrows": [["dunes", "sandsea"]], "thick": [["hive", "basalt"]],
      "seats": [{
        "id": "111", "faction": "humans", "vp": 7, "hand": 4, "deck": 2, "discard": ["hu_muster", ...],
        "reserve": 6, "skills": [{"id": "hu_rally", "exhausted": false}],
        "structures_left": {"hu_barracks": 2},
        "prisoners_held": {"1": 1, "trogs": 0}
      }],
      "neutral_trogs": 12,
      "terrain_decks": {"mountain": 8, "desert": 6, "jungle": 8, "ocean": 7},   # cards left (face down)
      "pending": null | {"seat": 0, "kind": "move" | "recruit" | "build" | "keep", "points": 2},
      "battle": null | {"number": 1, "region": "basalt", "attacker": 0, "defender": 1 | "trogs",
                        "step": "place" | "cards" | "capture" | "kill" | "retreat" | "resolve",
                        "placing": {"attacker": 2, "defender": 3},
                        "objectives": {"control": {"attacker": 1, "defender": 2, "bonus_attacker": 0,
                                                   "bonus_defender": 1}, ...},
                        "folded": [false, true], "reversed": false},
      "last": {"seat": 0, "text": "go mossdeep flintpeak", "label": {"key": "ch.did.go", "params"},
               "regions": ["mossdeep", "flintpeak"],   # the regions it touched, in order
                                                       # (game.touched_regions)
               "path": ["mossdeep", "flintpeak"] | null} | null,   # a step's or a retreat's way
                                                       # the last action that touched the map since
                                                       # the players to act last changed, else the
                                                       # last action
      "since": [{"seat", "text", "regions", "path"}],  # every action that touched it since then
      "result": null | Result.to_json(),
      "private": null | {"seat": 0, "hand": ["hu_muster", "hu_volley"], "drawn": ["mo_quarry", "mo_pass"]}
    }
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict, cast

from engine.contract import EncodedMsg, ResultJson
from engine.cryhavoc import flow
from engine.cryhavoc.content import OBJECTIVES, TOKENS, kind_of
from engine.cryhavoc.labels import last_description
from engine.cryhavoc.state import (
    Decision,
    Fight,
    PendingKind,
    Phase,
    Record,
    St,
    Step,
    board,
    n_players,
    structure_parts,
)
from engine.text import decode_msg, encode_msg


class TrackView(TypedDict):
    """A place on the event track and how many event cards lie there."""

    pos: int
    count: int


class EventsView(TypedDict):
    revealed: list[str]
    track: list[TrackView]


class StructureView(TypedDict):
    type: str
    seat: int


class RegionView(TypedDict):
    """One region of the map: where to draw it, who holds it and what lies there."""

    id: str
    terrain: str | None
    hq: int | None
    hive: bool
    pos: list[int]
    units: dict[str, int]
    control: int | None
    crystals: int
    crystal_tokens: dict[str, int]
    token: str | None
    explore: bool
    tunnel: bool
    structures: list[StructureView]
    battle: int | None
    adjacent: list[str]


class SkillView(TypedDict):
    id: str
    exhausted: bool


class SeatView(TypedDict):
    """One seat's public panel. ``away`` is the table layer's mark on an absent player."""

    id: str
    faction: str
    vp: int
    hand: int
    deck: int
    discard: list[str]
    reserve: int
    skills: list[SkillView]
    structures_left: dict[str, int]
    prisoners_held: dict[str, int]
    away: NotRequired[str]


class PendingView(TypedDict):
    """A decision under way: moving or recruiting ``points``, building, keeping one card of two."""

    seat: int
    kind: PendingKind
    points: int


class BattleView(TypedDict):
    """The battle under way: its sides (a seat, or ``"trogs"`` defending), step and objectives."""

    number: int
    region: str
    attacker: int
    defender: int | Literal["trogs"]
    step: Step
    placing: dict[str, int]
    objectives: dict[str, dict[str, int]]
    folded: list[bool]
    reversed: bool


class MarksView(TypedDict):
    """What the map marks of one action (``_marks``)."""

    seat: int
    text: str
    regions: list[str]
    path: list[str] | None


class LastView(MarksView):
    """The last action as the state records it, with its label told for the board (absent in saves
    from before actions were labelled)."""

    label: NotRequired[EncodedMsg]


class PrivateView(TypedDict):
    """The viewer's own hand and the two cards of a draw they are choosing from."""

    seat: int
    hand: list[str]
    drawn: list[str]


class CryHavocView(TypedDict):
    """What ``view`` returns and ``render/cryhavoc`` draws (the schema above)."""

    game: Literal["cryhavoc"]
    viewer: str | None
    side: str
    round: int
    final: bool
    phase: Phase
    to_act: list[int]
    initiative: list[int]
    upcoming: list[int]
    actions_taken: int
    scoring_by: int | None
    events: EventsView
    regions: list[RegionView]
    arrows: list[list[str]]
    thick: list[list[str]]
    seats: list[SeatView]
    neutral_trogs: int
    terrain_decks: dict[str, int]
    pending: PendingView | None
    battle: BattleView | None
    last: LastView | None
    since: list[MarksView]
    result: ResultJson | None
    private: PrivateView | None


def crystal_tokens(value: int) -> dict[str, int]:
    """The fewest crystals (red 5, yellow 3, green 1) that make up a region's value."""
    red, rest = divmod(value, 5)
    yellow, green = divmod(rest, 3)
    return {"red": red, "yellow": yellow, "green": green}


def _side_key(st: St, side: int) -> str:
    return "trogs" if side >= n_players(st) else str(side)


def view(st: St, viewer: str | None, result_json: ResultJson | None) -> CryHavocView:
    bd = board(st)
    regions: list[RegionView] = []
    for rid, reg in st["regions"].items():
        printed = bd.regions[rid]
        regions.append(
            {
                "id": rid,
                "terrain": printed.get("terrain"),
                "hq": st["hq"].index(rid) if rid in st["hq"] else None,
                "hive": bool(printed.get("hive")),
                "pos": list(printed["pos"]),
                "units": {_side_key(st, i): c for i, c in enumerate(reg["units"]) if c > 0},
                "control": reg["control"],
                "crystals": reg["crystals"],
                "crystal_tokens": crystal_tokens(reg["crystals"]),
                "token": None if reg["token"] is None else reg["token"]["kind"],
                "explore": reg["explore"] is not None,
                "tunnel": reg["tunnel"],
                "structures": [{"type": t, "seat": s} for t, s in map(structure_parts, reg["structures"])],
                "battle": reg["battle"],
                "adjacent": list(bd.adj[rid]),
            }
        )
    seats: list[SeatView] = []
    for i, s in enumerate(st["seats"]):
        seats.append(
            {
                "id": st["players"][i],
                "faction": st["factions"][i],
                "vp": st["vp"][i],
                "hand": len(s["hand"]),
                "deck": len(s["deck"]),
                "discard": [kind_of(c) for c in s["discard"]],
                "reserve": s["reserve"],
                "skills": [{"id": k, "exhausted": k in s["exhausted"]} for k in s["skills"]],
                "structures_left": {k: TOKENS["structure_tokens"] - v for k, v in s["built"].items()},
                "prisoners_held": {_side_key(st, o): c for o, c in enumerate(st["prisoners"][i]) if c > 0},
            }
        )
    p: Decision | None = st["pending"]
    pending: PendingView | None = (
        None if p is None else {"seat": p["seat"], "kind": PendingKind(p["kind"]), "points": p["points"]}
    )
    seat = flow.acting_seat(st)
    private: PrivateView | None = None
    if viewer is not None and viewer in st["players"]:
        me = st["players"].index(viewer)
        drawn = [kind_of(c) for c in p["cards"]] if p is not None and p["seat"] == me else []
        private = {"seat": me, "hand": [kind_of(c) for c in st["seats"][me]["hand"]], "drawn": drawn}
    return {
        "game": "cryhavoc",
        "viewer": viewer,
        "side": st["side"],
        "round": st["round"],
        "final": st["final"],
        "phase": Phase(st["phase"]),
        "to_act": [] if seat is None else [seat],
        "initiative": list(st["init"]),
        "upcoming": list(st["upcoming"]),
        "actions_taken": st["done"],
        "scoring_by": st["scoring_by"],
        "events": {
            "revealed": list(st["revealed"]),
            "track": [{"pos": t["pos"], "count": len(t["ids"])} for t in st["track"]],
        },
        "regions": regions,
        "arrows": [list(a) for a in bd.arrows],
        "thick": [list(t) for t in bd.thick],
        "seats": seats,
        "neutral_trogs": st["neutral"],
        "terrain_decks": {t: len(cards) for t, cards in st["terrain"].items()},
        "pending": pending,
        "battle": _battle(st),
        "last": _last(st["trail"][-1] if st.get("trail") else st["last"]),
        "since": [_marks(record) for record in st.get("trail") or []],
        "result": result_json,
        "private": private,
    }


def _battle(st: St) -> BattleView | None:
    f: Fight | None = st["fight"]
    if f is None:
        return None
    objectives = {
        o: {
            "attacker": f["slots"][0][i],
            "defender": f["slots"][1][i],
            "bonus_attacker": f["bonus"][0][i],
            "bonus_defender": f["bonus"][1][i],
        }
        for i, o in enumerate(OBJECTIVES)
    }
    att, dfn = f["sides"]
    return {
        "number": f["num"],
        "region": f["region"],
        "attacker": att,
        "defender": "trogs" if dfn >= n_players(st) else dfn,
        "step": Step(f["step"]),
        "placing": {"attacker": f["to_place"][0], "defender": f["to_place"][1]},
        "objectives": objectives,
        "folded": list(f["passed"]),
        "reversed": f["reversed"],
    }


PATH_VERBS = ("go", "retreat")
"""Actions that take units from one region to another: the board draws their way as an arrow."""


def _marks(record: Record) -> MarksView:
    """What the map marks of one action: the regions it touched (none in saves from before they were
    kept) and, for a step or a retreat, its path: from the first region to the second."""
    regions = list(record.get("regions") or [])
    moves = str(record.get("text", "")).split()[:1] in [[verb] for verb in PATH_VERBS]
    return {
        "seat": record["seat"],
        "text": record["text"],
        "regions": regions,
        "path": regions if moves and len(regions) == 2 else None,
    }


def _last(last: Record | None) -> LastView | None:
    """The last action that touched the map since the last handover (else the last action), as the
    state records it, with its marks and its label told in the third person for the board."""
    if last is None:
        return None
    told = {"label": encode_msg(last_description(decode_msg(last["label"])))} if last.get("label") else {}
    return cast("LastView", {**last, **told, **_marks(last)})  # the record's keys, as it was saved
