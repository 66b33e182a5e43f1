"""Computer players at the table: bot seats, their moves announced like a player's, a bot standing in
for a player who let the deadline pass, bots picked up again after a restart, exact replays."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import ai
import db
import engine
import i18n
from cogs.markup import discord_text
from launch import DISCORD_LIMITS
from table import Commands, Ctx, Post
from table.bots.players import stand_ins
from table.bots.thinkers import ProcessThinker, ThreadThinker
from table.core.clock import ManualClock
from table.core.errors import TableError
from table.core.posts import is_bot
from table.core.replay import replay
from table.core.tables import Choice, Decision, Tables
from table.core.tasks import GameTasks
from table.posting.announce import Announcer, RecordingOutlet
from table.posting.schedule import Scheduler
from tests.fakediscord.server import HANG_LIMIT
from tests.table.conftest import FakeRenderer
from tests.table.nim import lookup

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
BOT = "bot:1:normal"


def nim_choice(d: Decision) -> str:
    """A Nim player that takes as many stones as its seed says: its moves show which seed it got."""
    assert d.game == "nim" and d.state["players"][d.seat] in (BOT, "alice") and d.deadline is not None
    return f"take {1 + d.seed % min(d.state['max'], d.state['heap'])}"


class Gate:
    """A thinker that decides like ``nim_choice`` once ``open`` is set (a slow search, a crash)."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.thinking = asyncio.Event()
        self.waiting = 0

    async def asked(self) -> None:
        """Until a decision is asked for (bounded by the harness's hang limit, never a timing)."""
        await asyncio.wait_for(self.thinking.wait(), HANG_LIMIT)

    async def think(self, decision: Decision) -> str:
        self.waiting += 1
        self.thinking.set()
        await self.open.wait()
        return nim_choice(decision)


class Table:
    """Commands, scheduler and posts over one store, with a clock the test moves."""

    def __init__(self, store: db.Store, thinker: Any, clock: ManualClock | None = None) -> None:
        self.clock = clock or ManualClock(START)
        self.outlet = RecordingOutlet()
        self.tables = Tables(
            store,
            limits=DISCORD_LIMITS,
            render=FakeRenderer((1, 2, 3)),
            render_private=FakeRenderer((3, 2, 1)),
            games=lookup,
            known_games=("nim", "warchest"),
            seed_source=lambda: 1234,
            thinker=thinker,
        )
        self.commands = Commands(
            self.tables, Announcer(self.tables, self.outlet, clock=self.clock, coalesce=0)
        )
        self.scheduler = Scheduler(self.commands.announcer)

    @property
    def posts(self) -> list[Post]:
        assert self.outlet.sent is not None and self.outlet.edits is not None
        return [p for _c, p in self.outlet.sent] + [p for _c, _m, p in self.outlet.edits]

    async def drain(self) -> None:
        await self.commands.announcer.drain()

    async def game(self, channel: str = "chan") -> Any:
        table = await self.tables.latest(channel)
        assert table is not None
        return table


def ctx(user: str, channel: str = "chan", locale: str = "en", **kw: Any) -> Ctx:
    return Ctx(channel, user, user.capitalize(), locale, locale, guild_id=None, **kw)


@pytest.fixture
async def bots(store: db.Store) -> AsyncIterator[Table]:
    t = Table(store, ThreadThinker(nim_choice))
    yield t
    await t.drain()


async def play_out(t: Table, channel: str = "chan", human: str = "alice") -> list[str]:
    """The human takes one stone whenever it is their turn, until the game ends; the log's actions."""
    for _ in range(60):
        await t.drain()
        table = await t.game(channel)
        if table.record.status != "active":
            break
        assert table.to_act() == [human], "the bot never keeps the table waiting"
        await t.commands.play(ctx(human, channel), "take 1")
    await t.drain()
    return [f"{a.player} {a.action}" for a in await t.tables.store.actions((await t.game(channel)).record.id)]


def assert_no_bot_pinged(posts: list[Post]) -> None:
    for post in posts:
        assert not any(is_bot(p) for p in post.mentions), post
        assert "<@bot:" not in discord_text(post.text), post.text


# ---- a game against a bot -----------------------------------------------------------------------------


async def test_a_whole_game_against_a_bot_announces_every_bot_move_and_never_pings_it(bots: Table) -> None:
    posts = await bots.commands.new(ctx("alice"), "nim", options="heap=10", bots=1)
    assert "Bot 1 (normal) takes a seat." in posts[0].text
    assert posts[0].mentions == ("alice",), "the table is full: only the person is asked to start it"
    await bots.commands.start(ctx("alice"))
    log = await play_out(bots)
    table = await bots.game()
    assert table.record.status == "over"
    assert table.record.player_ids == ["alice", BOT]
    bot_moves = [line for line in log if line.startswith(BOT)]
    assert bot_moves, "the bot played"
    summaries = "\n".join(p.text for p in bots.posts)
    took = [line for line in summaries.splitlines() if line.startswith("• Bot 1 (normal) takes")]
    assert len(took) >= len(bot_moves), "every move of the bot is in a handover post's summary"
    assert "Your turn: Bot 1 (normal)." in summaries or "Bot 1 (normal) takes the last stone" in summaries
    assert_no_bot_pinged(bots.posts)
    assert bots.outlet.dms == []


async def test_bots_sit_in_the_table_language_and_the_level_is_chosen(bots: Table) -> None:
    await bots.commands.new(ctx("alice", "fr", locale="fr"), "nim", bots=1, level="facile")
    table = await bots.game("fr")
    assert [(s.player, s.name) for s in table.record.seats] == [
        ("alice", "Alice"),
        ("bot:1:easy", "Robot 1 (facile)"),
    ]
    with pytest.raises(TableError) as refused:
        await bots.commands.new(ctx("bob", "other"), "nim", bots=1, level="grandmaster")
    assert refused.value.msg.key == "table.error.bad_level"
    with pytest.raises(TableError) as refused:
        await bots.commands.new(ctx("bob", "other"), "nim", players=2, bots=2)
    assert refused.value.msg.key == "table.error.too_many_bots"
    with pytest.raises(TableError) as refused:
        await bots.commands.new(ctx("bob", "other"), "warchest", bots=5)
    told = i18n.t(refused.value.msg, "en")
    assert told == "War Chest seats at most 4 players, you included: ask for at most 3 bots.", told


async def test_addbot_in_the_lobby_by_its_creator_or_a_moderator(bots: Table) -> None:
    await bots.commands.new(ctx("alice"), "nim")
    with pytest.raises(TableError) as refused:
        await bots.commands.addbot(ctx("bob"))
    assert refused.value.msg.key == "table.error.addbot_who"
    posts = await bots.commands.addbot(ctx("alice"), "hard")
    assert "Bot 1 (hard) joined the table" in posts[0].text
    assert posts[0].mentions == ("alice",)
    with pytest.raises(TableError):
        await bots.commands.addbot(ctx("mod", moderator=True))  # full
    await bots.commands.leave(ctx("alice"))
    assert (await bots.tables.store.latest_game("chan")).status == "aborted", "bots do not hold a table alone"


async def test_votes_need_only_the_people(bots: Table) -> None:
    await bots.commands.new(ctx("alice"), "nim", options="heap=40", bots=1)
    await bots.commands.start(ctx("alice"))
    await bots.drain()
    await bots.commands.abort(ctx("alice"))
    assert (await bots.game()).record.status == "aborted"


# ---- replays ----------------------------------------------------------------------------------------


async def test_a_game_with_a_bot_replays_exactly(bots: Table) -> None:
    logs = []
    for channel in ("one", "two"):
        await bots.commands.new(ctx("alice", channel), "nim", options="heap=40 seed=77", bots=1)
        await bots.commands.start(ctx("alice", channel))
        logs.append(await play_out(bots, channel))
    assert logs[0] == logs[1]
    # the bot's decisions took their seeds from ai.seed_at: its first move shows the seed of its position
    first = next(i for i, line in enumerate(logs[0]) if line.startswith(BOT))
    record = (await bots.game("one")).record
    nim = lookup("nim")
    before = [(player, text) for player, text in (line.split(" ", 1) for line in logs[0][:first])]
    state = replay(nim, record.player_ids, record.seed, record.options, before)
    expected = 1 + ai.seed_at(record.seed, nim.dump(state), 1) % 3
    assert logs[0][first] == f"{BOT} take {expected}"


# ---- restarts ---------------------------------------------------------------------------------------


async def test_a_pending_bot_move_is_played_after_a_restart(db_path: Path) -> None:
    store = await db.open_store(db_path)
    gate = Gate()
    before = Table(store, gate)
    await before.commands.new(ctx("alice"), "nim", options="heap=40 seed=5", bots=1)
    await before.commands.start(ctx("alice"))
    table = await before.game()
    if table.to_act() == ["alice"]:
        await before.commands.play(ctx("alice"), "take 1")
    await gate.asked()
    assert gate.waiting == 1, "the bot is thinking"
    for task in before.commands.announcer.bots.pending():
        task.cancel()  # the bot goes down mid-thought
    await asyncio.gather(*before.commands.announcer.bots.pending(), return_exceptions=True)
    version = (await before.game()).record.version
    await store.close()

    store = await db.open_store(db_path)
    try:
        after = Table(store, ThreadThinker(nim_choice))
        assert (await after.game()).to_act() == [BOT]
        await after.scheduler.tick()
        await after.drain()
        table = await after.game()
        assert table.record.version == version + 1 and table.to_act() == ["alice"]
        assert (await store.actions(table.record.id))[-1].player == BOT
    finally:
        await store.close()


# ---- a bot standing in for an absent player -----------------------------------------------------------


async def test_at_the_deadline_a_bot_plays_for_the_absent_player_to_the_end(bots: Table) -> None:
    await bots.commands.new(
        ctx("alice"), "nim", options="heap=10 remind=off deadline=1d on_deadline=bot", bots=1
    )
    await bots.commands.start(ctx("alice"))
    await bots.drain()
    assert (await bots.game()).to_act() == ["alice"] or (await bots.game()).record.status == "over"
    bots.clock.advance(timedelta(days=1, minutes=1))
    await bots.scheduler.tick()
    await bots.drain()
    table = await bots.game()
    assert table.record.status == "over", "bots alone play the game to its end"
    at = next(i for i, p in enumerate(bots.posts) if "ran out of time" in p.text)
    notice, after = bots.posts[at], bots.posts[at + 1 :]
    assert after and all("alice" not in p.mentions for p in after), "nobody pings alice while a bot plays"
    assert (
        discord_text(notice.text)
        == "<@alice> ran out of time in nim: a bot plays for them until they return."
    )
    assert notice.mentions == ("alice",)
    log = await bots.commands.log(ctx("alice"))
    assert "A bot plays for Alice until they return." in log[0].text
    assert_no_bot_pinged(bots.posts)


async def test_the_players_command_takes_the_seat_back(store: db.Store) -> None:
    gate = Gate()
    t = Table(store, gate)
    await t.commands.new(
        ctx("alice"), "nim", options="heap=40 seed=5 remind=off deadline=1d on_deadline=bot", bots=1
    )
    await t.commands.start(ctx("alice"))
    if (await t.game()).to_act() == [BOT]:
        gate.open.set()
    await t.drain()
    gate.open.clear()
    assert (await t.game()).to_act() == ["alice"]
    t.clock.advance(timedelta(days=2))
    gate.thinking.clear()
    await t.scheduler.tick()
    await gate.asked()
    assert gate.waiting >= 1, "the stand-in is thinking for alice"
    game_id = (await t.game()).record.id
    assert await stand_ins(store, (await t.game()).record) == {"alice": "normal"}

    await t.commands.play(ctx("alice"), "take 2")  # alice is back before the bot decided
    assert await stand_ins(store, (await t.game()).record) == {}
    assert any(p.text == "Alice is back in nim: the bot no longer plays for them." for p in t.posts)
    gate.open.set()
    await t.drain()
    table = await t.game()
    assert table.to_act() == ["alice"], "after the bot's own move the table waits for alice again"
    moves = [(a.player, a.action) for a in await store.actions(game_id)]
    assert moves[-2] == ("alice", "take 2") and moves[-1][0] == BOT

    # the takeover survives a restart: a new table layer over the same store keeps playing for her
    gate.open.clear()
    gate.thinking.clear()
    t.clock.advance(timedelta(days=2))
    await t.scheduler.tick()
    await gate.asked()
    for task in t.commands.announcer.bots.pending():
        task.cancel()
    await asyncio.gather(*t.commands.announcer.bots.pending(), return_exceptions=True)
    assert await stand_ins(store, (await t.game()).record) == {"alice": "normal"}
    again = Table(store, ThreadThinker(nim_choice), t.clock)
    await again.scheduler.tick()
    await again.drain()
    assert (await again.game()).record.status == "over"


async def test_the_bot_policy_is_offered_and_described(bots: Table) -> None:
    posts = await bots.commands.new(ctx("alice"), "nim", options="deadline=1d on_deadline=bot")
    assert "a bot plays for the absent player until they return" in posts[0].text


# ---- thinking in worker processes -------------------------------------------------------------------


async def test_the_process_thinker_decides_like_ai_choose() -> None:
    game = engine.get_game("warchest")
    state = game.new_game(["alice", "bob"], 11, {})
    dump = game.dump(state)
    seat = ["alice", "bob"].index(game.to_act(state)[0])
    thinker = ProcessThinker(1)
    try:
        answer = Choice.of(await thinker.think(Decision("warchest", dump, seat, "easy", 99, None)))
    finally:
        thinker.close()
    assert answer.action == ai.choose("warchest", dump, seat, "easy", 99)
    assert answer.weighed and answer.weighed[0][0] == answer.action, "the answer says what it weighed"


async def test_the_takeover_is_told_in_french(bots: Table) -> None:
    fr = ctx("alice", "fr", locale="fr")
    await bots.commands.new(fr, "nim", options="heap=10 remind=off deadline=1d on_deadline=bot", bots=1)
    await bots.commands.start(fr)
    await bots.drain()
    bots.clock.advance(timedelta(days=1, minutes=1))
    await bots.scheduler.tick()
    await bots.drain()
    texts = [discord_text(p.text) for p in bots.posts]
    assert "<@alice> a laissé passer le délai de nim : un robot joue à sa place jusqu'à son retour." in texts
    assert any("Robot 1 (normal)" in t for t in texts) and not any("Bot 1" in t for t in texts)


async def test_in_a_simultaneous_deployment_the_bot_deploys_while_the_player_thinks(store: db.Store) -> None:
    """Batailles armies deploy at the same time: the bot (the real search, level easy) places its whole
    army while alice has not moved, and her deployment afterwards is accepted as usual."""
    t = Table(store, ThreadThinker())
    await t.commands.new(ctx("alice"), "batailles", options="seed=3", bots=1, level="easy")
    await t.commands.start(ctx("alice"))
    await t.drain()
    table = await t.game()
    bot = "bot:1:easy"
    log = await store.actions(table.record.id)
    assert log and {a.player for a in log} == {bot}, "only the bot has deployed"
    assert all(a.action.startswith("deploy ") for a in log)
    assert table.to_act() == ["alice"], "the bot's army is all deployed; the table waits for alice"
    first = str(table.game.legal_actions(table.state, "alice")[0])
    await t.commands.play(ctx("alice"), first)
    await t.drain()
    assert (await store.actions(table.record.id))[len(log)].action == first


async def test_a_dead_thinking_worker_is_replaced_and_the_decision_still_made() -> None:
    thinker = ProcessThinker(1)
    try:
        [first] = await thinker.pids()
        os.kill(first, signal.SIGKILL)
        state = engine.get_game("warchest").new_game(["a", "b"], 4, {})
        seat = ["a", "b"].index(engine.get_game("warchest").to_act(state)[0])
        dump = engine.get_game("warchest").dump(state)
        answer = Choice.of(await thinker.think(Decision("warchest", dump, seat, "easy", 5, None)))
        expected = ai.choose("warchest", dump, seat, "easy", 5)
        assert answer.action == expected, "the decision is asked of a new worker"
        assert first not in await thinker.pids()
    finally:
        thinker.close()


def any_legal(d: Decision) -> str:
    """A fast stand-in for the search: one of the seat's legal actions, picked by the decision's seed."""
    rules = engine.get_game(d.game)
    position = rules.load(d.state)
    player = rules.view(position, None)["seats"][d.seat]["id"]
    return str(random.Random(d.seed).choice(rules.legal_actions(position, player)))


async def test_a_cry_havoc_table_of_bots_plays_to_its_end_and_replays_exactly(store: db.Store) -> None:
    """Three seats, two bots: once the one person lets the deadline pass, bots alone play Cry Havoc
    to its end; the same seed gives the same game, move for move."""
    t = Table(store, ThreadThinker(any_legal))
    logs = []
    for channel in ("first", "second"):
        options = "seed=3 remind=off deadline=1d on_deadline=bot"
        await t.commands.new(ctx("alice", channel), "cryhavoc", players=3, options=options, bots=2)
        await t.commands.start(ctx("alice", channel))
        await t.drain()
        assert (await t.game(channel)).to_act() == ["alice"], "the bots played up to alice's turn"
        t.clock.advance(timedelta(days=2))
        await t.scheduler.tick()
        await t.drain()
        table = await t.game(channel)
        assert table.record.status == "over", "the bots played the game to its end"
        assert [s.player for s in table.record.seats] == ["alice", "bot:1:normal", "bot:2:normal"]
        logs.append([(a.player, a.action) for a in await store.actions(table.record.id)])
    assert logs[0] == logs[1] and len(logs[0]) > 20
    assert {p for p, _a in logs[0]} == {"alice", "bot:1:normal", "bot:2:normal"}
    assert_no_bot_pinged(t.posts)


async def test_a_bot_is_never_reminded_nor_messaged(store: db.Store) -> None:
    """Even a bot that takes long to decide (its search stuck) is not reminded, and no direct message
    goes to it, whatever the store says of its notifications."""
    gate = Gate()
    t = Table(store, gate)
    await store.set_notify(BOT, True)
    await store.set_notify("alice", True)
    await t.commands.new(ctx("alice"), "nim", options="heap=40 seed=5 remind=1h", bots=1)
    await t.commands.start(ctx("alice"))
    if (await t.game()).to_act() == ["alice"]:
        await t.commands.announcer.drain("nowhere")
        await t.commands.play(ctx("alice"), "take 1")
    await gate.asked()
    for _hour in range(3):
        t.clock.advance(timedelta(hours=1, minutes=1))
        await t.scheduler.tick()
    await t.commands.announcer.settled((await t.game()).record.id)
    assert (await t.game()).to_act() == [BOT], "the bot is still thinking"
    assert not [p for p in t.posts if p.text.startswith("⏰")], "nobody reminds a bot"
    assert t.outlet.dms is not None and all(user == "alice" for user, _post in t.outlet.dms)
    assert_no_bot_pinged(t.posts)
    for task in t.commands.announcer.bots.pending():
        task.cancel()
    await asyncio.gather(*t.commands.announcer.bots.pending(), return_exceptions=True)


async def test_a_finished_task_is_not_counted_on_before_its_done_callback_has_run() -> None:
    """A bot's task that has just finished must not be taken for a running one by a poke that comes
    before asyncio ran its done callback: the poke's new work would wait for nothing (a takeover at
    the deadline once went unplayed so)."""
    tasks = GameTasks("work")

    async def work() -> None:
        return None

    task = tasks.start(1, "chan", work())
    await asyncio.sleep(0)  # the task runs to its end; its done callback is only scheduled
    assert task.done()
    assert tasks.get(1) is None and tasks.pending() == []


async def test_removebot_takes_the_last_bot_off_and_only_for_the_creator_or_a_moderator(bots: Table) -> None:
    await bots.commands.new(ctx("alice"), "warchest", players=4, bots=2)
    with pytest.raises(TableError) as refused:
        await bots.commands.removebot(ctx("bob"))
    assert refused.value.msg.key == "svc.error.kick_who"
    posts = await bots.commands.removebot(ctx("alice"))
    assert "Bot 2 (normal)" in posts[0].text
    record = (await bots.game()).record
    assert [s.player for s in record.seats] == ["alice", "bot:1:normal"]
    await bots.commands.removebot(ctx("mod", moderator=True))
    with pytest.raises(TableError) as refused:
        await bots.commands.removebot(ctx("alice"))
    assert refused.value.msg.key == "svc.error.no_bot"


async def test_a_departing_creator_hands_the_table_to_a_person_not_to_a_bot(bots: Table) -> None:
    await bots.commands.new(ctx("alice"), "warchest", players=4, bots=1)  # the bot sits second
    await bots.commands.join(ctx("bob"))
    await bots.commands.leave(ctx("alice"))
    record = (await bots.game()).record
    assert record.status == "lobby" and record.creator == "bob"
    await bots.commands.join(ctx("carol"))
    await bots.commands.kick(ctx("mod", moderator=True), "bob")  # a moderator removes the creator
    record = (await bots.game()).record
    assert record.creator == "carol", [s.player for s in record.seats]


class StepRecorder:
    """``any_legal``, noting the step the table gave each decision (how many the seat made in a row)."""

    def __init__(self) -> None:
        self.steps: list[int] = []

    def __call__(self, decision: Decision) -> str:
        self.steps.append(decision.step)
        return any_legal(decision)


async def bot_runs(t: Table) -> list[int]:
    """The lengths of the runs of bot moves in the game's log, in order."""
    runs: list[int] = []
    previous = None
    for done in await t.tables.store.actions((await t.game()).record.id):
        if is_bot(done.player):
            runs[-1:] = [runs[-1] + 1] if previous == done.player else [*runs[-1:], 1]
        previous = done.player
    return runs


async def test_a_turns_decisions_are_numbered_from_the_log_so_they_share_one_budget(store: db.Store) -> None:
    """Each decision is told how many the bot made in a row before it (0 after anyone else's move):
    ``ai.levels.TurnBudget`` shares the turn's iterations out by that number, read from the log so
    that a restart or a replay gives the same share."""
    recorder = StepRecorder()
    t = Table(store, ThreadThinker(recorder))
    await t.commands.new(ctx("alice"), "batailles", options="armies=classic map=open_field seed=5", bots=1)
    await t.commands.start(ctx("alice"))
    for _ in range(40):
        await t.drain()
        table = await t.game()
        runs = await bot_runs(t)
        if table.record.status != "active" or (len(runs) >= 3 and max(runs) > 2):
            break
        legal = table.game.legal_actions(table.state, "alice")
        await t.commands.play(ctx("alice"), str(legal[0]))
    await t.drain()
    runs = await bot_runs(t)
    assert len(runs) >= 3 and max(runs) > 2, "the bot made several decisions in a row, more than once"
    assert recorder.steps == [step for run in runs for step in range(run)]


async def test_a_bot_does_not_sit_out_the_folding_of_its_own_edits(store: db.Store) -> None:
    """The moves a bot makes in a row edit the post that handed it the turn, and edits within the
    coalescing window are folded: the bot plays on meanwhile, and the post that hands the turn back
    goes out at once, never waiting for the window to close (here it never does)."""
    from tests.table.test_play_by_post import HeldSleep

    sleep = HeldSleep()
    t = Table(store, ThreadThinker(any_legal))
    announcer = Announcer(t.tables, t.outlet, clock=t.clock, coalesce=5, sleep=sleep)
    t.commands = Commands(t.tables, announcer)
    await t.commands.new(ctx("alice"), "batailles", options="armies=classic map=open_field seed=5", bots=1)
    await t.commands.start(ctx("alice"))
    for _ in range(12):
        await asyncio.wait_for(t.drain(), HANG_LIMIT)
        if max(await bot_runs(t), default=0) > 2:
            break
        table = await t.game()
        await t.commands.play(ctx("alice"), str(table.game.legal_actions(table.state, "alice")[0]))
    assert max(await bot_runs(t)) > 2, "the bot made several moves in a row"
    assert sleep.asked, "an edit waited for the window to close"
    assert not sleep.release.is_set()
    table = await t.game()
    assert table.to_act() == ["alice"]
    shown = await store.announcement(table.record.id)
    assert shown is not None and shown.version == table.record.version and shown.to_act == ("alice",)


class CountingStore:
    """The store, counting each method called (by name) through it."""

    def __init__(self, store: db.Store) -> None:
        self._store = store
        self.calls: dict[str, int] = {}

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if name == "reads" or not callable(attr):
            return attr

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] = self.calls.get(name, 0) + 1
            return await attr(*args, **kwargs)

        return counted


@pytest.mark.parametrize("policy", ["wait", "bot"])
async def test_a_game_no_bot_can_play_reads_no_notes_for_bots_on_a_move(store: db.Store, policy: str) -> None:
    """Without a bot seat and with a deadline policy other than ``bot``, no computer player can ever
    act, so a move reads no notes for stand-ins (the post reads its notes with the game, in one
    ``announcing`` read), nor the game again for the computer players."""
    counting = CountingStore(store)
    t = Table(counting, ThreadThinker(nim_choice))  # type: ignore[arg-type]
    options = f"heap=40 seed=5 remind=off deadline=1d on_deadline={policy}"
    await t.commands.new(ctx("alice"), "nim", options=options)
    await t.commands.join(ctx("bob"))
    await t.commands.start(ctx("alice"))
    await t.drain()
    player = (await t.game()).to_act()[0]
    counting.calls.clear()
    await t.commands.play(ctx(player), "take 1")
    await t.drain()
    assert len(t.posts) == 2, "the move is posted as always"
    assert counting.calls.get("announcing") == 1, "the post's one read"
    if policy == "wait":
        assert "notes" not in counting.calls, "no stand-in can exist: none is looked for"
        assert "get_game" not in counting.calls, "the computer players do not look at the game"
    else:  # a bot may stand in one day: the command and the computer players look for stand-ins
        assert counting.calls.get("notes") == 2
        assert counting.calls.get("get_game") == 1


# ---- a bot that thinks long says so --------------------------------------------------------------------


class Told:
    """The bots' notices go to ``outlet``; ``said`` is set once one is posted."""

    def __init__(self, outlet: RecordingOutlet) -> None:
        self.outlet = outlet
        self.said = asyncio.Event()

    async def send(self, channel: str, post: Post) -> str:
        message = await self.outlet.send(channel, post)
        self.said.set()
        return message

    async def edit(self, channel: str, message: str, post: Post) -> bool:
        return await self.outlet.edit(channel, message, post)


async def test_a_bot_that_thinks_past_the_notice_says_so_then_that_it_has_decided(db_path: Path) -> None:
    """A search longer than ``notice_after`` (here 0, so that no test waits for it) is told in the channel
    in its language ("Robot 1 (normal) réfléchit…"), and the line changed once the bot has decided; an
    instant decision is told nothing."""
    store = await db.open_store(db_path)
    gate = Gate()
    try:
        t = Table(store, gate)
        told = Told(t.outlet)
        t.commands.announcer.bots.notices = told
        t.commands.announcer.bots.notice_after = 0
        await t.commands.new(ctx("alice", locale="fr"), "nim", options="heap=40 seed=5", bots=1)
        await t.commands.start(ctx("alice", locale="fr"))
        if (await t.game()).to_act() == ["alice"]:
            await t.commands.play(ctx("alice", locale="fr"), "take 1")
        await gate.asked()
        assert t.outlet.sent is not None and t.outlet.edits is not None
        await asyncio.wait_for(told.said.wait(), HANG_LIMIT)  # the bot's task posts it
        thinking = [(i, p) for i, (_c, p) in enumerate(t.outlet.sent) if "réfléchit" in p.text]
        assert [p.text for _i, p in thinking] == ["Robot 1 (normal) réfléchit…"]
        assert not thinking[0][1].mentions, "nobody is pinged for it"
        gate.open.set()
        await t.drain()
        changed = [p.text for _c, m, p in t.outlet.edits if m == f"m{thinking[0][0] + 1}"]
        assert changed == ["Robot 1 (normal) a fini de réfléchir."]
        assert (await t.game()).to_act() == ["alice"], "and it played"
    finally:
        await store.close()


async def test_a_quick_bot_says_nothing_of_its_thinking(bots: Table) -> None:
    await bots.commands.new(ctx("alice"), "nim", options="heap=10", bots=1)
    await bots.commands.start(ctx("alice"))
    await play_out(bots)
    assert not [p for p in bots.posts if "thinking" in p.text]
