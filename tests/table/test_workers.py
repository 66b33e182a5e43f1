"""The worker pool that draws boards and searches moves: no job waits for ever, whatever happens to
its worker.

A worker may be stopped (``SIGSTOP``: a debugger, an operator, a host under memory pressure), killed,
or hung in a job, at any moment: just after its warm-up ended, or in the middle of a drawing. Each
time the pool ends it, starts another, and the job is done by the new one. Nothing here decides by a
timer: workers are held at gates the test opens, the pool's clock is the test's, and the pool's look
at its workers (``inspect``, which a running bot makes every few seconds) is called by the test.
"""

from __future__ import annotations

import asyncio
import functools
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engine
from table.core import workers
from table.core.drawing import ProcessDrawer
from table.core.workers import WARM_STEP_LIMIT, Superseded, WorkerDied, WorkerPool
from tests.fakediscord.world import HANG_LIMIT
from tests.table.conftest import png_size
from tests.table.gates import Gate, gated, pause, pid, short_warm_up, warm_up_held_at_its_end


class Clock:
    """The pool's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def board_view() -> dict[str, Any]:
    game = engine.get_game("warchest")
    return game.view(game.new_game(["a", "b"], 3, {}), None)


async def until(condition: Any) -> None:
    """Wait for something the test cannot be told of directly (a signal delivered), up to the
    harness's hang limit: how long it takes decides nothing."""
    for _ in range(int(HANG_LIMIT / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


def state(process: int) -> str:
    return workers._state(process)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def drawer(clock: Clock) -> Iterator[ProcessDrawer]:
    pool = ProcessDrawer(workers=1, clock=clock, check_every=HANG_LIMIT)  # it looks only when told
    try:
        yield pool
    finally:
        pool.close(at_once=True)


# ---- at the end of a warm-up --------------------------------------------------------------------------


@pytest.mark.parametrize("fault", ["stopped", "killed"])
async def test_a_worker_stopped_or_killed_just_after_its_warm_up_is_replaced_for_the_next_board(
    drawer: ProcessDrawer, fault: str
) -> None:
    """The warm-up's end reported, the worker is stopped (or killed) before any board is asked of it:
    the board goes to a new worker, drawn in full, and the stopped one is gone."""
    drawer.warm(["en"], short_warm_up)
    [report] = await asyncio.wait_for(drawer.until_warm(), HANG_LIMIT)
    [first] = await drawer.pids()
    assert report["pid"] == first and "error" not in report
    os.kill(first, signal.SIGSTOP if fault == "stopped" else signal.SIGKILL)
    await until(lambda: state(first) in "TX")
    image = await asyncio.wait_for(drawer.draw("board", board_view(), names={}, locale="en"), HANG_LIMIT)
    assert png_size(image)[0] > 300
    [second] = await drawer.pids()
    assert second != first and drawer.replaced == 1
    await until(lambda: state(first) in "ZX")  # the stopped one was ended, not left behind


async def test_a_worker_hung_in_the_last_step_of_its_warm_up_is_replaced_and_the_board_drawn(
    drawer: ProcessDrawer, clock: Clock, gate: Gate
) -> None:
    """The pool's one worker hangs in its warm-up's last step, and a board is asked for: once the
    step is past its time, the worker is ended, the warm-up given up, and the board drawn by a new
    worker."""
    drawer.warm(["en"], functools.partial(warm_up_held_at_its_end, gate.address))
    await asyncio.wait_for(gate.reached(), HANG_LIMIT)
    [stuck] = await drawer.pids()
    drawing = asyncio.ensure_future(drawer.draw("board", board_view(), names={}, locale="en"))
    await asyncio.sleep(0)
    assert not drawing.done() and not drawer.idle(), "it waits for the step under way"
    assert drawer.pool.inspect() == 0, "within its time, the step is left alone"
    clock.now += WARM_STEP_LIMIT + 1
    assert drawer.pool.inspect() == 1
    image = await asyncio.wait_for(drawing, HANG_LIMIT)
    assert png_size(image)[0] > 300 and drawer.replaced == 1
    assert stuck not in await drawer.pids()
    assert await asyncio.wait_for(drawer.until_warm(), HANG_LIMIT) == [], "the warm-up was given up"


async def test_the_warm_up_waits_for_a_quiet_moment(drawer: ProcessDrawer, clock: Clock) -> None:
    """A bot drawing boards (a restart's catch-up, a storm of moves) warms its workers with them: the
    warm-up's steps wait until no board was asked for in ``WARM_QUIET`` seconds of the pool's clock
    (here the test's, moved by hand, the pool's timer then called as it would be)."""
    await asyncio.wait_for(drawer.draw("board", board_view(), names={}, locale="en"), HANG_LIMIT)
    drawer.warm(["en"], short_warm_up)
    await asyncio.sleep(0)
    assert not any(w.busy for w in drawer.pool._all) and drawer.idle(), "no step while it is not quiet"
    clock.now += workers.WARM_QUIET
    drawer.pool._warm_again()
    [report] = await asyncio.wait_for(drawer.until_warm(), HANG_LIMIT)
    assert report["steps"] == ["one", "two"]


# ---- in the middle of a job ---------------------------------------------------------------------------


@pytest.fixture
def pool(clock: Clock) -> Iterator[WorkerPool]:
    held = WorkerPool(1, name="test", clock=clock, check_every=HANG_LIMIT)
    try:
        yield held
    finally:
        held.close(at_once=True)


@pytest.mark.parametrize("fault", ["stopped", "killed", "killed-unheard", "hung"])
async def test_a_worker_lost_in_the_middle_of_a_job_is_replaced_and_the_job_done(
    pool: WorkerPool, clock: Clock, gate: Gate, fault: str
) -> None:
    """The worker holds its job at the gate when it is stopped, killed (its end heard by the loop or,
    its pipe's reader taken away, not) or simply never answers: the pool's look finds it stopped,
    gone or past the job's time, ends it, and the job is run again by a new worker (which reaches
    the gate in its turn, and gets through)."""
    job = asyncio.ensure_future(pool.run(gated, gate.address, "done", limit=30.0))
    await asyncio.wait_for(gate.reached(1), HANG_LIMIT)
    [first] = await pool.pids()
    if fault == "killed-unheard":
        asyncio.get_running_loop().remove_reader(pool._all[0].conn.fileno())
    if fault == "stopped":
        os.kill(first, signal.SIGSTOP)
        await until(lambda: state(first) == "T")
    elif fault.startswith("killed"):
        os.kill(first, signal.SIGKILL)
        await until(lambda: state(first) in "ZX")
    if fault != "killed":  # a killed worker's end is heard at once; the others wait for a look
        assert not job.done()
        clock.now += 29.0
        assert pool.inspect() == (0 if fault == "hung" else 1)
        clock.now += 2.0
        pool.inspect()
    await asyncio.wait_for(gate.reached(2), HANG_LIMIT)
    gate.opened.set()
    assert await asyncio.wait_for(job, HANG_LIMIT) == "done"
    [second] = await pool.pids()
    assert second != first and pool.replaced == 1
    await until(lambda: state(first) in "ZX")


async def test_a_job_that_hangs_every_worker_fails_with_why_and_the_pool_goes_on(
    pool: WorkerPool, clock: Clock, gate: Gate
) -> None:
    """A job no worker finishes (here held at the gate each time) is tried in two workers, then fails
    with the reason; the next job is run as usual."""
    job = asyncio.ensure_future(pool.run(gated, gate.address, "never", limit=5.0))
    for arrivals in (1, 2):
        await asyncio.wait_for(gate.reached(arrivals), HANG_LIMIT)
        clock.now += 6.0
        assert pool.inspect() == 1
    with pytest.raises(WorkerDied, match="past its 5 s"):
        await asyncio.wait_for(job, HANG_LIMIT)
    assert await asyncio.wait_for(pool.run(pid, limit=5.0), HANG_LIMIT) in await pool.pids()


async def test_the_pool_looks_at_its_busy_workers_on_its_own(gate: Gate) -> None:
    """Left alone, the pool looks at its busy workers every ``check_every`` seconds: a worker stopped
    in the middle of a job is found and replaced with nobody calling ``inspect``."""
    pool = WorkerPool(1, name="test", check_every=0.05)
    try:
        job = asyncio.ensure_future(pool.run(gated, gate.address, "done", limit=HANG_LIMIT))
        await asyncio.wait_for(gate.reached(1), HANG_LIMIT)
        [first] = await pool.pids()
        os.kill(first, signal.SIGSTOP)
        await asyncio.wait_for(gate.reached(2), HANG_LIMIT)
        gate.opened.set()
        assert await asyncio.wait_for(job, HANG_LIMIT) == "done" and pool.replaced == 1
    finally:
        pool.close(at_once=True)


# ---- jobs given up, workers that cannot start, the bot's end -------------------------------------------


async def test_a_job_given_up_while_its_worker_starts_leaves_that_worker_to_the_next(
    pool: WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board drawn ahead of its announcement is given up (a newer move came) while the pool starts
    the worker it would be drawn in, and another job waits behind it: the worker is the pool's, and
    takes the one behind. The start is held at a gate until the first is given up."""
    opened = threading.Event()
    launch = workers._launch

    def held(*args: Any) -> Any:
        opened.wait(HANG_LIMIT)
        return launch(*args)

    monkeypatch.setattr(workers, "_launch", held)
    given_up = asyncio.ensure_future(pool.run(pid, limit=5.0))
    behind = asyncio.ensure_future(pool.run(pid, limit=5.0))
    await asyncio.sleep(0)
    assert pool._starting == 1 and not pool.idle()
    given_up.cancel()
    await asyncio.sleep(0)
    opened.set()
    assert await asyncio.wait_for(behind, HANG_LIMIT) in await pool.pids()
    assert given_up.cancelled() and pool.idle(), "the worker started is idle again"


async def test_a_job_given_up_while_it_runs_frees_its_worker_when_it_answers(
    pool: WorkerPool, gate: Gate
) -> None:
    job = asyncio.ensure_future(pool.run(gated, gate.address, "late", limit=30.0))
    await asyncio.wait_for(gate.reached(1), HANG_LIMIT)
    job.cancel()
    after = asyncio.ensure_future(pool.run(pid, limit=5.0))
    gate.opened.set()
    assert await asyncio.wait_for(after, HANG_LIMIT) in await pool.pids()
    assert job.cancelled() and pool.replaced == 0


async def test_jobs_waiting_for_a_worker_that_cannot_start_fail_with_why(
    pool: WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No process can be started (the host's limit is reached): the jobs waiting for one fail with
    the reason instead of waiting for ever, and a later job starts a worker again."""

    def no_process(*args: Any) -> Any:
        raise BlockingIOError("Resource temporarily unavailable")

    monkeypatch.setattr(workers, "_launch", no_process)
    jobs = [asyncio.ensure_future(pool.run(pid, limit=5.0)) for _ in range(2)]
    failures = await asyncio.wait_for(asyncio.gather(*jobs, return_exceptions=True), HANG_LIMIT)
    assert [type(f) for f in failures] == [BlockingIOError, BlockingIOError]
    monkeypatch.undo()
    assert await asyncio.wait_for(pool.run(pid, limit=5.0), HANG_LIMIT) in await pool.pids()


async def test_an_outdated_job_is_not_run_when_its_turn_comes(pool: WorkerPool, gate: Gate) -> None:
    busy = asyncio.ensure_future(pool.run(gated, gate.address, "first", limit=30.0))
    await asyncio.wait_for(gate.reached(1), HANG_LIMIT)
    newer = [False]
    waiting = asyncio.ensure_future(pool.run(pid, limit=5.0, outdated=lambda: newer[0]))
    await asyncio.sleep(0)
    newer[0] = True  # a newer version came while it waited
    gate.opened.set()
    assert await asyncio.wait_for(busy, HANG_LIMIT) == "first"
    with pytest.raises(Superseded):
        await asyncio.wait_for(waiting, HANG_LIMIT)
    assert pool.superseded == 1


async def test_a_job_asked_for_in_the_background_waits_for_every_other(pool: WorkerPool, gate: Gate) -> None:
    """The timed loop's catch-up after a restart asks for boards nobody is waiting on: a move played
    meanwhile has its board drawn first, though asked for later."""
    busy = asyncio.ensure_future(pool.run(gated, gate.address, "busy", limit=30.0))
    await asyncio.wait_for(gate.reached(1), HANG_LIMIT)
    done: list[str] = []
    with workers.in_background():
        caught_up = asyncio.ensure_future(pool.run(gated, gate.address, "caught up", limit=30.0))
    played = asyncio.ensure_future(pool.run(gated, gate.address, "played", limit=30.0))
    for job in (caught_up, played):
        job.add_done_callback(lambda j: done.append(j.result()))
    await asyncio.sleep(0)
    gate.opened.set()
    await asyncio.wait_for(asyncio.gather(busy, caught_up, played), HANG_LIMIT)
    assert done == ["played", "caught up"]


async def test_a_worker_stuck_in_a_job_ends_with_the_bot(pool: WorkerPool, gate: Gate) -> None:
    """A bot killed outright never closes its pool: its workers must not live on, not even one stuck
    in a job that would never read its pipe again. The pool holds the only writer of their
    lifeline; closing it (what the bot's death does) ends them all."""
    job = asyncio.ensure_future(pool.run(gated, gate.address, "never", limit=30.0))
    await asyncio.wait_for(gate.reached(1), HANG_LIMIT)
    [stuck] = await pool.pids()
    assert pool._lifeline is not None
    pool._lifeline.close()
    await until(lambda: state(stuck) in "ZX")
    job.cancel()


def test_one_pool_serves_one_event_loop_after_another() -> None:
    """The process-wide pool outlives an event loop (each test, each bench has its own): a worker idle
    when its loop ended serves the next one, with the caches it holds; one still busy for the old
    loop is ended, and the new loop gets one of its own."""
    drawer = ProcessDrawer(workers=1)
    view = board_view()

    async def drawn() -> tuple[bytes, list[int]]:
        image = await asyncio.wait_for(drawer.draw("board", view, names={}, locale="en"), HANG_LIMIT)
        return image, await drawer.pids()

    async def busy() -> list[int]:
        job = asyncio.ensure_future(drawer.pool.run(pause, 60.0, limit=120.0))
        await asyncio.sleep(0)  # the job is handed to the idle worker
        assert not drawer.idle() and not job.done()
        return await drawer.pids()

    try:
        first, pids = asyncio.run(drawn())
        second, again = asyncio.run(drawn())
        assert first == second and png_size(first)[0] > 300
        assert again == pids, "the idle worker serves the new loop"
        assert asyncio.run(busy()) == pids
        third, renewed = asyncio.run(drawn())
        assert third == first and renewed and set(renewed).isdisjoint(pids), "the busy one was ended"
    finally:
        drawer.close()


SERVING = """
import asyncio
from table.bots.thinkers import ProcessThinker
from table.core.drawing import ProcessDrawer

async def serve():
    drawer, thinker = ProcessDrawer(workers=2), ProcessThinker(1)
    print(*await drawer.pids(), *await thinker.pids(), flush=True)
    await asyncio.sleep(3600)

asyncio.run(serve())
"""


async def test_the_workers_end_when_the_bot_is_killed_outright() -> None:
    """A bot killed with ``SIGKILL`` never closes its pools: its drawing and thinking workers must not
    live on as orphans (they would hold its log pipe open and pile up with every restart)."""
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-c", SERVING, stdout=asyncio.subprocess.PIPE, cwd=Path(__file__).parents[2]
    )
    try:
        assert bot.stdout is not None
        line = await asyncio.wait_for(bot.stdout.readline(), HANG_LIMIT)
        pids = [int(p) for p in line.split()]
        assert len(pids) == 3 and all(state(p) in "RSD" for p in pids)
    finally:
        bot.kill()
        await bot.wait()
    await until(lambda: all(state(p) in "ZX" for p in pids))
