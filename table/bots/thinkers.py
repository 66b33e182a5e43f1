"""Where the computer players search, off the event loop: ``ai.choose`` in a thread
(``ThreadThinker``, for tests and tools) or in a pool of worker processes of its own
(``ProcessThinker``; ``shared_thinker`` is the process-wide one), apart from the drawing pool so that a
long search neither blocks the loop nor delays a board. Both implement ``table.core.tables.Thinker``,
the protocol the tables hold.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from table.core.priority import step_back, worker_nice
from table.core.tables import Decision

log = logging.getLogger(__name__)


Choose = Callable[[Decision], str]
"""``ai.choose``'s shape over a ``Decision``: the action text to play."""


def choose_now(d: Decision) -> str:
    """Decide in this process (what a worker runs)."""
    import ai

    return ai.choose(d.game, d.state, d.seat, d.level, d.seed, deadline=d.deadline, step=d.step)


class ThreadThinker:
    """``choose`` (default ``ai.choose``) in a thread of this process: for tests and small tools."""

    def __init__(self, choose: Choose = choose_now) -> None:
        self.choose = choose
        self.calls = 0

    async def think(self, decision: Decision) -> str:
        self.calls += 1
        return await asyncio.to_thread(self.choose, decision)


def _hold_lifeline(lifeline: multiprocessing.connection.Connection, nice: int = 0) -> None:
    """Worker start-up: end this worker as soon as the bot is gone, and queue ``nice`` behind the
    bot for a core (``table.core.priority``).

    Workers are children of the fork server, not of the bot, and hold the pool's queues open
    themselves, so a bot killed outright (``kill -9``, out of memory) would leave them running
    forever. The bot keeps the other end of ``lifeline`` and never writes to it: when the bot's end
    closes, whatever the cause, the read here ends and so does the worker.
    """

    def wait() -> None:
        with contextlib.suppress(EOFError, OSError):
            lifeline.recv_bytes()
        os._exit(0)

    threading.Thread(target=wait, name="lifeline", daemon=True).start()
    step_back(nice)


class ProcessThinker:
    """A pool of worker processes searching with ``ai.choose``, apart from the drawing pool.

    Like the drawing workers they are forked from a clean fork server (which imported ``ai`` once),
    end when the bot is gone (through a lifeline), and a dead worker's pool is replaced and the
    decision asked once more.
    """

    def __init__(self, workers: int = 1) -> None:
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None
        self._lifeline: multiprocessing.connection.Connection | None = None
        self.calls = 0

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            # one fork server serves this pool and the drawing pool: whichever starts it first has it
            # import what both need
            context.set_forkserver_preload(["ai", "render"])
            held, self._lifeline = context.Pipe(duplex=False)
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context,
                initializer=_hold_lifeline,
                initargs=(held, worker_nice()),
            )
        return self._pool

    async def think(self, decision: Decision) -> str:
        self.calls += 1
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                return await loop.run_in_executor(self._executor(), choose_now, decision)
            except BrokenProcessPool:
                log.warning("a thinking worker died (attempt %d): the pool is replaced", attempt)
                self.close(wait=False)
        raise RuntimeError("thinking workers keep dying")

    def _let_go(self) -> None:
        """Close the bot's end of the lifeline: the workers end (what the bot's death does)."""
        lifeline, self._lifeline = self._lifeline, None
        if lifeline is not None:
            lifeline.close()

    def close(self, wait: bool = True) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=True)
        self._let_go()


_shared: ProcessThinker | None = None


def shared_thinker() -> ProcessThinker:
    """The process-wide thinking pool (``BOT_WORKERS`` processes, default 1), made on first use."""
    global _shared
    if _shared is None:
        _shared = ProcessThinker(int(os.environ.get("BOT_WORKERS") or 0) or 1)
        atexit.register(_shared.close)
    return _shared
