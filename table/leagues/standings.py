"""A league's standings: points and the tiebreaks that order players with the same points.

Points: a win 1, a draw ½, a loss 0, a bye 1 (a late join's missed rounds count as byes or as nothing,
as the league was created). Players with the same points are then ordered, in this order, by:

1. **head-to-head**: the points they scored in games against the others they are tied with;
2. **Buchholz** (Swiss only): the sum of their opponents' points (at a table of three or four, every
   other player at the table is an opponent), which rewards the harder path;
3. **Sonneborn-Berger** (Swiss only): the sum, over their games, of the points they scored times the
   opponent's points: a win over a strong player counts more than a win over a weak one;
4. **the game's own measure**, where it has one (War Chest: control markers placed; Cry Havoc:
   victory points; Batailles: losses inflicted), summed over their games.

Players equal on all of them share a place. Pure: scored tables in, rows out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
TIEBREAKS_SWISS = ("head_to_head", "buchholz", "sonneborn_berger", "measure")
TIEBREAKS_OTHER = ("head_to_head", "measure")


@dataclass(frozen=True)
class Scored:
    """One table's outcome as the league counts it: each player's points (1, ½ or 0) and the game's
    own measure for each (empty when the game has none). A bye is a table of one."""

    round: int
    players: tuple[str, ...]
    points: Mapping[str, float]
    measure: Mapping[str, float] = field(default_factory=dict)
    bye: bool = False


@dataclass(frozen=True)
class Row:
    """One line of the standings."""

    place: int
    player: str
    points: float
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    tiebreaks: tuple[float, ...] = ()
    dropped: bool = False


def tiebreak_names(swiss: bool, measured: bool) -> tuple[str, ...]:
    """The tiebreaks a league of this kind uses, in order (catalog keys ``league.tb.<name>``)."""
    names = TIEBREAKS_SWISS if swiss else TIEBREAKS_OTHER
    return tuple(n for n in names if measured or n != "measure")


def standings(
    players: Sequence[str],
    scored: Sequence[Scored],
    *,
    swiss: bool,
    measured: bool = False,
    dropped: Sequence[str] = (),
) -> list[Row]:
    """The standings of ``players`` (in join order, which orders those equal on everything) from the
    ``scored`` tables of every round so far."""
    points = {p: 0.0 for p in players}
    wins = dict.fromkeys(players, 0)
    draws = dict.fromkeys(players, 0)
    losses = dict.fromkeys(players, 0)
    byes = dict.fromkeys(players, 0)
    measure = {p: 0.0 for p in players}
    for table in scored:
        for player in table.players:
            if player not in points:
                continue
            got = float(table.points.get(player, 0.0))
            points[player] += got
            measure[player] += float(table.measure.get(player, 0.0))
            if table.bye:
                byes[player] += 1
            elif got >= WIN:
                wins[player] += 1
            elif got > LOSS:
                draws[player] += 1
            else:
                losses[player] += 1
    games = [t for t in scored if not t.bye]
    names = tiebreak_names(swiss, measured)
    values: dict[str, dict[str, float]] = {p: {} for p in players}
    for player in players:
        buchholz = sonneborn = 0.0
        for table in games:
            if player not in table.players:
                continue
            mine = float(table.points.get(player, 0.0))
            for other in table.players:
                if other == player or other not in points:
                    continue
                buchholz += points[other]
                sonneborn += mine * points[other]
        values[player].update(buchholz=buchholz, sonneborn_berger=sonneborn, measure=measure[player])
    for group in _equal_points(players, points):
        for player in group:
            values[player]["head_to_head"] = sum(
                float(t.points.get(player, 0.0)) / max(1, len(t.players) - 1) * _met(t, player, group)
                for t in games
                if player in t.players
            )
    order = {p: i for i, p in enumerate(players)}

    def key(player: str) -> tuple[float, ...]:
        return (points[player], *(values[player][n] for n in names))

    ranked = sorted(players, key=lambda p: (tuple(-k for k in key(p)), order[p]))
    rows: list[Row] = []
    for index, player in enumerate(ranked):
        place = rows[-1].place if rows and key(ranked[index - 1]) == key(player) else index + 1
        rows.append(
            Row(
                place,
                player,
                points[player],
                wins[player],
                draws[player],
                losses[player],
                byes[player],
                tuple(values[player][n] for n in names),
                player in dropped,
            )
        )
    return rows


def _equal_points(players: Sequence[str], points: Mapping[str, float]) -> list[list[str]]:
    found: dict[float, list[str]] = {}
    for player in players:
        found.setdefault(points[player], []).append(player)
    return list(found.values())


def _met(table: Scored, player: str, group: Sequence[str]) -> int:
    """How many of ``group`` (the players tied with ``player``) sat at ``table`` against them."""
    return sum(1 for other in table.players if other != player and other in group)


__all__ = ["DRAW", "LOSS", "WIN", "Row", "Scored", "standings", "tiebreak_names"]
