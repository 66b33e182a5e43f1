"""A player's own time, alone: quiet hours in wall-clock time across daylight-saving changes, zones
refused with the closest names, and how long an away player holds a deadline clock."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from launch import DISCORD_LIMITS
from table.core.away import Span, parse_away_for, run_deadline, sweep
from table.core.errors import TableError
from table.core.hours import (
    PlayerTime,
    closest_zones,
    find_zone,
    first_free,
    parse_pace,
    parse_quiet,
    wall_instant,
    zone_choices,
)


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def nights(zone: str, quiet: str = "22:00-07:00") -> PlayerTime:
    return PlayerTime(zone, parse_quiet(quiet))


@pytest.mark.parametrize(
    ("zone", "inside", "start", "end"),
    [
        # Paris goes to summer time at 01:00 UTC on 29 March 2026: that night is an hour shorter
        ("Europe/Paris", "2026-03-28T23:00", "2026-03-28T21:00", "2026-03-29T05:00"),
        ("Europe/Paris", "2026-03-27T23:00", "2026-03-27T21:00", "2026-03-28T06:00"),
        # and back at 01:00 UTC on 25 October 2026: an hour longer
        ("Europe/Paris", "2026-10-24T23:00", "2026-10-24T20:00", "2026-10-25T06:00"),
        # New York: 8 March 2026 (07:00 UTC) and 1 November 2026 (06:00 UTC)
        ("America/New_York", "2026-03-08T06:30", "2026-03-08T03:00", "2026-03-08T11:00"),
        ("America/New_York", "2026-11-01T06:30", "2026-11-01T02:00", "2026-11-01T12:00"),
        # Kolkata: half an hour off UTC, no change
        ("Asia/Kolkata", "2026-07-01T20:00", "2026-07-01T16:30", "2026-07-02T01:30"),
        # Kiritimati: UTC+14, a day ahead of most of the world
        ("Pacific/Kiritimati", "2026-07-01T10:00", "2026-07-01T08:00", "2026-07-01T17:00"),
        # Chatham: +13:45 in summer, +12:45 from 5 April 2026
        ("Pacific/Chatham", "2026-04-04T12:00", "2026-04-04T08:15", "2026-04-04T18:15"),
        ("Pacific/Chatham", "2026-04-05T12:00", "2026-04-05T09:15", "2026-04-05T18:15"),
    ],
)
def test_quiet_hours_are_wall_clock_hours_of_the_zone(zone: str, inside: str, start: str, end: str) -> None:
    player = nights(zone)
    assert player.period(utc(inside)) == (utc(start), utc(end))
    assert player.is_quiet(utc(start)) and not player.is_quiet(utc(end))
    assert not player.is_quiet(utc(start) - timedelta(seconds=1))
    assert player.quiet_end(utc(inside)) == utc(end)


def test_a_wall_time_a_change_skips_or_repeats() -> None:
    paris = ZoneInfo("Europe/Paris")
    # 02:30 does not exist on 29 March: the first instant after it is the jump to 03:00 (01:00 UTC)
    assert wall_instant(date(2026, 3, 29), 150, paris) == utc("2026-03-29T01:00")
    # 02:30 comes twice on 25 October: the first time (00:30 UTC)
    assert wall_instant(date(2026, 10, 25), 150, paris) == utc("2026-10-25T00:30")
    early = PlayerTime("Europe/Paris", parse_quiet("01:00-02:30"))
    assert early.period(utc("2026-03-29T00:30")) == (utc("2026-03-29T00:00"), utc("2026-03-29T01:00"))
    assert early.period(utc("2026-10-25T00:00")) == (utc("2026-10-24T23:00"), utc("2026-10-25T00:30"))
    assert not early.is_quiet(utc("2026-10-25T01:00")), "the second 01:00-02:30 is not quiet again"


def test_daytime_quiet_hours_and_the_next_ones() -> None:
    lunch = PlayerTime("Asia/Kolkata", parse_quiet("13:00-14:30"))
    assert lunch.period(utc("2026-07-01T08:00")) == (utc("2026-07-01T07:30"), utc("2026-07-01T09:00"))
    assert lunch.next_period(utc("2026-07-01T10:00")) == (utc("2026-07-02T07:30"), utc("2026-07-02T09:00"))
    assert PlayerTime().next_period(utc("2026-07-01T10:00")) is None


def test_the_first_moment_nobody_is_quiet() -> None:
    paris, tokyo = nights("Europe/Paris"), nights("Asia/Tokyo")
    # 23:00 UTC: Paris sleeps until 06:00 UTC, when Tokyo (15:00) is awake
    assert first_free(utc("2026-12-01T23:00"), [paris, tokyo]) == utc("2026-12-02T06:00")
    late = PlayerTime("Asia/Tokyo", parse_quiet("14:00-23:00"))  # 05:00-14:00 UTC
    assert first_free(utc("2026-12-01T23:00"), [paris, late]) == utc("2026-12-02T14:00")
    always = [PlayerTime("UTC", parse_quiet("00:00-12:00")), PlayerTime("UTC", parse_quiet("12:00-00:00"))]
    assert first_free(utc("2026-12-01T03:00"), always) is None


def test_bad_quiet_hours_and_paces_are_refused_naming_what_is_accepted() -> None:
    for typed in ("25:00-07:00", "22:00-07:61", "tonight", "22:00"):
        with pytest.raises(TableError) as refused:
            parse_quiet(typed)
        assert refused.value.msg.key == "svc.error.bad_quiet"
    with pytest.raises(TableError) as same:
        parse_quiet("07:00-07:00")
    assert same.value.msg.key == "svc.error.quiet_empty"
    assert str(parse_quiet("22h-7h30")) == "22:00-07:30" and parse_quiet("off") is None
    assert parse_pace("12h") == timedelta(hours=12) and parse_pace("off") is None
    for typed in ("30m", "soon", "-1h"):
        with pytest.raises(TableError):
            parse_pace(typed)


def test_an_unknown_zone_is_refused_with_the_three_closest() -> None:
    assert find_zone("europe/paris") == "Europe/Paris" and find_zone("America/New York") == "America/New_York"
    with pytest.raises(TableError) as refused:
        find_zone("Europe/Pariss")
    assert refused.value.msg.key == "svc.error.bad_zone"
    closest = refused.value.msg.params["closest"]
    assert len(closest) == 3 and closest[0] == "Europe/Paris"
    assert closest_zones("kolkatta")[0] == "Asia/Kolkata"
    assert zone_choices("new york", DISCORD_LIMITS.choices) == ["America/New_York"]
    assert zone_choices("europe/pa", DISCORD_LIMITS.choices)[0] == "Europe/Paris"


def test_a_stored_time_reads_back_and_nonsense_counts_as_unchosen() -> None:
    chosen = PlayerTime.of({"zone": "Asia/Kolkata", "quiet": "23:00-06:00", "remind": "off"})
    assert chosen.own_pace and chosen.pace is None and PlayerTime.of(chosen.settings()) == chosen
    assert chosen.pace_at(timedelta(hours=24)) is None
    assert PlayerTime.of({"zone": "Mars/Olympus", "quiet": "99", "remind": "x"}) == PlayerTime()
    assert PlayerTime().pace_at(timedelta(hours=24)) == timedelta(hours=24)


# ---- away -----------------------------------------------------------------------------------------------

T = datetime(2026, 12, 1, tzinfo=UTC)


def at(hours: float) -> datetime:
    return T + timedelta(hours=hours)


def test_the_deadline_clock_stands_still_while_an_awaited_player_is_away() -> None:
    spans = {"a": [Span(at(10), at(40))]}
    plenty = {"a": timedelta(days=14)}
    early = run_deadline(at(24), at(0), at(5), spans, plenty)
    assert early.falls == at(54) and early.raw == at(24) and early.charged == {}
    during = run_deadline(at(24), at(0), at(30), spans, plenty)
    assert during.raw == at(44) and during.charged == {"a": timedelta(hours=20)} and during.falls == at(54)
    capped = run_deadline(at(24), at(0), at(60), spans, {"a": timedelta(hours=10)})
    assert capped.falls == at(34) and capped.charged == {"a": timedelta(hours=10)}


def test_two_away_players_pause_once_and_each_pays_their_own_time() -> None:
    spans = {"a": [Span(at(0), at(10))], "b": [Span(at(5), at(20))]}
    swept = sweep(at(0), at(30), spans, {"a": timedelta(days=1), "b": timedelta(hours=5)}, at(24))
    assert swept.paused == timedelta(hours=10) and swept.fell is None
    assert swept.charged == {"a": timedelta(hours=10), "b": timedelta(hours=5)}
    assert sweep(at(0), at(40), {}, {}, at(24)).fell == at(24)


def test_away_for_takes_up_to_sixty_days_or_off() -> None:
    assert parse_away_for("5d") == timedelta(days=5) and parse_away_for("off") is None
    assert parse_away_for("60d") == timedelta(days=60)
    for typed, why in (("90d", "long"), ("-1h", "form"), ("soon", "form"), ("0h", "form")):
        with pytest.raises(ValueError, match=why):
            parse_away_for(typed)
