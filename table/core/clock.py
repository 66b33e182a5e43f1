"""The table layer's sense of time: reminders, deadlines and "your turn since" read it.

Everything that depends on how long players have waited takes a ``Clock`` instead of reading the
system time, so that tests (and the console's ``/clock advance``) can move time on at will and a
restart changes nothing: the times that matter are stored, as ISO 8601 text in UTC.

The console's ``ManualClock`` moves with ``/clock advance`` and ``/clock set <UTC date and time>``.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

Clock = Callable[[], datetime]
"""Returns the current time, timezone-aware, in UTC."""


def system_clock() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Timer:
    """A monotonic clock and a sleep that waits on it: how long to wait between two things, injected
    like ``Clock`` (a test moves its own by hand, so a minute's pace takes no minute)."""

    monotonic: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep


class ManualTimer:
    """A ``Timer`` that moves only when told (``advance``): tests and benches pace a minute without
    waiting one. ``now`` starts at 1000 s; a sleeper wakes once ``advance`` has moved it far enough."""

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

    async def advance(self, seconds: float) -> None:
        """Move the clock on and wake every sleeper whose time has come, then let them run a while."""
        self.now += seconds
        due = [woken for at, woken in self._sleepers if at <= self.now]
        self._sleepers = [(at, woken) for at, woken in self._sleepers if at > self.now]
        for woken in due:
            if not woken.done():
                woken.set_result(None)
        for _ in range(5):
            await asyncio.sleep(0)

    @property
    def timer(self) -> Timer:
        return Timer(self.monotonic, self.sleep)


class ManualClock:
    """A clock that starts at ``start`` (default: the system time) and moves only when told.

    The console uses one so that a newcomer can see a reminder or a deadline without waiting a day.
    """

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or system_clock()

    def __call__(self) -> datetime:
        return self._now

    def set(self, moment: datetime) -> datetime:
        """Show ``moment`` from now on, earlier or later (the console's ``/clock set``)."""
        self._now = moment.astimezone(UTC)
        return self._now

    def advance(self, delta: timedelta) -> datetime:
        if delta < timedelta(0):
            raise ValueError("time only moves forward")
        self._now += delta
        return self._now


def stamp(moment: datetime) -> str:
    """The stored form of a time: ISO 8601 in UTC, to the second, which sorts as text does."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def parse_stamp(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


_DURATION = re.compile(r"^\s*(\d{1,4})\s*([mhdjw])\s*$", re.IGNORECASE)
_UNITS = {
    "m": timedelta(minutes=1),
    "h": timedelta(hours=1),
    "d": timedelta(days=1),
    "j": timedelta(days=1),  # jour
    "w": timedelta(weeks=1),
}


def parse_duration(text: str) -> timedelta | None:
    """``"25h"`` -> 25 hours; ``"3d"`` (or ``"3j"``), ``"90m"``, ``"2w"``; None when not of that form."""
    m = _DURATION.match(text or "")
    if m is None:
        return None
    return int(m.group(1)) * _UNITS[m.group(2).lower()]


def format_duration(delta: timedelta) -> str:
    """The shortest exact text ``parse_duration`` reads back: ``timedelta(hours=48)`` -> ``"2d"``."""
    minutes = int(delta.total_seconds() // 60)
    for unit, size in (("w", 7 * 24 * 60), ("d", 24 * 60), ("h", 60)):
        if minutes and minutes % size == 0 and (unit != "d" or minutes >= 2 * size):
            return f"{minutes // size}{unit}"
    return f"{minutes}m"
