"""A monotonic clock that moves only when a test moves it, and a sleep on it: a minute's pace is
checked without waiting a minute, and without reading the wall clock."""

from __future__ import annotations

import asyncio

from table.core.clock import Timer


class ManualTimer:
    """``now`` starts at 1000 s; ``sleep`` waits until ``advance`` has moved it far enough."""

    def __init__(self) -> None:
        self.now = 1000.0
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + seconds, woken))
        await woken

    def sleeping(self) -> int:
        """How many sleepers wait for the clock now."""
        return sum(1 for _at, woken in self._sleepers if not woken.done())

    async def advance(self, seconds: float) -> None:
        """Move the clock on and wake every sleeper whose time has come, then let them run a while."""
        self.now += seconds
        due = [(at, woken) for at, woken in self._sleepers if at <= self.now]
        self._sleepers = [(at, woken) for at, woken in self._sleepers if at > self.now]
        for _at, woken in due:
            if not woken.done():
                woken.set_result(None)
        for _ in range(5):
            await asyncio.sleep(0)

    @property
    def timer(self) -> Timer:
        return Timer(self.monotonic, self.sleep)
