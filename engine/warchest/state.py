"""The War Chest game state, its cheap copy and its JSON form.

The state is a plain mutable object that only this package touches; ``apply`` works on a clone, so
callers can treat states as values. Cloning copies a handful of small containers (random playouts
clone hundreds of thousands of times). Coin collections that order nothing (bag, hand, face-down
discard) are kept sorted so that equal positions dump identically.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass
from enum import StrEnum
from typing import TypedDict, TypeVar, cast

from engine.jsonvalues import copy_json
from engine.saves import Save, Upgrade
from engine.warchest.actions import Action
from engine.warchest.board import Hex, label, parse_label

FORMAT = 2
"""Number of the JSON form's layout (its ``format`` key). A change of shape bumps it and adds the
step from the format before to ``UPGRADES``, so that games saved by older versions load."""


def _from_format_1(d: Save) -> Save:
    """Format 2 keeps what each action struck (``last``'s fourth part) and the moves since the last
    handover (``trail``, ``handed``): a format 1 save had none of them, which reads as none struck
    and a stretch just begun."""
    last = d.get("last")
    return {**d, "format": 2, "last": None if last is None else [*last, []], "trail": [], "handed": True}


UPGRADES: dict[int, Upgrade] = {1: _from_format_1}
"""``UPGRADES[n]`` turns a save of format ``n`` into format ``n + 1`` (see ``engine.saves``)."""


class Phase(StrEnum):
    """Where a game stands: the units' draft (an option), play, or over. Saved as its text, so a
    save from before the enum loads as it was."""

    DRAFT = "draft"
    PLAY = "play"
    OVER = "over"


class PendingKind(StrEnum):
    """The decisions the rules wait for (``Pending``); the text is saved and names the catalog's
    ``wc.pending.<kind>``."""

    GUARD = "guard"
    SWORDSMAN = "swordsman"
    BERSERKER = "berserker"
    MERCENARY = "mercenary"
    FOOTMAN = "footman"
    PRIEST = "priest"


class EndReason(StrEnum):
    """Why a game ended, as ``State.result`` keeps it (its text, saved): a team placed its last
    control marker, or the rounds went by without progress (a draw, ``rules.STALL_ROUNDS``)."""

    MARKERS = "markers"
    STALL = "stall"


class Draft(TypedDict):
    """The units' draft under way: the cards still open, each seat's picks, the seats to pick next
    (in order) and the seat that picked first."""

    pool: list[str]
    picks: list[list[str]]
    order: list[int]
    first: int


class Ending(TypedDict):
    """How a game ended (``State.result``): the winning seats, why, and whether it is a draw."""

    winners: list[int]
    reason: str
    draw: bool


Unit = tuple[int, str, int]
"""A unit on the board: (seat, type, height)."""

Struck = tuple[Hex, int, str, bool]
"""A unit an action struck: (hex, seat, type, whether it is gone from the board)."""

Last = tuple[int, str, tuple[Hex, ...], tuple[Struck, ...]]
"""An action as the board tells it: (seat, public text, hexes touched, units struck)."""

StruckJson = list[str | int | bool]
"""``Struck`` as saved: ``[hex label, seat, type, gone]``."""

LastJson = list[int | str | list[str] | list[StruckJson]]
"""``Last`` as saved: ``[seat, text, [hex labels], [struck...]]``."""


class PendingJson(TypedDict):
    """``Pending`` as saved: its hexes as labels."""

    kind: str
    seat: int
    hexes: list[str]
    coin: str


class SeatJson(TypedDict):
    """``Seat`` as saved: coin counts in the order of their names."""

    team: int
    units: list[str]
    bag: list[str]
    hand: list[str]
    discard_up: dict[str, int]
    discard_down: list[str]
    supply: dict[str, int]
    eliminated: dict[str, int]


class StateJson(TypedDict):
    """The saved state in format ``FORMAT`` (``State.to_json``). Hexes are labels; the rows of
    ``board`` (``[hex, seat, type, height]``), ``control`` (``[hex, team or None]``), ``ever``
    (``[team, hex]``) and ``last`` are JSON lists of mixed values, checked as they are read."""

    format: int
    players: list[str]
    options: dict[str, str]
    board_name: str
    seats: list[SeatJson]
    board: list[list[str | int]]
    control: list[list[str | int | None]]
    markers: list[int]
    round: int
    initiative: int
    initiative_start: int
    initiative_moved: bool
    turn: int
    pending: list[PendingJson]
    phase: str
    draft: Draft | None
    rng: str
    result: Ending | None
    stall: int
    progress: bool
    ever: list[list[int | str]]
    last: LastJson | None
    trail: list[LastJson]
    handed: bool


@dataclass(frozen=True)
class Pending:
    """A decision the rules wait for before play goes on (top of ``State.pending`` acts first).

    kinds: ``guard`` (the Royal Guard's owner picks supply or stack; ``hexes`` = the Guard),
    ``swordsman`` (free move or skip), ``berserker`` (repeat or skip), ``mercenary`` (free
    manoeuvre or skip), ``footman`` (``hexes`` = Footmen still to manoeuvre), ``priest`` (``coin``
    was just drawn and must be used now).
    """

    kind: PendingKind
    seat: int
    hexes: tuple[Hex, ...] = ()
    coin: str = ""

    def to_json(self) -> PendingJson:
        return {
            "kind": str(self.kind),
            "seat": self.seat,
            "hexes": [label(h) for h in self.hexes],
            "coin": self.coin,
        }

    @staticmethod
    def from_json(d: PendingJson) -> Pending:
        return Pending(PendingKind(d["kind"]), d["seat"], tuple(_hex(s) for s in d["hexes"]), d["coin"])


class Seat:
    """One player's coins. ``units`` are the unit cards (types) this seat commands."""

    __slots__ = ("bag", "discard_down", "discard_up", "eliminated", "hand", "supply", "team", "units")

    def __init__(self, team: int, units: tuple[str, ...]) -> None:
        self.team = team
        self.units = units
        self.bag: list[str] = []
        self.hand: list[str] = []
        self.discard_up: dict[str, int] = {}
        self.discard_down: list[str] = []
        self.supply: dict[str, int] = {}
        self.eliminated: dict[str, int] = {}

    def clone(self) -> Seat:
        s = Seat.__new__(Seat)
        s.team = self.team
        s.units = self.units
        s.bag = self.bag[:]
        s.hand = self.hand[:]
        s.discard_up = self.discard_up.copy()
        s.discard_down = self.discard_down[:]
        s.supply = self.supply.copy()
        s.eliminated = self.eliminated.copy()
        return s

    def add_hand(self, coin: str) -> None:
        insort(self.hand, coin)

    def add_down(self, coin: str) -> None:
        insort(self.discard_down, coin)

    def add_up(self, coin: str, n: int = 1) -> None:
        self.discard_up[coin] = self.discard_up.get(coin, 0) + n

    def eliminate(self, coin: str) -> None:
        self.eliminated[coin] = self.eliminated.get(coin, 0) + 1

    def to_json(self) -> SeatJson:
        return {
            "team": self.team,
            "units": list(self.units),
            "bag": list(self.bag),
            "hand": list(self.hand),
            "discard_up": dict(sorted(self.discard_up.items())),
            "discard_down": list(self.discard_down),
            "supply": dict(sorted(self.supply.items())),
            "eliminated": dict(sorted(self.eliminated.items())),
        }

    @staticmethod
    def from_json(d: SeatJson) -> Seat:
        s = Seat(d["team"], tuple(d["units"]))
        s.bag = list(d["bag"])
        s.hand = list(d["hand"])
        s.discard_up = dict(d["discard_up"])
        s.discard_down = list(d["discard_down"])
        s.supply = dict(d["supply"])
        s.eliminated = dict(d["eliminated"])
        return s


class State:
    """Everything about one War Chest game.

    ``turn`` is the seat whose coin play is under way (pending follow-ups may hand the decision to
    another seat for a moment). ``initiative_start`` is the holder at the start of the round and
    ``initiative_moved`` whether the marker changed hands this round. ``stall`` counts complete
    rounds without progress; ``progress`` says whether the current round made any; ``ever`` holds
    (team, location) pairs that have been controlled at least once (see ``rules.STALL_ROUNDS``).
    """

    __slots__ = (
        "board",
        "board_name",
        "cache",
        "control",
        "draft",
        "ever",
        "handed",
        "initiative",
        "initiative_moved",
        "initiative_start",
        "last",
        "markers",
        "options",
        "pending",
        "phase",
        "players",
        "progress",
        "result",
        "rng",
        "round",
        "seats",
        "stall",
        "trail",
        "turn",
    )

    def __init__(self) -> None:
        self.players: tuple[str, ...] = ()
        self.options: dict[str, str] = {}
        self.board_name = "2p"
        self.seats: list[Seat] = []
        self.board: dict[Hex, Unit] = {}
        self.control: dict[Hex, int | None] = {}
        self.markers: list[int] = []  # markers left off the board, per team
        self.round = 0
        self.initiative = 0
        self.initiative_start = 0
        self.initiative_moved = False
        self.turn = 0
        self.pending: tuple[Pending, ...] = ()
        self.phase = Phase.PLAY
        self.draft: Draft | None = None
        self.rng = 0
        self.result: Ending | None = None  # ``reason``: an ``EndReason``'s text
        self.stall = 0
        self.progress = False
        self.ever: frozenset[tuple[int, Hex]] = frozenset()
        self.last: Last | None = None
        self.trail: tuple[Last, ...] = ()  # the moves on the board since the last handover
        self.handed = True  # whether the last action changed who acts: the next one starts a trail
        self.cache: dict[int, list[Action]] = {}  # legal actions per seat; valid because states never change

    def clone(self) -> State:
        s = State.__new__(State)
        s.players = self.players
        s.options = self.options
        s.board_name = self.board_name
        s.seats = [seat.clone() for seat in self.seats]
        s.board = self.board.copy()
        s.control = self.control.copy()
        s.markers = self.markers[:]
        s.round = self.round
        s.initiative = self.initiative
        s.initiative_start = self.initiative_start
        s.initiative_moved = self.initiative_moved
        s.turn = self.turn
        s.pending = self.pending
        s.phase = self.phase
        s.draft = self.draft  # replaced, never mutated
        s.rng = self.rng
        s.result = self.result
        s.stall = self.stall
        s.progress = self.progress
        s.ever = self.ever
        s.last = self.last
        s.trail = self.trail
        s.handed = self.handed
        s.cache = {}
        return s

    def seat_of(self, player: str) -> int | None:
        try:
            return self.players.index(player)
        except ValueError:
            return None

    def team_seats(self, team: int) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.team == team]

    # -- JSON ---------------------------------------------------------------------------------

    def to_json(self) -> Save:
        data: StateJson = {
            "format": FORMAT,
            "players": list(self.players),
            "options": dict(sorted(self.options.items())),
            "board_name": self.board_name,
            "seats": [s.to_json() for s in self.seats],
            "board": [[label(h), u[0], u[1], u[2]] for h, u in self.board.items()],
            "control": [[label(h), t] for h, t in self.control.items()],
            "markers": list(self.markers),
            "round": self.round,
            "initiative": self.initiative,
            "initiative_start": self.initiative_start,
            "initiative_moved": self.initiative_moved,
            "turn": self.turn,
            "pending": [p.to_json() for p in self.pending],
            "phase": str(self.phase),
            "draft": copy_json(self.draft),
            "rng": str(self.rng),
            "result": copy_json(self.result),
            "stall": self.stall,
            "progress": self.progress,
            "ever": sorted([t, label(h)] for t, h in self.ever),
            "last": None if self.last is None else _last_json(self.last),
            "trail": [_last_json(t) for t in self.trail],
            "handed": self.handed,
        }
        return {**data}

    @staticmethod
    def from_json(save: Save) -> State:
        """The state of a save of format ``FORMAT`` (``WarChest.load`` upgrades older ones first)."""
        if save.get("format") != FORMAT:
            raise ValueError(f"unknown War Chest save format {save.get('format')!r}")
        d = cast(StateJson, save)  # the format checked, the save is read as written
        s = State()
        s.players = tuple(d["players"])
        s.options = dict(d["options"])
        s.board_name = d["board_name"]
        s.seats = [Seat.from_json(x) for x in d["seats"]]
        s.board = {
            _hex(_read(str, h)): (_read(int, seat), _read(str, kind), _read(int, height))
            for h, seat, kind, height in d["board"]
        }
        s.control = {_hex(_read(str, h)): None if t is None else _read(int, t) for h, t in d["control"]}
        s.markers = list(d["markers"])
        s.round = d["round"]
        s.initiative = d["initiative"]
        s.initiative_start = d["initiative_start"]
        s.initiative_moved = d["initiative_moved"]
        s.turn = d["turn"]
        s.pending = tuple(Pending.from_json(p) for p in d["pending"])
        s.phase = Phase(d["phase"])
        s.draft = copy_json(d["draft"])
        s.rng = int(d["rng"])
        s.result = copy_json(d["result"])
        s.stall = d["stall"]
        s.progress = d["progress"]
        s.ever = frozenset((_read(int, t), _hex(_read(str, h))) for t, h in d["ever"])
        s.last = None if d["last"] is None else _last_from(d["last"])
        s.trail = tuple(_last_from(t) for t in d["trail"])
        s.handed = bool(d["handed"])
        return s


def _last_json(last: Last) -> LastJson:
    seat, text, hexes, struck = last
    rows: list[StruckJson] = [[label(h), s, kind, gone] for h, s, kind, gone in struck]
    return [seat, text, [label(h) for h in hexes], rows]


def _last_from(data: LastJson) -> Last:
    seat, text, hexes, struck = data
    return (
        _read(int, seat),
        _read(str, text),
        tuple(_hex(_read(str, h)) for h in _items(hexes)),
        tuple(_struck_from(_items(row)) for row in _items(struck)),
    )


def _struck_from(row: list[object]) -> Struck:
    h, seat, kind, gone = row
    return (_hex(_read(str, h)), _read(int, seat), _read(str, kind), _read(bool, gone))


_T = TypeVar("_T")


def _read(kind: type[_T], value: object) -> _T:
    """``value``, checked to be a ``kind``: the save's mixed rows are JSON lists whose parts each
    have their own type, and a save from outside may hold anything."""
    if not isinstance(value, kind):
        raise TypeError(f"{value!r} where a {kind.__name__} belongs in a saved War Chest state")
    return value


def _items(value: object) -> list[object]:
    """``value``, checked to be a list (of values read with ``_read``)."""
    if not isinstance(value, list):
        raise TypeError(f"{value!r} where a list belongs in a saved War Chest state")
    return value


def _hex(text: str) -> Hex:
    h = parse_label(text)
    if h is None:
        raise ValueError(f"bad hex {text!r} in a saved War Chest state")
    return h
