"""Ratings: a pure function of the stored results, computed by ``openskill`` (Weng-Lin, Plackett-Luce).

Each server keeps one rating pool per game and format, named by the caller (``engine.registry``
lists them: War Chest for two and War Chest in teams are two pools, Cry Havoc for two to four one).
A rating is a mean ``mu`` and an uncertainty ``sigma``; players are ranked by the model's
conservative ordinal, ``mu - 3 sigma``.

The Plackett-Luce model of Weng and Lin rates any number of sides of any size with a full order of
finish and ties, so a War Chest team game, a four-player Cry Havoc game and an agreed draw all go
through the same update, and a side's players share its result. Its updates are Bayesian
approximations made for online games (the model behind OpenSkill), cheap enough to replay every
result of a server on each recomputation.

Nothing here reads or writes: ``rate`` gives the new ratings of one game's players from their ratings
before it, and ``replay`` folds every rated result of a store, in the order they were recorded, into
the ratings and the change each result made. The stores call both, so the ratings they keep are
always the ones a replay of their results gives.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""The model every rating comes from; its defaults: a new player is at mu 25, sigma 25/3."""


@dataclass(frozen=True)
class Place:
    """How one player finished: their ``side`` (players of one side share a result) and its ``rank``
    (1 is first; equal ranks tie). What they played is the result's ``sides``, apart: ratings never
    read it. (Results recorded before it was kept carry a ``faction`` here, which is ignored.)"""

    player: str
    side: int
    rank: int

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "side": self.side, "rank": self.rank}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Place:
        return cls(str(data["player"]), int(str(data["side"])), int(str(data["rank"])))


@dataclass(frozen=True)
class Rating:
    """A player's rating: the model's mean and uncertainty."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def ordinal(self) -> float:
        """The conservative rating lists rank by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Change:
    """What one rated result did to one player's rating."""

    player: str
    before: Rating
    after: Rating

    @property
    def delta(self) -> float:
        """The change of the conservative rating (what a player sees as points won or lost)."""
        return self.after.ordinal - self.before.ordinal


def rate(before: Mapping[str, Rating], places: Sequence[Place]) -> list[Change]:
    """The rating change of each player of one game (in ``places`` order); a player without a rating
    in ``before`` starts at the model's default. A game with fewer than two sides changes nothing."""
    sides = sorted({p.side for p in places})
    if len(sides) < 2:
        return []
    teams = [[p for p in places if p.side == side] for side in sides]
    ranks = [min(p.rank for p in team) for team in teams]
    start = {p.player: before.get(p.player, Rating()) for p in places}
    rated = MODEL.rate(
        [[MODEL.rating(mu=start[p.player].mu, sigma=start[p.player].sigma) for p in team] for team in teams],
        ranks=[float(r) for r in ranks],
    )
    after = {
        p.player: Rating(float(r.mu), float(r.sigma))
        for team, new in zip(teams, rated, strict=True)
        for p, r in zip(team, new, strict=True)
    }
    return [Change(p.player, start[p.player], after[p.player]) for p in places]


@dataclass
class Standing:
    """A player's rating in one pool of one server, with the rated games behind it."""

    player: str
    rating: Rating = field(default_factory=Rating)
    games: int = 0
    wins: int = 0
    draws: int = 0


@dataclass(frozen=True)
class Rated:
    """One rated result as ``replay`` reads it: the key of the result (its order of recording), the
    server and pool it counts in, and how each player finished."""

    key: int
    guild: str
    pool: str
    places: tuple[Place, ...]


@dataclass
class Replayed:
    """Every pool's standings after a replay, and the changes each result made (by result key)."""

    standings: dict[tuple[str, str], dict[str, Standing]] = field(default_factory=dict)
    changes: dict[int, list[Change]] = field(default_factory=dict)


def outcome(place: Place, places: Sequence[Place]) -> str:
    """A player's result in a game: "win" (alone first), "draw" (first with other sides) or "loss"."""
    best = min(p.rank for p in places)
    if place.rank != best:
        return "loss"
    shared = {p.side for p in places if p.rank == best}
    return "win" if len(shared) == 1 else "draw"


def apply(standings: dict[str, Standing], places: Sequence[Place]) -> list[Change]:
    """Rate one game against ``standings`` (one pool), updating them; the changes it made."""
    changes = rate({p: s.rating for p, s in standings.items()}, places)
    for change, place in zip(changes, places, strict=True):
        standing = standings.setdefault(change.player, Standing(change.player))
        standing.rating = change.after
        standing.games += 1
        result = outcome(place, places)
        standing.wins += result == "win"
        standing.draws += result == "draw"
    return changes


def replay(results: Iterable[Rated]) -> Replayed:
    """Fold rated results, in the order given (the order they were recorded), into ratings."""
    out = Replayed()
    for result in results:
        pool = out.standings.setdefault((result.guild, result.pool), {})
        out.changes[result.key] = apply(pool, result.places)
    return out


def ranked(standings: Iterable[Standing]) -> list[Standing]:
    """Standings best first: by conservative rating, then more games, then player id (a stable order)."""
    return sorted(standings, key=lambda s: (-s.rating.ordinal, -s.games, s.player))
