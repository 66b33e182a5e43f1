"""Worker processes for heavy work, off the event loop: drawing boards and searching moves.

Both run Python that holds the interpreter lock for long stretches: in threads they would delay the
event loop, and a late loop misses the gateway's heartbeats. A ``WorkerPool`` keeps a few worker
processes, each with a pipe of its own that the event loop reads itself (``add_reader``): a job is
one write and one read on the loop, with no thread in between.

What the pool promises is that no job waits for ever, whatever happens to a worker:

- every job has a limit of worker time (seconds since a worker took it, on the pool's clock); a
  worker past it is ended and the job goes to a fresh worker (once; then it fails with why);
- a worker that ends (killed, out of memory) or is found stopped (``SIGSTOP`` from outside, a
  debugger) is ended and replaced in the same way; the pool looks at its busy workers every
  ``check_every`` seconds, and at a worker's state before handing it a job;
- a job given up by its caller (a board outdated, a stop) frees its worker when it answers; a job
  whose turn comes when ``outdated()`` says so is not run at all (latest wins);
- workers end with the bot: each holds the read end of a lifeline pipe whose only writer is the
  pool, and a thread of the worker ends it the moment that pipe closes, even in the middle of a job.

The standard library's ``ProcessPoolExecutor`` does not serve here: it cannot end one stuck worker
without breaking the pool (every job in flight then fails), it has no time limit per job, and it
hands every job and answer through threads of its own (milliseconds a move on a loaded machine).

A warm-up (``warm``) is a series of steps each worker runs once, one step per request: a step is
only sent to an idle worker while no job is waiting or running, and one worker at a time steps,
so a job asked for meanwhile waits for one step at most and never shares a core with a warm-up
started after it. No worker is ever paused.

Drawing and the computer players' search each have a pool of their own (``ProcessDrawer``: ``DRAW_WORKERS``,
or its older name ``RENDER_WORKERS``, by default one per core the process may run on; ``ProcessThinker``:
``BOT_WORKERS``, default 1). Each worker is forked from the fork server, which imported the renderer, the
search and the bot's script once. The limits are a board 60 s, a replay 600 s, a decision its search's
deadline plus 30 s; while any worker is busy the pool looks at them all every 5 s (``CHECK_EVERY``), and at a
worker's state in ``/proc`` before it hands it a job. A job lost in two workers fails with the reason, which
the announcer logs, and the game's next tick draws it again. Jobs beyond the workers wait their turn, oldest
first; a worker started for them belongs to the pool, not to one job, so a job given up frees nothing that
others count on. A board whose turn comes when a newer version of its game is queued is not drawn
(``Superseded``). A pool used from a new event loop (each test has its own) keeps its idle workers, with their
caches, and ends the busy ones; tests pass their own renderers, drawn in threads (``ThreadDrawer``). The
workers' priority is ``table.core.priority``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import logging
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.context import ForkServerContext, ForkServerProcess
from pathlib import Path
from typing import NoReturn, NotRequired, TypedDict, TypeVar, TypeVarTuple, cast

from table.core.priority import step_back, worker_nice

log = logging.getLogger(__name__)

CHECK_EVERY = 5.0
"""Seconds between two looks at the busy workers: whether each still runs, is not stopped, and is
within its job's time. The loop hears at once of a worker whose pipe closes; this catches the rest."""
ATTEMPTS = 2
"""How many workers a job is tried in before it fails (its first worker lost, one more)."""
WARM_QUIET = 2.0
"""Seconds without a job asked for before a warm-up step is sent (``WorkerPool._warm_next``)."""
WARM_STEP_LIMIT = 120.0
"""Seconds one warm-up step may take before its worker is ended and the warm-up given up."""

RUN, WARM = "run", "warm"
"""What the pool sends: ``(RUN, function, args)`` runs a job; ``(WARM, function, args)`` runs the
next step of the worker's warm-up (``function(*args)`` an iterator of steps, made at the first)."""
STEPPED, WARMED = "stepped", "warmed"
"""What a worker answers to a warm-up step: ``(STEPPED, label)``, or ``(WARMED, report)`` after the
last (``{"pid", "steps", "seconds"}``, and ``"error"`` when it failed)."""


T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class WarmReport(TypedDict):
    """What a worker reports at the end of its warm-up."""

    pid: int
    steps: list[str]
    seconds: float
    error: NotRequired[str]


IN_BACKGROUND: contextvars.ContextVar[bool] = contextvars.ContextVar("in_background", default=False)
"""Set around work nobody is waiting on (the timed loop's catch-up after a restart): the jobs it asks
for wait until no job asked for by anyone else is waiting (``in_background``)."""


@contextlib.contextmanager
def in_background() -> Iterator[None]:
    """Jobs asked for inside (and in tasks started inside) go after every other job."""
    token = IN_BACKGROUND.set(True)
    try:
        yield
    finally:
        IN_BACKGROUND.reset(token)


class WorkerDied(Exception):
    """The job's workers ended (killed, stopped, out of memory, past its time) before answering."""


class Superseded(Exception):
    """A job was not run: when its turn came, it was outdated (latest wins)."""


# ---- the worker's side ------------------------------------------------------------------------------


def _serve(
    conn: multiprocessing.connection.Connection, lifeline: multiprocessing.connection.Connection, nice: int
) -> None:
    """A worker: run each request that comes down ``conn`` and send its answer back.

    Workers are children of the fork server, not of the bot, so a bot killed outright (``kill -9``)
    would leave them running; but the bot holds the only writer of ``lifeline``, and when it closes,
    whatever the cause, the thread waiting on it ends the worker, even one busy or stuck in a job.
    Ctrl-C is the bot's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_hold, args=(lifeline,), name="lifeline", daemon=True).start()
    step_back(nice)
    warming: Iterator[str] | None = None
    report: WarmReport = {"pid": 0, "steps": [], "seconds": 0.0}
    while True:
        try:
            tag, function, args = conn.recv()
        except (EOFError, OSError):
            _gone()
        reply: tuple[object, object]
        if tag == WARM:
            if warming is None:
                warming, report = _steps(function, args), {"pid": os.getpid(), "steps": [], "seconds": 0.0}
            began = time.perf_counter()
            try:
                report["steps"].append(next(warming))
                reply = (STEPPED, report["steps"][-1])
            except StopIteration:
                reply = (WARMED, report)
            except Exception as err:  # a warm-up that fails leaves a worker as cold as it was
                report["error"] = repr(err)
                reply = (WARMED, report)
            report["seconds"] += time.perf_counter() - began
        else:
            try:
                reply = (True, function(*args))
            except Exception as err:  # raised in the bot, as a thread would
                reply = (False, err)
        _answer(conn, reply)


def _hold(lifeline: multiprocessing.connection.Connection) -> None:
    with contextlib.suppress(EOFError, OSError):
        lifeline.recv_bytes()
    _gone()


def _steps(function: Callable[..., Iterator[str]], args: tuple[object, ...]) -> Iterator[str]:
    """The warm-up's steps, its very start included (a failure there is reported like any other)."""
    yield from function(*args)


def _answer(conn: multiprocessing.connection.Connection, reply: tuple[object, object]) -> None:
    try:
        conn.send(reply)
    except (pickle.PicklingError, TypeError, AttributeError):
        conn.send((False, RuntimeError(f"the job failed: {reply[1]!r}")))
    except OSError:
        _gone()


def _gone() -> NoReturn:
    os._exit(0)


def fork_server_modules() -> list[str]:
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


# ---- the pool's side --------------------------------------------------------------------------------


@dataclass(eq=False)
class _Job:
    function: Callable[..., object]
    args: tuple[object, ...]
    limit: float
    outdated: Callable[[], bool] | None
    future: asyncio.Future[object]
    tries: int = 0
    background: bool = False


@dataclass(eq=False)
class _Worker:
    """One worker process and the pool's end of its pipe."""

    conn: multiprocessing.connection.Connection
    process: ForkServerProcess
    job: _Job | None = None
    stepping: bool = False
    began: float = 0.0
    cold: bool = True
    """Its warm-up is still to do (when the pool has one)."""
    alive: bool = field(default=True)

    @property
    def busy(self) -> bool:
        return self.job is not None or self.stepping

    @property
    def pid(self) -> int:
        return int(self.process.pid or 0)


def _state(pid: int) -> str:
    """The process's state letter from ``/proc`` (``R``, ``S``, ``T`` stopped, ``Z``...); ``X`` when
    it is gone, ``?`` where the system does not tell."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            data = stat.read()
    except FileNotFoundError:
        return "X" if os.path.isdir("/proc/self") else "?"
    except OSError:
        return "?"
    return data[data.rfind(b")") + 2 :][:1].decode() or "?"


class WorkerPool:
    """Up to ``size`` worker processes running jobs oldest first (see the module's docstring).

    ``preload`` names the modules the fork server imports once for every worker it forks; ``clock``
    measures the jobs' time (tests move it by hand, with ``inspect``)."""

    def __init__(
        self,
        size: int,
        *,
        name: str = "worker",
        preload: Sequence[str] = (),
        clock: Callable[[], float] = time.monotonic,
        check_every: float = CHECK_EVERY,
    ) -> None:
        self.size = max(1, size)
        self.name = name
        self.preload = list(preload)
        self.clock = clock
        self.check_every = check_every
        self.nice = worker_nice()
        """How far behind the bot's own process the workers queue for a core (``WORKER_NICE``)."""
        self._all: list[_Worker] = []
        self._idle: list[_Worker] = []  # the last one back at the end: its caches are the freshest
        self._queue: collections.deque[_Job] = collections.deque()
        self._later: collections.deque[_Job] = collections.deque()
        """Jobs nobody waits on (``IN_BACKGROUND``): handed out only when ``_queue`` is empty."""
        self._starting = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watch: asyncio.TimerHandle | None = None
        self._lifeline: multiprocessing.connection.Connection | None = None
        self._held: multiprocessing.connection.Connection | None = None
        self._warm_job: tuple[Callable[..., Iterator[str]], tuple[object, ...]] | None = None
        self._until_warm: list[asyncio.Future[None]] = []
        self._dispatching = self._again = False
        self._asked = -WARM_QUIET
        """When the last job was asked for (the pool's clock): the warm-up waits for quiet."""
        self._warm_later: asyncio.TimerHandle | None = None
        self.warm_reports: list[WarmReport] = []
        self.calls = 0
        self.replaced = 0
        self.superseded = 0

    # ---- running a job ----------------------------------------------------------------------------

    async def run(
        self,
        function: Callable[[*Ts], T],
        *args: *Ts,
        limit: float,
        outdated: Callable[[], bool] | None = None,
    ) -> T:
        """``function(*args)`` in the next free worker, within ``limit`` seconds of worker time.
        Raises what the function raised, ``Superseded`` when ``outdated()`` says so as its turn
        comes, ``WorkerDied`` when its workers keep ending under it. The answer crosses from the worker
        pickled, so the checker cannot follow it: it is what ``function`` returned."""
        self._on_this_loop()
        self.calls += 1
        self._asked = self.clock()
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        job = _Job(function, args, limit, outdated, future, background=IN_BACKGROUND.get())
        (self._later if job.background else self._queue).append(job)
        self._dispatch()
        try:
            return cast(T, await job.future)
        except asyncio.CancelledError:
            job.future.cancel()  # waiting: never sent; running: its worker is free once it answers
            raise

    def idle(self) -> bool:
        """Whether a job asked for now would start at once."""
        if self._waiting():
            return False
        return any(not w.busy for w in self._idle) or len(self._all) + self._starting < self.size

    def _dispatch(self) -> None:
        """Hand the waiting jobs to idle workers, oldest first; start workers for the rest; give an
        idle worker its next warm-up step when nothing else is to do. Called at every change (a
        change made meanwhile, a worker found stopped, has it go round once more)."""
        if self._dispatching:
            self._again = True
            return
        self._dispatching = True
        try:
            self._again = True
            while self._again:
                self._again = False
                self._hand_out()
        finally:
            self._dispatching = False

    def _hand_out(self) -> None:
        while self._idle:
            job = self._next_job()
            if job is None:
                break
            worker = self._idle[-1]
            if self._usable(worker):
                self._send(worker, (RUN, job.function, job.args), job=job)
            else:
                self._requeue(job)
        waiting = self._waiting()
        for _ in range(min(waiting - self._starting, self.size - len(self._all) - self._starting)):
            self._start()
        self._warm_next()

    def _next_job(self) -> _Job | None:
        while self._queue or self._later:
            job = (self._queue or self._later).popleft()
            if job.future.done():
                continue
            if job.outdated is not None and job.outdated():
                self.superseded += 1
                job.future.set_exception(Superseded())
                continue
            return job
        return None

    def _waiting(self) -> int:
        return sum(1 for job in (*self._queue, *self._later) if not job.future.done())

    def _requeue(self, job: _Job) -> None:
        """Back at the head of its queue: its worker was lost, or could not take it."""
        (self._later if job.background else self._queue).appendleft(job)

    def _usable(self, worker: _Worker) -> bool:
        """Whether an idle worker can take a job: a stopped or ended one is replaced first."""
        state = _state(worker.pid)
        if state in "TtZX":
            self._lose(worker, "stopped" if state in "Tt" else "ended")
            return False
        return True

    def _send(self, worker: _Worker, request: tuple[str, object, object], *, job: _Job | None = None) -> None:
        self._idle.remove(worker)
        worker.job, worker.stepping, worker.began = job, job is None, self.clock()
        if job is not None:
            job.tries += 1
        try:
            worker.conn.send(request)
        except OSError:
            self._lose(worker, "ended")
            return
        except (pickle.PicklingError, TypeError, AttributeError) as err:  # the job cannot cross
            worker.job, worker.stepping = None, False
            self._idle.append(worker)
            if job is not None and not job.future.done():
                job.future.set_exception(err)
            return
        self._keep_watch()

    def _readable(self, worker: _Worker) -> None:
        """The loop's reader of a worker's pipe: an answer, a warm-up step done, or the worker's end."""
        try:
            tag, value = worker.conn.recv()
        except (EOFError, OSError):
            self._lose(worker, "ended")
            return
        job, worker.job, worker.stepping = worker.job, None, False
        if tag in (STEPPED, WARMED):
            if tag == WARMED:
                worker.cold = False
                self._warmed(value)
        elif job is not None and not job.future.done():
            if tag:
                job.future.set_result(value)
            else:
                job.future.set_exception(value)
        self._idle.append(worker)
        self._dispatch()

    # ---- the watch over workers -------------------------------------------------------------------

    def _keep_watch(self) -> None:
        if self._watch is None and self._loop is not None:
            self._watch = self._loop.call_later(self.check_every, self._look)

    def _look(self) -> None:
        self._watch = None
        self.inspect()
        if any(w.busy for w in self._all):
            self._keep_watch()

    def inspect(self) -> int:
        """Look at every worker: one ended, stopped, or past its job's time is ended and replaced, and
        its job goes to a fresh worker. How many were ended (the pool calls it every ``check_every``
        seconds while a worker is busy; tests call it after moving the clock)."""
        ended = 0
        now = self.clock()
        for worker in list(self._all):
            state = _state(worker.pid)
            if state == "?" and not worker.process.is_alive():
                state = "X"
            limit = worker.job.limit if worker.job is not None else WARM_STEP_LIMIT
            if state in "TtZX":
                self._lose(worker, "stopped" if state in "Tt" else "ended")
            elif worker.busy and now - worker.began > limit:
                if worker.stepping:
                    log.warning(
                        "a warm-up step of %s worker %s ran past %.0f s: warm-up given up",
                        self.name,
                        worker.pid,
                        limit,
                    )
                    self._warm_job = None
                self._lose(worker, f"past its {limit:.0f} s")
            else:
                continue
            ended += 1
        return ended

    def _lose(self, worker: _Worker, why: str) -> None:
        """End a worker and replace it: its job, if any, goes to the front of the queue for another
        worker (or fails, after ``ATTEMPTS``)."""
        if not worker.alive:
            return
        job = worker.job
        log.warning(
            "%s worker %s %s%s: another is started",
            self.name,
            worker.pid,
            why,
            " in the middle of a job" if job is not None else "",
        )
        self.replaced += 1
        self._drop(worker)
        if job is not None and not job.future.done():
            if job.tries < ATTEMPTS:
                self._requeue(job)
            else:
                job.future.set_exception(WorkerDied(f"its {self.name} workers ended ({why})"))
        self._dispatch()
        self._check_warm()

    def _drop(self, worker: _Worker) -> None:
        worker.alive = False
        worker.job, worker.stepping = None, False
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_reader(worker.conn.fileno())
        worker.conn.close()
        with contextlib.suppress(OSError, ValueError):
            worker.process.kill()  # stopped or stuck, it may never read its pipe's end
        for group in (self._all, self._idle):
            if worker in group:
                group.remove(worker)

    # ---- starting workers -------------------------------------------------------------------------

    def _context(self) -> ForkServerContext:
        # forkserver: workers are forked from a clean server process that imported what they need
        # once, never from the bot (its threads and sockets must not be copied)
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(self.preload)  # the first pool to start the server sets it
        return context

    def _start(self) -> asyncio.Task[_Worker]:
        """Start one more worker in the background (the fork server's first start imports, which must
        not hold up the loop). It is the pool's: it takes whatever job waits when it is up."""
        self._starting += 1
        task = asyncio.get_running_loop().create_task(self._spawn())
        task.add_done_callback(self._started)
        return task

    async def _spawn(self) -> _Worker:
        loop = asyncio.get_running_loop()
        if self._held is None or self._lifeline is None:
            self._held, self._lifeline = self._context().Pipe(duplex=False)
        held = self._held
        worker = await asyncio.to_thread(_launch, self._context(), held, self.nice, self.name)
        if self._loop is not loop:  # the pool moved to another loop meanwhile
            worker.conn.close()
            worker.process.kill()
            raise WorkerDied("the pool moved to another event loop")
        self._all.append(worker)
        loop.add_reader(worker.conn.fileno(), self._readable, worker)
        return worker

    def _started(self, task: asyncio.Task[_Worker]) -> None:
        self._starting -= 1
        if task.cancelled():  # the loop ended
            return
        error = task.exception()
        if error is None:
            self._idle.append(task.result())
        elif not isinstance(error, WorkerDied):
            log.warning("a %s worker could not start: %r", self.name, error)
            if not self._all and not self._starting:  # nothing left that could serve them
                for job in (*self._queue, *self._later):
                    if not job.future.done():
                        job.future.set_exception(error)
                self._queue.clear()
                self._later.clear()
        self._dispatch()
        self._check_warm()

    async def pids(self) -> list[int]:
        """The workers' process ids, starting them first (tests; a bot may call it to start early)."""
        self._on_this_loop()
        for started in [self._start() for _ in range(self.size - len(self._all) - self._starting)]:
            with contextlib.suppress(WorkerDied):
                await asyncio.shield(started)
        return [w.pid for w in self._all]

    # ---- warming up -------------------------------------------------------------------------------

    def warm(self, function: Callable[..., Iterator[str]], *args: object) -> None:
        """Start every worker now and warm each up with ``function(*args)``'s steps, in the background
        (this returns at once)."""
        self._on_this_loop()
        self._warm_job = (function, args)
        for worker in self._all:
            worker.cold = True
        for _ in range(self.size - len(self._all) - self._starting):
            self._start()
        self._dispatch()

    def _warm_next(self) -> None:
        """The next warm-up step, to an idle cold worker, when no job waits or runs, none was asked
        for in the last ``WARM_QUIET`` seconds, and no other worker is stepping: a busy bot (a
        restart's catch-up, a storm of moves) warms its workers with real boards, and its loop and
        cores go to the players first."""
        if self._warm_job is None or any(w.busy for w in self._all) or self._waiting():
            return
        quiet = self._asked + WARM_QUIET - self.clock()
        if quiet > 0:
            if self._loop is not None and self._warm_later is None:
                self._warm_later = self._loop.call_later(quiet, self._warm_again)
            return
        for worker in reversed(list(self._idle)):
            if worker.cold and self._usable(worker):
                self._send(worker, (WARM, *self._warm_job))
                return

    def _warm_again(self) -> None:
        self._warm_later = None
        self._dispatch()

    def _warmed(self, report: WarmReport) -> None:
        self.warm_reports.append(report)
        if report.get("error"):
            log.warning("a %s worker's warm-up failed: %s", self.name, report["error"])
        else:
            log.info(
                "%s worker %s warm: %d steps in %.1f s",
                self.name,
                report["pid"],
                len(report["steps"]),
                report["seconds"],
            )
        self._check_warm()

    def _warming(self) -> bool:
        return self._warm_job is not None and (self._starting > 0 or any(w.cold for w in self._all))

    def _check_warm(self) -> None:
        if not self._warming():
            for done in self._until_warm:
                if not done.done():
                    done.set_result(None)
            self._until_warm.clear()

    async def until_warm(self) -> list[WarmReport]:
        """Wait until every worker has reported the end of its warm-up; the reports, one each."""
        self._on_this_loop()
        while self._warming():
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._until_warm.append(done)
            await done
        return list(self.warm_reports)

    # ---- loops and the end ------------------------------------------------------------------------

    def _on_this_loop(self) -> None:
        """The pool used from another event loop than before (an earlier test's, a bench's): the idle
        workers come along, their pipes now read by this loop, with the caches they hold; the busy
        ones (for the old loop, whose answers nobody here awaits) are ended."""
        loop = asyncio.get_running_loop()
        if self._loop is loop:
            return
        old, self._loop, self._watch, self._warm_later = self._loop, loop, None, None
        for worker in list(self._all):
            if old is not None and not old.is_closed():
                with contextlib.suppress(ValueError, OSError):
                    old.remove_reader(worker.conn.fileno())
            if worker.busy or worker not in self._idle:
                self._drop(worker)
            else:
                loop.add_reader(worker.conn.fileno(), self._readable, worker)
        self._fail_waiting()
        self._starting = 0

    def _fail_waiting(self) -> None:
        pending = [job.future for job in (*self._queue, *self._later)] + self._until_warm
        self._queue.clear()
        self._later.clear()
        self._until_warm.clear()
        for future in pending:
            with contextlib.suppress(RuntimeError):  # its loop may be closed already
                future.cancel()

    def close(self, *, at_once: bool = False) -> None:
        """End the workers: each once its job is done (its pipe closes behind it), or ``at_once`` (a
        stop of the bot, whose jobs nobody waits for any more)."""
        for handle in (self._watch, self._warm_later):
            if handle is not None:
                handle.cancel()
        self._watch = self._warm_later = None
        self._warm_job = None
        self._fail_waiting()
        workers, self._all, self._idle = list(self._all), [], []
        for worker in workers:
            if self._loop is not None and not self._loop.is_closed():
                with contextlib.suppress(ValueError, OSError):
                    self._loop.remove_reader(worker.conn.fileno())
            worker.conn.close()
            if at_once or worker.stepping:
                worker.process.kill()
        for worker in workers:
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(timeout=5)
        for end in (self._lifeline, self._held):
            if end is not None:
                end.close()
        self._lifeline = self._held = None


def _launch(
    context: ForkServerContext, lifeline: multiprocessing.connection.Connection, nice: int, name: str
) -> _Worker:
    conn, child = context.Pipe(duplex=True)
    process = context.Process(target=_serve, args=(child, lifeline, nice), name=name, daemon=True)
    process.start()
    child.close()
    return _Worker(conn, process)
