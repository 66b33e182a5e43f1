"""``Commands`` is built from the table's parts: the concerns it holds share its tables and its
announcer, and an announcer given afterwards (a test's, with its own clock) reaches every concern
that posts or reads the time."""

from __future__ import annotations

from table.core.tables import Tables
from table.play.commands import Commands
from table.posting.announce import Announcer, RecordingOutlet


async def test_the_concerns_share_the_tables_and_follow_a_new_announcer(
    commands: Commands, tables: Tables
) -> None:
    assert commands.tables is tables
    for part in (commands.explanations, commands.refusals, commands.own_times, commands.standings):
        assert part.tables is tables
    assert commands.refusals.announcer is commands.own_times.announcer is commands.announcer
    other = Announcer(tables, RecordingOutlet(), coalesce=0)
    commands.announcer = other
    assert commands.refusals.announcer is commands.own_times.announcer is commands.announcer is other


async def test_the_front_ends_call_the_concerns_through_the_one_object(commands: Commands) -> None:
    assert commands.why == commands.explanations.why
    assert commands.notices == commands.refusals.notices
    assert commands.away == commands.own_times.away
    assert commands.leaderboard == commands.standings.leaderboard


async def test_the_handler_groups_share_the_tables_and_one_wording(
    commands: Commands, tables: Tables
) -> None:
    groups = (
        commands.service,
        commands.seating,
        commands.looking,
        commands.finishing,
        commands.playing,
        commands.clicks,
    )
    for group in groups:
        assert group.tables is tables
        assert group.words is commands.words
    assert commands.own_times.words is commands.standings.words is commands.words
    other = Announcer(tables, RecordingOutlet(), coalesce=0)
    commands.announcer = other
    assert commands.service.announcer is other


async def test_a_group_calls_the_other_groups_commands_offers(commands: Commands) -> None:
    clicks = commands.clicks
    assert clicks.seating is commands.seating and clicks.looking is commands.looking
    assert clicks.finishing is commands.finishing and clicks.playing is commands.playing
    assert clicks.why == commands.why
    assert commands.playing.looking is commands.looking
    assert commands.looking.seating is commands.seating
    assert commands.new == commands.seating.new
    assert commands.status == commands.looking.status
    assert commands.play == commands.playing.play
    assert commands.resign == commands.finishing.resign
    assert commands.press == commands.clicks.press
    assert commands.settings == commands.service.settings
