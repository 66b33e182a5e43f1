"""Where the computer players search, off the event loop: ``ai.choose`` in a thread
(``ThreadThinker``, for tests and tools) or in a pool of worker processes of its own
(``ProcessThinker``, the same pool as the drawings' but apart from it; ``shared_thinker`` is the
process-wide one), so that a long search neither blocks the loop nor delays a board. Both implement
``table.core.tables.Thinker``, the protocol the tables hold.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import time
from collections.abc import Callable

from table.core.tables import Choice, Decision
from table.core.workers import WorkerPool, fork_server_modules

log = logging.getLogger(__name__)


Choose = Callable[[Decision], str | Choice]
"""``ai.choose``'s shape over a ``Decision``: the action text to play, or a ``Choice`` with what the
search weighed."""


def choose_now(d: Decision) -> Choice:
    """Decide in this process (what a worker runs), with what the search weighed (``ai.decide``)."""
    import ai

    found = ai.decide(d.game, d.state, d.seat, d.level, d.seed, deadline=d.deadline, step=d.step)
    weighed = tuple((str(text), value, share) for text, value, share in found["weighed"])
    return Choice(str(found["action"]), weighed, int(found["iterations"]))


class ThreadThinker:
    """``choose`` (default ``ai.choose``) in a thread of this process: for tests and small tools."""

    def __init__(self, choose: Choose = choose_now) -> None:
        self.choose = choose
        self.calls = 0

    async def think(self, decision: Decision) -> str | Choice:
        self.calls += 1
        return await asyncio.to_thread(self.choose, decision)


THINK_MARGIN = 30.0
"""Seconds of worker time a decision may take beyond its search's own deadline before its worker
counts as stuck and the decision goes to a fresh one (the search returns by its deadline; a loaded
machine may make it late, but not by this much)."""
THINK_LIMIT = 300.0
"""The same for a decision with no deadline of its own."""


class ProcessThinker:
    """Searches with ``ai.choose`` in a pool of worker processes (``table.core.workers``), apart from
    the drawing pool so that a long search never delays a board: a worker that dies, is stopped or
    gets stuck is replaced and the decision asked of the next."""

    def __init__(self, workers: int = 1, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.pool = WorkerPool(workers, name="thinking", preload=fork_server_modules(), clock=clock)
        self.calls = 0

    @property
    def workers(self) -> int:
        return self.pool.size

    async def think(self, decision: Decision) -> str | Choice:
        self.calls += 1
        limit = THINK_LIMIT if decision.deadline is None else decision.deadline + THINK_MARGIN
        return Choice.of(await self.pool.run(choose_now, decision, limit=limit))

    async def pids(self) -> list[int]:
        """The workers' process ids, starting them first."""
        return await self.pool.pids()

    def close(self, *, at_once: bool = False) -> None:
        self.pool.close(at_once=at_once)


_shared: ProcessThinker | None = None


def shared_thinker() -> ProcessThinker:
    """The process-wide thinking pool (``BOT_WORKERS`` processes, default 1), made on first use."""
    global _shared
    if _shared is None:
        _shared = ProcessThinker(int(os.environ.get("BOT_WORKERS") or 0) or 1)
        atexit.register(_shared.close)
    return _shared
