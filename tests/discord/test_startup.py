"""Start-up does not sit out discord.py's wait for late servers once every server has arrived."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import discord
import pytest

from bot import build_bot
from table.core.drawing import ProcessDrawer
from tests.discord.support import fake_discord
from tests.fakediscord import HANG_LIMIT

FOREVER = 3600.0
"""A ``guild_ready_timeout`` no test could sit out: readiness must come from the servers arriving."""


async def test_the_bot_is_ready_as_soon_as_every_announced_server_has_arrived(tmp_path: Path) -> None:
    async with fake_discord(tmp_path) as env:
        for name in ("one", "two", "three"):
            env.fake.add_channel(env.fake.add_guild(name), "general")
        bot = build_bot(replace(env.settings, warm_up=False))
        await env.fake.start_bot(bot, guild_ready_timeout=FOREVER)  # returns once ready
        assert bot.is_ready()
        assert sorted(g.name for g in bot.guilds) == ["one", "three", "two"]
        assert not any(g.unavailable for g in bot.guilds), "every server was received before ready"
        assert bot._connection.guild_ready_timeout == 0, "cut for this session's wait only"

        # A new session (the gateway forgot the old one) waits for its own servers again, and ends
        # its wait the same way once they are in.
        await env.fake.stop_bot()
        again = build_bot(replace(env.settings, warm_up=False))
        await env.fake.start_bot(again, guild_ready_timeout=FOREVER)
        assert again.is_ready() and len(again.guilds) == 3


async def test_each_shard_ends_its_wait_once_its_own_servers_are_in(tmp_path: Path) -> None:
    """Two shards in one process: each READY lists that shard's servers only, and the bot is ready
    once both shards have theirs (discord.py identifies the second shard 5 s after the first, as
    Discord's identify limit asks)."""
    async with fake_discord(tmp_path) as env:
        env.fake.shard_count = 2
        guilds = [env.fake.add_guild(f"server {n}") for n in range(4)]
        assert sorted(env.fake.shard_of(g.id) for g in guilds) == [0, 0, 1, 1]
        bot = build_bot(replace(env.settings, warm_up=False, shard_count=2))
        await env.fake.start_bot(bot, guild_ready_timeout=FOREVER)
        assert sorted(env.fake.identified_shards) == [(0, 2), (1, 2)]
        assert len(bot.guilds) == 4 and not any(g.unavailable for g in bot.guilds)


async def test_a_server_still_unavailable_keeps_discord_py_waiting(tmp_path: Path) -> None:
    """A server in an outage never arrives: the wait keeps its timeout, as discord.py has it."""
    async with fake_discord(tmp_path) as env:
        env.fake.add_guild("up")
        env.fake.add_guild("down").outage = True
        bot = build_bot(replace(env.settings, warm_up=False))
        arrived: list[discord.Guild] = []
        seen = asyncio.Event()

        async def on_guild_available(guild: discord.Guild) -> None:
            arrived.append(guild)
            seen.set()

        bot.add_listener(on_guild_available)
        starting = asyncio.create_task(env.fake.start_bot(bot, guild_ready_timeout=FOREVER))
        await asyncio.wait_for(seen.wait(), HANG_LIMIT)
        for _ in range(20):  # let the wait for the next server begin
            await asyncio.sleep(0)
        assert [g.name for g in arrived] == ["up"]
        assert not bot.is_ready()
        assert bot._connection.guild_ready_timeout == FOREVER
        await bot.close()
        with contextlib.suppress(RuntimeError):  # "the bot stopped before becoming ready"
            await starting


async def test_the_drawing_workers_start_warming_once_the_gateway_is_ready(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Their fork server's imports and their warm-up's drawings would take a core from the start-up:
    they begin once the bot is ready, once, in the languages of the catalog."""
    async with fake_discord(tmp_path) as env:
        env.fake.add_guild("one")
        bot = build_bot(replace(env.settings, warm_up=True))  # the tests' bots leave it out
        asked: list[tuple[bool, tuple[str, ...]]] = []

        def warm(self: ProcessDrawer, locales: Sequence[str] = ("en",), function: object = None) -> None:
            asked.append((bot.is_ready(), tuple(locales)))

        monkeypatch.setattr(ProcessDrawer, "warm", warm)
        await env.fake.start_bot(bot)

        async def warming() -> None:
            while not asked:
                await asyncio.sleep(0.01)  # on_ready runs in a task of its own

        await asyncio.wait_for(warming(), HANG_LIMIT)
        await env.fake.reconnect_gateway()  # a resumed session asks for nothing more
        assert asked == [(True, ("en", "fr"))]
