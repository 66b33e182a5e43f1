"""A league's document: its rules, players, rounds and tables, as the store keeps it (``LeagueRecord.doc``).

Everything a league knows is here, so that a restart (or another process) finds where it stood: who
signed up and when, who dropped out, each round's tables with the game and thread made for them and
the result as the league counted it, when the round ends, and the posts kept edited in place. It is
read and written whole, over the revision read (``Store.save_league``), which is what keeps two
processes from starting the same round twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from typing import Any

FORMATS = ("swiss", "round_robin", "groups")
UNFINISHED = ("draw", "both_lose")
LATE = ("bye", "zero")
KNOCKOUT = "knockout"


@dataclass(frozen=True)
class Rules:
    """How the league was created: its format and rounds, each round's length, the size of its tables,
    the options of every game it makes (``options``: as ``/game new`` takes them), how an unfinished
    game and a late join count, and for groups their size, how many of each go through, and the
    length of a knockout match."""

    format: str = "swiss"
    rounds: int | None = None
    round_seconds: int = 7 * 24 * 3600
    size: int = 2
    options: str = ""
    unfinished: str = "draw"
    late: str = "bye"
    rated: bool = True
    group: int = 4
    advance: int = 2
    best_of: int = 1
    seed: int | None = None
    """A seed the creator chose (``seed=N``): each game's is drawn from it, so a league replays."""


@dataclass(frozen=True)
class Entry:
    """A player of the league: ``joined`` is the round under way when they joined (0: before the start),
    ``dropped`` the round in which they left or were removed (None: still in)."""

    player: str
    name: str
    joined: int = 0
    dropped: int | None = None


@dataclass(frozen=True)
class Seat:
    """One table of a round: its players in seat order (one alone: a bye), the thread and game made for
    it, and what it scored once done (each player's points and the game's own measure). A knockout
    table is one game (``number``) of a match (``match``)."""

    round: int
    board: int
    players: tuple[str, ...]
    thread: str | None = None
    game: int | None = None
    points: dict[str, float] | None = None
    measure: dict[str, float] = field(default_factory=dict)
    bye: bool = False
    stage: str = ""
    match: int = 0
    number: int = 1
    how: str = ""
    """How it was scored: ``played``, ``unfinished``, ``forfeit``, ``bye`` or ``missed`` (a late join)."""

    @property
    def done(self) -> bool:
        return self.points is not None

    @property
    def key(self) -> str:
        return f"{self.round}.{self.board}"


@dataclass(frozen=True)
class Book:
    rules: Rules = Rules()
    locale: str = "en"
    home: tuple[str, str] = ("channel", "")
    players: tuple[Entry, ...] = ()
    tables: tuple[Seat, ...] = ()
    round: int = 0
    total: int = 0
    """The rounds the league plays, fixed at its start (a knockout's depth once the groups are done)."""
    started: str | None = None
    ends: str | None = None
    groups: tuple[tuple[str, ...], ...] = ()
    cards: dict[str, str] = field(default_factory=dict)
    """Posts kept edited in place (``signup``, ``standings``), and each round's server event."""
    winner: tuple[str, ...] = ()
    finished: bool = False

    # ---- reading --------------------------------------------------------------------------------

    def entry(self, player: str) -> Entry | None:
        return next((e for e in self.players if e.player == player), None)

    @property
    def names(self) -> dict[str, str]:
        return {e.player: e.name for e in self.players}

    @property
    def active(self) -> list[Entry]:
        return [e for e in self.players if e.dropped is None]

    def in_round(self, number: int) -> list[Seat]:
        return [t for t in self.tables if t.round == number]

    def current(self) -> list[Seat]:
        return self.in_round(self.round)

    def seats(self) -> Iterator[Seat]:
        return iter(self.tables)

    # ---- writing --------------------------------------------------------------------------------

    def with_table(self, table: Seat) -> Book:
        """The book with ``table`` (by round and board) replaced, or added."""
        found = [t for t in self.tables if t.key != table.key]
        return replace(self, tables=tuple(sorted([*found, table], key=lambda t: (t.round, t.board))))

    def with_entry(self, entry: Entry) -> Book:
        kept = [e for e in self.players if e.player != entry.player]
        if len(kept) == len(self.players):
            return replace(self, players=(*self.players, entry))
        return replace(self, players=tuple(entry if e.player == entry.player else e for e in self.players))

    def without(self, player: str) -> Book:
        return replace(self, players=tuple(e for e in self.players if e.player != player))

    # ---- the stored form ------------------------------------------------------------------------

    def dump(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def load(cls, data: dict[str, Any]) -> Book:
        rules = Rules(**data.get("rules", {}))
        players = tuple(Entry(**e) for e in data.get("players", ()))
        tables = tuple(
            Seat(**{**t, "players": tuple(t.get("players", ())), "measure": dict(t.get("measure") or {})})
            for t in data.get("tables", ())
        )
        return cls(
            rules=rules,
            locale=str(data.get("locale", "en")),
            home=(str(data.get("home", ("channel", ""))[0]), str(data.get("home", ("channel", ""))[1])),
            players=players,
            tables=tables,
            round=int(data.get("round", 0)),
            total=int(data.get("total", 0)),
            started=data.get("started"),
            ends=data.get("ends"),
            groups=tuple(tuple(g) for g in data.get("groups", ())),
            cards=dict(data.get("cards", {})),
            winner=tuple(data.get("winner", ())),
            finished=bool(data.get("finished", False)),
        )


__all__ = ["FORMATS", "KNOCKOUT", "LATE", "UNFINISHED", "Book", "Entry", "Rules", "Seat"]
