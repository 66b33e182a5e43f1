"""Where board images are drawn: a pool of worker processes, off the bot's interpreter.

Drawing is Python code (Pillow calls between them) that holds the interpreter lock: in threads it
delays the event loop, and a late loop misses the gateway's heartbeats. Workers are processes, each
with its own interpreter; only the view (JSON) goes in and PNG bytes come out. A worker that dies
(killed, out of memory) is replaced and its drawing tried once more on another, so the move is still
announced. Tests and small tools may draw in threads with their own renderers instead.

A new worker is cold: its first board of a game builds that game's static layers (the empty board or
map, drawn large and scaled down), loads fonts and fills the text caches, which costs far more than
any later board. ``ProcessDrawer.warm`` starts the workers at start-up and has each draw throwaway
boards of every game in the background (``warm_up``), one worker at a time, while the bot goes on
starting: a board asked for meanwhile goes to a worker that is not warming, or waits at most for the
throwaway board under way.
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
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, Protocol

from table.core.priority import step_back, worker_nice

log = logging.getLogger(__name__)

KINDS = ("board", "private", "details", "replay", "chart", "leaderboard")
"""What can be drawn: the public board, a seat's hidden part, the public details, a whole game's
animation (``view`` then holds ``frames``, the public views of its handovers), a player's rating
chart and a server's leaderboard (``render.chart``, ``render.leaderboard``)."""


Outdated = Callable[[], bool]
"""Asked when a drawing's turn comes (a worker is free for it): whether what it would show is no
longer worth drawing (a newer version of the game is waiting to be announced)."""


class Superseded(Exception):
    """A drawing was not made: when its turn came, it was outdated (latest wins)."""


class Drawer(Protocol):
    async def draw(
        self,
        kind: str,
        view: dict[str, Any],
        *,
        names: dict[str, str],
        locale: str,
        outdated: Outdated | None = None,
    ) -> bytes:
        """The image; raises ``Superseded`` instead when ``outdated()`` says so as its turn comes."""
        ...

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
    if kind == "chart":
        from render.chart import rating_chart

        return rating_chart(view, names=names, locale=locale)
    if kind == "leaderboard":
        from render.leaderboard import leaderboard_image

        return leaderboard_image(view, names=names, locale=locale)
    function = {"board": render.render, "private": render.render_private}.get(kind)
    if function is None:
        function = getattr(render, "render_details", None)
    if function is None:
        raise ValueError(f"nothing draws {kind!r}")
    return bytes(function(view, names=names, locale=locale))


class ThreadDrawer:
    """Renderers run in threads of this process: for tests' stand-in renderers. With ``workers``, at
    most that many drawings run at once and the others wait their turn, oldest first, as in the
    pool of processes (an outdated one is then not drawn)."""

    def __init__(self, functions: dict[str, Callable[..., bytes]], *, workers: int | None = None) -> None:
        self.functions = functions
        self.calls = 0
        self.workers = workers
        self._turns: asyncio.Semaphore | None = None
        self.waiting = 0
        """Drawings waiting for their turn (with ``workers``)."""
        self.superseded = 0

    async def draw(
        self,
        kind: str,
        view: dict[str, Any],
        *,
        names: dict[str, str],
        locale: str,
        outdated: Outdated | None = None,
    ) -> bytes:
        if self.workers is None:
            return await self._draw(kind, view, names, locale, outdated)
        if self._turns is None:
            self._turns = asyncio.Semaphore(self.workers)
        self.waiting += 1
        try:
            await self._turns.acquire()
        finally:
            self.waiting -= 1
        try:
            return await self._draw(kind, view, names, locale, outdated)
        finally:
            self._turns.release()

    async def _draw(
        self, kind: str, view: dict[str, Any], names: dict[str, str], locale: str, outdated: Outdated | None
    ) -> bytes:
        if outdated is not None and outdated():
            self.superseded += 1
            raise Superseded()
        self.calls += 1
        if kind == "replay":
            from render.animation import animate

            board = self.functions["board"]
            return await asyncio.to_thread(animate, view["frames"], names=names, locale=locale, draw=board)
        function = self.functions[kind]
        return await asyncio.to_thread(function, view, names=names, locale=locale)

    def idle(self) -> bool:
        return self._turns is None or not self._turns.locked()


ALIVE_EVERY = 5.0
"""Seconds between two looks at a drawing worker's process while its answer is awaited. The loop
hears of a worker's end from its pipe; if it never does (the pipe's far end still open somewhere),
the drawing would wait forever, and its channel's announcements with it."""
WARM = "warm"
"""A job that starts a worker's warm-up: ``(WARM, function, args)``, ``function(*args)`` an iterator
of the steps (each drawn when it is asked for, a label per step)."""
WARMED = "warmed"
"""What a worker sends, unasked, when its warm-up has ended: ``(WARMED, report)``."""

WARM_NAMES = {"w0": "Alice", "w1": "Bérénice", "w2": "Chloé", "w3": "Dmitri"}


def warm_up(locales: Sequence[str] = ("en",)) -> Iterator[str]:
    """A worker's warm-up: the public board of a new game of every game and table size, and each
    game's hand, in the first of ``locales``; then each game's board once in the other locales.

    What this fills is what a worker keeps between boards: the imported renderer, the fonts, each
    game's static layers (board, battlefield, map tiles, legends), sprites and text measurements.
    Each step is one drawing, so that a real drawing asked for meanwhile waits for one at most."""
    import engine
    import render

    first, *others = list(locales) or ["en"]
    for name in engine.GAMES:
        game = engine.get_game(name)
        for players in game.player_counts:
            ids = list(WARM_NAMES)[:players]
            state = game.new_game(ids, 0, {})
            render.render(game.view(state, None), names=WARM_NAMES, locale=first)
            if players == min(game.player_counts):
                render.render_private(game.view(state, ids[0]), names=WARM_NAMES, locale=first)
            yield f"{name} {players} {first}"
        for locale in others:
            state = game.new_game(list(WARM_NAMES)[: min(game.player_counts)], 0, {})
            render.render(game.view(state, None), names=WARM_NAMES, locale=locale)
            yield f"{name} {min(game.player_counts)} {locale}"


class WorkerDied(Exception):
    """A drawing worker ended (killed, out of memory) before it answered."""


def _serve(conn: multiprocessing.connection.Connection, nice: int = 0) -> None:
    """A drawing worker: draw each request that comes down ``conn`` and send the PNG back; between
    requests, the steps of its warm-up when it was given one (a request that arrives meanwhile is
    drawn first, before the next step).

    The pipe is also the worker's lifeline. Workers are children of the fork server, not of the
    bot, so a bot killed outright (``kill -9``, out of memory) would leave them running forever;
    but the bot holds the pipe's other end, and when it closes, whatever the cause, the read here
    ends and so does the worker. Ctrl-C is the bot's to handle: it closes the pipes.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    step_back(nice)
    warming: Iterator[str] | None = None
    steps: list[str] = []
    began = 0.0
    while True:
        if warming is not None and not conn.poll():
            report: dict[str, Any] = {"pid": os.getpid(), "steps": steps}
            try:
                steps.append(next(warming))
                continue
            except StopIteration:
                pass
            except Exception as err:  # a warm-up that fails leaves a worker as cold as it was
                report["error"] = repr(err)
            report["seconds"] = time.perf_counter() - began
            warming, steps = None, []
            _answer(conn, (WARMED, report))
            continue
        try:
            job = conn.recv()
        except (EOFError, OSError):
            _gone()
        if job[0] == WARM:
            _kind, function, args = job
            warming, began = _steps(function, args), time.perf_counter()
            continue
        kind, view, names, locale = job
        try:
            reply: tuple[Any, Any] = (True, draw_now(kind, view, names, locale))
        except Exception as err:  # sent back to be raised in the bot, as a thread would
            reply = (False, err)
        _answer(conn, reply)


def _steps(function: Callable[..., Iterator[str]], args: tuple[Any, ...]) -> Iterator[str]:
    """The warm-up's steps, its very start included (a failure there is reported like any other)."""
    yield from function(*args)


def _answer(conn: multiprocessing.connection.Connection, reply: tuple[Any, Any]) -> None:
    try:
        conn.send(reply)
    except (pickle.PicklingError, TypeError, AttributeError):
        conn.send((False, RuntimeError(f"drawing failed: {reply[1]!r}")))
    except OSError:
        _gone()


def _gone() -> NoReturn:
    """The bot is gone: end, waking first any worker of the pool it had stopped (while this one drew)
    and could not wake again: a stopped worker would never read the end of its pipe. The workers
    share the bot's process group, and a running process ignores the signal."""
    with contextlib.suppress(OSError):
        os.killpg(os.getpgrp(), signal.SIGCONT)
    os._exit(0)


def preload() -> list[str]:
    """What the fork server imports once, for every worker forked from it: the renderer, the
    computer players, and the program's own script (``bot.py``) by its module name.

    ``multiprocessing`` runs the main script again in every child it starts, under another name,
    and the bot's script imports discord.py and the table layer: imported beforehand in the fork
    server, they are already there, and a new worker runs the script's few lines instead of
    importing a few hundred modules (half a second on an idle machine, several on a busy one).
    The fork server finds modules from the current folder, so the script is preloaded when it lies
    there (``python bot.py``, as ``make run`` and the container start it)."""
    names = ["render", "ai"]
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if path and getattr(main, "__spec__", None) is None:
        script = Path(path).resolve()
        if script.suffix == ".py" and script.parent == Path.cwd().resolve():
            names.append(script.stem)
    return names


class _Worker:
    """One drawing process and the bot's end of its pipe."""

    def __init__(self, context: Any, nice: int) -> None:
        self.conn, child = context.Pipe(duplex=True)
        self.process = context.Process(target=_serve, args=(child, nice), name="drawing", daemon=True)
        self.process.start()
        child.close()
        self.reply: asyncio.Future[tuple[bool, Any]] | None = None
        self.alive = True
        self.paused = False


class ProcessDrawer:
    """A pool of ``workers`` processes (default: the machine's CPU count) drawing with ``render``.

    Each worker is a process with a pipe of its own, read by the event loop itself (``add_reader``):
    a drawing costs one write and one read on the loop, with no thread between the loop and the
    worker (a ``ProcessPoolExecutor`` hands every job and result through two threads of its own,
    which costs a loaded machine milliseconds a move). Drawings wait their turn when every worker is
    busy, oldest first. Workers are started in a thread: the first start waits for the fork server
    to import the renderer, which must not hold up the loop.

    After ``warm``, every worker (and any that replaces one) warms up in turn, one at a time; a
    drawing goes to a worker that is not warming when there is one, and while another worker draws,
    the warming one is stopped (``SIGSTOP``, then ``SIGCONT``): on a busy machine it would take a
    core from the drawing a player waits for. ``warm_reports`` holds what each worker reported when
    its warm-up ended.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or default_workers())
        self.nice = worker_nice()
        """How far behind the bot's own process the workers queue for a core (``WORKER_NICE``)."""
        self._all: list[_Worker] = []
        self._idle: list[_Worker] = []
        self._starting = 0
        self._waiting: collections.deque[asyncio.Future[_Worker]] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._warm_job: tuple[str, Callable[..., Iterator[str]], tuple[Any, ...]] | None = None
        self._cold: collections.deque[_Worker] = collections.deque()
        self._warming: _Worker | None = None
        self._until_warm: list[asyncio.Future[None]] = []
        self.warm_reports: list[dict[str, Any]] = []
        self.replaced = 0
        self.calls = 0
        self.superseded = 0

    def _context(self) -> Any:
        # forkserver: workers are forked from a clean server process that has imported the
        # renderer once, never from the bot (its threads and sockets must not be copied).
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(preload())  # the fork server the bots' pool shares
        return context

    def _on_this_loop(self) -> None:
        """The pool used from another event loop than before (an earlier test's, a bench's): the
        workers idle between two drawings come along, their pipes now read by this loop, with the
        layers and caches they hold; the others (drawing or warming for the old loop, whose answer
        nobody here awaits) are let go, and new ones started here as they are needed."""
        loop = asyncio.get_running_loop()
        if self._loop is loop:
            return
        old = self._loop
        keep = [
            w
            for w in self._idle
            if w.alive and w.reply is None and not w.paused and w is not self._warming and w not in self._cold
        ]
        for worker in keep:
            if old is not None and not old.is_closed():
                with contextlib.suppress(ValueError, OSError):
                    old.remove_reader(worker.conn.fileno())
            self._all.remove(worker)
            self._idle.remove(worker)
        self._let_go()
        self._loop = loop
        for worker in keep:
            self._all.append(worker)
            self._idle.append(worker)
            loop.add_reader(worker.conn.fileno(), self._readable, worker)

    def _start(self) -> asyncio.Task[_Worker]:
        """Start one more worker in the background. It belongs to the pool, never to one drawing: once
        started it goes to the oldest drawing waiting then, or waits idle (a drawing given up while
        its worker starts would otherwise take that worker away with it, and leave the drawings
        queued behind it waiting for a worker that never comes)."""
        self._starting += 1
        task = asyncio.get_running_loop().create_task(self._spawn())
        task.add_done_callback(self._started)
        return task

    def _started(self, task: asyncio.Task[_Worker]) -> None:
        self._starting -= 1
        if task.cancelled():  # the loop ended
            return
        error = task.exception()
        if error is None:
            self._give_back(task.result())
            self._start_for_waiting()  # a drawing that came meanwhile, counting on this one
        elif not isinstance(error, WorkerDied):
            log.warning("a drawing worker could not start: %r", error)
            if not self._all and not self._starting:  # nothing left that could serve them
                for waiting in self._waiting:
                    if not waiting.done():
                        waiting.set_exception(error)
                self._waiting.clear()
        self._warm_next()  # the last start of a warm-up may have failed

    def _start_for_waiting(self) -> None:
        """Start workers for the drawings waiting, one each beyond those starting, as far as the pool
        has room: after a drawing joins the queue, and after a worker ends."""
        if self._loop is None or not self._loop.is_running():
            return
        waiting = sum(1 for w in self._waiting if not w.done())
        room = self.workers - len(self._all) - self._starting
        for _ in range(min(waiting - self._starting, room)):
            self._start()

    async def _spawn(self) -> _Worker:
        loop = asyncio.get_running_loop()
        worker = await asyncio.to_thread(_Worker, self._context(), self.nice)
        if self._loop is not loop:  # the pool moved to another loop meanwhile
            worker.conn.close()
            raise WorkerDied()
        self._all.append(worker)
        loop.add_reader(worker.conn.fileno(), self._readable, worker)
        if self._warm_job is not None:
            self._cold.append(worker)
            self._warm_next()
        return worker

    def _readable(self, worker: _Worker) -> None:
        """The loop's reader of a worker's pipe: its answer, its warm-up's report, or its end."""
        try:
            reply: tuple[Any, Any] | None = worker.conn.recv()
        except (EOFError, OSError):
            reply = None
        if reply is not None and reply[0] == WARMED:
            report = reply[1]
            self.warm_reports.append(report)
            if report.get("error"):
                log.warning("a drawing worker's warm-up failed: %s", report["error"])
            else:
                log.info(
                    "drawing worker %s warm: %d steps in %.1f s",
                    report["pid"],
                    len(report["steps"]),
                    report["seconds"],
                )
            if self._warming is worker:
                self._warming = None
            self._warm_next()
            self._offer_idle()
            return
        waiting, worker.reply = worker.reply, None
        self._settle()
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
        if worker.paused:  # stopped, it would never read the end of its pipe
            _signal(worker, signal.SIGCONT)
            worker.paused = False
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_reader(worker.conn.fileno())
        worker.conn.close()
        if worker in self._all:
            self._all.remove(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        if self._warming is worker:
            self._warming = None
            self._warm_next()
        self._offer_idle()
        self._start_for_waiting()

    # ---- warming up --------------------------------------------------------------------------------

    def warm(
        self, locales: Sequence[str] = ("en",), function: Callable[..., Iterator[str]] | None = None
    ) -> None:
        """Start every worker now and warm each in turn (``function``, default ``warm_up``, given
        ``locales``), in the background: this returns at once, on the loop that will read them."""
        self._on_this_loop()
        self._warm_job = (WARM, function or warm_up, (tuple(locales),))
        for worker in self._all:
            if worker is not self._warming and worker not in self._cold:
                self._cold.append(worker)
        self._warm_next()
        for _ in range(self.workers - len(self._all) - self._starting):
            self._start()

    def _warm_next(self) -> None:
        """Send the warm-up to the next cold worker when none is warming (one at a time: another
        worker stays free to draw)."""
        if self._warm_job is None:
            return
        while self._warming is None and self._cold:
            worker = self._cold.popleft()
            if not worker.alive:
                continue
            try:
                worker.conn.send(self._warm_job)
            except OSError:
                self._died(worker)
                continue
            self._warming = worker
        self._settle()
        if self._warming is None and not self._cold and self._starting == 0:
            for done in self._until_warm:
                if not done.done():
                    done.set_result(None)
            self._until_warm.clear()

    def _settle(self) -> None:
        """Stop the warming worker while another one draws (or a drawing waits for another one to
        start or come back), and let it go on once none does."""
        worker = self._warming
        if worker is None or not worker.alive:
            return
        others = any(w.reply is not None for w in self._all if w is not worker)
        waiting = any(not w.done() for w in self._waiting) and self._spare(worker)
        stop = worker.reply is None and (others or waiting)
        if stop != worker.paused:
            _signal(worker, signal.SIGSTOP if stop else signal.SIGCONT)
            worker.paused = stop

    async def until_warm(self) -> list[dict[str, Any]]:
        """Wait until every worker started so far has reported the end of its warm-up (tests, benches);
        the reports, one per warm-up."""
        self._on_this_loop()
        while self._warm_job is not None and (self._warming is not None or self._cold or self._starting):
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._until_warm.append(done)
            await done
        return list(self.warm_reports)

    # ---- drawing ------------------------------------------------------------------------------------

    def _spare(self, worker: _Worker) -> bool:
        """Whether ``worker`` is left to its warm-up: it is warming, and another worker is there (or
        coming) to draw instead. A pool of one draws with its warming worker, between two steps."""
        if worker is not self._warming:
            return False
        return self._starting > 0 or any(w.alive for w in self._all if w is not worker)

    async def _take(self, *, first: bool = False) -> _Worker:
        """A worker for a drawing: an idle one, else the next one free or started, oldest drawing
        first (``first``: ahead of them all, a drawing whose worker died under it)."""
        self._on_this_loop()
        for worker in reversed(self._idle):  # the last one back first: its caches hold the newest boards
            if worker.alive and not self._spare(worker):
                self._idle.remove(worker)
                return worker
        waiting: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        if first:
            self._waiting.appendleft(waiting)
        else:
            self._waiting.append(waiting)
        self._start_for_waiting()
        self._settle()
        waiting.add_done_callback(lambda _done: self._settle())  # served or given up
        try:
            return await waiting
        except asyncio.CancelledError:  # given up: even just as a worker was handed over, which goes on
            if waiting.done() and not waiting.cancelled() and waiting.exception() is None:
                self._give_back(waiting.result())
            raise

    def _give_back(self, worker: _Worker) -> None:
        if not worker.alive:
            return
        if worker in self._idle:
            self._idle.remove(worker)
        while self._waiting and not self._spare(worker):
            waiting = self._waiting.popleft()
            if not waiting.done():
                waiting.set_result(worker)
                return
        self._idle.append(worker)

    def _offer_idle(self) -> None:
        """Hand the idle workers to drawings waiting, now that one left to its warm-up may draw."""
        for worker in list(self._idle):
            if self._waiting:
                self._give_back(worker)

    async def _run(self, worker: _Worker, job: tuple[Any, ...]) -> tuple[bool, Any]:
        reply: asyncio.Future[tuple[bool, Any]] = asyncio.get_running_loop().create_future()
        worker.reply = reply
        self._settle()
        try:
            worker.conn.send(job)
        except OSError:
            raise self._lost(worker) from None
        answer = await self._answer_of(worker, reply)
        self._give_back(worker)
        return answer

    async def _answer_of(self, worker: _Worker, reply: asyncio.Future[tuple[bool, Any]]) -> tuple[bool, Any]:
        """The worker's answer; ``WorkerDied`` when its process is found ended with no answer and no
        end of its pipe heard. A drawing given up (cancelled) gives up its answer too: the worker is
        free once it has answered, or at once when it has."""
        try:
            while True:
                done, _ = await asyncio.wait({reply}, timeout=ALIVE_EVERY)
                if done:
                    return reply.result()
                if not worker.process.is_alive():
                    raise self._lost(worker)
        except asyncio.CancelledError:
            if not reply.cancel() and not reply.cancelled():  # answered already: nobody else frees it
                self._give_back(worker)
            raise

    def _lost(self, worker: _Worker) -> WorkerDied:
        """A worker found ended in the middle of a drawing: dropped from the pool; the error its
        drawing raises (it is drawn again)."""
        worker.reply = None
        self._died(worker)
        self._settle()
        return WorkerDied()

    def idle(self) -> bool:
        room = len(self._all) + self._starting < self.workers
        return not self._waiting and (any(w.alive and not self._spare(w) for w in self._idle) or room)

    async def pids(self) -> list[int]:
        """The workers' process ids, starting them first (tests; a bot may call it to start early)."""
        self._on_this_loop()
        for started in [self._start() for _ in range(self.workers - len(self._all) - self._starting)]:
            await asyncio.shield(started)
        return [w.process.pid for w in self._all if w.process.pid is not None]

    async def draw(
        self,
        kind: str,
        view: dict[str, Any],
        *,
        names: dict[str, str],
        locale: str,
        outdated: Outdated | None = None,
    ) -> bytes:
        """Draw in the next free worker, oldest request first. Latest wins: when its turn comes and
        ``outdated()`` says a newer version of the same board is waiting, the worker goes to the
        next request and this one raises ``Superseded`` (a burst of moves in one channel is drawn
        newest only, and the workers' time goes to boards someone will see)."""
        self.calls += 1
        job = (kind, view, dict(names), locale)
        for attempt in (1, 2):
            try:
                worker = await self._take(first=attempt > 1)
                if outdated is not None and outdated():
                    self.superseded += 1
                    self._give_back(worker)
                    raise Superseded()
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
        self._warming = None
        self._cold.clear()
        pending: list[asyncio.Future[Any]] = [*self._waiting, *self._until_warm]
        self._waiting.clear()
        self._until_warm.clear()
        for waiting in pending:
            with contextlib.suppress(RuntimeError):  # its loop may be closed already
                waiting.cancel()
        for worker in list(self._all):
            self._drop(worker)

    def close(self, *, at_once: bool = False) -> None:
        """End the workers: each once its drawing is done, or ``at_once`` (a stop of the bot, whose
        drawings nobody waits for any more)."""
        workers = list(self._all)
        warming = self._warming
        self._let_go()
        for worker in workers:
            if at_once or (worker is warming and worker.reply is None):  # a throwaway board
                worker.process.kill()
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(timeout=5)


def _signal(worker: _Worker, number: signal.Signals) -> None:
    if worker.process.pid is not None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker.process.pid, number)


def default_workers() -> int:
    """Drawing workers when nothing says how many: one per core this process may run on (a
    container limited to some cores gets that many), at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def workers_from_env(env: Mapping[str, str] | None = None) -> int | None:
    """``DRAW_WORKERS`` (or its older name ``RENDER_WORKERS``): how many drawing workers to run;
    None (the default, ``default_workers``) when unset, empty or not a positive number."""
    env = os.environ if env is None else env
    for name in ("DRAW_WORKERS", "RENDER_WORKERS"):
        text = (env.get(name) or "").strip()
        if text:
            if text.isdigit() and int(text) > 0:
                return int(text)
            log.warning("%s=%r is not a number of workers: the default is used", name, text)
            return None
    return None


_shared: ProcessDrawer | None = None


def shared_drawer() -> ProcessDrawer:
    """The process-wide pool (created on first use, closed at exit), of ``DRAW_WORKERS`` workers."""
    global _shared
    if _shared is None:
        _shared = ProcessDrawer(workers_from_env())
        atexit.register(_shared.close)
    return _shared
