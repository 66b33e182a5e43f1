"""The Cry Havoc game state: one JSON-safe dict, plus the small helpers every rule module uses.

Keeping the state a plain dict of lists, ints and strings makes ``dump``/``load`` exact by
construction and ``clone`` a plain copy of nested dicts and lists, equal to a JSON round trip. Its
shape is declared as ``TypedDict``s (``St``, ``Seat``, ``Region``, ``Stack``, ``Fight``...), plain
dicts at run time, so that the type check reads every key the rules read.
Seats are indexes into ``players``; index ``n`` (the player count) stands for the neutral Trogs
wherever a per-side list is kept (``units`` of a region, rows of ``prisoners``).

Keys: ``fmt`` version; ``players``; ``skills_opt`` (the skills option the game began with);
``factions`` (per seat); ``side`` (map side); ``rng`` (the generator's integer); ``round``;
``phase`` (setup, discard, actions, battle, prisoners, scoring, over); ``final``; ``track``
(unrevealed event stacks: ``{"pos", "ids"}``, first is next); ``revealed`` (ids, in order); ``init``
/ ``upcoming`` (seats, first acts first); ``vp``; ``seats`` (hand, deck, discard, reserve, skills,
exhausted, built); ``regions`` (units, control, crystals, token, explore, tunnel, structures,
battle); ``hq`` (region per seat); ``neutral`` (neutral Trogs in the pool); ``terrain`` (decks, top
first); ``done`` (actions taken this round); ``pending`` (an action under way); ``scoring_by``;
``battles`` (unresolved ``[number, region, attacker, defender]``); ``tokens_used``; ``fight`` (the
battle being resolved); ``prisoners`` (``[holder] [owner]`` counts); ``ransom`` (position in
``init`` of the player deciding ransoms); ``result``; ``last``; ``trail`` (the moves that touched
regions since the players to act last changed, which the map marks) and ``handed`` (whether the last
action changed who acts: the next starts a trail).
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from typing import NotRequired, TypedDict, TypeVar, cast

from engine.contract import EncodedMsg
from engine.cryhavoc.content import BOARDS, Board, kind_of
from engine.jsonvalues import copy_json
from engine.rng import Rng
from engine.saves import Save, Upgrade


class Phase(StrEnum):
    """The phases of a round (``flow``), the setup before the first and the end. The state holds
    them as their text (the state holds JSON values only), so a save from before the enum loads as
    it was; the rules compare with the members, the view hands them to the renderers."""

    SETUP = "setup"
    DISCARD = "discard"
    ACTIONS = "actions"
    BATTLE = "battle"
    PRISONERS = "prisoners"
    SCORING = "scoring"
    OVER = "over"


class Step(StrEnum):
    """The steps of a battle under way (``battle``): units placed, cards played, then the
    objectives resolved in order (capture, kill, retreat)."""

    PLACE = "place"
    CARDS = "cards"
    CAPTURE = "capture"
    KILL = "kill"
    RETREAT = "retreat"
    RESOLVE = "resolve"


class PendingKind(StrEnum):
    """A decision under way in the actions phase: points of a move, recruit or build to spend, or
    one card to keep of the two drawn."""

    MOVE = "move"
    RECRUIT = "recruit"
    BUILD = "build"
    KEEP = "keep"


class Record(TypedDict):
    """An action as everyone learns it (``game.public_record``): the state's ``last`` and the
    entries of its ``trail``. Its label is the catalog's (an encoded ``Msg``); the regions it touched
    are absent from saves from before they were kept, the label from older ones still."""

    seat: int
    text: str
    label: NotRequired[EncodedMsg]
    regions: NotRequired[list[str]]


class Decision(TypedDict):
    """A decision under way in the actions phase (``st["pending"]``, ``turns``): its kind (a
    ``PendingKind``'s text), whose it is and the points left to spend; whether the action was paid
    for (a skill's move or build is free); the units that arrived where (a move), the battles it
    started, the structures activated (``[skill, region]``), whether a card was drawn, and the two
    cards of a draw to keep one of, with where they came from."""

    kind: str
    seat: int
    points: int
    paid: bool
    arrived: dict[str, int]
    battles: list[str]
    activated: list[list[str]]
    drew_one: bool
    cards: list[str]
    source: str


class Fight(TypedDict):
    """The battle under way (``st["fight"]``, ``battle``): ``sides`` are ``[attacker, defender]``
    (a seat, or the Trogs' index ``n_players``); per side and objective, the units in ``slots`` and
    the cards' ``bonus``; the objectives left to resolve in ``queue``; the side that won the
    objective being resolved (``winner``, ``capturer``), the kills each side still owes, and the
    units of the side in retreat."""

    num: int
    region: str
    sides: list[int]
    step: str
    place_side: int
    to_place: list[int]
    slots: list[list[int]]
    bonus: list[list[int]]
    turn: int
    passed: list[bool]
    reversed: bool
    queue: list[str]
    winner: int | None
    capturer: int | None
    kills: list[int] | None
    kill_side: int
    retreating: NotRequired[int]


class Token(TypedDict):
    """A Trog token on the map: a War Party (``id`` names which) or a Nest (``id`` is ``nest``)."""

    kind: str
    id: str


Structure = list[str | int]
"""A structure on a region: ``[structure id, owner seat]`` (a JSON list, hence the union; read
it with ``structure_parts``)."""

BattleEntry = list[str | int]
"""An unresolved battle: ``[number, region, attacker, defender]`` (a JSON list; read it with
``battle_parts``)."""


class Region(TypedDict):
    """One region of the map (``st["regions"][rid]``): units per side (the Trogs' index last), who
    controls it, its crystal value, the Trog token and face-down exploration token lying there,
    whether a Trog tunnel opens there, the structures built there and its battle token's number."""

    units: list[int]
    control: int | None
    crystals: int
    token: Token | None
    explore: str | None
    tunnel: bool
    structures: list[Structure]
    battle: int | None


class Seat(TypedDict):
    """One seat's cards and pieces (``st["seats"][seat]``): the card ids of its hand, deck (top
    first) and discard pile, units in reserve, its skills and those used this round, and how many
    of each structure it has built."""

    hand: list[str]
    deck: list[str]
    discard: list[str]
    reserve: int
    skills: list[str]
    exhausted: list[str]
    built: dict[str, int]


class Stack(TypedDict):
    """A stack of event tokens on the track, not yet revealed: its place and its events' ids."""

    pos: int
    ids: list[str]


class Outcome(TypedDict):
    """The end of the game (``st["result"]``): the winning seat and every seat, best first."""

    winners: list[int]
    order: list[int]


class St(TypedDict):
    """The whole state (the module docstring tells each key). Saves of format 1 lack ``trail`` and
    ``handed`` until their upgrade adds them, so every state in play has all keys."""

    fmt: int
    players: list[str]
    side: str
    rng: int
    factions: list[str]
    hq: list[str]
    skills_opt: str
    round: int
    phase: str
    final: bool
    track: list[Stack]
    revealed: list[str]
    init: list[int]
    upcoming: list[int]
    vp: list[int]
    seats: list[Seat]
    regions: dict[str, Region]
    neutral: int
    terrain: dict[str, list[str]]
    done: int
    pending: Decision | None
    scoring_by: int | None
    battles: list[BattleEntry]
    tokens_used: int
    fight: Fight | None
    prisoners: list[list[int]]
    ransom: int
    result: Outcome | None
    last: Record | None
    trail: list[Record]
    handed: bool


def fight_of(st: St) -> Fight:
    """The battle under way, where a rule runs only while one is."""
    f = st["fight"]
    assert f is not None, "no battle under way"
    return f


def decision_of(st: St) -> Decision:
    """The decision under way, where a rule runs only while one is."""
    p = st["pending"]
    assert p is not None, "no decision under way"
    return p


def structure_parts(structure: Structure) -> tuple[str, int]:
    """A structure's id and owner seat."""
    sid, owner = structure
    assert isinstance(sid, str) and isinstance(owner, int)
    return sid, owner


def battle_parts(entry: BattleEntry) -> tuple[int, str, int, int]:
    """An unresolved battle's number, region, attacker and defender."""
    num, rid, att, dfn = entry
    assert isinstance(num, int) and isinstance(rid, str) and isinstance(att, int) and isinstance(dfn, int)
    return num, rid, att, dfn


def battles_of(st: St) -> Iterator[tuple[int, str, int, int]]:
    """The unresolved battles, each as ``battle_parts`` reads it."""
    return (battle_parts(entry) for entry in st["battles"])


FORMAT = 2
"""Number of the saved state's layout (its ``fmt`` key). A change of layout bumps it and adds the
step from the format before to ``UPGRADES``, so that games saved by older versions load."""


def _from_format_1(d: Save) -> Save:
    """Format 2 keeps the moves since the last handover (``trail``, ``handed``): none in a format 1
    save, a stretch just begun."""
    return {**d, "fmt": 2, "trail": [], "handed": True}


UPGRADES: dict[int, Upgrade] = {1: _from_format_1}
"""``UPGRADES[n]`` turns a save of format ``n`` into format ``n + 1`` (see ``engine.saves``)."""


def saved(st: St) -> Save:
    """The JSON form of ``st`` (``dump``): a copy, as ``clone`` makes, of the same dicts and lists."""
    data: Save = copy_json(st)
    return data


def from_save(data: Save) -> St:
    """The state a save holds once ``UPGRADES`` brought it to ``FORMAT``: the same dict, its phase
    checked (a save from outside that names no phase is refused)."""
    if data["phase"] not in set(Phase):
        raise ValueError(f"unknown phase {data['phase']!r}")
    return cast("St", data)


def clone(st: St) -> St:
    """A copy sharing no list or dict with ``st``, as every move makes one before changing it. The
    state holds only JSON values (string keys, no tuples), so this equals a JSON round trip, at
    less than half its cost."""
    copy: St = copy_json(st)
    return copy


def board(st: St) -> Board:
    return BOARDS[st["side"]]


def n_players(st: St) -> int:
    return len(st["players"])


def trog_seat(st: St) -> int | None:
    """The seat playing the Trogs (four players only), else ``None``."""
    return st["factions"].index("trogs") if "trogs" in st["factions"] else None


def trog_side(st: St) -> int:
    """Who fights for the Trogs that tokens bring out: the Trog player, or the neutral index."""
    t = trog_seat(st)
    return n_players(st) if t is None else t


def add_crystals(st: St, rid: str, n: int) -> None:
    """Change a region's crystal value by ``n``. It never drops below 0 and has no upper limit:
    the seed adds a crystal to every battle region and sets no cap (the image writes large values
    as a number)."""
    reg = st["regions"][rid]
    reg["crystals"] = max(0, reg["crystals"] + n)


def occupant_sides(st: St, rid: str) -> list[int]:
    """Sides (seats, or the neutral index) with units in ``rid``."""
    return [i for i, c in enumerate(st["regions"][rid]["units"]) if c > 0]


def enemies_in(st: St, rid: str, seat: int) -> bool:
    return any(c > 0 and i != seat for i, c in enumerate(st["regions"][rid]["units"]))


def is_hq(st: St, rid: str) -> bool:
    return rid in st["hq"]


def neighbours(st: St, rid: str, seat: int) -> list[str]:
    """Regions one step from ``rid`` for ``seat``: printed borders and arrows; Trog tunnels link up."""
    out = list(board(st).adj[rid])
    if seat == trog_seat(st) and st["regions"][rid]["tunnel"]:
        out += [r for r, reg in st["regions"].items() if reg["tunnel"] and r != rid and r not in out]
    return out


def take_from_deck(st: St, seat: int, n: int) -> list[str]:
    """Up to ``n`` cards off the top of the deck, reshuffling the discard pile when the deck runs dry."""
    s = st["seats"][seat]
    got: list[str] = []
    for _ in range(n):
        if not s["deck"]:
            if not s["discard"]:
                break
            s["deck"] = sorted(s["discard"])
            s["discard"] = []
            shuffle(st, s["deck"])
        got.append(s["deck"].pop(0))
    return got


def draw_cards(st: St, seat: int, n: int) -> int:
    """Draw up to ``n`` cards into the hand; returns how many came."""
    got = take_from_deck(st, seat, n)
    hand = st["seats"][seat]["hand"]
    hand.extend(got)
    hand.sort()
    return len(got)


def can_draw(st: St, seat: int) -> bool:
    s = st["seats"][seat]
    return bool(s["deck"] or s["discard"])


T = TypeVar("T")


def shuffle(st: St, items: list[T]) -> None:
    """Shuffle ``items`` in place with the generator kept in the state, so that a replay of the game
    shuffles them alike."""
    rng = Rng(st["rng"])
    rng.shuffle(items)
    st["rng"] = rng.state


def below(st: St, n: int) -> int:
    rng = Rng(st["rng"])
    v = rng.below(n)
    st["rng"] = rng.state
    return v


def hand_card(st: St, seat: int, kind: str) -> str | None:
    """The first card of ``kind`` in the hand (copies are interchangeable)."""
    return next((c for c in st["seats"][seat]["hand"] if kind_of(c) == kind), None)


def hand_kinds(st: St, seat: int) -> list[str]:
    return sorted({kind_of(c) for c in st["seats"][seat]["hand"]})


def discard_from_hand(st: St, seat: int, kind: str) -> str:
    card = hand_card(st, seat, kind)
    assert card is not None
    s = st["seats"][seat]
    s["hand"].remove(card)
    s["discard"].append(card)
    return card


def controlled(st: St, seat: int) -> list[str]:
    return [r for r, reg in st["regions"].items() if reg["control"] == seat]


def move_up(st: St, seat: int, steps: int = 1) -> None:
    """The initiative symbol: one place earlier on the upcoming initiative track per symbol."""
    up = st["upcoming"]
    for _ in range(steps):
        i = up.index(seat)
        if i > 0:
            up[i - 1], up[i] = up[i], up[i - 1]


def place_units(st: St, seat: int, rid: str, n: int) -> int:
    """Move up to ``n`` units from the reserve into ``rid``; returns how many came."""
    s = st["seats"][seat]
    k: int = max(0, min(n, s["reserve"]))
    s["reserve"] -= k
    st["regions"][rid]["units"][seat] += k
    return k


def units_on_map(st: St, seat: int) -> int:
    return sum(reg["units"][seat] for reg in st["regions"].values())
