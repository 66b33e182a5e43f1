"""The bot as a container runs it: a real process stopped by SIGTERM, and its health check.

``docker stop`` sends SIGTERM to the container's first process, which is Python: unless the bot handles
the signal, Python as PID 1 ignores it and Docker kills the bot ten seconds later, cutting short
whatever it was doing. Here the bot is a real process (``tests.fakediscord.run_bot``) on the fake
Discord, over a SQLite file or a PostgreSQL database (``DATABASE_URL``). A move's channel post is held
by the fake Discord while the signal arrives: the bot must close the gateway, post the move once the
post goes through, close the store and exit 0.

The health check (``python bot.py --health``, the Dockerfile's HEALTHCHECK) reads the heartbeat the
bot writes at every tick of its timed loop.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from collections.abc import Mapping
from pathlib import Path

import db
import engine
from tests.discord.support import CONFIRMED, current_board
from tests.discord.test_crash_catch_up import _held, _posted, bot_posts, claims_left, until
from tests.fakediscord.model import FakeChannel
from tests.fakediscord.process import ROOT, BotProcess
from tests.fakediscord.server import FakeDiscord, InteractionLost


def store_env(target: str | Path) -> dict[str, str]:
    """The environment that points the bot at ``target``, as an admin would set it."""
    return {"DATABASE_URL": target} if isinstance(target, str) else {"DATABASE_PATH": str(target)}


async def health(env: Mapping[str, str]) -> tuple[int, str]:
    """Run ``python bot.py --health`` as the HEALTHCHECK does; its status and what it printed."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    environment.update(env)
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "bot.py",
        "--health",
        cwd=ROOT,
        env=environment,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode()


async def test_sigterm_lets_the_move_in_flight_finish_then_exits_cleanly(
    tmp_path: Path, store_target: str | Path
) -> None:
    database = tmp_path / "bot.sqlite3"
    target = store_target if isinstance(store_target, str) else database
    async with FakeDiscord() as fake:
        chan = fake.add_channel(fake.add_guild("Les Joueurs", locale="fr"), "partie")
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        users = {alice.id: alice, bob.id: bob}
        bot = await BotProcess.start(fake, database, store_env(target))
        await bot.ready()
        await fake.slash(alice, chan, "game new", game="warchest", options="seed=3")
        await fake.slash(bob, chan, "game join")
        await fake.slash(alice, chan, "game start")
        await until(lambda: _posted(fake, chan), "the start was announced")
        (mover,) = [users[p] for p in current_board(fake, chan).pinged_ids]
        other = next(u for u in users.values() if u is not mover)
        choices = await fake.autocomplete(mover, chan, "play", focused="action", action="")

        release = fake.hold_posts(chan.id)
        posts_before = bot_posts(fake, chan)
        reply = await fake.slash(mover, chan, "play", action=str(choices[0][1]))
        assert reply.content.startswith(CONFIRMED)
        await until(lambda: _held(fake), "the bot is posting the move")
        bot.signal(signal.SIGTERM)
        await bot.wait_for_log("SIGTERM: shutting down")
        release.set()  # the post in flight goes through: the bot is still there to see it answered
        assert await bot.exited() == 0, bot.log

        assert "stopped cleanly: gateway closed, work finished, store closed" in bot.log
        assert "Traceback" not in bot.log and "cancelled" not in bot.log
        if target == database:
            assert not Path(f"{database}-wal").exists(), "SQLite keeps its log until the store closes"
        new = [m for m in fake.messages_in(chan) if m.id not in posts_before and m.interaction_id is None]
        assert len(new) == 1 and new[0].pinged_ids == [other.id], "the move was posted before exiting"

    store = await db.open_store(target)
    try:
        record = await store.latest_game(chan.id)
        assert record is not None and record.version == 1
        assert await store.unannounced() == [], "nothing left for the next start to catch up"
    finally:
        await store.close()


async def test_the_health_check_follows_the_heartbeat_of_the_running_bot(tmp_path: Path) -> None:
    heartbeat = tmp_path / "run" / "heartbeat"
    env = {"HEARTBEAT_PATH": str(heartbeat), "HEARTBEAT_MAX_AGE": "600", "TICK_SECONDS": "0.05"}
    code, said = await health(env)
    assert code == 1 and "no heartbeat" in said, "nothing runs yet"
    async with FakeDiscord() as fake:
        fake.add_channel(fake.add_guild("G", locale="en-US"), "general")
        bot = await BotProcess.start(fake, tmp_path / "bot.sqlite3", env)
        await bot.ready()
        await until(lambda: _exists(heartbeat), "the first heartbeat")
        code, said = await health(env)
        assert code == 0 and said.startswith("healthy: heartbeat"), said
        assert await bot.kill(signal.SIGTERM) == 0, bot.log
    assert not heartbeat.exists(), "a stopped bot leaves no heartbeat that would still look fresh"
    code, said = await health(env)
    assert code == 1 and "no heartbeat" in said


async def test_the_default_heartbeat_is_in_the_data_folder_and_a_stale_one_is_unhealthy(
    tmp_path: Path,
) -> None:
    env = {"DATABASE_PATH": str(tmp_path / "data" / "bot.sqlite3")}
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "heartbeat").write_text('{"time": "2026-01-01T00:00:00+00:00", "ticks": 9}\n')
    code, said = await health(env)
    assert code == 1 and "old (over 180 s)" in said, said  # three ticks of 60 s
    (tmp_path / "data" / "heartbeat").write_text("half a write")
    code, said = await health(env)
    assert code == 1 and "cannot be read" in said, said


async def _exists(path: Path) -> bool:
    return path.exists()


STORM_CHANNELS = 6


async def test_sigterm_in_a_storm_of_moves_on_a_slow_store_ends_every_task_before_the_store_closes(
    tmp_path: Path, store_target: str | Path
) -> None:
    """Players keep moving in six channels while every call to the store is slowed down; SIGTERM
    arrives in the middle, with a grace far shorter than the work under way needs. The bot closes the
    gateway, lets what it can finish, cancels the rest and waits for it, then gives up its claims and
    closes the store: exit 0, not one traceback, no claim left. What it stored and did not show is
    shown by the next start."""
    database = store_target if isinstance(store_target, str) else tmp_path / "bot.sqlite3"
    env = {
        **store_env(database),
        "FAKE_STORE_DELAY": "0.05",
        "SHUTDOWN_GRACE": "0.2",
        "HEARTBEAT_PATH": str(tmp_path / "heartbeat"),
        "TICK_SECONDS": "0.5",
    }
    store = await db.open_store(database)  # before the bot: opening a SQLite store clears claims
    try:
        async with FakeDiscord() as fake:
            guild = fake.add_guild("Les Joueurs", locale="fr")
            chans = [fake.add_channel(guild, f"partie-{n}") for n in range(STORM_CHANNELS)]
            alice, bob = fake.add_user("alice"), fake.add_user("bob")
            users = {alice.id: alice, bob.id: bob}
            bot = await BotProcess.start(fake, database, env)
            await bot.ready()
            for n, chan in enumerate(chans):
                await fake.slash(alice, chan, "game new", game="warchest", options=f"seed={n + 3}")
                await fake.slash(bob, chan, "game join")
                await fake.slash(alice, chan, "game start")
            stop = asyncio.Event()
            acked: list[tuple[str, int]] = []

            async def storm(chan: FakeChannel) -> None:
                while not stop.is_set():
                    record = await store.latest_game(chan.id)
                    assert record is not None and record.state is not None
                    game = engine.get_game(record.game)
                    state = game.load(record.state)
                    movers = game.to_act(state)
                    if not movers:
                        return
                    action = str(game.legal_actions(state, movers[0])[0])
                    try:
                        reply = await fake.slash(
                            users[movers[0]], chan, "play", action=f"v{record.version}:{action}"
                        )
                    except InteractionLost:
                        return
                    except RuntimeError:
                        if stop.is_set():
                            return  # sent as the bot closed its gateway: no bot to deliver it to
                        raise
                    if reply.content.startswith(CONFIRMED):
                        acked.append((chan.id, record.version + 1))

            storms = [asyncio.ensure_future(storm(c)) for c in chans]

            async def stormy() -> bool:
                return len(acked) >= 2 * STORM_CHANNELS and fake.in_flight() >= STORM_CHANNELS // 2

            await until(stormy, "moves stored and more under way")
            bot.signal(signal.SIGTERM)
            stop.set()  # set before any storm runs again: a move sent now finds no gateway
            code = await bot.exited()
            fake.abandon_shard(0)
            await asyncio.gather(*storms)
            assert code == 0, bot.log
            assert "Traceback" not in bot.log, bot.log
            assert "stopped cleanly" in bot.log
            assert "were cancelled" in bot.log, "the grace ran out with work under way"
            assert await claims_left(database) == 0, "a clean stop gives up every claim"
            for chan_id, version in acked:
                record = await store.latest_game(chan_id)
                assert record is not None and record.version >= version, "every acknowledged move kept"
            left = len(await store.unannounced())

            again = await BotProcess.start(fake, database, env)
            await again.ready()

            async def all_shown() -> bool:
                return await store.unannounced() == []

            await until(all_shown, "the next start shows what the stopped one stored")
            assert await again.kill(signal.SIGTERM) == 0
            assert "Traceback" not in again.log, again.log
            assert await claims_left(database) == 0
            print(
                "SIGTERM in a storm:",
                {
                    "moves acknowledged": len(acked),
                    "exit codes": [code, 0],
                    "tasks cancelled at the stop": re.findall(r"after (\d+) task", bot.log) or ["0"],
                    "games left unannounced for the next start": left,
                    "claims left": 0,
                },
            )
    finally:
        await store.close()
