"""The game's own content, read once from ``data/*.json``: map sides, factions, terrain decks, tokens.

Numbers live in data so that balancing the game never touches the rules code; docs/rules/cryhavoc.md
explains why each number is what it is. Everything here is read-only after import.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DIR = Path(__file__).parent / "data"


def _load(name: str) -> Any:
    return json.loads((_DIR / name).read_text(encoding="utf-8"))


MAPS: dict[str, Any] = _load("maps.json")
FACTIONS: dict[str, Any] = _load("factions.json")
TERRAIN_DECKS: dict[str, Any] = _load("terrain.json")
TOKENS: dict[str, Any] = _load("tokens.json")

FACTION_ORDER = ("humans", "machines", "pilgrims", "trogs")
TERRAINS = ("mountain", "desert", "jungle", "ocean")
OBJECTIVES = ("control", "prisoners", "attrition")
POINT_TYPES = ("move", "recruit", "build")

CARDS: dict[str, dict[str, Any]] = {}
"""Card kind -> definition, with ``terrain`` set (or ``None`` for a faction card) and ``faction``."""
for _fac, _fd in FACTIONS.items():
    for _c in _fd["deck"]:
        CARDS[_c["kind"]] = {**_c, "faction": _fac, "terrain": None}
for _ter, _deck in TERRAIN_DECKS.items():
    for _c in _deck:
        CARDS[_c["kind"]] = {**_c, "faction": None, "terrain": _ter}

STRUCTURES: dict[str, dict[str, Any]] = {
    sid: {**sd, "faction": fac} for fac, fd in FACTIONS.items() for sid, sd in fd["structures"].items()
}
SKILLS: dict[str, list[dict[str, Any]]] = {
    sid: eff for fd in FACTIONS.values() for sid, eff in fd["skills"].items()
}
EXPLORATION: dict[str, list[dict[str, Any]]] = {t["id"]: t["effect"] for t in TOKENS["exploration"]}
EVENTS: dict[str, dict[str, Any]] = {e["id"]: e["effect"] for e in TOKENS["events"]}
WAR_PARTIES: dict[str, dict[str, Any]] = {t["id"]: t for t in TOKENS["war_party"]}


def kind_of(card: str) -> str:
    """A card instance id is ``<kind>.<copy>``; actions name the kind."""
    return card.partition(".")[0]


def points(card: str, kind: str) -> int:
    """The points of one type (``move``, ``recruit``, ``build``) printed on a card."""
    return int(CARDS[kind_of(card)]["points"].get(kind, 0))


def deck_cards(entries: list[dict[str, Any]]) -> list[str]:
    """Instance ids for a deck definition: every copy gets its own id."""
    return [f"{c['kind']}.{i + 1}" for c in entries for i in range(c["copies"])]


class Board:
    """One side of the map: regions, their printed features and who is next to whom."""

    def __init__(self, side: str) -> None:
        d = MAPS[side]
        self.side = side
        self.regions: dict[str, dict[str, Any]] = d["regions"]
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
