"""The table layer's sense of time: reminders, deadlines and "your turn since" read it.

Everything that depends on how long players have waited takes a ``Clock`` instead of reading the
system time, so that tests (and the console's ``/clock advance``) can move time on at will and a
restart changes nothing: the times that matter are stored, as ISO 8601 text in UTC.
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


class ManualClock:
    """A clock that starts at ``start`` (default: the system time) and moves only when told.

    The console uses one so that a newcomer can see a reminder or a deadline without waiting a day.
    """

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or system_clock()

    def __call__(self) -> datetime:
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


def discord_time(moment: datetime, style: str = "R") -> str:
    """Discord's timestamp markup (``<t:1700000000:R>``), shown in each reader's own time zone."""
    return f"<t:{int(moment.timestamp())}:{style}>"
