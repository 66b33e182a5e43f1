"""Fixtures for the harness's own tests: a fake Discord with one French guild, two users and the demo bot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.model import FakeChannel, FakeGuild, FakeUser
from tests.fakediscord.server import FakeDiscord


@dataclass
class World:
    fake: FakeDiscord
    guild: FakeGuild
    chan: FakeChannel
    alice: FakeUser
    bob: FakeUser
    bot: DemoBot


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server


@pytest.fixture
async def world(fake: FakeDiscord) -> World:
    guild = fake.add_guild("Les Joueurs", locale="fr")
    chan = fake.add_channel(guild, "general")
    alice = fake.add_user("alice", locale="fr")
    bob = fake.add_user("bob", locale="en-GB")
    bot = DemoBot()
    await fake.start_bot(bot)
    return World(fake, guild, chan, alice, bob, bot)
