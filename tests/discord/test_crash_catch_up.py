"""Nothing stored goes unannounced: a bot killed between storing a move and posting it catches up.

The bot runs as a real process (``tests.fakediscord.run_bot``) on a real SQLite file. The fake Discord
holds the bot's channel post of a move, so the move is stored and acknowledged to its player but not
yet shown to the channel; the bot is then killed with SIGKILL, as a crash or an OOM kill would. The
next process posts the catch-up once, mentioning whoever must act; a third start posts nothing.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import db
from tests.discord.support import CONFIRMED, current_board
from tests.fakediscord.model import FakeChannel
from tests.fakediscord.process import BotProcess
from tests.fakediscord.server import HANG_LIMIT, FakeDiscord


async def stored_version(database: Path, channel: str) -> int:
    store = await db.open_store(database)
    try:
        record = await store.latest_game(channel)
    finally:
        await store.close()
    return -1 if record is None else record.version


async def until(check: object, what: str) -> None:
    """Poll ``check`` (an async callable) until true, within the harness's hang limit."""

    async def loop() -> None:
        while not await check():  # type: ignore[operator]
            await asyncio.sleep(0.05)

    try:
        await asyncio.wait_for(loop(), HANG_LIMIT)
    except TimeoutError:
        raise AssertionError(f"never: {what}") from None


def bot_posts(fake: FakeDiscord, chan: FakeChannel) -> list[str]:
    return [
        m.id for m in fake.messages_in(chan) if m.author.id == fake.bot_user.id and m.interaction_id is None
    ]


async def test_a_move_stored_before_a_crash_is_posted_once_after_restarts(tmp_path: Path) -> None:
    database = tmp_path / "bot.sqlite3"
    async with FakeDiscord() as fake:
        chan = fake.add_channel(fake.add_guild("Les Joueurs", locale="fr"), "partie")
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        users = {alice.id: alice, bob.id: bob}

        first = await BotProcess.start(fake, database)
        await first.ready()
        await fake.slash(alice, chan, "game new", game="warchest", options="seed=3")
        await fake.slash(bob, chan, "game join")
        await fake.slash(alice, chan, "game start")
        # The bot is another process: its handler goes on after the answer; wait for its post.
        await until(lambda: _posted(fake, chan), "the start was announced")
        start = current_board(fake, chan)
        (mover,) = [users[p] for p in start.pinged_ids]
        other = next(u for u in users.values() if u is not mover)
        choices = await fake.autocomplete(mover, chan, "play", focused="action", action="")
        action = str(choices[0][1])

        release = fake.hold_posts(chan.id)
        posts_before = bot_posts(fake, chan)
        reply = await fake.slash(mover, chan, "play", action=action)
        assert reply.ephemeral and reply.content.startswith(CONFIRMED), "stored and acknowledged"
        await until(lambda: _held(fake), "the bot tried to post the move")
        assert await stored_version(database, chan.id) == 1
        assert await first.kill(signal.SIGKILL) == -signal.SIGKILL
        release.set()  # the dead bot's post is dropped, as Discord never saw it
        assert bot_posts(fake, chan) == posts_before, "nothing announced the move before the crash"

        second = await BotProcess.start(fake, database)
        await second.ready()
        assert "start-up catch-up: 1 game(s) announced" in second.log
        new = [m for m in fake.messages_in(chan) if m.id not in posts_before and m.interaction_id is None]
        assert len(new) == 1, [m.content for m in new]
        (catch_up,) = new
        assert catch_up.pinged_ids == [other.id], "the catch-up calls whoever must act now"
        assert catch_up.files and catch_up.files[0][0].endswith(".png")
        assert f"<@{other.id}>" in catch_up.content
        await second.kill(signal.SIGKILL)

        third = await BotProcess.start(fake, database)
        await third.ready()
        assert "start-up catch-up: 0 game(s) announced" in third.log
        assert bot_posts(fake, chan) == [*posts_before, catch_up.id], "never twice"
        await third.kill(signal.SIGTERM)
        assert fake.unknown_requests == []


async def _held(fake: FakeDiscord) -> bool:
    return fake.held_requests >= 1


async def _posted(fake: FakeDiscord, chan: FakeChannel) -> bool:
    return any(m.files for m in fake.messages_in(chan) if m.author.id == fake.bot_user.id)
