"""What a wait means for each player it waits for, in their own time: whom a handover pings now and
whom later, when each is reminded, when the deadline falls and on whom.

The announcer asks at each handover (``handover``), the timed loop when a reminder or the deadline
comes (``reminders``, ``deadline``), and ``/away`` when a player comes back early (``paused``). All
of it reads the players' own times (``table.core.hours``) and their periods away (``db.Away``) from
the store, and returns what to write in the game's announcement (``table.core.timing``) and what to
say; the callers write it under the game's claim before they post, so a restart neither loses nor
repeats what was held back.

- **Quiet hours**: a handover names a player in their quiet hours without pinging them, and a single
  ping (``svc.turn_ping``) follows when they end; a reminder due then waits for their end; a
  deadline that would act on someone in theirs moves to the first moment none of the absent players
  is in theirs.
- **Away**: an away player is named, not pinged, and the channel is told once per wait (a line of
  the handover post, or ``/away``'s notice); they get no reminder until they are back; at an
  ``away=pause`` table the deadline clock stands still while they are awaited (``table.core.away``).
- **Own pace**: each player is reminded at their own pace (``/notify remind:``), else the table's.
- **The last one**: when a phase everyone acts in at once (Batailles' building, deployment and
  retraining) is left waiting for some players only, the post says so (``svc.last_one``), and so do
  their reminders and direct messages.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from db import Announcement, GameRecord, Store
from table.core.away import Span, run_deadline
from table.core.clock import parse_stamp, stamp
from table.core.hours import PlayerTime, first_free
from table.core.marks import moment
from table.core.ratings import guild_of
from table.core.settings import TableSettings
from table.core.tables import Table
from table.core.text import mentions, pings
from table.core.timing import PlayerWait, Timing
from table.core.wording import Wording


@dataclass(frozen=True)
class Handover:
    """What a handover post does for the players it hands the turn to."""

    held: frozenset[str]
    """Named without a ping: in their quiet hours (pinged at their end) or away."""
    lines: tuple[str, ...]
    """The post's closing lines about them: who is away until when, who is the last one."""
    timing: Timing
    next_reminder: str | None
    deadline: str | None
    takeovers: tuple[str, ...] = ()
    """Away players a bot plays for from now on (``away=bot``)."""


@dataclass(frozen=True)
class Due:
    """What the timed loop does now for a wait: who is reminded, whose held ping goes out."""

    remind: tuple[str, ...]
    ping: tuple[str, ...]
    timing: Timing
    next_reminder: str | None


@dataclass(frozen=True)
class Deadline:
    """Whether a wait's deadline acts now, on whom, or when to look again."""

    acts: bool
    absent: tuple[str, ...]
    deadline: str
    timing: Timing


def _seconds(delta: timedelta | None) -> int | None:
    return None if delta is None else int(delta.total_seconds())


def waiting(current: Announcement, standing: Iterable[str]) -> list[str]:
    """The people the wait waits for (no computer player, nobody a bot plays for)."""
    skip = set(standing)
    return [p for p in pings(current.to_act) if p not in skip]


class Waits:
    """The players' own times applied to one game's waits (see the module's description)."""

    def __init__(self, store: Store, words: Wording | None = None) -> None:
        self.store = store
        self.words = words or Wording()

    async def times(self, players: Sequence[str]) -> dict[str, PlayerTime]:
        """Each player's own time (one read for them all)."""
        chosen = await self.store.player_settings(list(players)) if players else {}
        return {p: PlayerTime.of(chosen.get(p)) for p in players}

    async def spans(
        self, record: GameRecord, players: Sequence[str], after: datetime
    ) -> dict[str, list[Span]]:
        """The periods ``players`` are or were away in the game's server that end after ``after``."""
        found: dict[str, list[Span]] = {p: [] for p in players}
        if players:
            for period in await self.store.away(guild_of(record), list(players), stamp(after)):
                found[period.player].append(Span(parse_stamp(period.since), parse_stamp(period.until)))
        return found

    async def away_until(
        self, record: GameRecord, players: Sequence[str], now: datetime
    ) -> dict[str, datetime]:
        """The players away at ``now``, with the end of their period."""
        spans = await self.spans(record, players, now)
        return {p: s.until for p, ss in spans.items() for s in ss if s.holds(now)}

    def away_line(self, table: Table, player: str, until: datetime, locale: str) -> str:
        """The channel's word that ``player`` is away, and what the table does meanwhile."""
        pace = TableSettings.of(table.record)
        key = "svc.away.line"
        if pace.away == "bot":
            key = "svc.away.line.bot"
        elif pace.away == "pause" and pace.deadline is not None:
            key = "svc.away.line.pause"
        return self.words.t(
            key,
            locale,
            player=mentions([player])[0],
            until=moment(until, "f"),
            game=self.words.game(table, locale),
        )

    async def unreachable(self, record: GameRecord, players: Sequence[str], now: datetime) -> frozenset[str]:
        """Those of ``players`` a post must not ping now: in their quiet hours, or away."""
        people = list(pings(players))
        if not people:
            return frozenset()
        times = await self.times(people)
        away = await self.away_until(record, people, now)
        return frozenset(p for p in people if p in away or times[p].is_quiet(now))

    # ---- a handover ----------------------------------------------------------------------------------

    async def handover(
        self,
        table: Table,
        current: Announcement | None,
        standing: Iterable[str],
        locale: str,
        now: datetime,
    ) -> Handover:
        """The new wait of a handover to ``table.to_act()`` (the people among them, ``standing``
        aside), after the wait ``current`` described."""
        record = table.record
        pace = TableSettings.of(record)
        skip = set(standing)
        people = [p for p in pings(table.to_act()) if p not in skip]
        before = Timing.of(current.timing if current is not None else None)
        earlier = waiting(current, skip) if current is not None and current.status == "active" else []
        pausing = pace.away == "pause" and pace.deadline is not None
        began = (
            parse_stamp(before.accounted or current.waiting_since)
            if current and current.waiting_since
            else now
        )
        spans = await self.spans(record, list(dict.fromkeys(people + earlier)), min(began, now))
        times = await self.times(people)
        timing = Timing(paused=dict(before.paused))
        if pausing and earlier and current is not None and current.deadline and not current.deadline_done:
            # the wait that ends: the pauses its away players made so far are theirs to count
            run = run_deadline(
                parse_stamp(before.raw or current.deadline),
                began,
                now,
                {p: spans[p] for p in earlier},
                before.left(earlier, pace.away_max),
            )
            timing = timing.charge(run.charged)
        away = {p: s.until for p in people for s in spans[p] if s.holds(now)}
        quiet = {p for p in people if p not in away and times[p].is_quiet(now)}
        players: dict[str, PlayerWait] = {}
        for p in people:
            wait = PlayerWait(pace=_seconds(times[p].pace_at(pace.remind))).paced(now)
            if p in quiet:
                wait = replace(wait, ping=stamp(times[p].quiet_end(now)))
            if p in away:
                wait = replace(wait, told=stamp(away[p]))
            players[p] = wait
        last = (
            bool(people)
            and current is not None
            and current.status == "active"
            and set(table.to_act()) < set(current.to_act)
        )
        timing = replace(timing, players=players, last=last)
        deadline = None
        if pace.deadline is not None:
            raw = now + pace.deadline
            falls = raw
            if pausing and away:
                run = run_deadline(
                    raw, now, now, {p: spans[p] for p in people}, timing.left(people, pace.away_max)
                )
                falls = run.falls
                timing = replace(timing, raw=stamp(raw), accounted=stamp(now))
            deadline = stamp(falls)
        lines = [self.away_line(table, p, away[p], locale) for p in people if p in away]
        if last:
            lines.append(self.words.t("svc.last_one", locale, players=mentions(table.to_act(), table.names)))
        takeovers = tuple(p for p in people if p in away and pace.away == "bot")
        return Handover(
            frozenset(quiet | set(away)), tuple(lines), timing, timing.next_due(), deadline, takeovers
        )

    def activity(self, current: Announcement, acted: Iterable[str], now: datetime) -> dict[str, object]:
        """Players still on turn acted again (an edit of the handover post): their next reminders
        count from now; the deadline stays."""
        timing = Timing.of(current.timing)
        if not timing.players:
            return {}
        for player in acted:
            if player in timing.players:
                timing = timing.with_player(player, timing.players[player].paced(now))
        return {"timing": timing.to_json(), "next_reminder": timing.next_due()}

    # ---- reminders -----------------------------------------------------------------------------------

    async def reminders(
        self, record: GameRecord, current: Announcement, standing: Iterable[str], now: datetime
    ) -> Due:
        """Who is reminded now, whose held ping goes out, and when to look again: a reminder or a
        ping due inside someone's quiet hours waits for their end; an away player's waits for their
        return. A wait from before players had times of their own reminds at the table's pace."""
        pace = TableSettings.of(record)
        timing = Timing.of(current.timing)
        people = waiting(current, standing)
        times = await self.times(people)
        away = await self.away_until(record, people, now)
        remind: list[str] = []
        ping: list[str] = []
        for p in people:
            wait = timing.wait_of(p, current.next_reminder)
            if p not in timing.players:
                wait = replace(wait, pace=_seconds(pace.remind))
            if wait.ping is not None and parse_stamp(wait.ping) <= now:
                if p in away:
                    wait = replace(wait, ping=None)
                elif times[p].is_quiet(now):
                    wait = replace(wait, ping=stamp(times[p].quiet_end(now)))
                else:
                    ping.append(p)
                    wait = replace(wait.paced(now), ping=None)
            if wait.next is not None and parse_stamp(wait.next) <= now:
                if p in away:
                    wait = replace(wait, next=stamp(away[p]))
                elif times[p].is_quiet(now):
                    wait = replace(wait, next=stamp(times[p].quiet_end(now)))
                elif p not in ping:
                    remind.append(p)
                    wait = replace(wait.paced(now), reminded=wait.reminded + 1)
            timing = timing.with_player(p, wait)
        return Due(tuple(remind), tuple(ping), timing, timing.next_due(people))

    # ---- the deadline --------------------------------------------------------------------------------

    async def paused(
        self, record: GameRecord, current: Announcement, absent: Sequence[str], now: datetime
    ) -> tuple[datetime, Timing]:
        """When the wait's deadline falls, given the pauses of ``absent`` players so far (charged to
        them) and the periods they are known to be away from now on, at an ``away=pause`` table."""
        timing = Timing.of(current.timing)
        assert current.deadline is not None
        pace = TableSettings.of(record)
        if pace.away != "pause" or not absent:
            return parse_stamp(current.deadline), timing
        began = parse_stamp(timing.accounted or current.waiting_since or current.deadline)
        spans = await self.spans(record, absent, min(began, now))
        run = run_deadline(
            parse_stamp(timing.raw or current.deadline), began, now, spans, timing.left(absent, pace.away_max)
        )
        timing = replace(timing.charge(run.charged), raw=stamp(run.raw), accounted=stamp(now))
        return run.falls, timing

    async def deadline(
        self, record: GameRecord, current: Announcement, absent: Sequence[str], now: datetime
    ) -> Deadline:
        """Whether the deadline acts now and on whom: not before it falls (paused by away players),
        and never on someone in their quiet hours: it then moves to the first moment none of the
        absent players is in theirs (or, when their quiet hours together leave no such moment for two
        days, acts on those not in theirs)."""
        falls, timing = await self.paused(record, current, absent, now)
        if falls > now:
            return Deadline(False, tuple(absent), stamp(falls), timing)
        times = await self.times(absent)
        quiet = [p for p in absent if times[p].is_quiet(now)]
        if not quiet:
            return Deadline(True, tuple(absent), stamp(falls), timing)
        free = first_free(now, times.values())
        if free is not None:
            return Deadline(False, tuple(absent), stamp(free), timing)
        awake = tuple(p for p in absent if p not in quiet)
        if awake:
            return Deadline(True, awake, stamp(now), timing)
        return Deadline(False, tuple(absent), stamp(min(times[p].quiet_end(now) for p in quiet)), timing)


__all__ = ["Deadline", "Due", "Handover", "Waits", "waiting"]
