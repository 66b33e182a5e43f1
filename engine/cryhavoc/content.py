"""The game's own content, read once from ``data/*.json``: map sides, factions, terrain decks, tokens.

Numbers live in data so that balancing the game never touches the rules code; docs/rules/cryhavoc.md
explains why each number is what it is. Everything here is read-only after import.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NotRequired, TypedDict

_DIR = Path(__file__).parent / "data"


class Effect(TypedDict):
    """One effect of the shared vocabulary (``effects``, ``battle``): what it does and its numbers."""

    do: str
    n: NotRequired[int]
    objective: NotRequired[str]
    terrain: NotRequired[str]
    terrains: NotRequired[list[str]]


class DeckEntry(TypedDict):
    """A card kind of a deck: its copies, points, rarer symbols and battle effect."""

    kind: str
    copies: int
    points: dict[str, int]
    symbols: list[str]
    battle: Effect | None
    scoring: NotRequired[bool]


class Card(TypedDict):
    """A card kind as the rules and the hand read it: its points, symbols and battle effect, and
    where it comes from (its faction's deck, or a terrain's). The deck's entry (``kind``,
    ``copies``) comes along."""

    points: dict[str, int]
    symbols: list[str]
    battle: Effect | None
    faction: str | None
    terrain: str | None
    scoring: NotRequired[bool]
    kind: NotRequired[str]
    copies: NotRequired[int]


class StructureSpec(TypedDict):
    """A structure: its build and activation costs, effect and the guard it adds in battle."""

    build: int
    activate: int
    effect: list[Effect]
    guard: int


class Structure(StructureSpec):
    faction: str


class Faction(TypedDict):
    """A faction's box: units, its deck, structures, skills and the skill it always has."""

    units: int
    start_units: int
    deck: list[DeckEntry]
    structures: dict[str, StructureSpec]
    default_skill: str
    skills: dict[str, list[Effect]]


class Exploration(TypedDict):
    id: str
    copies: int
    effect: list[Effect]


class Event(TypedDict):
    id: str
    effect: Effect


class TrogSpec(TypedDict):
    """The Trogs and crystals a Trog token brings out."""

    trogs: int
    crystals: int


class WarParty(TrogSpec):
    id: str


class Tokens(TypedDict):
    """The box's tokens and the numbers of a round."""

    exploration: list[Exploration]
    events: list[Event]
    war_party: list[WarParty]
    nest: TrogSpec
    battle_tokens: int
    neutral_trogs: int
    event_positions: list[int]
    events_used: int
    draw_per_round: int
    hand_limit: int
    actions_per_round: int
    tunnel_tokens: int
    structure_tokens: int
    control_vp: int
    ransom_vp: int


class Printed(TypedDict):
    """A region as the map prints it; HQ slots and the Hive print only their place."""

    pos: list[int]
    terrain: NotRequired[str | None]
    crystals: NotRequired[int]
    war_party: NotRequired[bool]
    explore: NotRequired[bool]
    tunnel: NotRequired[bool]
    hq: NotRequired[bool]
    hive: NotRequired[bool]


class MapSide(TypedDict):
    players: list[int]
    regions: dict[str, Printed]
    hq_slots: list[str]
    hive: str
    edges: list[list[str]]
    arrows: list[list[str]]
    thick: list[list[str]]


def _text(name: str) -> str:
    return (_DIR / name).read_text(encoding="utf-8")


MAPS: dict[str, MapSide] = json.loads(_text("maps.json"))
FACTIONS: dict[str, Faction] = json.loads(_text("factions.json"))
TERRAIN_DECKS: dict[str, list[DeckEntry]] = json.loads(_text("terrain.json"))
TOKENS: Tokens = json.loads(_text("tokens.json"))

FACTION_ORDER = ("humans", "machines", "pilgrims", "trogs")
TERRAINS = ("mountain", "desert", "jungle", "ocean")
OBJECTIVES = ("control", "prisoners", "attrition")
POINT_TYPES = ("move", "recruit", "build")

CARDS: dict[str, Card] = {}
"""Card kind -> definition, with ``terrain`` set (or ``None`` for a faction card) and ``faction``."""
for _fac, _fd in FACTIONS.items():
    for _c in _fd["deck"]:
        CARDS[_c["kind"]] = {**_c, "faction": _fac, "terrain": None}
for _ter, _deck in TERRAIN_DECKS.items():
    for _c in _deck:
        CARDS[_c["kind"]] = {**_c, "faction": None, "terrain": _ter}

STRUCTURES: dict[str, Structure] = {
    sid: {**sd, "faction": fac} for fac, fd in FACTIONS.items() for sid, sd in fd["structures"].items()
}
SKILLS: dict[str, list[Effect]] = {sid: eff for fd in FACTIONS.values() for sid, eff in fd["skills"].items()}
EXPLORATION: dict[str, list[Effect]] = {t["id"]: t["effect"] for t in TOKENS["exploration"]}
EVENTS: dict[str, Effect] = {e["id"]: e["effect"] for e in TOKENS["events"]}
WAR_PARTIES: dict[str, WarParty] = {t["id"]: t for t in TOKENS["war_party"]}


def kind_of(card: str) -> str:
    """A card instance id is ``<kind>.<copy>``; actions name the kind."""
    return card.partition(".")[0]


def points(card: str, kind: str) -> int:
    """The points of one type (``move``, ``recruit``, ``build``) printed on a card."""
    return int(CARDS[kind_of(card)]["points"].get(kind, 0))


def deck_cards(entries: list[DeckEntry]) -> list[str]:
    """Instance ids for a deck definition: every copy gets its own id."""
    return [f"{c['kind']}.{i + 1}" for c in entries for i in range(c["copies"])]


class Board:
    """One side of the map: regions, their printed features and who is next to whom."""

    def __init__(self, side: str) -> None:
        d = MAPS[side]
        self.side = side
        self.regions: dict[str, Printed] = d["regions"]
        self.hq_slots: list[str] = d["hq_slots"]
        self.hive: str = d["hive"]
        adj: dict[str, set[str]] = {r: set() for r in self.regions}
        for a, b in [*d["edges"], *d["arrows"]]:
            adj[a].add(b)
            adj[b].add(a)
        self.adj = {r: sorted(n) for r, n in adj.items()}
        self.arrows: list[list[str]] = d["arrows"]
        self.thick: list[list[str]] = d["thick"]
        self.order = list(self.regions)

    def terrain(self, rid: str) -> str | None:
        return self.regions[rid].get("terrain")

    def is_hq_slot(self, rid: str) -> bool:
        return bool(self.regions[rid].get("hq"))


BOARDS = {side: Board(side) for side in MAPS}


def side_for(count: int) -> str:
    """The map side printed for this many players."""
    return next(s for s, d in MAPS.items() if count in d["players"])
