"""Time off: how long an away player held a table's deadline clock, and when the deadline falls.

A player may say they are away (``/away for:5d``): at a table whose ``away`` option is ``pause`` (the
default) the deadline clock does not run while a player it waits for is away, each player pausing a
table for at most ``away_max`` in all, after which the table's ``on_deadline`` applies as usual. The
periods players were away are stored (``db.Away``), so the pause is worked out from them after the
fact, exactly, however far apart the timed loop looks (the console moves its clock by days at once):

- the **raw deadline** is when the deadline falls if the clock runs from now on; it moves on by the
  time the clock stood still, once that time has passed (``run_deadline`` charges each away player's
  pause to them then, and only then: a player back early by a move paused the table for less);
- the **deadline** the store looks at is when the raw one falls given the periods known now (a
  player away for five more days moves it five days on), so the timed loop wakes up only then.

Everything here is pure: times in, times out, aware and in UTC.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from table.core.clock import parse_duration

POLICIES = ("pause", "bot", "off")
"""What a table does while a player it waits for is away: its deadline clock stops (``pause``), a
computer player plays for them (``bot``), or nothing but the mark and the silence (``off``)."""
DEFAULT_POLICY = "pause"
DEFAULT_MAX = timedelta(days=14)
"""How long each player may pause one table in all."""
LONGEST = timedelta(days=60)
"""The longest ``/away`` a player may ask for at once."""
NOTHING = timedelta(0)


@dataclass(frozen=True)
class Span:
    """One period a player was (or is, or will be) away: from ``since`` to ``until``."""

    since: datetime
    until: datetime

    def holds(self, moment: datetime) -> bool:
        return self.since <= moment < self.until


@dataclass(frozen=True)
class Sweep:
    """What a stretch of time did to a deadline clock: how long it stood still, how much of each
    player's allowance that took, and when the deadline fell, if it did within the stretch."""

    paused: timedelta = NOTHING
    charged: dict[str, timedelta] = field(default_factory=dict)
    fell: datetime | None = None


def sweep(
    start: datetime,
    end: datetime,
    spans: Mapping[str, Sequence[Span]],
    left: Mapping[str, timedelta],
    deadline: datetime | None = None,
) -> Sweep:
    """Walk from ``start`` to ``end``: the clock stands still while any of the players of ``spans``
    (those the table waits for) is away with some of their allowance ``left``, each such player's
    allowance running down meanwhile; otherwise it runs, and the deadline (``deadline`` plus the time
    stood still so far) falls when it is reached. The walk stops there."""
    remaining = {p: max(NOTHING, left.get(p, NOTHING)) for p in spans}
    charged: dict[str, timedelta] = {}
    paused = NOTHING
    at = start
    edges = sorted({m for ss in spans.values() for s in ss for m in (s.since, s.until)})
    while at < end:
        if deadline is not None and deadline + paused <= at:
            return Sweep(paused, charged, at)
        active = [p for p, ss in spans.items() if remaining[p] > NOTHING and any(s.holds(at) for s in ss)]
        step_to = min([end, *(m for m in edges if m > at)])
        if active:
            step_to = min(step_to, at + min(remaining[p] for p in active))
            step = step_to - at
            paused += step
            for p in active:
                remaining[p] -= step
                charged[p] = charged.get(p, NOTHING) + step
        elif deadline is not None and deadline + paused <= step_to:
            return Sweep(paused, charged, max(at, deadline + paused))
        at = step_to
    if deadline is not None and deadline + paused <= end:
        return Sweep(paused, charged, end)
    return Sweep(paused, charged, None)


@dataclass(frozen=True)
class DeadlineRun:
    """Where a paused deadline stands at ``now``: the raw deadline, the pause each player was
    charged since the last look, and when the deadline falls (at or before ``now``: it is due)."""

    raw: datetime
    charged: dict[str, timedelta]
    falls: datetime


def run_deadline(
    raw: datetime,
    accounted: datetime,
    now: datetime,
    spans: Mapping[str, Sequence[Span]],
    left: Mapping[str, timedelta],
) -> DeadlineRun:
    """Account for the time from ``accounted`` to ``now`` (charging the pauses that happened), then
    find when the deadline falls from ``now`` on given the away periods known (charging nothing
    for those yet to come)."""
    past = sweep(accounted, now, spans, left, raw)
    if past.fell is not None:
        return DeadlineRun(raw + past.paused, past.charged, past.fell)
    raw = raw + past.paused
    rest = {p: left.get(p, NOTHING) - past.charged.get(p, NOTHING) for p in spans}
    horizon = max(now, raw) + sum((max(NOTHING, r) for r in rest.values()), NOTHING) + timedelta(seconds=1)
    ahead = sweep(now, horizon, spans, rest, raw)
    return DeadlineRun(raw, past.charged, ahead.fell or raw + ahead.paused)


def parse_away_for(text: str) -> timedelta | None:
    """``/away for:``'s value: a duration up to ``LONGEST`` (``5d``, ``12h``, ``2w``), or ``off``
    (None: back now). Raises ``ValueError`` naming why otherwise: ``"form"`` or ``"long"``."""
    word = text.strip().lower()
    if word in ("off", "none", "no", "non", "fin", "stop"):
        return None
    delta = parse_duration(word)
    if delta is None or delta <= NOTHING:
        raise ValueError("form")
    if delta > LONGEST:
        raise ValueError("long")
    return delta


__all__ = [
    "DEFAULT_MAX",
    "DEFAULT_POLICY",
    "LONGEST",
    "POLICIES",
    "DeadlineRun",
    "Span",
    "Sweep",
    "parse_away_for",
    "run_deadline",
    "sweep",
]
