"""Several processes over one store: each game's posts and reminders are made by one process at a time.

Two "processes" here are two sets of commands and announcers over two connections to one database,
with owners of their own; one holds a game's claim while its post is held up, as a process is while
Discord is slow, or dead before its lease ends.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

import db
from launch import DISCORD_LIMITS
from table import Post
from table.core.clock import ManualClock
from table.core.errors import TableError
from table.core.posts import post_nonce
from table.posting.announce import Announcer, RecordingOutlet, claim_key
from table.posting.owners import Owner, this_host
from table.posting.schedule import Scheduler
from tests.fakediscord.server import HANG_LIMIT
from tests.table.conftest import FakeRenderer
from tests.table.test_play_by_post import START, Service, ctx, open_nim, to_act


class HeldOutlet(RecordingOutlet):
    """Posts wait for ``go`` once ``hold`` is set, as Discord holding a request would."""

    def __init__(self) -> None:
        super().__init__()
        self.hold = False
        self.go = asyncio.Event()
        self.waiting = asyncio.Event()

    async def send(self, channel: str, post: Post) -> str:
        if self.hold:
            self.waiting.set()
            await self.go.wait()
        return await super().send(channel, post)


@pytest.fixture
async def two(
    db_path: Path, renderers: tuple[FakeRenderer, FakeRenderer]
) -> AsyncIterator[tuple[Service, Service]]:
    clock = ManualClock(START)
    stores = [await db.open_store(db_path), await db.open_store(db_path)]
    first, second = (Service(s, renderers, clock) for s in stores)
    held = HeldOutlet()
    first.outlet = first.commands.announcer.outlet = held
    assert first.commands.announcer.owner != second.commands.announcer.owner
    yield first, second
    held.go.set()  # a failed test leaves no post held
    for svc in (first, second):
        await svc.commands.announcer.drain()
    for s in stores:
        await s.close()


async def test_a_game_being_announced_by_one_process_is_not_announced_by_another(
    two: tuple[Service, Service],
) -> None:
    first, second = two
    await open_nim(first)
    (mover,) = await to_act(first)
    outlet = first.outlet
    assert isinstance(outlet, HeldOutlet)
    outlet.hold = True
    await first.commands.play(ctx(mover), "take 1")
    await asyncio.wait_for(outlet.waiting.wait(), HANG_LIMIT)  # stored, its post under way

    assert await second.commands.announcer.catch_up() == 0, "the game is claimed by the first process"
    assert second.posts == []
    outlet.go.set()
    await first.commands.announcer.drain()
    assert len(first.posts) == 2, "the start, then the handover of the move, once"
    assert await second.commands.announcer.catch_up() == 0, "nothing left to announce"
    assert second.posts == []


async def test_the_claim_of_a_process_gone_is_taken_over_when_its_lease_ends(
    two: tuple[Service, Service],
) -> None:
    first, second = two
    await open_nim(first)
    table = await first.commands.tables.latest("chan")
    assert table is not None
    (mover,) = table.to_act()
    store = first.commands.tables.store
    # A process that stored a move and died while posting it: its claim stays until its lease ends.
    assert await store.claim(claim_key(table.record.id), "killed", 3600)
    await first.commands.tables.apply(table, mover, "take 1")  # stored, never posted
    assert await second.commands.announcer.catch_up() == 0
    assert second.posts == []
    assert await store.claim(claim_key(table.record.id), "killed", 0)  # its lease runs out now
    assert await second.commands.announcer.catch_up() == 1
    assert len(second.posts) == 1 and second.posts[0].mentions != (mover,)
    assert await first.commands.announcer.catch_up() == 0, "announced once"


async def test_a_reminder_waits_while_another_process_holds_the_game(two: tuple[Service, Service]) -> None:
    first, second = two
    await open_nim(first, "remind=24h")
    table = await first.commands.tables.latest("chan")
    assert table is not None
    store = first.commands.tables.store
    assert await store.claim(claim_key(table.record.id), "busy", 3600)
    first.clock.advance(timedelta(hours=25))
    assert (await Scheduler(second.commands.announcer).tick()).reminders == 0
    await store.release(claim_key(table.record.id), "busy")
    assert (await Scheduler(second.commands.announcer).tick()).reminders == 1
    assert len(second.reminders()) == 1
    assert (await Scheduler(first.commands.announcer).tick()).reminders == 0, "never twice"


async def test_two_processes_opening_and_joining_one_table_at_once_are_decided_by_the_store(
    two: tuple[Service, Service],
) -> None:
    """Their channel locks are each in their own process: the store alone keeps one lobby per channel
    and never seats more players than the table has."""
    first, second = two
    opened = await asyncio.gather(
        first.commands.new(ctx("alice"), "nim"),
        second.commands.new(ctx("carol"), "nim"),
        return_exceptions=True,
    )
    refused = [r for r in opened if isinstance(r, TableError)]
    assert len(refused) == 1 and refused[0].msg.key == "table.error.channel_busy_lobby"
    joined = await asyncio.gather(
        first.commands.join(ctx("bob")), second.commands.join(ctx("dave")), return_exceptions=True
    )
    refused = [r for r in joined if isinstance(r, TableError)]
    assert len(refused) == 1 and refused[0].msg.key in ("table.error.table_full", "table.error.conflict")
    table = await second.commands.tables.open("chan")
    assert table is not None and len(table.record.seats) == 2


async def test_a_post_goes_out_only_under_a_claim_known_to_be_held(
    db_path: Path, renderers: tuple[FakeRenderer, FakeRenderer], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A claim just taken is this process's for a lease: a move's post asks the store for it once.
    A process stalled past half its lease asks again before posting, and posts nothing when
    another process took the game meanwhile; that process's catch-up posts it, once."""
    store = await db.open_store(db_path)
    try:
        svc = Service(store, renderers, ManualClock(START))
        now = [0.0]
        tables = svc.commands.tables
        announcer = Announcer(tables, svc.outlet, clock=svc.clock, coalesce=0, monotonic=lambda: now[0])
        svc.commands.announcer = announcer
        await open_nim(svc)
        asked: list[str] = []
        claim = store.claim

        async def counted(key: str, owner: str, lease: float) -> bool:
            asked.append(owner)
            return await claim(key, owner, lease)

        monkeypatch.setattr(store, "claim", counted)
        (mover,) = await to_act(svc)
        await svc.commands.play(ctx(mover), "take 1")
        await announcer.drain()
        assert len(svc.posts) == 2 and asked == [announcer.owner], "one claim for the move's post"

        table = await tables.latest("chan")
        assert table is not None
        key = claim_key(table.record.id)
        read = store.announcing

        async def stalled(game_id: int) -> db.Announcing:
            got = await read(game_id)
            now[0] += announcer.lease  # the process stalls here for a whole lease...
            await store.release(key, announcer.owner)  # ...which ran out,
            assert await claim(key, "other", 3600)  # and another process took the game
            return got

        monkeypatch.setattr(store, "announcing", stalled)
        (mover,) = await to_act(svc)
        await svc.commands.play(ctx(mover), "take 1")
        await announcer.drain()
        assert len(svc.posts) == 2, "no post without the claim"
        assert asked[1:] == [announcer.owner, announcer.owner], "asked again after the stall"

        monkeypatch.setattr(store, "announcing", read)
        await store.release(key, "other")
        assert await announcer.catch_up() == 1
        assert len(svc.posts) == 3 and await announcer.catch_up() == 0
    finally:
        await store.close()


def gone_pid() -> int:
    """The id of a process of this host that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


async def test_a_start_takes_at_once_the_claims_of_predecessors_provably_gone(
    db_path: Path, renderers: tuple[FakeRenderer, FakeRenderer]
) -> None:
    """Gone for sure: on this host, a process id that no longer runs (or this process's own, a
    restarted container's); in the same shards, an earlier start. Anything else waits out its lease,
    unless the bot runs unsharded: its one process takes every claim it finds. A clean stop gives up
    every claim it holds."""
    store = await db.open_store(db_path)
    try:
        svc = Service(store, renderers, ManualClock(START))
        here = this_host()
        assert await store.next_generation("0/2") == 1  # the start before this one, of shard 0
        left = {
            "dead here": Owner(here, gone_pid(), "1/2", 7, "a"),
            "earlier start of shard 0": Owner("elsewhere", 4242, "0/2", 1, "b"),
            "a restarted container": Owner(here, os.getpid(), "1/2", 3, "c"),
            "alive here": Owner(here, os.getppid(), "1/2", 2, "d"),
            "shard 1 elsewhere": Owner("elsewhere", 4242, "1/2", 9, "e"),
        }
        older = "oldhost:77:abcd"  # as an older version of the bot named itself
        for n, owner in enumerate([*map(str, left.values()), older]):
            assert await store.claim(claim_key(n + 1), owner, 3600)
            assert await store.claim(f"extra:{n}", owner, 3600)

        announcer = Announcer(svc.commands.tables, svc.outlet, clock=svc.clock)
        assert await announcer.take_over("0/2", sole=False) == 6
        me = Owner.parse(announcer.owner)
        assert me is not None and (me.scope, me.generation, me.host) == ("0/2", 2, here)
        assert sorted(await store.claim_owners()) == sorted(
            [str(left["alive here"]), str(left["shard 1 elsewhere"]), older]
        )
        assert await store.claim("work", announcer.owner, 3600)
        assert await announcer.release_all() == 1

        alone = Announcer(svc.commands.tables, svc.outlet, clock=svc.clock)
        assert await alone.take_over() == 6, "unsharded: every claim found is a predecessor's"
        assert await store.claim_owners() == []
        assert await store.next_generation("all") == 2
    finally:
        await store.close()


async def test_every_post_names_what_it_announces_in_a_nonce_of_its_own(
    db_path: Path, renderers: tuple[FakeRenderer, FakeRenderer]
) -> None:
    """Handover posts are named by game, version and status; reminders by the wait they belong to
    and their number: equal in any process that makes the same post, different for any other post."""
    store = await db.open_store(db_path)
    try:
        svc = Service(store, renderers, ManualClock(START))
        await open_nim(svc, "remind=1h")
        for _ in range(2):
            svc.clock.advance(timedelta(hours=1, minutes=1))
            await svc.tick()
            (mover,) = await to_act(svc)
            await svc.commands.play(ctx(mover), "take 1")
            await svc.commands.announcer.drain()
            svc.clock.advance(timedelta(hours=1, minutes=1))
            await svc.tick()
        table = await svc.commands.tables.latest("chan")
        assert table is not None
        nonces = [p.nonce for p in svc.posts]
        assert all(n is not None and len(n) <= 25 for n in nonces), nonces
        assert len(set(nonces)) == len(nonces), nonces
        assert nonces[0] == f"g{table.record.id}.v0.active"
        assert len(svc.reminders()) >= 3 and all(p.nonce and ".r" in p.nonce for p in svc.reminders())
        assert post_nonce("g1", "x" * 40, limits=DISCORD_LIMITS) == post_nonce(
            "g1", "x" * 40, limits=DISCORD_LIMITS
        )
        assert len(post_nonce("g1", "x" * 40, limits=DISCORD_LIMITS)) <= 22
    finally:
        await svc.commands.announcer.drain()
        await store.close()
