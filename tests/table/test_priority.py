"""The drawing and thinking workers queue behind the bot's own process for a core."""

from __future__ import annotations

import asyncio
import contextlib
import os

import pytest

from table.bots.thinkers import ProcessThinker
from table.core.drawing import ProcessDrawer
from table.core.priority import DEFAULT_NICE, worker_nice
from tests.fakediscord.world import HANG_LIMIT


def _nice(pid: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, pid)


async def _settled(pid: int, value: int) -> int:
    """The worker's nice value once it is ``value``, or as it is at the hang limit (a worker steps
    back as it begins to serve, a moment after its pid is known)."""

    async def reached() -> None:
        while _nice(pid) != value:
            await asyncio.sleep(0.01)

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(reached(), HANG_LIMIT)
    return _nice(pid)


async def test_workers_run_at_the_nice_value_asked_and_level_with_the_bot_at_zero(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An admin may put the drawings and searches behind the loop that must answer each interaction
    within 3 seconds (``WORKER_NICE``, read when a pool starts); by default they are level."""
    own = _nice(0)
    monkeypatch.setenv("WORKER_NICE", "7")
    drawer, thinker = ProcessDrawer(workers=1), ProcessThinker(1)
    monkeypatch.setenv("WORKER_NICE", "0")
    level = ProcessDrawer(workers=1)
    try:
        [drawing] = await drawer.pids()
        [thinking] = await thinker.pids()
        [beside] = await level.pids()
        assert await _settled(drawing, min(19, own + 7)) == min(19, own + 7)
        assert await _settled(thinking, min(19, own + 7)) == min(19, own + 7)
        assert _nice(beside) == own
    finally:
        drawer.close()
        thinker.close()
        level.close()


def test_the_nice_value_comes_from_the_environment_within_linux_bounds() -> None:
    assert worker_nice({}) == DEFAULT_NICE == 0
    assert worker_nice({"WORKER_NICE": " 3 "}) == 3
    assert worker_nice({"WORKER_NICE": "0"}) == 0
    for bad in ("20", "-5", "low"):
        assert worker_nice({"WORKER_NICE": bad}) == DEFAULT_NICE
