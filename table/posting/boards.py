"""The board a post shows: drawn as soon as a move is stored, while its announcement takes its claim
and reads the game, and never drawn for a version already outdated when its turn in the drawing queue
comes (latest wins, ``table.core.workers.Superseded``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from datetime import datetime
from typing import Any

from db import GameRecord
from table.core.clock import Clock
from table.core.posts import Picture
from table.core.settings import public_locale
from table.core.tables import Table, Tables
from table.core.text import pings
from table.posting.waits import Waits


def revision(record: GameRecord) -> tuple[int, bool]:
    """How far a game has gone: its version, then whether it has ended (an ending outside a move,
    a resignation, keeps the version)."""
    return record.version, record.status != "active"


def _retrieved(future: asyncio.Future[Any]) -> None:
    """Take a finished task's error, if any: a board given up need not be looked at."""
    if not future.cancelled():
        future.exception()


class Boards:
    """The boards of the games being announced: those drawn early, and each game's newest revision."""

    def __init__(self, tables: Tables, waits: Waits, clock: Clock) -> None:
        self.tables = tables
        self.waits = waits
        self.clock = clock
        self._early: dict[int, tuple[int, asyncio.Future[tuple[str, Picture | None]]]] = {}
        """Boards drawn as soon as a move is stored, by game: the version and the drawing."""
        self._newest: dict[int, tuple[int, bool]] = {}
        """The newest revision (version, ended) of each game with an announcement queued or under
        way: a board of an older one is not drawn once its turn in the drawing queue comes."""

    def queued(self, record: GameRecord) -> None:
        """An announcement of ``record``'s revision is queued: older boards of its game are outdated."""
        self._newest[record.id] = max(self._newest.get(record.id, (-1, False)), revision(record))

    def done(self, game_id: int) -> None:
        """No newer announcement of the game is queued: nothing of it is outdated any more."""
        self._newest.pop(game_id, None)

    def draw_early(self, table: Table) -> None:
        """Start drawing the table's board now, for its announcement to come."""
        drawing = asyncio.ensure_future(self._early_board(table))
        drawing.add_done_callback(_retrieved)
        self._early[table.record.id] = (table.record.version, drawing)

    def drop_early(self, game_id: int) -> None:
        early = self._early.pop(game_id, None)
        if early is not None:
            early[1].cancel()

    def pending(self) -> list[asyncio.Future[Any]]:
        """The early drawings under way, forgotten: a stop cancels them."""
        drawings: list[asyncio.Future[Any]] = [drawing for _, drawing in self._early.values()]
        self._early.clear()
        return drawings

    async def _early_board(self, table: Table) -> tuple[str, Picture | None]:
        # drawn as if nobody were away: most boards are, and reading who is would make this drawing
        # wait; the announcement draws the board again when someone seated turns out to be away
        locale = await public_locale(self.tables.store, table.record)
        return locale, await self.tables.board_image(table, locale)

    async def _away_marks(self, table: Table) -> dict[str, datetime]:
        """The seated people away now, whose seats the board marks."""
        people = list(pings(table.record.player_ids))
        return await self.waits.away_until(table.record, people, self.clock())

    def _outdated(self, record: GameRecord) -> Callable[[], bool]:
        """Whether a newer revision of the game than ``record``'s has been stored (and queued for
        announcement) since: asked by the drawing queue when the board's turn comes."""
        mine = revision(record)
        return lambda: self._newest.get(record.id, mine) > mine

    async def board(self, table: Table, locale: str, *, latest_wins: bool = True) -> Picture | None:
        """The board of the table's version in ``locale``: the one drawn as soon as that version was
        stored, when it was drawn in that language and nobody seated is away, else drawn now (with the
        away players' seats marked). Latest wins: a drawing waiting
        for a worker that is outdated when its turn comes is not made (``Superseded``)."""
        outdated = self._outdated(table.record) if latest_wins else None
        away = await self._away_marks(table)
        early = self._early.pop(table.record.id, None)
        if early is not None:
            version, drawing = early
            if version == table.record.version and not away:
                with contextlib.suppress(Exception):
                    drawn_in, image = await drawing
                    if drawn_in == locale:
                        return image
            else:
                drawing.cancel()
        return await self.tables.board_image(table, locale, outdated=outdated, away=away)
