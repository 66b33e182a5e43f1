"""The table as a play-by-post service: reminders, deadlines, moderation, "my games", notifications
and server settings, with an injected clock and the announcer's posts kept in memory."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import db
import engine
from cogs.markup import discord_text
from table import Commands, Ctx, Post
from table.core.clock import ManualClock
from table.core.errors import TableError
from table.posting.announce import Announcer, RecordingOutlet
from table.posting.schedule import AT_ONCE, Scheduler
from tests.fakediscord.world import HANG_LIMIT
from tests.table.conftest import FakeRenderer, make_tables

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


class Service:
    """The commands over one store, with a clock the test moves and the posts the announcer made."""

    def __init__(
        self, store: db.Store, renderers: tuple[FakeRenderer, FakeRenderer], clock: ManualClock
    ) -> None:
        self.clock = clock
        self.outlet = RecordingOutlet()
        tables = make_tables(store, renderers)
        self.commands = Commands(tables, Announcer(tables, self.outlet, clock=clock, coalesce=0))
        self.scheduler = Scheduler(self.commands.announcer)

    async def tick(self) -> None:
        await self.scheduler.tick()

    async def later(self, **delta: float) -> None:
        self.clock.advance(timedelta(**delta))
        await self.tick()

    @property
    def posts(self) -> list[Post]:
        assert self.outlet.sent is not None
        return [post for _channel, post in self.outlet.sent]

    def reminders(self) -> list[Post]:
        return [p for p in self.posts if p.text.startswith("⏰")]


def ctx(user: str, channel: str = "chan", **kwargs: Any) -> Ctx:
    return Ctx(channel, user, user.capitalize(), "en", "en", guild_id=kwargs.pop("guild", "g1"), **kwargs)


@pytest.fixture
async def service(db_path: Path, renderers: tuple[FakeRenderer, FakeRenderer]) -> AsyncIterator[Service]:
    store = await db.open_store(db_path)
    svc = Service(store, renderers, ManualClock(START))
    yield svc
    await svc.commands.announcer.drain()
    await store.close()


async def open_nim(svc: Service, options: str = "", channel: str = "chan") -> None:
    cmds = svc.commands
    await cmds.new(ctx("alice", channel), "nim", options=options)
    await cmds.join(ctx("bob", channel))
    await cmds.start(ctx("alice", channel))
    await cmds.announcer.drain()


async def to_act(svc: Service, channel: str = "chan") -> list[str]:
    table = await svc.commands.tables.latest(channel)
    assert table is not None
    return table.to_act()


# ---- reminders -------------------------------------------------------------------------------------------


async def test_reminders_come_at_the_tables_pace_and_never_twice(
    service: Service, tmp_path: Path, renderers: tuple[FakeRenderer, FakeRenderer]
) -> None:
    await open_nim(service, "remind=24h")
    (waiting,) = await to_act(service)
    await service.later(hours=23)
    assert service.reminders() == []
    await service.later(hours=2)
    (first,) = service.reminders()
    assert first.mentions == (waiting,) and f"<@{waiting}>" in discord_text(first.text)
    assert f"<t:{int(START.timestamp())}:R>" in discord_text(first.text), "since when, as a Discord timestamp"
    await service.tick()
    await service.later(hours=1)
    assert len(service.reminders()) == 1, "one reminder per due time"

    # A restart: a new process over the same file and the same time; nothing is sent again.
    await service.commands.announcer.drain()
    restarted = Service(service.commands.tables.store, renderers, service.clock)
    await restarted.tick()
    assert restarted.reminders() == []
    await restarted.later(hours=22)
    assert restarted.reminders() == []
    await restarted.later(hours=1)
    assert len(restarted.reminders()) == 1, "the next one, 24 h after the first"

    # A move starts a new wait: the next player is reminded 24 h after it.
    await restarted.commands.play(ctx(waiting), "take 1")
    await restarted.commands.announcer.drain()
    (nxt,) = await to_act(restarted)
    await restarted.later(hours=23)
    assert len(restarted.reminders()) == 1
    await restarted.later(hours=1)
    assert restarted.reminders()[-1].mentions == (nxt,)


async def test_a_table_may_have_no_reminders(service: Service) -> None:
    await open_nim(service, "remind=off")
    await service.later(days=30)
    assert service.reminders() == []


async def test_a_player_on_turn_who_keeps_acting_is_not_reminded_meanwhile(service: Service) -> None:
    """Batailles: the same player activates troop after troop; each step pushes the reminder back."""
    cmds = service.commands
    await cmds.new(ctx("alice"), "batailles", options="armies=classic map=open_field seed=5 remind=24h")
    await cmds.join(ctx("bob"))
    await cmds.start(ctx("alice"))
    game = engine.get_game("batailles")
    rng = random.Random(5)
    while len(await to_act(service)) != 1:
        table = await cmds.tables.latest("chan")
        assert table is not None and table.state is not None
        player = rng.choice(table.to_act())
        await cmds.play(ctx(player), str(rng.choice(game.legal_actions(table.state, player))))
        await cmds.announcer.drain()
    (player,) = await to_act(service)
    for _ in range(3):
        await service.later(hours=20)
        table = await cmds.tables.latest("chan")
        assert table is not None and table.state is not None
        if table.to_act() != [player]:
            break
        move = next(str(a) for a in game.legal_actions(table.state, player) if str(a) != "end")
        await cmds.play(ctx(player), move)
        await cmds.announcer.drain()
    assert service.reminders() == []


# ---- deadlines -------------------------------------------------------------------------------------------

GAMES = ("warchest", "batailles", "cryhavoc")


async def to_a_neutral_decision(svc: Service, name: str, options: str) -> tuple[str, Any]:
    """Open ``name`` and play random moves until one player alone must decide and the game has a
    neutral default for it; that player and the default."""
    cmds = svc.commands
    await cmds.new(ctx("alice"), name, options=options)
    await cmds.join(ctx("bob"))
    await cmds.start(ctx("alice"))
    await cmds.announcer.drain()
    game = engine.get_game(name)
    rng = random.Random(11)
    for _ in range(500):
        table = await cmds.tables.latest("chan")
        assert table is not None and table.state is not None and table.record.status == "active"
        acting = table.to_act()
        if len(acting) == 1 and game.default_action(table.state, acting[0]) is not None:
            return acting[0], game.default_action(table.state, acting[0])
        player = rng.choice(acting)
        await cmds.play(ctx(player), str(rng.choice(game.legal_actions(table.state, player))))
        await cmds.announcer.drain()
    raise AssertionError(f"no neutral decision in {name}")


@pytest.mark.parametrize("name", GAMES)
async def test_skip_plays_the_neutral_default_for_the_absent_player(service: Service, name: str) -> None:
    absent, default = await to_a_neutral_decision(
        service, name, "seed=3 remind=off deadline=2d on_deadline=skip"
    )
    before = (await service.commands.tables.latest("chan")).record.version  # type: ignore[union-attr]
    await service.later(hours=47)
    assert (await service.commands.tables.latest("chan")).record.version == before  # type: ignore[union-attr]
    await service.later(hours=2)
    table = await service.commands.tables.latest("chan")
    assert table is not None and table.record.version == before + 1
    (last,) = await service.commands.tables.store.actions(table.record.id, offset=before)
    assert last.player == absent and last.action == str(default)
    post = service.posts[-1]
    assert f"Played for {absent.capitalize()} at the deadline" in post.text
    log = discord_text((await service.commands.log(ctx("alice")))[0].text)
    assert f"Played for {absent.capitalize()} at the deadline" in log
    await service.later(hours=1)
    assert (await service.commands.tables.latest("chan")).record.version in (  # type: ignore[union-attr]
        before + 1,
        before + 2,
    ), "once per deadline"


@pytest.mark.parametrize("name", GAMES)
async def test_forfeit_makes_the_absent_side_lose(service: Service, name: str) -> None:
    absent, _default = await to_a_neutral_decision(service, name, "seed=3 deadline=1d on_deadline=forfeit")
    await service.later(hours=25)
    table = await service.commands.tables.latest("chan")
    assert table is not None and table.record.status == "over"
    assert table.record.result is not None and absent not in table.record.result["winners"]
    assert table.record.result["winners"] == [p for p in ("alice", "bob") if p != absent]
    end = service.posts[-1]
    assert "Game over" in end.text and "missed the deadline" in end.text
    assert set(end.mentions) == {"alice", "bob"}
    rated = await service.commands.tables.store.result_of(table.record.id)
    assert rated is not None and rated.rated, "a forfeit is rated: a loss for the absent side"
    assert {p.player: p.rank for p in rated.places} == {p: 2 if p == absent else 1 for p in ("alice", "bob")}
    assert "📈 Ratings" in end.text and rated.change_of(absent).delta < 0  # type: ignore[union-attr]


@pytest.mark.parametrize("name", GAMES)
async def test_wait_keeps_the_table_waiting_and_says_so_once(service: Service, name: str) -> None:
    absent, _default = await to_a_neutral_decision(service, name, "seed=3 remind=12h deadline=1d")
    table = await service.commands.tables.latest("chan")
    assert table is not None
    version = table.record.version
    await service.later(hours=25)
    notices = [p for p in service.posts if "deadline" in p.text and "keeps waiting" in p.text]
    assert len(notices) == 1 and notices[0].mentions == (absent,)
    reminded = len(service.reminders())
    for _ in range(3):
        await service.later(hours=12)
    after = await service.commands.tables.latest("chan")
    assert after is not None and after.record.status == "active" and after.record.version == version
    assert len([p for p in service.posts if "keeps waiting" in p.text]) == 1
    assert len(service.reminders()) == reminded + 3, "reminders go on, one per due time"


async def test_a_decision_without_a_neutral_default_keeps_waiting(service: Service) -> None:
    await open_nim(service, "deadline=1d on_deadline=skip")
    table = await service.commands.tables.latest("chan")
    assert table is not None
    await service.later(hours=25)
    assert (await service.commands.tables.latest("chan")).record.version == table.record.version  # type: ignore[union-attr]
    assert "no neutral default" in service.posts[-1].text


async def test_bad_pace_options_are_refused_at_the_lobby(service: Service) -> None:
    for options, key in (
        ("remind=soon", "svc.error.bad_duration"),
        ("deadline=0d", "svc.error.bad_duration"),
        ("on_deadline=explode", "svc.error.bad_policy"),
        ("remind=10m", "svc.error.remind_too_often"),
    ):
        with pytest.raises(TableError) as err:
            await service.commands.new(ctx("alice"), "nim", options=options)
        assert err.value.msg.key == key
    assert await service.commands.tables.latest("chan") is None


# ---- moderation ------------------------------------------------------------------------------------------


async def test_a_moderator_aborts_any_game_without_a_vote(service: Service) -> None:
    await open_nim(service)
    with pytest.raises(TableError):
        await service.commands.end(ctx("alice"))  # a player is not a moderator
    (ack,) = await service.commands.abort(ctx("mod", moderator=True))
    assert ack.ephemeral
    await service.commands.announcer.drain()
    table = await service.commands.tables.latest("chan")
    assert table is not None and table.record.status == "aborted"
    assert "<@mod>, a moderator, closed the game." in discord_text(service.posts[-1].text)
    log = discord_text((await service.commands.log(ctx("alice")))[0].text)
    assert "<@mod>, a moderator, closed the game." in log


async def test_a_moderator_ends_a_game_with_a_chosen_result(service: Service) -> None:
    await open_nim(service)
    with pytest.raises(TableError) as err:
        await service.commands.end(ctx("mod", moderator=True), "carol")
    assert err.value.msg.key == "svc.error.end_not_seated"
    await service.commands.end(ctx("mod", moderator=True), "bob")
    await service.commands.announcer.drain()
    table = await service.commands.tables.latest("chan")
    assert table is not None and table.record.status == "over" and table.record.result is not None
    assert table.record.result["winners"] == ["bob"]
    assert "a moderator, ended the game" in service.posts[-1].text
    await service.commands.new(ctx("alice"), "nim")
    await service.commands.join(ctx("bob"))
    await service.commands.start(ctx("alice"))
    await service.commands.end(ctx("mod", moderator=True))
    table = await service.commands.tables.latest("chan")
    assert table is not None and table.record.result is not None and table.record.result["draw"] is True


async def test_the_creator_or_a_moderator_removes_a_vanished_player_from_the_lobby(service: Service) -> None:
    cmds = service.commands
    await cmds.new(ctx("alice"), "nim")
    await cmds.join(ctx("bob"))
    with pytest.raises(TableError) as err:
        await cmds.kick(ctx("carol"), "bob")
    assert err.value.msg.key == "svc.error.kick_who"
    (post,) = await cmds.kick(ctx("alice"), "bob")
    assert not post.ephemeral and "Alice removed Bob from the table." in post.text and "(1/2" in post.text
    await cmds.join(ctx("bob"))
    await cmds.kick(ctx("mod", moderator=True), "bob")
    table = await cmds.tables.latest("chan")
    assert table is not None and table.record.player_ids == ["alice"]
    log = (await cmds.log(ctx("alice")))[0].text
    assert log.count("removed Bob from the table") == 2
    await cmds.join(ctx("bob"))
    await cmds.start(ctx("alice"))
    with pytest.raises(TableError) as running:
        await cmds.kick(ctx("mod", moderator=True), "bob")
    assert running.value.msg.key == "svc.error.kick_running"


# ---- where is it my turn, notifications, settings --------------------------------------------------------


async def test_my_games_lists_my_open_games_on_this_server_mine_first(service: Service) -> None:
    await open_nim(service, channel="c1")
    await open_nim(service, channel="c2")
    await service.commands.new(ctx("bob", "c3"), "nim")
    await service.commands.new(ctx("alice", "c4", guild="g2"), "nim")
    first = (await to_act(service, "c1"))[0]
    other = "bob" if first == "alice" else "alice"
    (listing,) = await service.commands.games(ctx(other))
    assert listing.ephemeral
    shown = discord_text(listing.text)
    lines = shown.splitlines()
    assert "<#c4>" not in shown, "another server's games are not listed"
    mine = [line for line in lines if "your turn" in line]
    waiting = [line for line in lines if "waiting for" in line]
    assert all(lines.index(m) < lines.index(w) for m in mine for w in waiting), "my turn first"
    assert any("<#c1>" in line for line in waiting) and ("<#c3>" in shown) == (other == "bob")
    assert "<t:" in shown
    (none,) = await service.commands.games(ctx("zoe"))
    assert "not seated in any open game" in none.text


async def test_a_player_who_asked_is_told_privately_when_it_is_their_turn(service: Service) -> None:
    await service.commands.notify(ctx("alice"), True)
    (shown,) = await service.commands.notify(ctx("alice"))
    assert "direct message" in shown.text and "/notify dm:off" in shown.text
    await open_nim(service)
    assert service.outlet.dms is not None
    first = (await to_act(service))[0]
    if first == "bob":
        await service.commands.play(ctx("bob"), "take 1")
        await service.commands.announcer.drain()
    assert [user for user, _post in service.outlet.dms] == ["alice"]
    assert "It is your turn in nim" in service.outlet.dms[0][1].text
    await service.commands.notify(ctx("alice"), False)
    await service.commands.play(ctx("alice"), "take 1")
    await service.commands.play(ctx("bob"), "take 1")
    await service.commands.announcer.drain()
    assert len(service.outlet.dms) == 1, "off is off"


async def test_a_turn_already_told_is_not_told_again_by_direct_message(service: Service) -> None:
    """Both Batailles players deploy at once: each is told once, at the start; when Bob is done and only
    Alice deploys, the post that follows is no new turn of hers: her one more message tells her that she
    is the last one the game waits for, and Bob's moves before that tell her nothing."""
    for player in ("alice", "bob"):
        await service.commands.notify(ctx(player), True)
    cmds = service.commands
    await cmds.new(ctx("alice"), "batailles", options="seed=3")
    await cmds.join(ctx("bob"))
    await cmds.start(ctx("alice"))
    await cmds.announcer.drain()
    assert service.outlet.dms is not None
    assert sorted(user for user, _post in service.outlet.dms) == ["alice", "bob"]
    for _ in range(10):
        table = await service.commands.tables.latest("chan")
        assert table is not None
        await cmds.play(ctx("bob"), str(table.game.legal_actions(table.state, "bob")[0]))
        await cmds.announcer.drain()
    table = await service.commands.tables.latest("chan")
    assert table is not None and table.to_act() == ["alice"], "Bob's troops are all deployed"
    to_alice = [post.text for user, post in service.outlet.dms if user == "alice"]
    assert len(to_alice) == 2 and "You are the last one the game waits for." in to_alice[1]
    assert "last one" not in to_alice[0]


async def test_server_settings_are_for_managers_and_set_the_public_language(service: Service) -> None:
    with pytest.raises(TableError) as err:
        await service.commands.settings(ctx("alice"), language="fr")
    assert err.value.msg.key == "svc.error.admin_only"
    (saved,) = await service.commands.settings(
        ctx("admin", admin=True), language="fr", remind="12h", deadline="3d"
    )
    assert saved.ephemeral and "Saved." in saved.text and "remind=12h" in saved.text
    (lobby,) = await service.commands.new(ctx("alice"), "nim")
    assert "a ouvert une table" in lobby.text and "toutes les 12h" in lobby.text, lobby.text
    await service.commands.join(ctx("bob"))
    await service.commands.start(ctx("alice"))
    await service.commands.announcer.drain()
    assert "commence" in service.posts[-1].text, "the announcer speaks the server's language too"
    with pytest.raises(TableError):
        await service.commands.settings(ctx("admin", admin=True), language="de")
    await service.commands.settings(ctx("admin", admin=True), language="en")
    await service.commands.new(ctx("carol", "other"), "nim")
    table = await service.commands.tables.latest("other")
    assert table is not None and table.record.settings["deadline"] == "3d"


# ---- the channel's posts -----------------------------------------------------------------------------------


class HeldSleep:
    """An injected ``sleep`` that lets a test decide when the coalescing window is over."""

    def __init__(self) -> None:
        self.asked: list[float] = []
        self.release = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        await self.release.wait()


async def test_edits_within_the_coalescing_window_fold_into_one(
    tmp_path: Path, renderers: tuple[FakeRenderer, FakeRenderer]
) -> None:
    """A player's quick steps make one edit of the turn's post, showing the newest board."""
    store = await db.open_store(tmp_path / "coalesce.sqlite3")
    try:
        sleep = HeldSleep()
        outlet = RecordingOutlet()
        tables = make_tables(store, renderers)
        commands = Commands(
            tables, Announcer(tables, outlet, clock=ManualClock(START), coalesce=5, sleep=sleep)
        )
        await commands.new(ctx("alice"), "batailles", options="armies=classic map=open_field seed=5")
        await commands.join(ctx("bob"))
        await commands.start(ctx("alice"))
        await commands.announcer.drain()
        assert outlet.sent is not None and outlet.edits is not None
        await commands.play(ctx("alice"), "deploy inf1 a1 n")
        await commands.announcer.drain()
        assert len(outlet.edits) == 1 and sleep.asked == [], "the first edit goes out at once"
        drawn = len(renderers[0].calls)
        for move in ("deploy inf2 b1 n", "deploy inf3 c1 n", "deploy arch1 d1 n"):
            await commands.play(ctx("alice"), move)
        await asyncio.sleep(0)  # the announcer waits out the window, holding the later moves
        assert len(sleep.asked) == 1 and 0 < sleep.asked[0] <= 5
        sleep.release.set()
        await commands.announcer.drain()
        assert len(outlet.edits) == 2, "three quick steps, one edit"
        assert len(renderers[0].calls) == drawn + 1, "and one drawing, of the newest board"
        last = outlet.edits[-1][2]
        assert all(name in last.text for name in ("inf2", "inf3", "arch1")) and last.mentions == ()
        assert len(outlet.sent) == 1, "no new post while the same players act"
    finally:
        await store.close()


async def test_a_post_that_cannot_be_edited_is_replaced_by_a_new_one_without_a_ping(
    service: Service,
) -> None:
    """Discord refuses or limits edits of messages older than an hour: a new post, pinging nobody."""
    cmds = service.commands
    await cmds.new(ctx("alice"), "batailles", options="armies=classic map=open_field seed=5")
    await cmds.join(ctx("bob"))
    await cmds.start(ctx("alice"))
    await cmds.announcer.drain()
    await cmds.play(ctx("alice"), "deploy inf1 a1 n")
    await cmds.announcer.drain()
    assert len(service.posts) == 1 and service.outlet.edits
    service.clock.advance(timedelta(hours=2))
    await cmds.play(ctx("bob"), "deploy inf1 a9 s")
    await cmds.announcer.drain()
    assert len(service.posts) == 2
    again = service.posts[-1]
    assert again.mentions == () and "inf1" in again.text and again.image is not None


class StuckIn(RecordingOutlet):
    """An outlet whose posts in some channels never go through (Discord holding them for good)."""

    def __init__(self, *channels: str) -> None:
        super().__init__()
        self.stuck_channels = set(channels)
        self.stuck = 0

    async def send(self, channel: str, post: Post) -> str:
        if channel in self.stuck_channels:
            self.stuck += 1
            await asyncio.Event().wait()
        return await super().send(channel, post)


async def test_a_reminder_stuck_in_one_channel_holds_up_no_other_channels_reminders(
    service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    """A tick waits for the games' work at most ``game_seconds``: the stuck reminder goes on in the
    background while the others are sent, its game is left out of the next ticks (said in the log
    with its id), and after ``give_up_seconds`` it is cancelled and tried afresh."""
    for channel in ("stuck", "a", "b"):
        await open_nim(service, "remind=1h", channel=channel)
    outlet = StuckIn("stuck")
    service.commands.announcer.outlet = outlet
    now = [0.0]
    scheduler = Scheduler(
        service.commands.announcer, game_seconds=0.05, give_up_seconds=300, monotonic=lambda: now[0]
    )
    stuck = await service.commands.tables.latest("stuck")
    assert stuck is not None

    def reminded() -> list[str]:
        return sorted(channel for channel, post in outlet.sent or [] if post.text.startswith("⏰"))

    service.clock.advance(timedelta(hours=1, minutes=1))
    await scheduler.tick()
    # the stuck game's reminder reaches its channel in the background, maybe after the others
    await until(lambda: reminded() == ["a", "b"] and len(scheduler.pending()) == 1 and outlet.stuck == 1)
    assert f"game #{stuck.record.id}: reminder still running after 0.05 s, left to finish" in caplog.text
    [running] = scheduler.pending()
    service.clock.advance(timedelta(hours=1))
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="table.posting.schedule"):
        await scheduler.tick()
    await until(lambda: reminded() == ["a", "a", "b", "b"] and len(scheduler.pending()) == 1)
    assert outlet.stuck == 1, "the stuck game is left out, the others reminded"
    assert f"game #{stuck.record.id}: timed work running for" in caplog.text
    now[0] += 400
    await scheduler.tick()
    await asyncio.wait({running}, timeout=HANG_LIMIT)
    assert running.cancelled()
    service.clock.advance(timedelta(hours=1))
    await scheduler.tick()
    await until(lambda: outlet.stuck == 2)  # once given up, the stuck game's work is tried afresh
    await stopped(scheduler)


async def stopped(scheduler: Scheduler) -> None:
    """Cancel the work left stuck, and wait for it to end before the store closes."""
    pending = scheduler.pending()
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


async def until(check: Callable[[], bool]) -> None:
    """Wait for work left to run in the background, up to the harness's hang limit (how long it
    takes decides nothing)."""
    for _ in range(int(HANG_LIMIT / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


async def test_games_stuck_for_good_in_every_turn_of_the_tick_hold_up_no_other(service: Service) -> None:
    """A tick runs a few games' work at a time (``AT_ONCE``); more games stuck for good than that
    still leave the others their turn: a stuck game gives its turn up after ``game_seconds``."""
    stuck = [f"stuck{n}" for n in range(AT_ONCE + 1)]
    for channel in (*stuck, "a", "b"):
        await open_nim(service, "remind=1h", channel=channel)
    outlet = StuckIn(*stuck)
    service.commands.announcer.outlet = outlet
    scheduler = Scheduler(service.commands.announcer, game_seconds=0.05)
    service.clock.advance(timedelta(hours=1, minutes=1))
    await scheduler.tick()

    def reminded() -> set[str]:
        return {channel for channel, post in outlet.sent or [] if post.text.startswith("⏰")}

    await until(lambda: reminded() == {"a", "b"} and outlet.stuck == len(stuck))
    await stopped(scheduler)
