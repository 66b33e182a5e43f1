"""Results of ended games, recorded where their end is announced, and those told of each end.

A game's result and its rating changes are recorded once (``table.core.ratings.settle``) when the
post of its end is made, before its words, which give the new ratings; the catch-up at start-up
records those of games that ended before results were kept. Those told of ended games (a league
counting its result) hear of each once its end is posted.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from db import GameRecord, ResultRecord, Store
from table.core.ratings import changes_line, settle
from table.core.tables import Table

log = logging.getLogger(__name__)

Ended = Callable[[GameRecord], Awaitable[None]]
"""Told of a game whose end was just posted (a league counts its result)."""


class Results:
    """Records each ended game's result and ratings, and tells those who follow ends."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.ended: list[Ended] = []
        """Told of each game whose end this process posted, once posted."""
        self._sides_filled = False
        """Whether this process gave the results recorded without sides theirs (``db.sides``)."""

    async def record(self, record: GameRecord) -> ResultRecord | None:
        """The game's result, recorded now unless it was already (its ratings with it); None for a
        game still running or never started."""
        return await settle(self.store, record)

    @staticmethod
    def ratings_line(result: ResultRecord | None, table: Table, locale: str) -> tuple[str, ...]:
        """The line of the end's post giving the new ratings, when the game was rated."""
        line = result and changes_line(result, table.names, locale)
        return (line,) if line else ()

    async def catch_up(self) -> None:
        """Games that ended before results were kept (or whose end is still unannounced: the post
        records it too, once) get their result, and their ratings, in the order they ended; results
        recorded before sides were kept get them, once a start."""
        for record in await self.store.unrecorded():
            await settle(self.store, record)
        if not self._sides_filled:
            await self.store.fill_sides()
            self._sides_filled = True

    async def tell_ended(self, record: GameRecord) -> None:
        """Those told of ended games hear of this one; one that fails is logged and does not stop
        the others."""
        for told in self.ended:
            try:
                await told(record)
            except Exception:
                log.exception("after the end of game #%s", record.id)
