"""Where board images are drawn: a pool of worker processes, off the bot's interpreter.

Drawing is Python code (Pillow calls between them) that holds the interpreter lock: in threads it
delays the event loop, and a late loop misses the gateway's heartbeats. Workers are processes, each
with its own interpreter; only the view (JSON) goes in and PNG bytes come out. A worker that dies
(killed, out of memory) is replaced and its drawing tried once more on another, so the move is still
announced. Tests and small tools may draw in threads with their own renderers instead.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

KINDS = ("board", "private", "details", "replay")
"""What can be drawn: the public board, a seat's hidden part, the public details, a whole game's
animation (``view`` then holds ``frames``, the public views of its handovers)."""


class Drawer(Protocol):
    async def draw(self, kind: str, view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes: ...

    def idle(self) -> bool:
        """Whether a drawing asked for now would start at once: a board drawn ahead of need waits
        for no other (a burst of moves is drawn as its announcements come)."""
        ...


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

    def idle(self) -> bool:
        return True


class WorkerDied(Exception):
    """A drawing worker ended (killed, out of memory) before it answered."""


def _serve(conn: multiprocessing.connection.Connection) -> None:
    """A drawing worker: draw each request that comes down ``conn`` and send the PNG back.

    The pipe is also the worker's lifeline. Workers are children of the fork server, not of the
    bot, so a bot killed outright (``kill -9``, out of memory) would leave them running forever;
    but the bot holds the pipe's other end, and when it closes, whatever the cause, the read here
    ends and so does the worker. Ctrl-C is the bot's to handle: it closes the pipes.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            kind, view, names, locale = conn.recv()
        except (EOFError, OSError):
            os._exit(0)
        try:
            reply: tuple[bool, Any] = (True, draw_now(kind, view, names, locale))
        except Exception as err:  # sent back to be raised in the bot, as a thread would
            reply = (False, err)
        try:
            conn.send(reply)
        except (pickle.PicklingError, TypeError, AttributeError):
            conn.send((False, RuntimeError(f"drawing failed: {reply[1]!r}")))
        except OSError:
            os._exit(0)


class _Worker:
    """One drawing process and the bot's end of its pipe."""

    def __init__(self, context: Any) -> None:
        self.conn, child = context.Pipe(duplex=True)
        self.process = context.Process(target=_serve, args=(child,), name="drawing", daemon=True)
        self.process.start()
        child.close()
        self.reply: asyncio.Future[tuple[bool, Any]] | None = None
        self.alive = True


class ProcessDrawer:
    """A pool of ``workers`` processes (default: the machine's CPU count) drawing with ``render``.

    Each worker is a process with a pipe of its own, read by the event loop itself (``add_reader``):
    a drawing costs one write and one read on the loop, with no thread between the loop and the
    worker (a ``ProcessPoolExecutor`` hands every job and result through two threads of its own,
    which costs a loaded machine milliseconds a move). Drawings wait their turn when every worker is
    busy, oldest first.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._all: list[_Worker] = []
        self._idle: list[_Worker] = []
        self._waiting: collections.deque[asyncio.Future[_Worker]] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.replaced = 0
        self.calls = 0

    def _context(self) -> Any:
        # forkserver: workers are forked from a clean server process that has imported the
        # renderer once, never from the bot (its threads and sockets must not be copied).
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["render", "ai"])  # the fork server the bots' pool shares
        return context

    def _on_this_loop(self) -> None:
        """Workers read by another event loop (an earlier test's, a bench's) cannot answer on this
        one: they are let go, and new ones started here as they are needed."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._let_go()
            self._loop = loop

    def _spawn(self) -> _Worker:
        worker = _Worker(self._context())
        self._all.append(worker)
        asyncio.get_running_loop().add_reader(worker.conn.fileno(), self._readable, worker)
        return worker

    def _readable(self, worker: _Worker) -> None:
        """The loop's reader of a worker's pipe: its answer, or its end."""
        try:
            reply: tuple[bool, Any] | None = worker.conn.recv()
        except (EOFError, OSError):
            reply = None
        waiting, worker.reply = worker.reply, None
        if reply is None:
            self._died(worker)
            if waiting is not None and not waiting.done():
                waiting.set_exception(WorkerDied())
            return
        if waiting is not None and not waiting.done():
            waiting.set_result(reply)
        else:  # its drawing was given up meanwhile: the worker is free again
            self._give_back(worker)

    def _died(self, worker: _Worker) -> None:
        """A worker ended on its own: the next drawing that needs it starts another."""
        if worker.alive:
            log.warning("a drawing worker (pid %s) died: another is started", worker.process.pid)
            self.replaced += 1
        self._drop(worker)

    def _drop(self, worker: _Worker) -> None:
        if not worker.alive:
            return
        worker.alive = False
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_reader(worker.conn.fileno())
        worker.conn.close()
        if worker in self._all:
            self._all.remove(worker)
        if worker in self._idle:
            self._idle.remove(worker)

    async def _take(self) -> _Worker:
        self._on_this_loop()
        while self._idle:
            worker = self._idle.pop()  # the last one back: its caches hold the newest boards
            if worker.alive:
                return worker
        if len(self._all) < self.workers:
            return self._spawn()
        waiting: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiting)
        return await waiting

    def _give_back(self, worker: _Worker) -> None:
        if not worker.alive:
            return
        while self._waiting:
            waiting = self._waiting.popleft()
            if not waiting.done():
                waiting.set_result(worker)
                return
        self._idle.append(worker)

    async def _run(self, worker: _Worker, job: tuple[Any, ...]) -> tuple[bool, Any]:
        reply: asyncio.Future[tuple[bool, Any]] = asyncio.get_running_loop().create_future()
        worker.reply = reply
        try:
            worker.conn.send(job)
        except OSError:
            worker.reply = None
            self._died(worker)
            raise WorkerDied() from None
        answer = await reply
        self._give_back(worker)
        return answer

    def idle(self) -> bool:
        return not self._waiting and (any(w.alive for w in self._idle) or len(self._all) < self.workers)

    async def pids(self) -> list[int]:
        """The workers' process ids, starting them first (tests; a bot may call it to start early)."""
        self._on_this_loop()
        while len(self._all) < self.workers:
            self._give_back(self._spawn())
        return [w.process.pid for w in self._all if w.process.pid is not None]

    async def draw(self, kind: str, view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
        self.calls += 1
        job = (kind, view, dict(names), locale)
        for attempt in (1, 2):
            worker = await self._take()
            try:
                ok, value = await self._run(worker, job)
            except WorkerDied:
                log.warning("drawing again after its worker died (attempt %d)", attempt)
                continue
            if not ok:
                raise value
            return bytes(value)
        raise RuntimeError("drawing workers keep dying")

    def _let_go(self) -> None:
        """Close the bot's end of every worker's pipe: the workers end (what the bot's death does)."""
        for worker in list(self._all):
            self._drop(worker)
        for waiting in self._waiting:
            with contextlib.suppress(RuntimeError):  # its loop may be closed already
                waiting.cancel()
        self._waiting.clear()

    def close(self) -> None:
        workers = list(self._all)
        self._let_go()
        for worker in workers:
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(timeout=5)


_shared: ProcessDrawer | None = None


def shared_drawer() -> ProcessDrawer:
    """The process-wide pool (created on first use, closed at exit)."""
    global _shared
    if _shared is None:
        workers = int(os.environ.get("RENDER_WORKERS") or 0) or None
        _shared = ProcessDrawer(workers)
        atexit.register(_shared.close)
    return _shared
