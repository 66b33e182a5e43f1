"""Who plays whom in a round: Swiss, round robin, groups then a knockout, and tables of three or four.

Two-player pairing is pairing-core's (docs/leagues.md says why it was chosen): its Swiss is the FIDE
Dutch system, which never pairs two players twice while another pairing exists, gives the bye to the
lowest-placed player who has not had one, and balances who plays first (the "colours": the first seat
is white); its round robin is the Berger tables. What it leaves to its caller is written here:

- when the Dutch rules find no pairing at all (six players after three rounds may be two triangles of
  players who all met), the round is paired again without the colour constraints, then, as a last
  resort, with the fewest rematches a search finds: a round is never refused for want of a pairing;
- tables of three and four (Cry Havoc, War Chest in teams), which no library pairs: players grouped by
  points, then swapped between neighbouring tables while that keeps repeat opponents apart;
- the groups-then-knockout format: groups of a chosen size seeded like a snake, each a round robin,
  then the groups' best in a single-elimination bracket (matches played as best of N games).

Everything here is pure: entrants in, tables out, the same answer every time for the same input.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import pairing_core  # type: ignore[import-untyped]  # no py.typed: read through typed wrappers below

SEARCH_NODES = 200_000
"""Positions the fewest-rematches search looks at before it keeps the best found: far more than a
small field needs, and a bound for a large one (where the Dutch rules always find a pairing)."""
SWAP_PASSES = 20
"""Rounds of swaps between tables of three or four; each pass that improves nothing ends the search."""


@dataclass(frozen=True)
class Entrant:
    """A player as the pairing sees them: their pairing number (``seed``: join order, 1 first), points,
    the seats they had (``w`` first seat, ``b`` another, ``-`` no game), who they met, and whether
    they had a pairing bye."""

    player: str
    seed: int
    points: float = 0.0
    colours: str = ""
    opponents: frozenset[str] = frozenset()
    had_bye: bool = False

    @property
    def firsts(self) -> int:
        return self.colours.count("w")

    @property
    def seconds(self) -> int:
        return self.colours.count("b")


@dataclass(frozen=True)
class Round:
    """One round's tables, each in seat order (the first seat plays first), and who sits out with a bye."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    @property
    def players(self) -> set[str]:
        return {p for table in self.tables for p in table} | set(self.byes)


# ---- Swiss, two players a table ------------------------------------------------------------------


def swiss(entrants: Sequence[Entrant], round_number: int) -> Round:
    """The next Swiss round of two-player tables for ``entrants`` (the players still in)."""
    if len(entrants) < 2:
        return Round((), tuple(e.player for e in entrants))
    ordered = sorted(entrants, key=lambda e: e.seed)
    for keep_colours in (True, False):
        try:
            return _dutch(ordered, round_number, keep_colours=keep_colours)
        except pairing_core.ImpossiblePairingError:
            continue
    return fewest_rematches(ordered)


def _dutch(ordered: Sequence[Entrant], round_number: int, *, keep_colours: bool) -> Round:
    number = {e.player: i for i, e in enumerate(ordered, start=1)}
    name = {i: p for p, i in number.items()}
    players = tuple(
        pairing_core.CanonicalPlayer(
            id=number[e.player],
            pairing_no=number[e.player],
            rating=0,
            points=float(e.points),
            color_hist=e.colours if keep_colours else "",
            opponents=tuple(number[o] for o in e.opponents if o in number),
            received_bye=e.had_bye,
        )
        for e in ordered
    )
    request = pairing_core.CanonicalRequest(
        players=players, ruleset=pairing_core.DUTCH_TILL2026_COMPAT, round_number=max(1, round_number)
    )
    result: Any = pairing_core.pair_canonical(request)
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for board in result.pairings:
        if board.is_bye:
            byes.append(name[int(board.white_id)])
        else:
            tables.append((name[int(board.white_id)], name[int(board.black_id)]))
    return Round(tuple(tables), tuple(byes))


def fewest_rematches(entrants: Sequence[Entrant]) -> Round:
    """Two-player tables with as few rematches as a bounded search finds, then as close in points as
    it can: what a round falls back on when no pairing avoids every rematch. The bye goes to the
    lowest-placed player without one; the first seat to whoever had it less often."""
    ranked = sorted(entrants, key=lambda e: (-e.points, e.seed))
    byes: list[str] = []
    if len(ranked) % 2:
        sitting = next((e for e in reversed(ranked) if not e.had_bye), ranked[-1])
        byes.append(sitting.player)
        ranked = [e for e in ranked if e is not sitting]
    best: list[tuple[Entrant, Entrant]] = []
    best_cost = [math.inf]
    nodes = [0]

    def cost_of(a: Entrant, b: Entrant) -> float:
        return (1000.0 if b.player in a.opponents else 0.0) + abs(a.points - b.points)

    def search(left: list[Entrant], chosen: list[tuple[Entrant, Entrant]], cost: float) -> None:
        nodes[0] += 1
        if cost >= best_cost[0] or nodes[0] > SEARCH_NODES:
            return
        if not left:
            best_cost[0] = cost
            best[:] = chosen
            return
        first, rest = left[0], left[1:]
        for i, other in sorted(enumerate(rest), key=lambda item: cost_of(first, item[1])):
            search(rest[:i] + rest[i + 1 :], [*chosen, (first, other)], cost + cost_of(first, other))

    search(ranked, [], 0.0)
    return Round(tuple(_seated(a, b) for a, b in best), tuple(byes))


def _seated(a: Entrant, b: Entrant) -> tuple[str, str]:
    """The pair in seat order: the one who played first less often (net of second seats) goes first."""
    if (a.firsts - a.seconds, a.seed) <= (b.firsts - b.seconds, b.seed):
        return a.player, b.player
    return b.player, a.player


# ---- round robin -----------------------------------------------------------------------------------


def round_robin_rounds(count: int, cycles: int = 1) -> int:
    """How many rounds a round robin of ``count`` players takes, ``cycles`` times over."""
    if count < 2:
        return 0
    return (count - 1 if count % 2 == 0 else count) * cycles


def round_robin(players: Sequence[str], round_number: int, cycles: int = 1) -> Round:
    """Round ``round_number`` (1-based) of the Berger tables of ``players`` (in pairing order), played
    ``cycles`` times (the second cycle with the seats swapped); the player the tables leave out, with
    an odd count, has the bye."""
    if len(players) < 2:
        return Round((), tuple(players))
    schedule: Any = pairing_core.round_robin(len(players), double=cycles >= 2)
    rounds = len(schedule)
    index = (round_number - 1) % rounds
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for white, black in schedule[index]:
        if black is None:
            byes.append(players[int(white) - 1])
        else:
            tables.append((players[int(white) - 1], players[int(black) - 1]))
    return Round(tuple(tables), tuple(byes))


# ---- groups, then a knockout -------------------------------------------------------------------------


def groups(players: Sequence[str], size: int) -> list[list[str]]:
    """``players`` (best seed first) in groups of at most ``size``, dealt like a snake so that each
    group gets a fair share of the seeds: with three groups, seeds 1-2-3 then 6-5-4..."""
    count = max(1, math.ceil(len(players) / max(2, size)))
    dealt: list[list[str]] = [[] for _ in range(count)]
    for index, player in enumerate(players):
        lap, place = divmod(index, count)
        dealt[place if lap % 2 == 0 else count - 1 - place].append(player)
    return dealt


def group_rounds(dealt: Sequence[Sequence[str]]) -> int:
    """The rounds the group stage takes: its largest group's round robin."""
    return max((round_robin_rounds(len(g)) for g in dealt), default=0)


def group_round(dealt: Sequence[Sequence[str]], round_number: int) -> Round:
    """Round ``round_number`` of every group's round robin, side by side."""
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for group in dealt:
        if round_number > round_robin_rounds(len(group)):
            byes.extend(group)  # a smaller group has finished
            continue
        found = round_robin(group, round_number)
        tables.extend(found.tables)
        byes.extend(found.byes)
    return Round(tuple(tables), tuple(byes))


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a bracket of ``size`` (a power of two): 1 meets
    ``size``, and seeds 1 and 2 can only meet in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def knockout(qualified: Sequence[str]) -> list[tuple[str, str | None]]:
    """The first knockout round's matches between ``qualified`` (best seed first); a missing seed
    gives its opponent a bye (``None``) into the next round."""
    if not qualified:
        return []
    size = 1 << max(1, math.ceil(math.log2(max(2, len(qualified)))))
    seeds = bracket_order(size)
    at = {seed: qualified[seed - 1] if seed <= len(qualified) else None for seed in seeds}
    matches: list[tuple[str, str | None]] = []
    for first, second in zip(seeds[::2], seeds[1::2], strict=True):
        a, b = at[first], at[second]
        if a is None and b is not None:
            a, b = b, None
        if a is not None:
            matches.append((a, b))
    return matches


def next_knockout(winners: Sequence[str]) -> list[tuple[str, str | None]]:
    """The next knockout round: the winners of the matches before, in bracket order, two by two."""
    return [(winners[i], winners[i + 1] if i + 1 < len(winners) else None) for i in range(0, len(winners), 2)]


def qualifiers(ranked_groups: Sequence[Sequence[str]], per_group: int) -> list[str]:
    """The knockout's field, best seed first: every group's winner, then every group's second..."""
    return [group[place] for place in range(per_group) for group in ranked_groups if place < len(group)]


# ---- tables of three and four ----------------------------------------------------------------------


def table_sizes(count: int, size: int, allowed: Iterable[int]) -> list[int]:
    """How ``count`` players sit at tables of ``size`` (the league's), using the smaller sizes the game
    also allows down to three (Cry Havoc seats three or four) rather than leave players out; those no
    table can seat have a bye. Largest tables first."""
    usable = sorted({s for s in allowed if 3 <= s <= size} | {size})
    smallest = usable[0]
    tables = math.ceil(count / size)
    while tables and tables * smallest > count:
        tables -= 1
    if tables == 0:
        return []
    seated = min(count, tables * size)
    base, extra = divmod(seated, tables)
    sizes = [base + (1 if i < extra else 0) for i in range(tables)]
    if any(s not in usable for s in sizes):  # only the league's size fits: the rest sit out
        sizes = [size] * (count // size)
    return sorted(sizes, reverse=True)


def multi_tables(entrants: Sequence[Entrant], size: int, allowed: Iterable[int] = ()) -> Round:
    """A Swiss round of tables of three or four: players by points, cut into tables from the top, then
    swapped between tables while a swap lowers the repeat meetings (players who met before at the same
    table) without mixing points further than it must. The byes go to the lowest-placed players who
    have not had one; each table seats first whoever sat first least often."""
    ranked = sorted(entrants, key=lambda e: (-e.points, e.seed))
    sizes = table_sizes(len(ranked), size, allowed)
    seated_count = sum(sizes)
    byes: list[Entrant] = []
    pool = list(ranked)
    while len(pool) > seated_count:
        sitting = next((e for e in reversed(pool) if not e.had_bye), pool[-1])
        byes.append(sitting)
        pool.remove(sitting)
    tables: list[list[Entrant]] = []
    at = 0
    for s in sizes:
        tables.append(pool[at : at + s])
        at += s
    _swap_apart(tables)
    seated = tuple(tuple(e.player for e in sorted(t, key=lambda e: (e.firsts, e.seed))) for t in tables)
    return Round(seated, tuple(e.player for e in byes))


def _table_cost(table: Sequence[Entrant]) -> float:
    repeats = sum(1 for a, b in combinations(table, 2) if b.player in a.opponents)
    spread = sum(abs(a.points - b.points) for a, b in combinations(table, 2))
    return repeats * 1000.0 + spread


def _swap_apart(tables: list[list[Entrant]]) -> None:
    """Swap players between tables (nearest tables first) while it lowers the total cost."""
    for _ in range(SWAP_PASSES):
        improved = False
        for i in range(len(tables)):
            for j in range(i + 1, len(tables)):
                before = _table_cost(tables[i]) + _table_cost(tables[j])
                for a in range(len(tables[i])):
                    for b in range(len(tables[j])):
                        tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
                        after = _table_cost(tables[i]) + _table_cost(tables[j])
                        if after < before:
                            before = after
                            improved = True
                        else:
                            tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
        if not improved:
            return


@dataclass
class History:
    """What earlier rounds say of each player, to build their ``Entrant``: points, seats, opponents,
    byes. Filled round by round with ``table`` and ``bye``."""

    points: dict[str, float] = field(default_factory=dict)
    colours: dict[str, str] = field(default_factory=dict)
    opponents: dict[str, set[str]] = field(default_factory=dict)
    byes: set[str] = field(default_factory=set)

    def table(self, players: Sequence[str], points: dict[str, float]) -> None:
        for seat, player in enumerate(players):
            self.colours[player] = self.colours.get(player, "") + ("w" if seat == 0 else "b")
            self.opponents.setdefault(player, set()).update(p for p in players if p != player)
            self.points[player] = self.points.get(player, 0.0) + points.get(player, 0.0)

    def bye(self, player: str, points: float, *, pairing: bool = True) -> None:
        self.colours[player] = self.colours.get(player, "") + "-"
        self.points[player] = self.points.get(player, 0.0) + points
        if pairing:
            self.byes.add(player)

    def entrant(self, player: str, seed: int) -> Entrant:
        return Entrant(
            player,
            seed,
            self.points.get(player, 0.0),
            self.colours.get(player, ""),
            frozenset(self.opponents.get(player, ())),
            player in self.byes,
        )


__all__ = [
    "Entrant",
    "History",
    "Round",
    "bracket_order",
    "fewest_rematches",
    "group_round",
    "group_rounds",
    "groups",
    "knockout",
    "multi_tables",
    "next_knockout",
    "qualifiers",
    "round_robin",
    "round_robin_rounds",
    "swiss",
    "table_sizes",
]
