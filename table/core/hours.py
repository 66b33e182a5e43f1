"""A player's own time: their time zone, their quiet hours and their own reminder pace.

Players of a game that lasts weeks live in many time zones; a ping at 3 a.m. wakes someone up and a
forfeit that falls while they sleep is unfair. So each player may give their IANA time zone and quiet
hours in it (``/notify timezone:Europe/Paris quiet:22:00-07:00``): inside them nothing pings them, no
direct message goes to them, and no deadline action falls on them (``table.posting.schedule``).

Quiet hours are wall-clock times of the player's zone, so they follow the zone's daylight-saving
changes: ``22:00-07:00`` in Paris is 21:00-06:00 UTC in winter and 20:00-05:00 UTC in summer, and the
night of a change is an hour shorter or longer. A wall time a change skips (02:30 on the night clocks go
forward) begins or ends the quiet hours at the first instant after it (the jump itself); a wall time a
change repeats (02:30 on the night they go back) at its first occurrence. The zones come from the
standard library's ``zoneinfo``, which reads the ``tzdata`` package pinned with the bot where the
system has no zone database.

Everything here is pure: times in, times out, all of them aware and in UTC.

A player's zone, quiet hours and own pace are kept in ``player_settings`` (one JSON object per player, the
same in every server, for any later choice too), and their periods away (at most 60 days each) in ``away``, a
period ended early keeping its row with ``until`` brought forward: both are migration 10, in both stores,
carried by ``python -m db export|import``. The tests hold Paris in March and October, New York, Kolkata's half
hour, Kiritimati (UTC+14) and Chatham (+13:45/+12:45) to the rules above (``wall_instant``, ``first_free``);
when the absent players' quiet hours together leave no free moment within two days, a deadline acts on those
awake only.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from table.core.clock import format_duration, parse_duration
from table.core.errors import TableError

UTC_ZONE = "UTC"
"""The zone of a player who gave none: their quiet hours are read in UTC."""
SUGGESTED = 3
"""How many known zone names a refusal of an unknown one suggests."""
MIN_PACE = timedelta(hours=1)
"""The shortest reminder pace a player may choose, as for a table (``settings.MIN_REMIND``)."""
LOOK_AHEAD = timedelta(hours=48)
"""How far ``first_free`` looks for a moment when none of a few players is in their quiet hours."""

ZONE, QUIET, REMIND = "zone", "quiet", "remind"
"""The keys of a player's time in their stored settings (``Store.player_settings``)."""
OFF = ("off", "none", "no", "non", "aucun", "aucune")

_TIME = r"(\d{1,2})(?::(\d{2})|h(\d{2})?)?"
_QUIET = re.compile(rf"^\s*{_TIME}\s*-\s*{_TIME}\s*$", re.IGNORECASE)


@cache
def zone_names() -> tuple[str, ...]:
    """Every IANA zone name ``zoneinfo`` knows, sorted (the autocomplete's list)."""
    return tuple(sorted(available_timezones()))


@cache
def _folded() -> dict[str, str]:
    """Zone names by their lower-case spelling, to read ``europe/paris`` as ``Europe/Paris``."""
    return {name.lower(): name for name in zone_names()}


def closest_zones(typed: str, count: int = SUGGESTED) -> list[str]:
    """The ``count`` known zone names closest to ``typed`` (``difflib``'s ratio, case aside), the
    city alone counting as much as the whole name (``paris`` is nearest ``Europe/Paris``)."""
    wanted = typed.strip().lower().replace(" ", "_")

    def score(name: str) -> float:
        whole = difflib.SequenceMatcher(None, wanted, name.lower()).ratio()
        city = difflib.SequenceMatcher(None, wanted, _city(name)).ratio()
        return max(whole, city)

    return sorted(zone_names(), key=lambda name: (-score(name), name))[:count]


def find_zone(typed: str) -> str:
    """The zone name a player typed, spelled as the database spells it; refused with the three
    closest names when there is none such."""
    name = _folded().get(typed.strip().lower().replace(" ", "_"))
    if name is None:
        raise TableError("svc.error.bad_zone", value=typed.strip()[:60], closest=closest_zones(typed))
    return name


def _city(name: str) -> str:
    """The last part of a zone's name, lower case: ``Europe/Paris`` -> ``paris``."""
    return name.rsplit("/", 1)[-1].lower()


def zone_choices(typed: str, limit: int) -> list[str]:
    """Zone names for an autocomplete: those holding every typed word (``new york``,
    ``europe/par``), the ones starting like what was typed first, at most ``limit``."""
    words = typed.strip().lower().replace("_", " ").replace("/", " ").split()
    found = [n for n in zone_names() if all(w in n.lower().replace("_", " ") for w in words)]
    start = typed.strip().lower().replace(" ", "_")
    found.sort(key=lambda n: (not n.lower().startswith(start), not _city(n).startswith(start)))
    return found[:limit]


@dataclass(frozen=True)
class Quiet:
    """Quiet hours as wall-clock minutes after midnight: from ``start`` to ``end``, past midnight
    when ``end`` comes before ``start`` (``22:00-07:00``)."""

    start: int
    end: int

    def __str__(self) -> str:
        return f"{self.start // 60:02d}:{self.start % 60:02d}-{self.end // 60:02d}:{self.end % 60:02d}"


def parse_quiet(text: str) -> Quiet | None:
    """``"22:00-07:00"`` (or ``22h-7h``, ``9:30-12:00``) -> ``Quiet``; ``off`` -> None. Refused,
    naming what is accepted, when the hours are not times of a day or end when they start."""
    if text.strip().lower() in OFF:
        return None
    m = _QUIET.match(text)
    if m is None:
        raise TableError("svc.error.bad_quiet", value=text.strip()[:40])
    sh, sm1, sm2, eh, em1, em2 = (int(g or 0) for g in m.groups())
    sm, em = sm1 or sm2, em1 or em2
    if sh > 23 or eh > 23 or sm > 59 or em > 59:
        raise TableError("svc.error.bad_quiet", value=text.strip()[:40])
    quiet = Quiet(sh * 60 + sm, eh * 60 + em)
    if quiet.start == quiet.end:
        raise TableError("svc.error.quiet_empty", value=text.strip()[:40])
    return quiet


def parse_pace(text: str) -> timedelta | None:
    """A player's own reminder pace: a duration of at least an hour (``12h``, ``2d``), or ``off``
    (never reminded). Refused, naming what is accepted, otherwise."""
    if text.strip().lower() in OFF:
        return None
    delta = parse_duration(text)
    if delta is None or delta < MIN_PACE:
        raise TableError("svc.error.bad_pace", value=text.strip()[:40])
    return delta


def wall_instant(day: date, minute: int, zone: ZoneInfo) -> datetime:
    """The first instant (UTC) at which the clocks of ``zone`` show ``minute`` past midnight of
    ``day`` or later: that wall time itself, at its first occurrence when a change repeats it, and
    the moment of the jump when a change skips it."""
    naive = datetime.combine(day, time()) + timedelta(minutes=minute)
    first = naive.replace(tzinfo=zone, fold=0).astimezone(UTC)
    if first.astimezone(zone).replace(tzinfo=None) == naive:
        return first
    # A gap: fold=1 reads the wall time with the offset after the jump (an instant before it), fold=0
    # with the offset before it (an instant after it); the jump lies between, on a whole second.
    low = int(naive.replace(tzinfo=zone, fold=1).astimezone(UTC).timestamp())
    high = int(first.timestamp())
    while high - low > 1:
        middle = (low + high) // 2
        if datetime.fromtimestamp(middle, zone).replace(tzinfo=None) >= naive:
            high = middle
        else:
            low = middle
    return datetime.fromtimestamp(high, UTC)


@dataclass(frozen=True)
class PlayerTime:
    """A player's time zone, quiet hours and own reminder pace (``own_pace``: whether they chose
    one; ``pace`` None with it is ``off``)."""

    zone: str = UTC_ZONE
    quiet: Quiet | None = None
    pace: timedelta | None = None
    own_pace: bool = False

    @classmethod
    def of(cls, settings: Mapping[str, str] | None) -> PlayerTime:
        """From a player's stored settings; anything unreadable there (a zone a newer database
        dropped) counts as not chosen."""
        settings = settings or {}
        zone = settings.get(ZONE) or UTC_ZONE
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            zone = UTC_ZONE
        quiet = None
        if settings.get(QUIET):
            try:
                quiet = parse_quiet(settings[QUIET])
            except TableError:
                quiet = None
        own, pace = REMIND in settings, None
        if own:
            try:
                pace = parse_pace(settings[REMIND])
            except TableError:
                own = False
        return cls(zone, quiet, pace, own)

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone)

    def pace_at(self, table: timedelta | None) -> timedelta | None:
        """How often this player is reminded at a table reminding every ``table``: their own pace
        when they chose one, else the table's."""
        return self.pace if self.own_pace else table

    def period(self, moment: datetime) -> tuple[datetime, datetime] | None:
        """The quiet hours holding ``moment`` (their start and end, UTC), None outside them."""
        if self.quiet is None:
            return None
        zone = self.tz
        today = moment.astimezone(zone).date()
        for day in (today - timedelta(days=1), today):
            start = wall_instant(day, self.quiet.start, zone)
            ends_on = day + timedelta(days=1) if self.quiet.end < self.quiet.start else day
            end = wall_instant(ends_on, self.quiet.end, zone)
            if start <= moment < end:
                return start, end
        return None

    def is_quiet(self, moment: datetime) -> bool:
        return self.period(moment) is not None

    def quiet_end(self, moment: datetime) -> datetime:
        """When the quiet hours holding ``moment`` end; ``moment`` itself outside them."""
        found = self.period(moment)
        return moment if found is None else found[1]

    def next_period(self, moment: datetime) -> tuple[datetime, datetime] | None:
        """The quiet hours holding ``moment``, else the next ones (what ``/notify`` shows)."""
        if self.quiet is None:
            return None
        found = self.period(moment)
        if found is not None:
            return found
        zone = self.tz
        today = moment.astimezone(zone).date()
        for day in (today, today + timedelta(days=1)):
            start = wall_instant(day, self.quiet.start, zone)
            if start > moment:
                ends_on = day + timedelta(days=1) if self.quiet.end < self.quiet.start else day
                return start, wall_instant(ends_on, self.quiet.end, zone)
        return None

    def settings(self) -> dict[str, str]:
        """The stored form, which ``of`` reads back."""
        out = {ZONE: self.zone}
        if self.quiet is not None:
            out[QUIET] = str(self.quiet)
        if self.own_pace:
            out[REMIND] = "off" if self.pace is None else format_duration(self.pace)
        return out


def first_free(moment: datetime, players: Iterable[PlayerTime]) -> datetime | None:
    """The first instant from ``moment`` on when none of ``players`` is in their quiet hours; None
    when there is none within ``LOOK_AHEAD`` (their quiet hours together cover whole days).

    A free moment can only begin where someone's quiet hours end, so the search steps from end to end."""
    times = list(players)
    at = moment
    while at - moment <= LOOK_AHEAD:
        ends = [found[1] for p in times if (found := p.period(at)) is not None]
        if not ends:
            return at
        at = min(ends)
    return None


__all__ = [
    "PlayerTime",
    "Quiet",
    "closest_zones",
    "find_zone",
    "first_free",
    "parse_pace",
    "parse_quiet",
    "wall_instant",
    "zone_choices",
    "zone_names",
]
