"""The whole game state, its exact JSON form, and the small records a turn keeps.

States are plain mutable dataclasses that only the rules touch; ``apply`` works on a
copy (``clone``) made field by field, equal to the copy through the JSON form
(``load(dump(s))``) at a third of its cost; the conformance playouts' dump round trips
check that nothing escapes the dump.

The JSON form carries a format number (``"format"``) because saved games outlive the
code that wrote them: ``load`` upgrades an older form step by step (a save without the
number is format 0, the form before numbering) and refuses a number it does not know,
rather than misreading a save written by a newer bot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NotRequired, TypedDict, cast

from engine.batailles.board import Board, Zone, parse_map
from engine.batailles.troops import Troop, TroopJson
from engine.errors import GameError
from engine.jsonvalues import copy_json
from engine.saves import Save

FORMAT = 3
"""The format ``dump`` writes. 0: the first, unnumbered form; 1: the number added, layout unchanged
(a zone's hits were always the active player's, scored on the opponent, in both); 2: the moves
since the last handover (``trail``, ``handed``); 3: the zones troops stepped out of lately
(``left``)."""

Left = tuple[int, str, int, Zone]
"""A troop's step out of a zone: its seat, its name, its side's turn number, the zone it left."""


def _zone(value: Sequence[int]) -> Zone:
    return (value[0], value[1])


def _left(entry: Sequence[int | str]) -> Left:
    """A step out of a zone from its saved form ``[seat, name, turn, x, y]`` (a JSON list, hence
    mixed)."""
    seat, name, turn, x, y = entry
    return (int(seat), str(name), int(turn), (int(x), int(y)))


class RemovedRecord(TypedDict):
    """A troop an action removed, with the zone it stood in (``[x, y]``)."""

    seat: int
    name: str
    zone: list[int]


class Record(TypedDict):
    """An action as the board tells it (``State.last``, ``State.trail``): who, its text, the zones it
    touched and the troops it removed. Saves from before the zones were kept have none; a
    deployment hidden from a viewer is told without its zone (``hidden``)."""

    seat: int
    text: str
    zones: NotRequired[list[list[int]]]
    removed: NotRequired[list[RemovedRecord]]
    hidden: NotRequired[bool]


class Outcome(TypedDict):
    """How a battle ended (``State.outcome``): the winning seats, whether it is a draw, the catalog
    key that tells why, and the seat that lost (None in a draw)."""

    winners: list[int]
    draw: bool
    key: str
    loser: int | None


class Phase(StrEnum):
    """Where a battle stands: armies built (an option), deployed, played, retrained between rounds
    (hardcore), or over. Saved as its text, so a save from before the enum loads as it was."""

    BUILD = "build"
    DEPLOY = "deploy"
    RETRAIN = "retrain"
    PLAY = "play"
    OVER = "over"


class Stage(StrEnum):
    """Whose reroll an attack waits for: the attacker's, then the defender's."""

    ATTACK_REROLL = "attack_reroll"
    DEFENCE_REROLL = "defence_reroll"


class PendingKind(StrEnum):
    """What the non-active player owes: a morale test, or the choice of losses in a zone."""

    MORALE = "morale"
    LOSS = "loss"


class ActivationJson(TypedDict):
    """``Activation`` as saved."""

    names: list[str]
    movement: dict[str, int]
    attack: dict[str, int]
    hill_bonus_used: bool


class CombatJson(TypedDict):
    """``Combat`` as saved: its zones as ``[x, y]``."""

    stage: str
    attacker: int
    names: list[str]
    origin: list[int]
    target: list[int]
    direction: str
    cover: int
    attack_faces: list[int]
    defence_faces: list[int]


class PendingJson(TypedDict):
    """``Pending`` as saved."""

    kind: str
    seat: int
    zone: list[int]
    count: int


@dataclass
class Activation:
    """The troops acting now (one, or several of one zone in coordination) and their points left."""

    names: list[str]
    movement: dict[str, int]
    attack: dict[str, int]
    hill_bonus_used: bool = False

    def to_json(self) -> ActivationJson:
        return {
            "names": list(self.names),
            "movement": dict(self.movement),
            "attack": dict(self.attack),
            "hill_bonus_used": self.hill_bonus_used,
        }

    @staticmethod
    def from_json(d: ActivationJson) -> Activation:
        return Activation(list(d["names"]), dict(d["movement"]), dict(d["attack"]), d["hill_bonus_used"])


@dataclass
class Combat:
    """An attack waiting for a reroll decision (attacker's, then defender's)."""

    stage: Stage
    attacker: int
    names: list[str]
    origin: Zone
    target: Zone
    direction: str  # the way the attackers face
    cover: int
    attack_faces: list[int]
    defence_faces: list[int] = field(default_factory=list)

    def to_json(self) -> CombatJson:
        return {
            "stage": str(self.stage),
            "attacker": self.attacker,
            "names": list(self.names),
            "origin": list(self.origin),
            "target": list(self.target),
            "direction": self.direction,
            "cover": self.cover,
            "attack_faces": list(self.attack_faces),
            "defence_faces": list(self.defence_faces),
        }

    @staticmethod
    def from_json(d: CombatJson) -> Combat:
        return Combat(
            Stage(d["stage"]),
            d["attacker"],
            list(d["names"]),
            _zone(d["origin"]),
            _zone(d["target"]),
            d["direction"],
            d["cover"],
            list(d["attack_faces"]),
            list(d["defence_faces"]),
        )


@dataclass
class Pending:
    """A decision the non-active player owes: a morale test or the choice of losses in a zone."""

    kind: PendingKind
    seat: int
    zone: Zone
    count: int = 1

    def to_json(self) -> PendingJson:
        return {"kind": str(self.kind), "seat": self.seat, "zone": list(self.zone), "count": self.count}

    @staticmethod
    def from_json(d: PendingJson) -> Pending:
        return Pending(PendingKind(d["kind"]), d["seat"], _zone(d["zone"]), d["count"])


@dataclass
class State:
    players: list[str]
    options: dict[str, str]
    board: Board
    rng: int
    phase: Phase
    troops: list[Troop]
    hardcore: bool
    max_rounds: int
    ready: list[bool] = field(default_factory=lambda: [False, False])
    round: int = 0
    order: list[int] = field(default_factory=lambda: [0, 1])
    turn_index: int = 0
    turns: list[int] = field(default_factory=lambda: [0, 0])
    activated: list[str] = field(default_factory=list)
    activation: Activation | None = None
    combat: Combat | None = None
    pending: Pending | None = None
    loss_queue: list[Zone] = field(default_factory=list)
    hits: dict[Zone, int] = field(default_factory=dict)
    """This turn's uncancelled hits per zone: the active player's, on the opponent's troops there."""
    advantage: list[int] = field(default_factory=lambda: [0, 0])
    losses: list[int] = field(default_factory=lambda: [0, 0])
    threshold: int = 0
    retrained: list[list[str]] = field(default_factory=lambda: [[], []])
    retrain_pick: list[str | None] = field(default_factory=lambda: [None, None])
    outcome: Outcome | None = None
    last: Record | None = None
    trail: list[Record] = field(default_factory=list)
    """The moves that changed the battlefield since the players to act last changed (``rules.play``),
    for the board to mark: records like ``last``, oldest first."""
    handed: bool = True
    """Whether the last action changed who acts: the next one starts a new ``trail``."""
    left: list[Left] = field(default_factory=list)
    """The zones troops stepped out of in their side's current and previous turn, oldest first: the
    public record of a troop's last steps, which tells a step taken back (the computer players keep
    from walking a troop to and fro with it) without reading the log."""

    @property
    def active(self) -> int:
        return self.order[self.turn_index]

    def troop(self, seat: int, name: str) -> Troop | None:
        for t in self.troops:
            if t.seat == seat and t.name == name:
                return t
        return None

    def army(self, seat: int) -> list[Troop]:
        return [t for t in self.troops if t.seat == seat]

    def in_zone(self, zone: Zone) -> list[Troop]:
        return [t for t in self.troops if t.zone == zone and not t.lost]

    def occupant(self, zone: Zone) -> int | None:
        """The seat whose troops hold ``zone``, if any (a zone holds one army only)."""
        for t in self.troops:
            if t.zone == zone and not t.lost:
                return t.seat
        return None


class StateJson(TypedDict):
    """The saved state in the current ``FORMAT``: what ``dump`` writes and ``load`` reads once
    ``upgrade`` brought an older save up to it. Zones are ``[x, y]``, ``hits`` rows ``[x, y, hits]``,
    ``left`` rows ``[seat, name, turn, x, y]``."""

    format: int
    players: list[str]
    options: dict[str, str]
    board: str
    rng: int
    phase: str
    troops: list[TroopJson]
    hardcore: bool
    max_rounds: int
    ready: list[bool]
    round: int
    order: list[int]
    turn_index: int
    turns: list[int]
    activated: list[str]
    activation: ActivationJson | None
    combat: CombatJson | None
    pending: PendingJson | None
    loss_queue: list[list[int]]
    hits: list[list[int]]
    advantage: list[int]
    losses: list[int]
    threshold: int
    retrained: list[list[str]]
    retrain_pick: list[str | None]
    outcome: Outcome | None
    last: Record | None
    trail: list[Record]
    handed: bool
    left: list[list[int | str]]


def dump(s: State) -> Save:
    data: StateJson = {
        "format": FORMAT,
        "players": list(s.players),
        "options": dict(s.options),
        "board": s.board.to_text(),
        "rng": s.rng,
        "phase": str(s.phase),
        "troops": [t.to_json() for t in s.troops],
        "hardcore": s.hardcore,
        "max_rounds": s.max_rounds,
        "ready": list(s.ready),
        "round": s.round,
        "order": list(s.order),
        "turn_index": s.turn_index,
        "turns": list(s.turns),
        "activated": list(s.activated),
        "activation": s.activation.to_json() if s.activation else None,
        "combat": s.combat.to_json() if s.combat else None,
        "pending": s.pending.to_json() if s.pending else None,
        "loss_queue": [list(z) for z in s.loss_queue],
        "hits": [[z[0], z[1], n] for z, n in sorted(s.hits.items())],
        "advantage": list(s.advantage),
        "losses": list(s.losses),
        "threshold": s.threshold,
        "retrained": [list(r) for r in s.retrained],
        "retrain_pick": list(s.retrain_pick),
        "outcome": copy_json(s.outcome),
        "last": copy_json(s.last),
        "trail": copy_json(s.trail),
        "handed": s.handed,
        "left": [[seat, name, turn, zone[0], zone[1]] for seat, name, turn, zone in s.left],
    }
    return {**data}


def _from_format_0(d: Save) -> Save:
    """Format 0 had the same fields; only the number is new."""
    return {**d, "format": 1}


def _from_format_1(d: Save) -> Save:
    """Format 2 keeps the moves since the last handover (``trail``, ``handed``): none in a format 1
    save, a stretch just begun."""
    return {**d, "format": 2, "trail": [], "handed": True}


def _from_format_2(d: Save) -> Save:
    """Format 3 keeps the zones troops stepped out of lately (``left``): none known in a format 2 save."""
    return {**d, "format": 3, "left": []}


_UPGRADES = {0: _from_format_0, 1: _from_format_1, 2: _from_format_2}
"""Format n -> the same save in format n + 1."""


def upgrade(d: Save) -> Save:
    """The save ``d`` in the current format; ``GameError`` for a format this code does not know."""
    found = d.get("format", 0)
    if isinstance(found, bool) or not isinstance(found, int) or not (found == FORMAT or found in _UPGRADES):
        raise GameError("bt.err.save_format", found=str(found), known=FORMAT)
    while found != FORMAT:
        d = _UPGRADES[found](d)
        found = d["format"]
    return d


def load(save: Save) -> State:
    # the one place the raw JSON enters: ``upgrade`` checked the format, the rest is read as saved
    d = cast(StateJson, upgrade(save))
    return State(
        players=list(d["players"]),
        options=dict(d["options"]),
        board=parse_map(d["board"]),
        rng=d["rng"],
        phase=Phase(d["phase"]),
        troops=[Troop.from_json(t) for t in d["troops"]],
        hardcore=d["hardcore"],
        max_rounds=d["max_rounds"],
        ready=list(d["ready"]),
        round=d["round"],
        order=list(d["order"]),
        turn_index=d["turn_index"],
        turns=list(d["turns"]),
        activated=list(d["activated"]),
        activation=Activation.from_json(d["activation"]) if d["activation"] else None,
        combat=Combat.from_json(d["combat"]) if d["combat"] else None,
        pending=Pending.from_json(d["pending"]) if d["pending"] else None,
        loss_queue=[_zone(z) for z in d["loss_queue"]],
        hits={(x, y): n for x, y, n in d["hits"]},
        advantage=list(d["advantage"]),
        losses=list(d["losses"]),
        threshold=d["threshold"],
        retrained=[list(r) for r in d["retrained"]],
        retrain_pick=list(d["retrain_pick"]),
        outcome=copy_json(d["outcome"]),
        last=copy_json(d["last"]),
        trail=copy_json(d["trail"]),
        handed=bool(d["handed"]),
        left=[_left(entry) for entry in d["left"]],
    )


def clone(s: State) -> State:
    """``load(dump(s))`` without the JSON form in between: the same values in fresh containers (the
    board is immutable and shared, as ``parse_map`` shares it), ``hits`` in the dump's sorted order."""
    return State(
        players=list(s.players),
        options=dict(s.options),
        board=s.board,
        rng=s.rng,
        phase=s.phase,
        troops=[t.copy() for t in s.troops],
        hardcore=s.hardcore,
        max_rounds=s.max_rounds,
        ready=list(s.ready),
        round=s.round,
        order=list(s.order),
        turn_index=s.turn_index,
        turns=list(s.turns),
        activated=list(s.activated),
        activation=Activation.from_json(s.activation.to_json()) if s.activation else None,
        combat=Combat.from_json(s.combat.to_json()) if s.combat else None,
        pending=Pending.from_json(s.pending.to_json()) if s.pending else None,
        loss_queue=[_zone(z) for z in s.loss_queue],
        hits={(z[0], z[1]): n for z, n in sorted(s.hits.items())},
        advantage=list(s.advantage),
        losses=list(s.losses),
        threshold=s.threshold,
        retrained=[list(r) for r in s.retrained],
        retrain_pick=list(s.retrain_pick),
        outcome=copy_json(s.outcome),
        last=copy_json(s.last),
        trail=s.trail,  # replaced by a new list at each move, never changed in place
        handed=s.handed,
        left=list(s.left),
    )
