"""Undo against computer players only: the person's last action and the bots' replies since are taken
back at once (no bot is asked), under the same rule over the whole span: a draw blocks, and so does
a bot's coin played face up (hidden in its hand until then); a bot's face-down coin does not."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

import db
import engine
from launch import DISCORD_LIMITS
from table import Commands
from table.bots.thinkers import ThreadThinker
from table.core.clock import ManualClock
from table.core.errors import TableError
from table.core.tables import Decision, Tables
from table.posting.announce import Announcer, RecordingOutlet
from tests.table.conftest import FakeRenderer
from tests.table.test_bots import START, ctx

BOT = "bot:1:normal"
FACE_UP = ("deploy", "bolster", "move", "control", "attack", "tactic")
FACE_DOWN = ("pass", "recruit", "initiative")


def bot_preferring(verbs: tuple[str, ...]) -> Callable[..., str]:
    """A War Chest bot that plays one of ``verbs`` whenever it can, chosen by its seed."""

    def choose(d: Decision) -> str:
        rules = engine.get_game(d.game)
        position = rules.load(d.state)
        legal = [str(a) for a in rules.legal_actions(position, position.players[d.seat])]
        preferred = [a for a in legal if a.split()[0] in verbs]
        options = preferred or legal
        return options[d.seed % len(options)]

    return choose


class BotTable:
    def __init__(self, store: db.Store, choose: Callable[..., str]) -> None:
        self.outlet = RecordingOutlet()
        self.tables = Tables(
            store,
            limits=DISCORD_LIMITS,
            render=FakeRenderer((1, 2, 3)),
            render_private=FakeRenderer((3, 2, 1)),
            known_games=tuple(engine.GAMES),
            seed_source=lambda: 1234,
            thinker=ThreadThinker(choose),
        )
        self.commands = Commands(
            self.tables, Announcer(self.tables, self.outlet, clock=ManualClock(START), coalesce=0)
        )

    async def drain(self) -> None:
        await self.commands.announcer.drain()

    async def game(self) -> Any:
        table = await self.tables.latest("chan")
        assert table is not None
        return table


@pytest.fixture
async def shy(store: db.Store) -> AsyncIterator[BotTable]:
    """A table whose bot discards face down whenever it can."""
    t = BotTable(store, bot_preferring(FACE_DOWN))
    yield t
    await t.drain()


@pytest.fixture
async def bold(store: db.Store) -> AsyncIterator[BotTable]:
    """A table whose bot plays its coins face up whenever it can."""
    t = BotTable(store, bot_preferring(FACE_UP))
    yield t
    await t.drain()


async def human_move(t: BotTable, rng: random.Random) -> tuple[Any, Any]:
    """Alice plays a coin face up when she can; the bot replies. The table before and after."""
    await t.drain()
    before = await t.game()
    assert before.to_act() == ["alice"], "the bot never keeps the table waiting"
    legal = [str(a) for a in before.game.legal_actions(before.state, "alice")]
    face_up = [a for a in legal if a.split()[0] in FACE_UP]
    await t.commands.play(ctx("alice"), rng.choice(face_up or legal))
    await t.drain()
    return before, await t.game()


def bot_showed_a_coin(before: Any, after: Any) -> bool:
    """A coin left the bot's hand and did not go face down."""
    seat = before.state.seat_of(BOT)
    was, now = before.state.seats[seat], after.state.seats[seat]
    return len(now.hand) < len(was.hand) and len(now.discard_down) == len(was.discard_down)


async def start(t: BotTable) -> None:
    # alice plays every move herself: an undo takes back hers and the bot's replies, nothing else
    await t.commands.new(ctx("alice"), "warchest", options="seed=9 auto=off", bots=1)
    await t.commands.start(ctx("alice"))


async def test_the_undo_takes_back_the_bots_reply_at_once(shy: BotTable) -> None:
    await start(shy)
    rng = random.Random(3)
    taken_back = 0
    for _ in range(60):
        before, after = await human_move(shy, rng)
        if after.record.status != "active":
            break
        log = await shy.tables.store.actions(after.record.id)
        replies = [e for e in log if e.seq > before.record.version and e.player == BOT]
        try:
            posts = await shy.commands.undo(ctx("alice"))
        except TableError as err:
            assert err.msg.key == "svc.undo.random" and after.state.rng != before.state.rng, err.msg.key
            continue
        assert after.state.rng == before.state.rng, "nothing drawn since"
        assert "Taken back" in posts[0].text and not posts[0].buttons, "no bot is asked"
        await shy.drain()
        back = await shy.game()
        assert back.record.state == before.record.state, "the position before Alice's action"
        assert back.record.version == after.record.version + 1 and back.to_act() == ["alice"]
        log = await shy.tables.store.actions(back.record.id)
        undone = [e.player for e in log if e.undone and e.seq > before.record.version]
        assert undone == ["alice"] + [BOT] * len(replies)
        if replies:
            taken_back += 1
            said = "\n".join(
                [p.text for _c, p in shy.outlet.sent or []] + [p.text for _c, _m, p in shy.outlet.edits or []]
            )
            assert "Alice took back their last action and the computer player's reply since: “" in said
    assert taken_back >= 3, f"only {taken_back} undos took back a reply of the bot"


async def test_a_bots_coin_played_face_up_blocks_the_undo(bold: BotTable) -> None:
    await start(bold)
    rng = random.Random(5)
    shown = allowed = 0
    for _ in range(60):
        before, after = await human_move(bold, rng)
        if after.record.status != "active":
            break
        if after.state.rng != before.state.rng:
            expected = "svc.undo.random"
        elif bot_showed_a_coin(before, after):
            expected = "svc.undo.shown"
        else:
            expected = None
            if allowed:
                continue  # the game goes on (an undo would bring it back here)
        try:
            await bold.commands.undo(ctx("alice"))
        except TableError as err:
            assert err.msg.key == expected
            assert (await bold.game()).record.version == after.record.version, "nothing changed"
            shown += err.msg.key == "svc.undo.shown"
            continue
        assert expected is None
        allowed += 1
    assert shown >= 3, f"a bot's coin shown blocked only {shown} times"
    assert allowed == 1, "a span where the bot showed nothing is taken back"


async def test_a_move_taken_back_and_played_again_meets_the_same_reply(shy: BotTable) -> None:
    """The bot's seed comes from the position, not from the game's version (which the undo moves on):
    a player cannot fish for another reply by taking a move back and playing it again."""
    await start(shy)
    rng = random.Random(3)
    compared = 0
    for _ in range(60):
        await shy.drain()
        before = await shy.game()
        legal = [str(a) for a in before.game.legal_actions(before.state, "alice")]
        move = rng.choice([a for a in legal if a.split()[0] in FACE_UP] or legal)
        await shy.commands.play(ctx("alice"), move)
        await shy.drain()
        after = await shy.game()
        if after.record.status != "active":
            break
        replies = [
            e.action for e in await shy.tables.store.actions(after.record.id) if e.seq > before.record.version
        ]
        if len(replies) < 2:
            continue
        try:
            await shy.commands.undo(ctx("alice"))
        except TableError:
            continue
        await shy.commands.play(ctx("alice"), move)
        await shy.drain()
        again = await shy.game()
        log = await shy.tables.store.actions(again.record.id)
        assert [e.action for e in log if e.seq > after.record.version + 1] == replies
        assert again.record.state == after.record.state, "the same position as the first time"
        compared += 1
        if compared == 3:
            break
    assert compared == 3, f"only {compared} moves were taken back and played again"
