"""What a renderer draws: a JSON-safe picture of the battle (nothing in Batailles is hidden but the
deployments while both armies deploy: each side's from the other, both from the public board).
It is typed as ``BataillesView`` (a ``TypedDict``, a plain dict at run time), which
``render/batailles`` takes, so that both sides agree on its keys under the type check.

Schema of ``view(state, viewer)``::

    {
      "game": "batailles",
      "viewer": "111" | null,
      "board": {
        "width": 8, "height": 9,                 # zones; x from the west, y from the south
        "text": ". . ./. ff h2/...",             # the map text format (board.py), north row first
        "zones": [                               # only zones that carry terrain
          {"zone": [3, 4], "label": "d5", "forest": 0, "building": 2, "river": 0,
           "hill": true, "advantage": 3, "places": 2, "impassable": false}
        ],
        "deploy": {"0": [0, 1], "1": [7, 8]}     # deployment rows per seat
      },
      "troops": [                                # every troop, both armies, lost ones included
        {"name": "inf1", "seat": 0, "zone": [2, 1] | null, "label": "c2" | null,
         "facing": "n" | null,                   # n e s w (north = towards higher rows)
         "hidden": false,                        # deployed where this viewer may not see yet (zone,
                                                 # label and facing null): hidden_seats
         "profile": {"movement": 1, "attack": 2, "defence": 2, "range": 0, "command": 0, "logistics": 0},
         "lost": false, "activated": false, "logistics_left": 0, "command_left": 0}
      ],
      "seats": [{"id": "111", "advantage": 3, "losses": 1, "army": 10, "deployed": 10, "turns": 2,
                 "ready": true}],
      "phase": "build" | "deploy" | "retrain" | "play" | "over",
      "round": 2, "max_rounds": 15, "hardcore": false,
      "threshold": 8,                            # losses that break an army (0 before deployment ends)
      "active": 0 | null,                        # seat whose turn it is (play phase)
      "to_act": [1],                             # seats that must act now
      "activations_left": 4,
      "activation": null | {"troops": ["art1", "art2"], "zone": [3, 1], "label": "d2",
                            "movement_left": {"art1": 1, "art2": 1}, "attack_left": {...}},
      "combat": null | {"stage": "attack_reroll" | "defence_reroll", "attacker": 0,
                        "troops": [...], "origin": [3, 1], "target": [3, 5], "cover": 1,
                        "attack_faces": [6, 2, 4], "defence_faces": [5]},
      "pending": null | {"kind": "morale" | "loss", "seat": 1, "zone": [3, 5], "label": "d6", "count": 1},
      "hits": [{"zone": [3, 5], "label": "d6", "hits": 3}],     # this turn's uncancelled hits (the
                                                                 # active player's, on the opponent)
      "last": null | {"seat": 0, "text": "attack d6 2", "label": {"key": "bt.did.attack", "params": {...}},
                      "zones": [[3, 1], [3, 5]],    # the zones it touched (rules.touched): a move's
                                                    # start and end, an attack's origin and target
                      "path": null | [[3, 1], [3, 2]],    # a move's start and end (an arrow)
                      "removed": [{"seat": 1, "name": "inf2", "zone": [3, 5]}],   # troops it removed
                      "outcome": [{"key": "bt.then.removed", ...}]},   # what it did, for the line
                                                    # the last action that changed the battlefield
                                                    # since the players to act last changed (else
                                                    # the last action)
      "since": [{"seat", "text", "zones", "path", "removed"}],   # every such action since then
      "result": null | Result.to_json(),
      "private": null | {"seat": 0, "deployment": ["inf1 c2", ...]}   # while both armies deploy, the
                                                 # viewer's own troops placed so far; else nothing
                                                 # is hidden
    }

A seat's view shows its own troops placed during the deployment (and lists them in ``private``), the public
view neither army's, only how many each deployed (``view.hidden_seats``); the events and the board's last
action name the troop deployed, never its place, and a computer player's sample places the other army's troops
at random (``ai/batailles/determinize.py``).
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from engine.batailles.actions import parse
from engine.batailles.board import Zone, label
from engine.batailles.labels import last_description
from engine.batailles.rules import ACTIVATIONS_PER_TURN, to_act
from engine.batailles.state import PendingKind, Phase, Record, RemovedRecord, Stage, State
from engine.batailles.troops import STATS
from engine.contract import EncodedMsg, ResultJson
from engine.text import encode_msg, msg

ZoneView = list[int]
"""A zone as ``[x, y]`` (``engine.batailles.board.Zone`` as JSON)."""


class TerrainView(TypedDict):
    """A zone that carries terrain."""

    zone: ZoneView
    label: str
    forest: int
    building: int
    river: int
    hill: bool
    advantage: int
    places: int
    impassable: bool


class BoardView(TypedDict):
    width: int
    height: int
    text: str
    zones: list[TerrainView]
    deploy: dict[str, list[int]]


class TroopView(TypedDict):
    """One troop of either army, lost ones included; where it stands is None while ``hidden``."""

    name: str
    seat: int
    zone: ZoneView | None
    label: str | None
    facing: str | None
    hidden: bool
    profile: dict[str, int]
    lost: bool
    activated: bool
    logistics_left: int
    command_left: int


class SeatView(TypedDict):
    """One seat's public counts. ``away`` is the table layer's mark on an absent player."""

    id: str
    advantage: int
    losses: int
    army: int
    deployed: int
    turns: int
    ready: bool
    away: NotRequired[str]


class ActivationView(TypedDict):
    troops: list[str]
    zone: ZoneView | None
    label: str | None
    movement_left: dict[str, int]
    attack_left: dict[str, int]


class CombatView(TypedDict):
    stage: Stage
    attacker: int
    troops: list[str]
    origin: ZoneView
    target: ZoneView
    cover: int
    attack_faces: list[int]
    defence_faces: list[int]


class PendingView(TypedDict):
    kind: PendingKind
    seat: int
    zone: ZoneView
    label: str
    count: int


class HitView(TypedDict):
    zone: ZoneView
    label: str
    hits: int


class MarksView(TypedDict):
    """What the board marks of one action (``_marks``)."""

    seat: int
    text: str
    zones: list[ZoneView]
    path: list[ZoneView] | None
    removed: list[RemovedRecord]


class LastView(MarksView):
    """The last action that changed the battlefield, with its description and the troops it removed."""

    label: EncodedMsg
    outcome: list[EncodedMsg]


class PrivateView(TypedDict):
    """While both armies deploy, the viewer's own troops placed so far (``"inf1 c2"``)."""

    seat: int
    deployment: list[str]


class BataillesView(TypedDict):
    """What ``build_view`` returns and ``render/batailles`` draws (the schema above)."""

    game: Literal["batailles"]
    viewer: str | None
    board: BoardView
    troops: list[TroopView]
    seats: list[SeatView]
    phase: Phase
    round: int
    max_rounds: int
    hardcore: bool
    threshold: int
    active: int | None
    to_act: list[int]
    activations_left: int
    activation: ActivationView | None
    combat: CombatView | None
    pending: PendingView | None
    hits: list[HitView]
    last: LastView | None
    since: list[MarksView]
    result: ResultJson | None
    private: PrivateView | None


def _zone(zone: Zone) -> ZoneView:
    return [zone[0], zone[1]]


def _z(zone: Zone | None) -> ZoneView | None:
    return _zone(zone) if zone is not None else None


def hidden_seats(s: State, viewer: str | None) -> frozenset[int]:
    """The armies whose deployment ``viewer`` may not see yet: both armies deploy at the same time,
    each unseen by the other side until both are deployed, so while the deployment lasts a seat sees
    its own troops only, and a spectator (the public board) neither army's."""
    if s.phase != Phase.DEPLOY:
        return frozenset()
    return frozenset(seat for seat in (0, 1) if viewer is None or s.players[seat] != viewer)


def build_view(s: State, viewer: str | None, result: ResultJson | None) -> BataillesView:
    board = s.board
    depth = board.deploy_depth
    hidden = hidden_seats(s, viewer)
    act = s.activation
    act_zone = None
    if act is not None:
        first = s.troop(s.active, act.names[0])
        act_zone = first.zone if first else None
    return {
        "game": "batailles",
        "viewer": viewer,
        "board": {
            "width": board.width,
            "height": board.height,
            "text": board.to_text(),
            "zones": [
                {
                    "zone": _zone(z),
                    "label": label(z),
                    "forest": t.forest,
                    "building": t.building,
                    "river": t.river,
                    "hill": t.hill,
                    "advantage": t.advantage,
                    "places": t.places,
                    "impassable": t.impassable,
                }
                for z, t in board.terrain
            ],
            "deploy": {"0": list(range(depth)), "1": list(range(board.height - depth, board.height))},
        },
        "troops": [
            {
                "name": t.name,
                "seat": t.seat,
                "zone": None if t.seat in hidden else _z(t.zone),
                "label": label(t.zone) if t.zone is not None and t.seat not in hidden else None,
                "facing": None if t.seat in hidden else t.facing,
                "hidden": t.seat in hidden and t.zone is not None,
                "profile": dict(zip(STATS, t.profile, strict=True)),
                "lost": t.lost,
                "activated": s.phase == Phase.PLAY and t.seat == s.active and t.name in s.activated,
                "logistics_left": t.logistics_left,
                "command_left": t.command_left,
            }
            for t in s.troops
        ],
        "seats": [
            {
                "id": s.players[seat],
                "advantage": s.advantage[seat],
                "losses": s.losses[seat],
                "army": len(s.army(seat)),
                "deployed": sum(1 for t in s.army(seat) if t.zone is not None),
                "turns": s.turns[seat],
                "ready": s.ready[seat],
            }
            for seat in (0, 1)
        ],
        "phase": s.phase,
        "round": s.round,
        "max_rounds": s.max_rounds,
        "hardcore": s.hardcore,
        "threshold": s.threshold,
        "active": s.active if s.phase == Phase.PLAY else None,
        "to_act": to_act(s),
        "activations_left": ACTIVATIONS_PER_TURN - len(s.activated),
        "activation": None
        if act is None
        else {
            "troops": list(act.names),
            "zone": _z(act_zone),
            "label": label(act_zone) if act_zone else None,
            "movement_left": dict(act.movement),
            "attack_left": dict(act.attack),
        },
        "combat": None
        if s.combat is None
        else {
            "stage": s.combat.stage,
            "attacker": s.combat.attacker,
            "troops": list(s.combat.names),
            "origin": _zone(s.combat.origin),
            "target": _zone(s.combat.target),
            "cover": s.combat.cover,
            "attack_faces": list(s.combat.attack_faces),
            "defence_faces": list(s.combat.defence_faces),
        },
        "pending": None
        if s.pending is None
        else {
            "kind": s.pending.kind,
            "seat": s.pending.seat,
            "zone": _zone(s.pending.zone),
            "label": label(s.pending.zone),
            "count": s.pending.count,
        },
        "hits": [{"zone": _zone(z), "label": label(z), "hits": n} for z, n in sorted(s.hits.items())],
        "last": _last(_seen(s.trail[-1] if s.trail else s.last, hidden)),
        "since": [_marks(record) for record in s.trail if _seen(record, hidden) is record],
        "result": result,
        "private": _own_deployment(s, viewer),
    }


def _seen(record: Record | None, hidden: frozenset[int]) -> Record | None:
    """``record`` as a viewer who may not see the deployments of ``hidden`` sees it: a deployment of
    theirs says who deployed which troop, never where."""
    if (
        record is None
        or record.get("seat") not in hidden
        or not str(record.get("text", "")).startswith("deploy ")
    ):
        return record
    name = str(record["text"]).split()[1]
    return {"seat": record["seat"], "text": f"deploy {name}", "zones": [], "hidden": True}


def _own_deployment(s: State, viewer: str | None) -> PrivateView | None:
    """While both armies deploy, the viewer's own troops placed so far, which only they may see:
    name and zone of each (the board drawn from their view shows facings too)."""
    if s.phase != Phase.DEPLOY or viewer not in s.players:
        return None
    seat = s.players.index(viewer)
    placed = [f"{t.name} {label(t.zone)}" for t in s.army(seat) if t.zone is not None]
    return {"seat": seat, "deployment": placed}


def _marks(record: Record) -> MarksView:
    """What the board marks of one action: the zones it touched (to frame), for a move the path from
    the first to the second (an arrow), and the troops it removed, with the zone each stood in."""
    zones = [list(z) for z in record.get("zones") or []]  # saves from before the zones were kept: none
    moved = str(record.get("text", "")).split(" ", 1)[0] == "move" and len(zones) == 2
    return {
        "seat": record["seat"],
        "text": record["text"],
        "zones": zones,
        "path": zones if moved else None,
        "removed": [
            {"seat": r["seat"], "name": r["name"], "zone": r["zone"]} for r in record.get("removed") or []
        ],
    }


def _last(last: Record | None) -> LastView | None:
    """The last action that changed the battlefield since the last handover (else the last action)
    with its marks, its description for the board to say it in the reader's words (Batailles hides
    nothing, so the description follows from the text alone), and what it did: the troops it
    removed."""
    if not last:
        return None
    outcome = [msg("bt.then.removed", name=r["name"]) for r in last.get("removed") or []]
    if last.get("hidden"):
        said = msg("bt.did.deploy_hidden", name=str(last["text"]).split()[1])
    else:
        said = last_description(parse(str(last["text"])))
    return {**_marks(last), "label": encode_msg(said), "outcome": [encode_msg(o) for o in outcome]}
