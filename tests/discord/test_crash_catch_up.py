"""Nothing stored goes unannounced, nothing twice: a bot killed between storing a move and
recording its post catches up once, at the first tick of the next start.

The bot runs as a real process (``tests.fakediscord.run_bot``) on a real SQLite file or PostgreSQL
database. The fake Discord holds the bot's channel post of a move, either before making it or after
(its answer, with the message id, never reaches the bot), so the move is stored and acknowledged to
its player but its post is not recorded; the bot is then killed with SIGKILL, as a crash or an OOM
kill would. The next process posts the catch-up once (the post Discord already made is returned for
its nonce), mentioning whoever must act; a third start posts nothing.
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from pathlib import Path

import asyncpg
import pytest

import db
from tests.discord.support import CONFIRMED, current_board
from tests.fakediscord.model import FakeChannel
from tests.fakediscord.process import BotProcess
from tests.fakediscord.server import HANG_LIMIT, FakeDiscord


async def stored_version(database: Path | str, channel: str) -> int:
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


CRASH_POINTS = ("before Discord made the post", "after Discord made the post")


@pytest.mark.parametrize("crash", CRASH_POINTS)
async def test_a_move_stored_before_a_crash_is_posted_once_after_restarts(
    tmp_path: Path, store_target: str | Path, crash: str
) -> None:
    """Killed while posting a move, either before Discord made the post or after (the bot never
    heard the message's id, so the store has no record of it): the next start posts it at its first
    tick, whatever the store, without waiting for the dead process's claim to lapse (its lease is
    far longer than the test), and the post is made once."""
    database = store_target if isinstance(store_target, str) else tmp_path / "bot.sqlite3"
    env = {"LEASE_SECONDS": "3600", "HEARTBEAT_PATH": str(tmp_path / "heartbeat")}
    async with FakeDiscord() as fake:
        chan = fake.add_channel(fake.add_guild("Les Joueurs", locale="fr"), "partie")
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        users = {alice.id: alice, bob.id: bob}

        first = await BotProcess.start(fake, database, env)
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

        made = crash == CRASH_POINTS[1]
        release = fake.hold_answers(chan.id) if made else fake.hold_posts(chan.id)
        posts_before = bot_posts(fake, chan)
        reply = await fake.slash(mover, chan, "play", action=action)
        assert reply.ephemeral and reply.content.startswith(CONFIRMED), "stored and acknowledged"
        await until(lambda: _held(fake), "the bot tried to post the move")
        assert await stored_version(database, chan.id) == 1
        assert await first.kill(signal.SIGKILL) == -signal.SIGKILL
        release.set()  # the dead bot's request is answered to nobody
        made_before = [m for m in bot_posts(fake, chan) if m not in posts_before]
        assert len(made_before) == (1 if made else 0), "Discord made the post, or never saw it"

        second = await BotProcess.start(fake, database, env)
        await second.ready()
        assert "start-up catch-up: 1 game(s) announced" in second.log, "at the first tick, no lease wait"
        new = [m for m in fake.messages_in(chan) if m.id not in posts_before and m.interaction_id is None]
        assert len(new) == 1, [m.content for m in new]
        (catch_up,) = new
        assert catch_up.pinged_ids == [other.id], "the catch-up calls whoever must act now"
        assert catch_up.files and catch_up.files[0][0].endswith(".png")
        assert f"<@{other.id}>" in catch_up.content
        assert fake.nonce_repeats == (1 if made else 0), "the repeat was Discord's to refuse"
        assert await recorded_message(database, chan.id) == catch_up.id
        await second.kill(signal.SIGKILL)

        third = await BotProcess.start(fake, database, env)
        await third.ready()
        assert "start-up catch-up: 0 game(s) announced" in third.log
        assert bot_posts(fake, chan) == [*posts_before, catch_up.id], "never twice"
        assert await third.kill(signal.SIGTERM) == 0
        assert fake.unknown_requests == []
        assert await claims_left(database) == 0, "a clean stop gives up every claim"


async def recorded_message(database: Path | str, channel: str) -> str | None:
    """The id of the post the store records as the game's handover post."""
    store = await db.open_store(database)
    try:
        record = await store.latest_game(channel)
        assert record is not None
        shown = await store.announcement(record.id)
    finally:
        await store.close()
    return None if shown is None else shown.message


async def claims_left(database: Path | str) -> int:
    """The claim rows in the store, read beside it (opening a SQLite store clears them)."""
    if isinstance(database, str):
        conn = await asyncpg.connect(database)
        try:
            return int(await conn.fetchval("SELECT count(*) FROM claims"))
        finally:
            await conn.close()
    lite = sqlite3.connect(database)
    try:
        return int(lite.execute("SELECT count(*) FROM claims").fetchone()[0])
    finally:
        lite.close()


async def _held(fake: FakeDiscord) -> bool:
    return fake.held_requests + fake.held_answers >= 1


async def _posted(fake: FakeDiscord, chan: FakeChannel) -> bool:
    return any(m.files for m in fake.messages_in(chan) if m.author.id == fake.bot_user.id)
