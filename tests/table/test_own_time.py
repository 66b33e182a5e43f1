"""Each player's own time at the table: quiet hours in their time zone (across daylight-saving
changes), time off (``/away``) at tables that pause, have a bot play or do neither, one's own
reminder pace, and "the last one" of a phase everyone plays at once; through the table layer, with
an injected clock, on both stores, restarts in the middle of each."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import db
from cogs.markup import discord_text
from launch import DISCORD_LIMITS
from table import Commands, Ctx, Post, Tables
from table.bots.thinkers import ThreadThinker
from table.core.clock import ManualClock
from table.core.errors import TableError
from table.core.tables import Decision
from table.core.timing import Timing
from table.posting.announce import Announcer, RecordingOutlet
from table.posting.schedule import Scheduler
from tests.table.conftest import FakeRenderer
from tests.table.nim import lookup

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
SEATS = ("alice", "bob", "carol", "dave")
GUILD = "g1"


def first_legal(decision: Decision) -> str:
    """A computer player that plays the first legal move of any game."""
    game = lookup(decision.game)
    state = game.load(decision.state)
    return str(game.legal_actions(state, decision.state["players"][decision.seat])[0])


class World:
    """The commands, the timed loop and what the channels were sent, over one store, with a clock the
    test moves (``at``, ``later``); ``restarted`` is a new process over the same store and clock."""

    def __init__(self, store: db.Store, clock: ManualClock) -> None:
        self.store = store
        self.clock = clock
        self.outlet = RecordingOutlet()
        self.board = FakeRenderer((9, 9, 9))
        self.tables = Tables(
            store,
            limits=DISCORD_LIMITS,
            render=self.board,
            render_private=FakeRenderer((8, 8, 8)),
            games=lookup,
            known_games=("nim", "warchest", "batailles"),
            seed_source=lambda: 1234,
            thinker=ThreadThinker(first_legal),
        )
        self.commands = Commands(self.tables, Announcer(self.tables, self.outlet, clock=clock, coalesce=0))
        self.scheduler = Scheduler(self.commands.announcer)

    async def tick(self) -> None:
        await self.commands.announcer.drain()
        await self.scheduler.tick()
        await self.commands.announcer.drain()

    async def at(self, moment: datetime) -> None:
        self.clock.set(moment)
        await self.tick()

    async def later(self, **delta: float) -> None:
        await self.at(self.clock() + timedelta(**delta))

    async def restarted(self) -> World:
        await self.commands.announcer.drain()
        return World(self.store, self.clock)

    @property
    def posts(self) -> list[Post]:
        assert self.outlet.sent is not None
        return [post for _channel, post in self.outlet.sent]

    def starting(self, mark: str) -> list[Post]:
        return [p for p in self.posts if p.text.startswith(mark)]

    def dms(self, player: str | None = None) -> list[str]:
        assert self.outlet.dms is not None
        return [post.text for user, post in self.outlet.dms if player in (None, user)]

    async def table(self, channel: str = "chan") -> Any:
        table = await self.tables.latest(channel)
        assert table is not None
        return table

    async def to_act(self, channel: str = "chan") -> list[str]:
        return list((await self.table(channel)).to_act())

    async def notes(self, channel: str = "chan") -> list[str]:
        table = await self.table(channel)
        return [str(n.event["key"]) for n in await self.store.notes(table.record.id)]


def ctx(user: str, channel: str = "chan", locale: str = "en", **kw: Any) -> Ctx:
    return Ctx(channel, user, user.capitalize(), locale, locale, guild_id=kw.pop("guild", GUILD), **kw)


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[db.Store]:
    s = await db.open_store(db_path)
    yield s
    await s.close()


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


async def open_table(
    world: World, options: str = "", game: str = "nim", players: int = 2, channel: str = "chan"
) -> None:
    cmds = world.commands
    await cmds.new(ctx(SEATS[0], channel), game, players, options)
    for seat in SEATS[1:players]:
        await cmds.join(ctx(seat, channel))
    await cmds.start(ctx(SEATS[0], channel))
    await cmds.announcer.drain()


async def quiet_nights(world: World, zone: str, players: tuple[str, ...] = SEATS[:2]) -> None:
    for player in players:
        await world.commands.notify(ctx(player), dm=True, timezone=zone, quiet="22:00-07:00")


async def forfeited_at(world: World, moment: datetime, channel: str = "chan") -> Any:
    """The table is still waiting a minute before ``moment``, and over (forfeited) at ``moment``."""
    await world.at(moment - timedelta(minutes=1))
    assert (await world.table(channel)).record.status == "active", "not yet"
    await world.at(moment)
    table = await world.table(channel)
    assert table.record.status == "over", "the deadline fell"
    return table


async def move(world: World, player: str, channel: str = "chan") -> None:
    table = await world.table(channel)
    action = "take 1" if table.record.game == "nim" else str(table.game.legal_actions(table.state, player)[0])
    await world.commands.play(ctx(player, channel), action)
    await world.commands.announcer.drain()


# ---- quiet hours, across daylight-saving changes ------------------------------------------------------

NIGHTS = [
    # zone, and the night of 22:00-07:00 there that a test lives through, in UTC
    pytest.param("Europe/Paris", "2026-03-28T21:00", "2026-03-29T05:00", id="paris-spring-forward"),
    pytest.param("Europe/Paris", "2026-10-24T20:00", "2026-10-25T06:00", id="paris-fall-back"),
    pytest.param("America/New_York", "2026-03-08T03:00", "2026-03-08T11:00", id="new-york-march"),
    pytest.param("America/New_York", "2026-11-01T02:00", "2026-11-01T12:00", id="new-york-november"),
    pytest.param("Asia/Kolkata", "2026-07-01T16:30", "2026-07-02T01:30", id="kolkata-half-hour"),
    pytest.param("Pacific/Kiritimati", "2026-07-01T08:00", "2026-07-01T17:00", id="kiritimati-utc+14"),
    pytest.param("Pacific/Chatham", "2026-04-04T08:15", "2026-04-04T18:15", id="chatham-april"),
]


@pytest.mark.parametrize(("zone", "begins", "ends"), NIGHTS)
async def test_a_handover_in_quiet_hours_names_them_and_pings_once_when_they_end(
    store: db.Store, zone: str, begins: str, ends: str
) -> None:
    world = World(store, ManualClock(utc(begins) + timedelta(hours=1)))
    await quiet_nights(world, zone)
    await open_table(world, "remind=off")
    (waiting,) = await world.to_act()
    handover = world.posts[-1]
    assert f"<@{waiting}>" in discord_text(handover.text) and handover.mentions == (), "named, not pinged"
    assert world.dms() == [], "no direct message in quiet hours"
    world = await world.restarted()  # the held ping is in the store
    await world.at(utc(ends) - timedelta(minutes=1))
    assert world.starting("🔔") == [] and world.dms() == []
    await world.at(utc(ends))
    (ping,) = world.starting("🔔")
    assert ping.mentions == (waiting,) and "it is your turn in" in ping.text
    assert len(world.dms(waiting)) == 1 and "your turn" in world.dms(waiting)[0]
    world = await world.restarted()
    await world.later(hours=5)
    assert world.starting("🔔") == [] and world.dms() == [], "once"


@pytest.mark.parametrize(("zone", "begins", "ends"), NIGHTS)
async def test_a_reminder_due_in_quiet_hours_comes_when_they_end(
    store: db.Store, zone: str, begins: str, ends: str
) -> None:
    world = World(store, ManualClock(utc(begins) - timedelta(hours=2)))
    await quiet_nights(world, zone)
    await open_table(world, "remind=3h")
    (waiting,) = await world.to_act()
    assert world.posts[-1].mentions == (waiting,), "awake: pinged at once"
    await world.at(utc(begins) + timedelta(hours=1))  # the reminder is due, in the night
    assert world.starting("⏰") == []
    world = await world.restarted()
    await world.at(utc(ends) - timedelta(minutes=1))
    assert world.starting("⏰") == [] and world.dms() == []
    await world.at(utc(ends))
    (reminder,) = world.starting("⏰")
    assert reminder.mentions == (waiting,)
    assert f"<t:{int((utc(begins) - timedelta(hours=2)).timestamp())}:R>" in discord_text(reminder.text), (
        "since when"
    )
    assert [t for t in world.dms(waiting) if t.startswith("Reminder")], "the direct message comes with it"
    world = await world.restarted()
    await world.at(utc(ends) + timedelta(hours=3))
    assert len(world.starting("⏰")) == 1, "the next one a pace later, and none twice"


async def deadline_fell(world: World, policy: str, absent: str) -> bool:
    """Whether the table's deadline policy acted on ``absent``."""
    table = await world.table()
    texts = " ".join(p.text for p in world.posts)
    if policy == "wait":
        return "has passed; the table keeps waiting" in texts
    if policy == "skip":
        return "no neutral default" in texts
    if policy == "forfeit":
        return table.record.status == "over"
    return "svc.bot.takeover" in await world.notes() and table.record.version > 0


@pytest.mark.parametrize("policy", ["wait", "skip", "forfeit", "bot"])
@pytest.mark.parametrize(("zone", "begins", "ends"), NIGHTS)
async def test_a_deadline_in_quiet_hours_acts_when_they_end(
    store: db.Store, policy: str, zone: str, begins: str, ends: str
) -> None:
    world = World(store, ManualClock(utc(begins) - timedelta(hours=2)))
    await quiet_nights(world, zone)
    await open_table(world, f"remind=off deadline=3h on_deadline={policy}")
    (absent,) = await world.to_act()
    await world.at(utc(begins) + timedelta(hours=1))  # the deadline, in the night
    assert not await deadline_fell(world, policy, absent)
    world = await world.restarted()
    await world.at(utc(ends) - timedelta(minutes=1))
    assert not await deadline_fell(world, policy, absent), "nothing falls on them in their quiet hours"
    await world.at(utc(ends))
    assert await deadline_fell(world, policy, absent), "at the end of their quiet hours"
    if policy == "forfeit":
        assert absent not in (await world.table()).record.result["winners"]


async def test_the_end_of_a_game_names_a_sleeping_player_without_pinging_them(store: db.Store) -> None:
    world = World(store, ManualClock(utc("2026-12-01T12:00")))
    await world.commands.notify(ctx("alice"), timezone="Europe/Paris", quiet="22:00-07:00")
    await open_table(world, "remind=off")
    await world.at(utc("2026-12-01T23:00"))
    await world.commands.resign(ctx("bob"))
    await world.commands.announcer.drain()
    end = world.posts[-1]
    assert "<@alice>" in discord_text(end.text) and end.mentions == ("bob",)


async def test_the_held_ping_and_the_last_one_speak_the_channels_language(store: db.Store) -> None:
    world = World(store, ManualClock(utc("2026-12-01T23:00")))
    await quiet_nights(world, "Europe/Paris")
    cmds = world.commands
    await cmds.new(ctx("alice", locale="fr"), "nim", options="remind=off")
    await cmds.join(ctx("bob", locale="fr"))
    await cmds.start(ctx("alice", locale="fr"))
    await cmds.announcer.drain()
    assert world.posts[-1].mentions == ()
    await world.at(utc("2026-12-02T06:00"))
    (ping,) = world.starting("🔔")
    assert "c'est à vous de jouer à" in ping.text


# ---- time off -----------------------------------------------------------------------------------------

SIZES = [pytest.param(("nim", 2), id="two"), pytest.param(("warchest", 4), id="four")]


async def seated(store: db.Store, size: tuple[str, int], options: str) -> tuple[World, str]:
    """A started table of ``size`` (a game and its number of players) and the player it waits for."""
    game, players = size
    world = World(store, ManualClock(START))
    await open_table(world, f"seed=3 {options}", game, players)
    (first,) = await world.to_act()
    return world, first


@pytest.mark.parametrize("size", SIZES)
async def test_an_away_player_pauses_the_deadline_until_their_time_off_ends(
    store: db.Store, size: tuple[str, int]
) -> None:
    world, away = await seated(store, size, "remind=1d deadline=1d on_deadline=forfeit")
    await world.later(hours=2)
    (answer,) = await world.commands.away(ctx(away), "3d")
    assert "You are away in this server until" in answer.text and answer.ephemeral
    (told,) = world.starting("⏸")
    assert (
        f"<@{away}> is away until" in discord_text(told.text)
        and "deadline" in told.text
        and told.mentions == ()
    )
    await world.later(days=1)  # the deadline would have fallen, and a reminder been due
    table = await world.table()
    assert table.record.status == "active" and world.starting("⏰") == []
    world = await world.restarted()
    await world.at(START + timedelta(days=3, hours=2))  # back at the end of the time off
    assert (await world.table()).record.status == "active"
    (reminder,) = world.starting("⏰")
    assert reminder.mentions == (away,), "reminded once back, the channel not told again"
    assert len(world.starting("⏸")) == 0
    table = await forfeited_at(world, START + timedelta(days=4))  # a day of clock, three days paused
    assert away not in table.record.result["winners"]


async def gone(store: db.Store, size: tuple[str, int], length: str, options: str = "") -> tuple[World, str]:
    """A table of ``size`` whose deadline forfeits after a day, and the player it waits for away for
    ``length`` from the start."""
    world, away = await seated(store, size, f"remind=off deadline=1d on_deadline=forfeit {options}")
    await world.commands.away(ctx(away), length)
    return world, away


@pytest.mark.parametrize("size", SIZES)
async def test_each_player_pauses_a_table_for_away_max_at_most(
    store: db.Store, size: tuple[str, int]
) -> None:
    world, away = await gone(store, size, "10d", "away_max=2d")
    table = await forfeited_at(world, START + timedelta(days=3))  # then the policy applies as usual
    timing = Timing.of((await store.announcement(table.record.id)).timing)  # type: ignore[union-attr]
    assert timing.paused == {away: int(timedelta(days=2).total_seconds())}


@pytest.mark.parametrize("size", SIZES)
async def test_away_off_ends_it_and_the_deadline_falls_as_the_pause_was(
    store: db.Store, size: tuple[str, int]
) -> None:
    world, away = await gone(store, size, "5d")
    await world.later(days=2)
    (back,) = await world.commands.away(ctx(away), "off")
    assert "no longer away" in back.text
    (state,) = await world.commands.away(ctx(away))
    assert "You are not away" in state.text
    world = await world.restarted()
    await forfeited_at(world, START + timedelta(days=3))


async def test_a_move_ends_time_off_everywhere_in_the_server(store: db.Store) -> None:
    world = World(store, ManualClock(START))
    for channel in ("one", "two"):
        await open_table(world, "remind=off deadline=1d on_deadline=forfeit", channel=channel)
    (away,) = await world.to_act("one")
    assert await world.to_act("two") == [away]
    await world.commands.away(ctx(away, "one"), "5d")
    await world.later(days=1)
    await move(world, away, "one")
    (state,) = await world.commands.away(ctx(away, "one"))
    assert "You are not away" in state.text, "any move of theirs ends it"
    await forfeited_at(world, START + timedelta(days=2), "two")  # the other table's pause was a day


@pytest.mark.parametrize("size", SIZES)
async def test_at_an_away_bot_table_a_bot_plays_for_them_until_they_return(
    store: db.Store, size: tuple[str, int]
) -> None:
    world, away = await gone(store, size, "2d", "away=bot")
    await world.commands.announcer.drain()
    table = await world.table()
    assert table.record.version >= 1, "the bot played their move"
    assert "svc.away.takeover" in await world.notes()
    assert any(
        f"<@{away}> is away until" in discord_text(p.text) and "a bot plays" in p.text for p in world.posts
    )
    for _ in range(6):  # everyone else plays on; the bot keeps playing for them
        table = await world.table()
        if table.record.status != "active" or away in table.to_act():
            break
        await move(world, table.to_act()[0])
    table = await world.table()
    if table.record.status == "active":
        assert away not in table.to_act(), "their turns are taken at once"
        (back,) = await world.commands.away(ctx(away), "off")
        assert "no longer away" in back.text
        assert (await world.notes())[-1] == "svc.bot.returned"
        assert any("is back in" in p.text for p in world.posts)


async def test_at_an_away_bot_table_the_bot_gives_the_seat_back_when_time_off_ends(store: db.Store) -> None:
    world = World(store, ManualClock(START))
    await open_table(world, "heap=40 remind=off away=bot")
    (away,) = await world.to_act()
    await world.commands.away(ctx(away), "1h")
    await world.commands.announcer.drain()
    other = next(p for p in SEATS[:2] if p != away)
    assert await world.to_act() == [other]
    world = await world.restarted()
    await world.later(hours=2)  # time off over
    await move(world, other)
    await world.tick()
    assert await world.to_act() == [away], "nobody plays for them any more"
    assert (await world.notes())[-1] == "svc.bot.returned"


async def test_at_an_away_off_table_the_deadline_runs_but_nobody_pings_them(store: db.Store) -> None:
    world = World(store, ManualClock(START))
    await open_table(world, "remind=6h deadline=1d on_deadline=forfeit away=off")
    (away,) = await world.to_act()
    other = next(p for p in SEATS[:2] if p != away)
    await world.commands.away(ctx(other), "3d")  # not awaited: nobody is told yet
    await move(world, away)  # hands the turn to an away player: named, not pinged, told once
    handover = world.posts[-1]
    assert handover.mentions == () and f"⏸ <@{other}> is away until" in discord_text(handover.text)
    await world.later(hours=12)
    assert world.starting("⏰") == [], "no reminders while away"
    await world.later(hours=12)
    assert (await world.table()).record.status == "over", "away=off: the deadline does not wait"
    assert sum("is away until" in p.text for p in world.posts) == 1


async def test_away_refusals_and_answers(store: db.Store) -> None:
    world = World(store, ManualClock(START))
    cmds = world.commands
    for typed, key in (
        ("90d", "svc.error.away_too_long"),
        ("-1h", "svc.error.bad_away"),
        ("soon", "svc.error.bad_away"),
    ):
        with pytest.raises(TableError) as refused:
            await cmds.away(ctx("zoe"), typed)
        assert refused.value.msg.key == key
    (alone,) = await cmds.away(ctx("zoe"))
    assert "You are not away" in alone.text
    (nowhere,) = await cmds.away(ctx("zoe"), "2d")
    assert "no table in this server yet" in nowhere.text and "tables you join" in nowhere.text
    (fr,) = await cmds.away(ctx("zoe", locale="fr"))
    assert "Vous êtes absent·e de ce serveur jusqu'au <t:" in discord_text(fr.text)
    await open_table(world, "remind=off")
    assert await store.away(GUILD, ["zoe"], "2000") != []


async def test_lobbies_status_board_and_games_show_who_is_away_until_when(store: db.Store) -> None:
    world = World(store, ManualClock(START))
    cmds = world.commands
    await cmds.away(ctx("bob"), "3d")
    back = f"<t:{int((START + timedelta(days=3)).timestamp())}:f>"
    (lobby,) = await cmds.new(ctx("alice"), "warchest", 2, "deadline=2d")
    assert "A player who is away (/away) pauses the deadline, for 2w at most" in lobby.text
    (joined,) = await cmds.join(ctx("bob"))
    assert f"Bob is away until {back}" in discord_text(joined.text)
    await cmds.start(ctx("alice"))
    await cmds.announcer.drain()
    (status,) = await cmds.status(ctx("alice"))
    assert f"Bob is away until {back}" in discord_text(status.text)
    seats = world.board.calls[-1]["view"]["seats"]
    assert [s.get("away") for s in seats if s["id"] == "bob"] == ["2026-12-04"]
    assert [s.get("away") for s in seats if s["id"] == "alice"] == [None]
    (games,) = await cmds.games(ctx("bob"))
    assert f"You are away in this server until {back}" in discord_text(games.text)
    if (await world.to_act()) == ["bob"]:
        (mine,) = await cmds.games(ctx("alice"))
        assert f"Bob (away until {back})" in discord_text(mine.text)


# ---- one's own pace -----------------------------------------------------------------------------------


async def test_ones_own_pace_overrides_the_tables(store: db.Store) -> None:
    world = World(store, ManualClock(START))
    await open_table(world, "remind=24h")
    (first,) = await world.to_act()
    second = next(p for p in SEATS[:2] if p != first)
    (answer,) = await world.commands.notify(ctx(first), remind="6h")
    assert "every 6h for you" in answer.text
    await world.commands.notify(ctx(second), remind="off")
    await world.later(hours=1)
    await move(world, first)  # the wait that begins now reminds at the waiting player's pace: never
    await world.later(days=3)
    assert world.starting("⏰") == [], "remind:off, whatever the table's pace"
    await move(world, second)
    await world.later(hours=6)
    (one,) = world.starting("⏰")
    assert one.mentions == (first,)
    world = await world.restarted()
    await world.later(hours=6)
    assert len(world.starting("⏰")) == 1
    (table_pace,) = await world.commands.notify(ctx(first), remind="table")
    assert "at each table's pace" in table_pace.text


async def test_notify_refuses_bad_zones_hours_and_paces_and_stores_nothing(store: db.Store) -> None:
    cmds = World(store, ManualClock(START)).commands
    with pytest.raises(TableError) as zone:
        await cmds.notify(ctx("zoe"), timezone="Europe/Pariss", quiet="22:00-07:00")
    text = zone.value.msg.params
    assert zone.value.msg.key == "svc.error.bad_zone" and text["closest"][0] == "Europe/Paris"
    assert len(text["closest"]) == 3
    for field, typed, key in (
        ("quiet", "25:00-07:00", "svc.error.bad_quiet"),
        ("quiet", "7:00-7:00", "svc.error.quiet_empty"),
        ("remind", "30m", "svc.error.bad_pace"),
    ):
        with pytest.raises(TableError) as refused:
            await cmds.notify(ctx("zoe"), **{field: typed})
        assert refused.value.msg.key == key
    assert await store.player_settings(["zoe"]) == {}
    (shown,) = await cmds.notify(ctx("zoe", locale="fr"), timezone="asia/kolkata", quiet="23h-6h30")
    assert "Votre fuseau horaire : Asia/Kolkata" in shown.text and "Heures calmes : 23:00-06:30" in shown.text
    assert [label for label, _ in await cmds.timezone_autocomplete(ctx("zoe"), "kolk")] == ["Asia/Kolkata"]


# ---- the last one -------------------------------------------------------------------------------------


async def test_the_last_one_of_a_batailles_deployment_is_told_so(store: db.Store) -> None:
    world = World(store, ManualClock(START))
    cmds = world.commands
    for player in ("alice", "bob"):
        await cmds.notify(ctx(player), dm=True)
    await open_table(world, "armies=classic map=open_field seed=5 remind=12h", "batailles")
    rng = random.Random(5)
    while len(acting := await world.to_act()) == 2:
        player = rng.choice(acting)
        table = await world.table()
        await cmds.play(ctx(player), str(rng.choice(table.game.legal_actions(table.state, player))))
        await cmds.announcer.drain()
    (last,) = acting
    handover = world.posts[-1]
    assert f"Everyone else has acted: the game waits only for <@{last}>." in discord_text(handover.text)
    assert handover.mentions == (last,)
    assert "You are the last one the game waits for." in world.dms(last)[-1]
    world = await world.restarted()
    await world.later(hours=12)
    (reminder,) = world.starting("⏰")
    assert reminder.mentions == (last,) and "the game waits only for" in reminder.text
