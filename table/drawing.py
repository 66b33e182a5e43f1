"""Where board images are drawn: a pool of worker processes, off the bot's interpreter.

Drawing is Python code (Pillow calls between them) that holds the interpreter lock: in threads it
delays the event loop, and a late loop misses the gateway's heartbeats. Workers are processes, each
with its own interpreter; only the view (JSON) goes in and PNG bytes come out. A worker that dies
(killed, out of memory) breaks the pool: it is replaced and the drawing tried once more, so the move
is still announced. Tests and small tools may draw in threads with their own renderers instead.
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
from typing import Any, Protocol

log = logging.getLogger(__name__)

KINDS = ("board", "private", "details", "replay")
"""What can be drawn: the public board, a seat's hidden part, the public details, a whole game's
animation (``view`` then holds ``frames``, the public views of its handovers)."""


class Drawer(Protocol):
    async def draw(self, kind: str, view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes: ...


def draw_now(kind: str, view: dict[str, Any], names: dict[str, str], locale: str) -> bytes:
    """Draw in this process (what a worker runs): ``render``'s function for ``kind``."""
    import render

    if kind == "replay":
        from render.animation import animate

        return animate(view["frames"], names=names, locale=locale)
    function = {"board": render.render, "private": render.render_private}.get(kind)
    if function is None:
        function = getattr(render, "render_details", None)
    if function is None:
        raise ValueError(f"nothing draws {kind!r}")
    return bytes(function(view, names=names, locale=locale))


class ThreadDrawer:
    """Renderers run in threads of this process: for tests' stand-in renderers."""

    def __init__(self, functions: dict[str, Callable[..., bytes]]) -> None:
        self.functions = functions
        self.calls = 0

    async def draw(self, kind: str, view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
        self.calls += 1
        if kind == "replay":
            from render.animation import animate

            board = self.functions["board"]
            return await asyncio.to_thread(animate, view["frames"], names=names, locale=locale, draw=board)
        function = self.functions[kind]
        return await asyncio.to_thread(function, view, names=names, locale=locale)


def _hold_lifeline(lifeline: multiprocessing.connection.Connection) -> None:
    """Worker start-up: end this worker as soon as the bot is gone.

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


class ProcessDrawer:
    """A pool of ``workers`` processes (default: the machine's CPU count) drawing with ``render``."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None
        self._lifeline: multiprocessing.connection.Connection | None = None
        self.replaced = 0
        self.calls = 0

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # forkserver: workers are forked from a clean server process that has imported the
            # renderer once, never from the bot (its threads and sockets must not be copied).
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["render", "ai"])  # the fork server the bots' pool shares
            held, self._lifeline = context.Pipe(duplex=False)
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=context, initializer=_hold_lifeline, initargs=(held,)
            )
        return self._pool

    def _let_go(self) -> None:
        lifeline, self._lifeline = self._lifeline, None
        if lifeline is not None:
            lifeline.close()

    async def draw(self, kind: str, view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
        self.calls += 1
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                return await loop.run_in_executor(self._executor(), draw_now, kind, view, dict(names), locale)
            except BrokenProcessPool:
                log.warning("a drawing worker died (attempt %d): the pool is replaced", attempt)
                self._replace()
        raise RuntimeError("drawing workers keep dying")

    def _replace(self) -> None:
        pool, self._pool = self._pool, None
        self.replaced += 1
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        self._let_go()

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        self._let_go()


_shared: ProcessDrawer | None = None


def shared_drawer() -> ProcessDrawer:
    """The process-wide pool (created on first use, closed at exit)."""
    global _shared
    if _shared is None:
        workers = int(os.environ.get("RENDER_WORKERS") or 0) or None
        _shared = ProcessDrawer(workers)
        atexit.register(_shared.close)
    return _shared
