"""A whole War Chest game played by two users through slash commands on a fake Discord.

Everything below the Discord API is real: the bot built by ``bot.build_bot``, the
cogs, the table layer, the store (each test runs twice: on a SQLite file, then on a
PostgreSQL database the bot reads from ``DATABASE_URL``), the engine and the renderer.
Moves are chosen among the bot's own autocomplete answers, so legality comes from the bot;
the choice is biased towards moves that end a game (control, attack) and the
table's ``seed=`` option fixes the deal, so the game is the same on every run
(about 110 moves). Midway the bot is stopped and a new one started on the same
database: the game must go on where it was.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
from db import open_store
from tests.discord.support import (
    CONFIRMED,
    WARCHEST_FAVOURITES,
    Room,
    board_image,
    channel_figures,
    check_handover,
    choose_favourite,
    current_board,
    fake_discord,
    open_room,
    pinged,
    play,
    refused_plays,
    restart_keeps_the_game,
    start,
)

WAR_CHEST = engine.get_game("warchest")

MOVE_CAP = 1000
RESTART_AT = 12


@pytest.fixture
async def game(tmp_path: Path, store_target: str | Path) -> AsyncIterator[Room]:
    """The bot over a SQLite file, then (the same tests again) over PostgreSQL via ``DATABASE_URL``."""
    async with fake_discord(tmp_path, store_target) as bot:
        room = open_room(bot, ("Les Joueurs", "fr"), "champ-d-honneur", ("alice", "fr"), ("bob", "en-GB"))
        await bot.start()
        yield room


async def test_a_whole_game_through_slash_commands(game: Room) -> None:
    rng = random.Random(20261130)
    fake, chan = game.fake, game.chan
    alice, bob = game.users.values()

    r = await fake.slash(alice, chan, "game new", game="warchest", options="armies=random seed=2")
    assert not r.ephemeral and r.content
    r = await fake.slash(bob, chan, "game join")
    assert not r.ephemeral
    r = await start(game, alice)
    to_act = [u for u in pinged(r) if u in game.users]
    assert len(to_act) == 1

    r = await fake.slash(alice, chan, "hand")
    assert r.ephemeral and all(m.ephemeral for m in r.messages if not m.deleted)
    assert any(name.endswith(".png") for name, _ in r.files)

    record = await game.record()
    assert record.status == "active"
    moves = 0
    checked_refusals = restarted = False
    while moves < MOVE_CAP:
        actor = game.users[to_act[0]]
        other = next(u for u in game.users.values() if u is not actor)
        action = await choose_favourite(game, actor, WARCHEST_FAVOURITES, rng)

        if not checked_refusals and moves >= 3:
            checked_refusals = True
            await refused_plays(game, (other, action), (actor, "juggle three torches"))

        if not restarted and moves == RESTART_AT:
            restarted = True
            await restart_keeps_the_game(game, other)
            # The version-pinned choice made before the restart is still the current one.

        r = await play(game, actor, action)
        moves += 1
        to_act = await check_handover(game, r, to_act, WAR_CHEST)
        record = await game.record()
        if record.status == "over":
            break
        assert len(to_act) == 1, f"after {action!r}: {to_act} in {r.content!r}"

    assert restarted and checked_refusals
    assert record.status == "over", f"no end after {moves} moves"
    assert record.result is not None
    winners = set(record.result.get("winners", []))
    assert record.result.get("draw") or winners <= set(game.users)
    late = await fake.slash(alice, chan, "play", action="pass royal")
    assert late.ephemeral
    figures = channel_figures(fake, chan)
    assert figures["images"] <= moves + 1
    print(f"whole game: {moves} moves; channel: {figures}; last post: {r.contents}")


async def test_a_game_in_its_own_thread_and_a_double_click(game: Room) -> None:
    fake, chan = game.fake, game.chan
    alice, bob = game.users.values()
    r = await fake.slash(alice, chan, "game new", game="warchest", options="seed=5", thread=True)
    assert not r.ephemeral
    thread_id = next(c for c in fake.channels if fake.channels[c].is_thread)
    thread = fake.channels[thread_id]
    assert f"<#{thread.id}>" in r.content
    assert fake.messages_in(thread), "the lobby announcement goes into the thread"
    refused = await fake.slash(bob, chan, "game join")
    assert refused.ephemeral, "the parent channel has no game of its own"
    await fake.slash(bob, thread, "game join")
    r = await start(Room(game.bot, thread, game.users), bob)
    actor = game.users[pinged(r)[0]]
    choices = await fake.autocomplete(actor, thread, "play", focused="action", action="")
    assert choices
    action = str(choices[0][1])
    first, second = await asyncio.gather(
        fake.slash(actor, thread, "play", action=action),
        fake.slash(actor, thread, "play", action=action),
    )
    accepted = [r for r in (first, second) if r.content.startswith(CONFIRMED)]
    assert len(accepted) == 1, "the same version-pinned move must be applied exactly once"
    assert all(r.ephemeral for r in (first, second))
    board_image(current_board(fake, thread))
    store = await open_store(game.bot.settings.database)
    try:
        record = await store.latest_game(thread.id)
        assert record is not None and record.version == 1
        assert await store.latest_game(chan.id) is None
    finally:
        await store.close()
