"""Background work kept per game: at most one task each, its channel known, its failure logged.

The announcer's posts and the computer players' moves each run in such tasks, so that a command
returns at once and a front end (or a test) can still wait until a channel has settled.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine

log = logging.getLogger(__name__)


class GameTasks:
    """The running task of each game, by game id; ``what`` names the work in the log."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._tasks: dict[int, tuple[str, asyncio.Task[None]]] = {}

    def get(self, game_id: int) -> asyncio.Task[None] | None:
        """The game's task while it runs; None once it has finished, even before its done callback
        has run (a caller counting on it to pick up new work would wait for nothing)."""
        found = self._tasks.get(game_id)
        return None if found is None or found[1].done() else found[1]

    def start(self, game_id: int, channel: str, work: Coroutine[object, None, None]) -> asyncio.Task[None]:
        """Run ``work`` as the game's task (the one ``get`` returns from now on)."""
        task = asyncio.ensure_future(work)
        self._tasks[game_id] = (channel, task)
        task.add_done_callback(lambda t: self._forget(game_id, t))
        return task

    def _forget(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(game_id, (None, task))[1] is task:
            self._tasks.pop(game_id, None)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s of game #%s failed", self.what, game_id, exc_info=task.exception())

    def busy(self) -> bool:
        """Whether any task is still running: ``bool(pending())`` without listing them all (asked on
        every stored move, with hundreds of tasks running in a burst)."""
        return any(not task.done() for _channel, task in self._tasks.values())

    def pending(self, channel: str | None = None) -> list[asyncio.Task[None]]:
        """The tasks still running (of ``channel``, or all)."""
        return [t for ch, t in self._tasks.values() if (channel is None or ch == channel) and not t.done()]
