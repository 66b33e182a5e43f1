"""Two bot processes, one shard each, over one PostgreSQL database: killed mid-move and restarted, ten times.

Both processes are the real bot (``tests.fakediscord.run_bot``) with ``SHARD_COUNT=2`` and their own
``SHARD_IDS``; the fake Discord sends each the events of its shard's servers only. Four games, two on
each shard, get moves from their players on both shards at once, every move sent twice (a double
click). In one round the fake holds shard 0's posts, so its moves are stored and acknowledged but not
shown; that process is then killed with SIGKILL, with one more move sent to each of its games, and
started again. Nine more kills follow, of each shard in turn, at the worst moment for posting once:
Discord has made the handover posts of the dying process's games but the process never hears their
ids, so the store does not record them and its successor makes them again (with the same nonces,
which Discord answers with the posts already made). Then:

- nothing acknowledged is lost: every move a player was told was done is in the log, at its version;
- nothing is applied twice: each log runs 1, 2, 3... with one entry per round, and each entry is a
  move that was sent;
- everything stored is announced once: every game's channel shows its latest version, with exactly
  one post per handover (the caught-up one included, and none for the post the dead process held),
  and no post repeated: 0 duplicates over the ten kills.

The fake Discord's gateway reads the shard from IDENTIFY, sends a guild's events to the connection of shard
``(guild_id >> 22) % count``, and ``GET /gateway/bot`` returns the shard count a test asks for.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import signal
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import db
import engine
from table.core.replay import played, replay
from tests.discord.support import CONFIRMED
from tests.discord.test_crash_catch_up import until
from tests.fakediscord.model import FakeChannel, FakeUser, InteractionResult, SentMessage
from tests.fakediscord.process import BotProcess
from tests.fakediscord.server import FakeDiscord, InteractionLost

ROUNDS_BEFORE, ROUNDS_AFTER = 2, 2
KILLS = 10
"""SIGKILLs in all: the first with shard 0's posts held before Discord made them, the others, each
shard in turn, with Discord's answers held after it made them."""
LEASE = "20"
"""Seconds a process's claim on a game lasts: how long the killed process's games wait for another.
Well above the time a live process may go without renewing its claims on a loaded test machine
(a live holder's claim that lapses lets a second process post the same handover)."""


@dataclass
class Fired:
    """One move sent by a player: the version it was pinned to and what became of it."""

    channel: str
    player: str
    version: int
    action: str
    task: asyncio.Task[InteractionResult]

    def outcome(self) -> str:
        """ "acked" (the player was told it was done), "refused" (answered otherwise), "lost"."""
        error = self.task.exception()
        if isinstance(error, InteractionLost):
            return "lost"
        if error is not None:
            raise error
        reply = self.task.result()
        assert reply.ephemeral
        return "acked" if reply.content.startswith(CONFIRMED) else "refused"


def bot_env(shard: int, heartbeats: Path) -> dict[str, str]:
    return {
        "SHARD_COUNT": "2",
        "SHARD_IDS": str(shard),
        "TICK_SECONDS": "0.5",
        "LEASE_SECONDS": LEASE,
        "HEARTBEAT_PATH": str(heartbeats / f"beat-{shard}"),
    }


async def settled(store: db.Store, chans: list[FakeChannel]) -> bool:
    """Every game started, and its channel shown its stored version."""
    for chan in chans:
        record = await store.latest_game(chan.id)
        if record is None or record.status != "active":
            return False
    return await store.unannounced() == []


async def fire(
    fake: FakeDiscord,
    store: db.Store,
    chans: list[FakeChannel],
    users: dict[str, FakeUser],
    *,
    times: int = 2,
) -> list[Fired]:
    """Every game's mover plays its first legal move, pinned to the current version, ``times`` at once."""
    fired = []
    for chan in chans:
        record = await store.latest_game(chan.id)
        assert record is not None and record.state is not None
        game = engine.get_game(record.game)
        state = game.load(record.state)
        (mover,) = game.to_act(state)
        action = str(game.legal_actions(state, mover)[0])
        for _ in range(times):
            reply = fake.slash(users[mover], chan, "play", action=f"v{record.version}:{action}")
            fired.append(Fired(chan.id, mover, record.version, action, asyncio.ensure_future(reply)))
    return fired


async def made_or_recorded(fake: FakeDiscord, store: db.Store, chans: list[FakeChannel]) -> bool:
    """Each game's latest version announced and recorded, or its post made and its answer held."""
    shown = {r.id for r in await store.unannounced()}
    for chan in chans:
        record = await store.latest_game(chan.id)
        if record is not None and record.id in shown and not fake.answers_held(chan.id):
            return False
    return True


async def finished(fired: list[Fired]) -> None:
    await asyncio.wait([f.task for f in fired])


def handovers(record: db.GameRecord, log: list[db.ActionRecord]) -> int:
    """The handover posts a game's log calls for, each version announced on its own: the start, then
    each move after which other players act (or the game ends)."""
    game = engine.get_game(record.game)
    moves = played(log)
    acting = [
        set(game.to_act(replay(game, record.player_ids, record.seed, record.options, moves[:n])))
        for n in range(len(moves) + 1)
    ]
    return 1 + sum(1 for before, after in itertools.pairwise(acting) if before != after)


def repeats(posts: list[SentMessage]) -> int:
    """Posts that repeat an earlier one of the channel: the same text and buttons as it was made (a
    board post's buttons carry the version it shows)."""
    made = Counter((m.created_content, json.dumps(m.created_components, sort_keys=True)) for m in posts)
    return sum(n - 1 for n in made.values())


def caught_up(*processes: BotProcess) -> int:
    """Games the processes' scheduler announced (start-up and later ticks), from their logs."""
    found = [re.findall(r"(?:start-up catch-up: |caught_up=)(\d+)", p.log) for p in processes]
    return sum(int(n) for numbers in found for n in numbers)


async def test_two_shards_lose_no_acknowledged_move_apply_none_twice_and_announce_each_once(
    tmp_path: Path, postgres_url: str
) -> None:
    async with FakeDiscord() as fake:
        fake.shard_count = 2
        guilds = [fake.add_guild(f"Serveur {i}", locale="fr") for i in range(4)]
        chans = [fake.add_channel(g, "partie") for g in guilds]
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        users = {alice.id: alice, bob.id: bob}
        shard = {c.id: fake.shard_of(c.guild_id) for c in chans}
        assert sorted(shard.values()) == [0, 0, 1, 1], "two games on each shard"
        store = await db.open_store(postgres_url)
        processes: list[BotProcess] = []
        try:
            for n in (0, 1):
                processes.append(await BotProcess.start(fake, postgres_url, bot_env(n, tmp_path)))
            for process in processes:
                await process.ready()
            assert sorted(fake.identified_shards) == [(0, 2), (1, 2)]
            for i, chan in enumerate(chans):
                await fake.slash(alice, chan, "game new", game="warchest", options=f"seed={i + 3}")
                await fake.slash(bob, chan, "game join")
                await fake.slash(alice, chan, "game start")
            await until(lambda: settled(store, chans), "every game started and announced")

            fired: list[Fired] = []
            for _ in range(ROUNDS_BEFORE):
                fired += (batch := await fire(fake, store, chans, users))
                await finished(batch)
                await until(lambda: settled(store, chans), "the round announced")

            # Shard 0's posts are held: its moves are stored and acknowledged, not shown; it dies.
            releases = [fake.hold_posts(c.id) for c in chans if shard[c.id] == 0]
            fired += (batch := await fire(fake, store, chans, users))

            async def held_and_answered() -> bool:
                return fake.held_requests >= len(releases) and all(f.task.done() for f in batch)

            await until(held_and_answered, "every move answered, shard 0's posts held")
            # One more move on each of shard 0's games, sent as its process is killed: it may be stored
            # and acknowledged, stored and never acknowledged, or never stored.
            on_zero = [c for c in chans if shard[c.id] == 0]
            batch += (extra := await fire(fake, store, on_zero, users, times=1))

            async def extra_sent() -> bool:
                return fake.in_flight(shard=0) >= len(extra)

            await until(extra_sent, "the last moves sent to shard 0")
            assert await processes[0].kill(signal.SIGKILL) == -signal.SIGKILL
            fake.abandon_shard(0)
            for release in releases:
                release.set()  # what the dead process was posting is dropped
            fired += extra
            await finished(batch)
            killed_round = [f for f in batch if shard[f.channel] == 0 and f not in extra]
            assert "acked" in {f.outcome() for f in killed_round}, "a move was stored and acknowledged"

            processes.append(await BotProcess.start(fake, postgres_url, bot_env(0, tmp_path)))
            await processes[-1].ready()
            await until(lambda: settled(store, chans), "the killed process's moves announced")
            running = {0: processes[-1], 1: processes[1]}

            # More kills, each shard in turn, at the worst moment: Discord has made the handover
            # posts of the process's games, and the process dies before hearing their ids, so the
            # store has no record of them and its successor posts them again (same nonces).
            for kill in range(1, KILLS):
                dying = kill % 2
                mine = [c for c in chans if shard[c.id] == dying]
                releases = [fake.hold_answers(c.id) for c in mine]
                fired += (batch := await fire(fake, store, chans, users))
                await finished(batch)
                assert "lost" not in {f.outcome() for f in batch}

                await until(
                    lambda mine=mine: made_or_recorded(fake, store, mine),  # type: ignore[misc]
                    f"kill {kill + 1}: the posts made, unanswered",
                )
                assert await running[dying].kill(signal.SIGKILL) == -signal.SIGKILL
                fake.abandon_shard(dying)
                for release in releases:
                    release.set()  # the answers go to a dead process
                processes.append(await BotProcess.start(fake, postgres_url, bot_env(dying, tmp_path)))
                running[dying] = processes[-1]
                await processes[-1].ready()
                await until(lambda: settled(store, chans), f"kill {kill + 1}: caught up")
            for _ in range(ROUNDS_AFTER):
                fired += (batch := await fire(fake, store, chans, users))
                await finished(batch)
                await until(lambda: settled(store, chans), "the round announced after the restart")

            outcomes = [f.outcome() for f in fired]
            rounds = ROUNDS_BEFORE + KILLS + ROUNDS_AFTER
            posts = stored = duplicates = 0
            for chan in chans:
                record = await store.latest_game(chan.id)
                assert record is not None
                log = await store.actions(record.id)
                mine = [f for f in fired if f.channel == chan.id]
                acked = [f for f in mine if f.outcome() == "acked"]
                # Nothing acknowledged lost: each is in the log at the version it was pinned to.
                assert len({f.version for f in acked}) == len(acked), "one acknowledgement per version"
                for f in acked:
                    entry = log[f.version]
                    assert (entry.seq, entry.player, entry.action) == (f.version + 1, f.player, f.action)
                # Nothing applied twice: one entry per round (and perhaps the move sent as its process
                # was killed), versions without gaps, each one a move that was sent.
                extras = len([f for f in extra if f.channel == chan.id])
                assert rounds <= record.version <= rounds + extras
                assert [e.seq for e in log] == list(range(1, record.version + 1))
                stored += len(log)
                sent = {(f.version, f.player, f.action) for f in mine}
                assert all((e.seq - 1, e.player, e.action) in sent for e in log)
                # Every stored move announced, each handover once.
                shown = await store.announcement(record.id)
                assert shown is not None and (shown.version, shown.status) == (record.version, "active")
                new_posts = [
                    m
                    for m in fake.messages_in(chan)
                    if m.author.id == fake.bot_user.id and m.interaction_id is None
                ]
                # Each handover once at most (a second process posting it too would add one). The
                # killed shard's games had two moves unannounced as it died (the held round and the
                # last move): the catch-up shows both in one post, or in place when the same player
                # acts again after them, so up to two handovers there have no post of their own.
                duplicates += repeats(new_posts)
                due = handovers(record, log)
                unannounced = 2 if shard[chan.id] == 0 else 0
                assert due - unannounced <= len(new_posts) <= due, [m.content for m in new_posts]
                posts += len(new_posts)
            assert fake.unknown_requests == []
            figures = {
                "moves fired": len(fired),
                "acknowledged": outcomes.count("acked"),
                "refused (the double clicks)": outcomes.count("refused"),
                "lost with the killed process": outcomes.count("lost"),
                "stored": stored,
                "handover posts": posts,
                "kills": KILLS,
                "posts repeated by a successor, answered by their nonce": fake.nonce_repeats,
                "duplicate posts": duplicates,
                "caught up by the schedulers": caught_up(*processes),
            }
            print("two shards, ten kills:", figures)
            assert figures["caught up by the schedulers"] >= 1 + KILLS // 2, "the held posts were made up"
            assert duplicates == 0
            assert fake.nonce_repeats >= KILLS - 1, "each kill left at least one post to repeat"
            for process in running.values():
                assert await process.kill(signal.SIGTERM) == 0
                assert "stopped cleanly" in process.log, "each shard closes its gateway, then stops"
        finally:
            for process in processes:
                if process.proc.returncode is None:
                    await process.kill(signal.SIGTERM)
            await store.close()
