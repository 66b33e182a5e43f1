"""Playing War Chest against a computer player through slash commands on a fake Discord.

The bot is the real one (``bot.build_bot``): its computer player searches with ``ai.choose`` in its
own worker processes, and each of its moves reaches the channel like a player's, in a handover post
that names it and never pings it.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
from tests.discord.support import (
    CONFIRMED,
    WARCHEST_FAVOURITES,
    Room,
    choose_favourite,
    fake_discord,
    open_room,
    pinged,
    start,
)

WAR_CHEST = engine.get_game("warchest")
BOT = "bot:1:easy"


@pytest.fixture
async def room(tmp_path: Path, store_target: str | Path) -> AsyncIterator[Room]:
    """The bot over a SQLite file, then over PostgreSQL."""
    async with fake_discord(tmp_path, store_target) as bot:
        room = open_room(bot, ("Solo", "en-US"), "practice", ("alice", "en-US"))
        await bot.start()
        yield room


async def test_warchest_against_a_bot_through_slash_commands(room: Room) -> None:
    fake, chan = room.fake, room.chan
    (alice,) = room.users.values()
    opened = await fake.slash(
        alice, chan, "game new", game="warchest", bots=1, level="easy", options="seed=8"
    )
    assert "Bot 1 (easy) takes a seat." in opened.content, opened.contents
    assert pinged(opened) == [alice.id], "the full table asks only the person to start"
    await start(room, alice)
    rng = random.Random(8)
    moves = 0
    while moves < 4:
        record = await room.record()
        assert record.status == "active"
        acting = WAR_CHEST.to_act(WAR_CHEST.load(record.state or {}))
        assert acting == [alice.id], f"after alice's move the bot played at once: {acting}"
        value = await choose_favourite(room, alice, WARCHEST_FAVOURITES, rng)
        reply = await fake.slash(alice, chan, "play", action=value)
        assert reply.ephemeral and reply.content.startswith(CONFIRMED), reply.contents
        moves += 1
    record = await room.record()
    assert sorted(s.player for s in record.seats) == sorted([alice.id, BOT])
    assert record.version >= 2 * moves, "the bot answered every move of alice's"
    mine = [m for m in fake.messages_in(chan) if m.author.id == fake.bot_user.id]
    text = "\n".join(m.content for m in mine)
    assert "Bot 1 (easy)" in text, "the bot's moves are announced under its name"
    assert "<@bot:" not in text
    assert all(not any(p.startswith("bot:") for p in m.pinged_ids) for m in mine)
    assert any(f"<@{alice.id}>" in m.content for m in mine[1:]), "the turn comes back to alice"


async def test_the_creator_takes_a_bot_off_the_lobby_with_removebot(room: Room) -> None:
    fake, chan = room.fake, room.chan
    (alice,) = room.users.values()
    await fake.slash(alice, chan, "game new", game="warchest", bots=1, level="easy")
    removed = await fake.slash(alice, chan, "game removebot")
    assert not removed.ephemeral
    assert "removed Bot 1 (easy) from the table" in removed.content, removed.contents
    record = await room.record()
    assert [s.player for s in record.seats] == [alice.id] and record.status == "lobby"
    again = await fake.slash(alice, chan, "game removebot")
    assert again.ephemeral and "no computer player at this table" in again.content, again.contents
    assert "/game addbot" in again.content, "the refusal says what would work"
    assert [s.player for s in (await room.record()).seats] == [alice.id], "a refusal changes nothing"
