"""Results and ratings of finished games: what the store records when a game ends.

Every started game that ends (won, drawn, resigned, forfeited at a deadline, aborted) gets one
result in the store, recorded when its end is announced (so also after a crash, by the catch-up),
with what each player played (the engine's ``sides``).
A result is rated when the game ended with a result (not aborted), every seat is a person (no
computer player sat or stood in), and the table did not choose ``rated=no`` at ``/game new``; the
store then updates its players' ratings in the same transaction (``db.ratings``).

How the players finished: the sides with a winner first; the others after them, in order of their
score when the game gives every player one (a four-player Cry Havoc), else together; an agreed or
drawn game puts every side first. A forfeit at a deadline is a loss for the absent side, as its
result says.

``settle`` records the result once: server, rating pool, whether it is rated, each player's side and rank, and
what each played (War Chest units, a Batailles army, a Cry Havoc faction). The scheduler's catch-up also
records, in the order they ended, games that ended before results were kept; results recorded before schema 8
get what each played from their game's state at the next start's catch-up or recomputation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import engine
import i18n
from db import GameRecord, Place, ResultRecord, Store
from db.sides import read_sides_with, sides_played
from engine.contract import JSON
from engine.errors import GameError
from engine.registry import pool_of
from table.core.events import decode_result
from table.core.posts import is_bot
from table.core.settings import TableSettings

NO_GUILD = ""
"""The server name of games outside a server (the console, direct messages)."""


def engine_sides(game: str, state: Mapping[str, JSON]) -> Sequence[Sequence[str]]:
    """What each seat played in ``game`` at ``state`` (an engine dump), by the game's rules; a state
    the rules cannot read is a ``ValueError``."""
    try:
        rules = engine.get_game(game)
        return rules.sides(rules.load(dict(state)))
    except GameError as unreadable:
        raise ValueError(str(unreadable)) from unreadable


def use_engine_sides() -> None:
    """Have the stores read what each player played by the games' rules (``db.sides``)."""
    read_sides_with(engine_sides)


def guild_of(record: GameRecord) -> str:
    return record.guild or NO_GUILD


def sides_of(record: GameRecord) -> list[list[str]]:
    """The players of each side in seat order: teams when seats have them, else one side each."""
    out: dict[object, list[str]] = {}
    for seat in record.seats:
        key: object = ("team", seat.team) if seat.team is not None else ("player", seat.player)
        out.setdefault(key, []).append(seat.player)
    return list(out.values())


def places_of(record: GameRecord) -> list[Place]:
    """How each player of a finished game placed, in seat order."""
    sides = sides_of(record)
    result = decode_result(record.result) if record.result else None
    ranks: list[int]
    if result is None or result.draw or record.status != "over":
        ranks = [1] * len(sides)
    else:
        won = [any(p in result.winners for p in side) for side in sides]
        scored = all(p in result.scores for side in sides for p in side)
        score = [max((result.scores.get(p, 0) for p in side), default=0) if scored else 0 for side in sides]
        ranks = [
            1 if won[i] else 2 + sum(1 for j in range(len(sides)) if not won[j] and score[j] > score[i])
            for i in range(len(sides))
        ]
    return [Place(player, side, ranks[side]) for side, players in enumerate(sides) for player in players]


async def is_rated(store: Store, record: GameRecord) -> bool:
    """Whether the finished game counts for ratings (see the module's description)."""
    if record.status != "over" or record.result is None or not TableSettings.of(record).rated:
        return False
    if len(sides_of(record)) < 2 or any(is_bot(p) for p in record.player_ids):
        return False
    # a computer player that stood in for an absent player, even for a while, leaves its note
    return not any(note.actor and is_bot(note.actor) for note in await store.notes(record.id))


async def settle(store: Store, record: GameRecord) -> ResultRecord | None:
    """Record the result of a finished game (once: a game recorded already keeps its result), with
    its rating changes when rated; None for a game that is not finished or never started."""
    if record.status not in ("over", "aborted") or record.state is None:
        return None
    found = await store.result_of(record.id)
    if found is not None:
        return found
    return await store.record_result(
        record.id,
        guild=guild_of(record),
        pool=pool_of(record.game, len(record.seats)),
        rated=await is_rated(store, record),
        places=places_of(record),
        finished_at=record.updated_at,
        sides=sides_played(record.game, record.state, record.player_ids),
    )


# ---- how ratings read -----------------------------------------------------------------------------


def points(value: float, locale: str, *, signed: bool = False) -> str:
    """A rating to one decimal, with the language's decimal mark ("12.3", "12,3"); ``signed``: "+2.4"."""
    return i18n.decimal(value, locale, signed=signed)


def pool_title(pool: str, locale: str) -> str:
    return i18n.t(f"rating.pool.{pool}", locale)


def changes_line(result: ResultRecord, names: Mapping[str, str], locale: str) -> str | None:
    """The line of a final post that gives each player's new rating and its change; None when the
    game was not rated."""
    if not result.rated or not result.changes:
        return None
    parts = [
        i18n.t(
            "rating.change",
            locale,
            player=names.get(c.player, c.player),
            rating=points(c.after.ordinal, locale),
            delta=points(c.delta, locale, signed=True),
        )
        for c in result.changes
    ]
    return i18n.t("rating.changes", locale, pool=pool_title(result.pool, locale), changes=", ".join(parts))
