"""Both stores: lobby writes, atomic versioned moves, endings and votes.

Every test here runs twice (``store_target``): on a SQLite file and on a fresh PostgreSQL database of
a real server, so the two stores keep the same behaviour and hand back the same records.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import asyncpg
import pytest

import db
from db import ChannelBusy, Conflict, GameRecord, Seat
from db.errors import GameEnded, StaleVersion
from db.postgres import PostgresStore
from tests.fakediscord.world import HANG_LIMIT
from tests.postgres import run_sql

ALICE, BOB = Seat("a", "Alice"), Seat("b", "Bob", 1)


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[db.Store]:
    s = await db.open_store(store_target)
    yield s
    await s.close()


async def running(store: db.Store, channel: str = "c") -> GameRecord:
    rec = await store.create_game(
        channel=channel, game="nim", creator=ALICE, players=2, options={"k": "v"}, seed=7
    )
    await store.add_seat(rec.id, BOB)
    return await store.start_game(rec.id, state={"n": 0})


async def move(store: db.Store, rec: GameRecord, n: int, **kw: object) -> GameRecord:
    args: dict[str, object] = {
        "version": rec.version,
        "player": "a",
        "action": f"take {n}",
        "events": [{"key": "e", "params": {"n": n}}],
        "state": {"n": n},
        "status": "active",
    }
    args.update(kw)
    return await store.apply_action(rec.id, **args)  # type: ignore[arg-type]


async def test_create_join_and_start(store: db.Store) -> None:
    rec = await running(store)
    assert rec.status == "active" and rec.version == 0 and rec.state == {"n": 0}
    assert rec.seats == (ALICE, BOB) and rec.options == {"k": "v"} and rec.seed == 7
    assert await store.open_game("c") == rec
    assert await store.get_game(rec.id) == rec
    assert await store.open_game("elsewhere") is None


async def test_start_can_reorder_the_seats(store: db.Store) -> None:
    rec = await store.create_game(channel="c", game="nim", creator=ALICE, players=2, options={}, seed=1)
    await store.add_seat(rec.id, BOB)
    started = await store.start_game(rec.id, state={}, seats=[BOB, Seat("a", "Alice", 0)])
    assert started.player_ids == ["b", "a"] and started.seats[1].team == 0
    other = await store.create_game(channel="d", game="nim", creator=ALICE, players=2, options={}, seed=1)
    with pytest.raises(Conflict):
        await store.start_game(other.id, state={}, seats=[BOB])  # not the seated players


async def test_one_open_game_per_channel_is_enforced_by_the_database(
    store: db.Store, store_target: str | Path
) -> None:
    rec = await running(store)
    with pytest.raises(ChannelBusy) as err:
        await store.create_game(channel="c", game="nim", creator=BOB, players=2, options={}, seed=1)
    assert err.value.game == "nim" and err.value.game_id == rec.id
    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
        await run_sql(
            store_target,
            "INSERT INTO games (channel, game, status, creator, players, seed, created_at, updated_at)"
            " VALUES ('c', 'nim', 'lobby', 'x', 2, 1, 't', 't')",
        )
    await store.finish_game(rec.id, version=0, status="aborted", result=None)
    again = await store.create_game(channel="c", game="nim", creator=BOB, players=2, options={}, seed=1)
    assert (await store.latest_game("c")) == again


async def test_lobby_writes_check_the_lobby(store: db.Store) -> None:
    rec = await store.create_game(channel="c", game="nim", creator=ALICE, players=2, options={}, seed=1)
    with pytest.raises(Conflict):
        await store.add_seat(rec.id, Seat("a", "Again"))
    await store.add_seat(rec.id, BOB)
    with pytest.raises(Conflict):
        await store.add_seat(rec.id, Seat("c", "Carol"))  # full
    handed = await store.remove_seat(rec.id, "a")
    assert handed.creator == "b" and handed.player_ids == ["b"]
    closed = await store.remove_seat(rec.id, "b")
    assert closed.status == "aborted" and closed.seats == ()
    with pytest.raises(Conflict):
        await store.add_seat(rec.id, ALICE)


async def test_a_move_writes_action_version_and_state_together(store: db.Store) -> None:
    rec = await running(store)
    after = await move(store, rec, 3)
    assert after.version == 1 and after.state == {"n": 3}
    log = await store.actions(rec.id)
    assert [(a.seq, a.player, a.action, a.events) for a in log] == [
        (1, "a", "take 3", [{"key": "e", "params": {"n": 3}}])
    ]
    after = await move(store, after, 4)
    assert [a.seq for a in await store.actions(rec.id, offset=1, limit=5)] == [2]
    assert await store.count_actions(rec.id) == 2


async def test_a_stale_version_is_refused_and_writes_nothing(store: db.Store) -> None:
    rec = await running(store)
    await move(store, rec, 1)
    with pytest.raises(StaleVersion) as err:
        await move(store, rec, 2)  # still at version 0
    assert (err.value.given, err.value.current) == (0, 1)
    with pytest.raises(StaleVersion):
        await move(store, rec, 2, version=5)  # a version from the future
    now = await store.get_game(rec.id)
    assert now is not None and now.version == 1 and now.state == {"n": 1}
    assert await store.count_actions(rec.id) == 1


async def test_a_failure_inside_the_move_leaves_the_previous_state(
    store: db.Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    rec = await move(store, await running(store), 1)

    def crash() -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(store, "_before_state_update", crash)
    with pytest.raises(RuntimeError, match="disk on fire"):
        await move(store, rec, 2)
    monkeypatch.undo()
    now = await store.get_game(rec.id)
    assert now == rec  # version, state and timestamps untouched
    assert [a.seq for a in await store.actions(rec.id)] == [1]
    # the store is usable afterwards and the same version can be played
    assert (await move(store, rec, 2)).version == 2


async def test_a_finished_game_accepts_no_more_moves(store: db.Store) -> None:
    rec = await running(store)
    over = await move(store, rec, 9, status="over", result={"winners": ["a"]})
    assert over.status == "over" and over.result == {"winners": ["a"]}
    with pytest.raises(GameEnded):
        await move(store, over, 10)
    with pytest.raises(GameEnded):
        await store.finish_game(rec.id, version=over.version, status="aborted", result=None)
    with pytest.raises(GameEnded):
        await store.add_vote(rec.id, "draw", "a", version=1)
    assert await store.open_game("c") is None and await store.latest_game("c") == over


async def test_draw_offers_lapse_with_a_move_but_abort_votes_stay(store: db.Store) -> None:
    rec = await running(store)
    assert await store.add_vote(rec.id, "draw", "a", version=0) == {"a": 0}
    assert await store.add_vote(rec.id, "abort", "b", version=0) == {"b": 0}
    rec = await move(store, rec, 1)
    assert await store.votes(rec.id, "draw") == {}
    assert await store.votes(rec.id, "abort") == {"b": 0}
    await store.clear_votes(rec.id, "abort")
    assert await store.votes(rec.id, "abort") == {}


async def test_finishing_clears_votes_and_keeps_the_version(store: db.Store) -> None:
    rec = await move(store, await running(store), 1)
    await store.add_vote(rec.id, "abort", "a", version=1)
    with pytest.raises(StaleVersion):
        await store.finish_game(rec.id, version=0, status="over", result=None)
    done = await store.finish_game(rec.id, version=1, status="over", result={"winners": ["b"]})
    assert done.status == "over" and done.version == 1 and done.result == {"winners": ["b"]}
    assert await store.votes(rec.id, "abort") == {}


async def test_games_survive_closing_the_store(store_target: str | Path) -> None:
    store = await db.open_store(store_target)
    rec = await move(store, await running(store), 5)
    await store.close()
    store = await db.open_store(store_target)
    try:
        assert await store.open_game("c") == rec
    finally:
        await store.close()


async def test_two_stores_on_one_database_never_apply_the_same_version_twice(
    store_target: str | Path,
) -> None:
    first, second = await db.open_store(store_target), await db.open_store(store_target)
    try:
        rec = await running(first)
        seen_by_second = await second.get_game(rec.id)
        assert seen_by_second == rec
        await move(first, rec, 1)
        with pytest.raises(StaleVersion):
            await move(second, seen_by_second, 2)
        assert [a.action for a in await second.actions(rec.id)] == ["take 1"]
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize("implementation", [db.SqliteStore, PostgresStore])
def test_each_store_implements_the_store_interface(implementation: type) -> None:
    parts = [part for part in db.Store.__mro__[1:] if part.__module__ == "db.protocols"]
    members = [name for part in parts for name in vars(part) if not name.startswith("_")]
    assert {"apply_action", "open_game", "create_game", "votes"} <= set(members)
    assert len(members) == len(set(members)), "a method belongs to one part of the interface"
    for name in members:
        expected = inspect.signature(getattr(db.Store, name))
        actual = inspect.signature(getattr(implementation, name))
        assert list(actual.parameters) == list(expected.parameters), name
        assert inspect.iscoroutinefunction(getattr(implementation, name)), name


async def test_an_announcement_is_written_only_over_the_row_its_writer_read(store: db.Store) -> None:
    """Two writers (two processes, or a restart racing a late task) never both act on one wait:
    each write names the revision it read, and the second is refused."""
    rec = await running(store)
    assert await store.unannounced() == [rec], "a started game its channel was never shown"
    first = db.Announcement(rec.id, 0, "active", since=0, summary_from=0, to_act=("a",), message="m1")
    saved = await store.save_announcement(first)
    assert saved is not None and saved.rev == 1 and saved.to_act == ("a",)
    assert await store.save_announcement(first) is None, "a second first write"
    assert await store.unannounced() == []
    one = await store.save_announcement(replace(saved, reminders=1))
    assert one is not None and one.rev == 2
    assert await store.save_announcement(replace(saved, reminders=1)) is None, "a stale revision"
    assert (await store.announcement(rec.id)) == one
    moved = await move(store, rec, 1)
    assert [r.id for r in await store.unannounced()] == [moved.id], "a stored move not yet shown"
    assert await store.game_and_announcement(rec.id) == (moved, one), "read together"
    assert await store.game_and_announcement(rec.id + 1) == (None, None)


async def test_a_game_without_an_announcement_reads_with_none(store: db.Store) -> None:
    rec = await running(store)
    assert await store.game_and_announcement(rec.id) == (rec, None)


async def test_announcing_reads_what_a_post_needs_in_one_snapshot(store: db.Store) -> None:
    """The game, its announcement, its log from the announcement's ``summary_from``, its notes and its
    server's settings, each as the store's own reads give them."""
    rec = await running(store)
    empty = await store.announcing(rec.id)
    assert (empty.game, empty.announcement, empty.after, empty.log, empty.notes) == (rec, None, 0, (), ())
    assert empty.guild_settings == {}, "a game outside a server"
    await store.set_guild(rec.id, "g")
    await store.set_guild_settings("g", {"language": "fr"})
    for n in (1, 2, 3):
        rec = await move(store, rec, n)
    await store.add_note(rec.id, 2, "a", {"key": "k", "params": {}})
    shown = await store.save_announcement(
        db.Announcement(rec.id, 3, "active", since=2, summary_from=1, to_act=("a",), message="m")
    )
    read = await store.announcing(rec.id)
    assert (read.game, read.announcement) == (await store.get_game(rec.id), shown)
    assert read.after == 1 and list(read.log) == await store.actions(rec.id, offset=1)
    assert list(read.notes) == await store.notes(rec.id)
    assert read.guild_settings == {"language": "fr"}
    assert read.actions(2, 3) == await store.actions(rec.id, offset=2, limit=1)
    assert read.actions(3, 3) == []
    with pytest.raises(ValueError):
        read.actions(0, 3)  # before what was read
    gone = await store.announcing(rec.id + 1)
    assert (gone.game, gone.announcement, gone.log) == (None, None, ())


async def test_running_with_finds_the_running_games_a_prefix_sits_or_acts_in(store: db.Store) -> None:
    """The games computer players sit in (a seat ``bot:...``) or stand in at (a note's actor)."""
    plain = await running(store, "plain")
    seated = await store.create_game(
        channel="seated", game="nim", creator=ALICE, players=2, options={}, seed=1
    )
    await store.add_seat(seated.id, Seat("bot:1:easy", "Bot 1 (easy)"))
    lobby = await store.create_game(channel="lobby", game="nim", creator=ALICE, players=2, options={}, seed=1)
    await store.add_seat(lobby.id, Seat("bot:1:easy", "Bot 1 (easy)"))
    seated = await store.start_game(seated.id, state={"n": 0})
    noted = await running(store, "noted")
    await store.add_note(noted.id, 0, "bot:stand-in:normal", {"key": "k", "params": {}})
    await store.add_note(plain.id, 0, "a", {"key": "k", "params": {}})
    await store.add_note(plain.id, 0, None, {"key": "k", "params": {}})
    lookalike = await running(store, "lookalike")
    await store.add_note(lookalike.id, 0, "botanist", {"key": "k", "params": {}})
    found = await store.running_with("bot:")
    assert [r.channel for r in found] == ["seated", "noted"], "running games only, in order"
    assert found[0].seats[-1].player == "bot:1:easy"
    await store.finish_game(seated.id, version=seated.version, status="over", result=None)
    assert [r.channel for r in await store.running_with("bot:")] == ["noted"]
    assert await store.running_with("bo_") == [], "the prefix is matched as written"


async def test_due_waits_are_those_whose_reminder_or_deadline_has_come(store: db.Store) -> None:
    rec = await running(store)
    wait = db.Announcement(
        rec.id, 0, "active", since=0, summary_from=0, next_reminder="2026-12-02T09:00:00+00:00",
        deadline="2026-12-04T09:00:00+00:00",
    )  # fmt: skip
    saved = await store.save_announcement(wait)
    assert saved is not None
    assert await store.due("2026-12-02T08:59:59+00:00") == []
    assert [a for _r, a in await store.due("2026-12-02T09:00:00+00:00")] == [saved]
    done = await store.save_announcement(replace(saved, next_reminder=None, deadline_done=True))
    assert done is not None and await store.due("2027-01-01T00:00:00+00:00") == []


# ---- claims: work one process does at a time --------------------------------------------------------


async def test_a_claim_is_held_by_one_owner_until_released(store_target: str | Path) -> None:
    first, second = await db.open_store(store_target), await db.open_store(store_target)
    try:
        assert await first.claim("game:1", "p1", 60)
        assert not await second.claim("game:1", "p2", 60), "held by another process"
        assert await first.claim("game:1", "p1", 60), "its owner renews it"
        assert await second.claim("game:2", "p2", 60), "another key is free"
        await second.release("game:1", "p2")  # not its claim: nothing happens
        assert not await second.claim("game:1", "p2", 60)
        await first.release("game:1", "p1")
        assert await second.claim("game:1", "p2", 60)
        assert not await first.claim("game:1", "p1", 60)
    finally:
        await first.close()
        await second.close()


async def test_a_lapsed_claim_is_taken_over(store_target: str | Path) -> None:
    """A process killed while holding a claim never releases it: its lease ends it."""
    first, second = await db.open_store(store_target), await db.open_store(store_target)
    try:
        assert await first.claim("game:1", "killed", 0)
        assert await second.claim("game:1", "alive", 60), "the lease is over: the claim is free"
        assert not await first.claim("game:1", "killed", 60)
    finally:
        await first.close()
        await second.close()


async def test_a_sqlite_file_forgets_claims_when_opened(tmp_path: Path) -> None:
    """SQLite serves one process: a claim found at opening was left by a process that is gone."""
    store = await db.open_store(tmp_path / "one.sqlite3")
    assert await store.claim("game:1", "gone", 3600)
    await store.close()
    store = await db.open_store(tmp_path / "one.sqlite3")
    try:
        assert await store.claim("game:1", "restarted", 60)
    finally:
        await store.close()


async def test_an_undo_by_consent_keeps_the_log_and_lapses_with_the_next_move(store: db.Store) -> None:
    rec = await move(store, await running(store), 3)
    rec = await move(store, rec, 4)
    with pytest.raises(StaleVersion):
        await store.request_undo(rec.id, "a", first=2, version=1)
    asked = await store.request_undo(rec.id, "a", first=2, version=2)
    assert await store.undo_request(rec.id) == asked and asked.accepted == ()
    with pytest.raises(Conflict):
        await store.accept_undo(rec.id, "b", version=1)
    agreed = await store.accept_undo(rec.id, "b", version=2)
    assert agreed.accepted == ("b",) and (await store.undo_request(rec.id)) == agreed
    after = await store.apply_undo(rec.id, version=2, player="a", undone=[2], events=[], state={"n": 3})
    assert after.version == 3 and after.state == {"n": 3}
    log = await store.actions(rec.id)
    assert [(a.seq, a.kind, a.undone) for a in log] == [
        (1, "move", False),
        (2, "move", True),
        (3, "undo", False),
    ]
    assert await store.undo_request(rec.id) is None
    with pytest.raises(StaleVersion):
        await store.apply_undo(rec.id, version=2, player="a", undone=[2], events=[], state={"n": 0})
    await store.request_undo(rec.id, "a", first=3, version=3)
    await move(store, after, 5)
    assert await store.undo_request(rec.id) is None, "a move lapses a standing request"


def test_a_transaction_whose_commit_fails_is_rolled_back() -> None:
    """A constraint checked at COMMIT (a deferred foreign key) fails the commit itself: the
    connection must not be left inside the transaction, or the store's next write would join it."""
    import sqlite3

    from db.sqlite import _transaction

    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
    conn.execute(
        "CREATE TABLE child (id INTEGER PRIMARY KEY,"
        " parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)"
    )
    with pytest.raises(sqlite3.IntegrityError):
        _transaction(conn, lambda c: c.execute("INSERT INTO child VALUES (1, 99)"), write=True)
    assert not conn.in_transaction
    assert conn.execute("SELECT COUNT(*) FROM child").fetchone() == (0,)
    assert _transaction(conn, lambda c: c.execute("INSERT INTO parent VALUES (1)").rowcount, write=True) == 1
    conn.close()


async def test_a_store_transaction_whose_commit_fails_leaves_the_store_usable(tmp_path: Path) -> None:
    import sqlite3

    from db.sqlite import open_store

    store = await open_store(tmp_path / "commit.sqlite3")
    try:
        await store._conn.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        await store._conn.execute(
            "CREATE TABLE child (id INTEGER PRIMARY KEY,"
            " parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)"
        )
        with pytest.raises(sqlite3.IntegrityError):
            async with store._tx() as c:
                await c.execute("INSERT INTO child VALUES (1, 99)")
        assert not store._conn.in_transaction
        await store.set_meta("after", "a failed commit")
        assert await store.meta("after") == "a failed commit"
    finally:
        await store.close()


async def test_quick_reads_answer_while_every_store_connection_is_taken(store: db.Store) -> None:
    """The quick read path (autocomplete) has a connection of its own: with the store's writer and
    its reader held (SQLite), or every connection of its pool taken (PostgreSQL), it still reads the
    last commit."""
    rec = await move(store, await running(store), 3)
    async with contextlib.AsyncExitStack() as held:
        if isinstance(store, PostgresStore):
            pool = store._pool
            for _ in range(pool.get_max_size()):
                await held.enter_async_context(pool.acquire())
        else:
            assert isinstance(store, db.SqliteStore)
            await held.enter_async_context(store._lock)
            await held.enter_async_context(store._read_lock)
        quick = store.reads  # type: ignore[attr-defined]
        assert await asyncio.wait_for(quick.open_game("c"), HANG_LIMIT) == rec
        assert await asyncio.wait_for(quick.latest_game("c"), HANG_LIMIT) == rec
        assert await asyncio.wait_for(quick.open_game("elsewhere"), HANG_LIMIT) is None


async def test_quick_reads_cannot_write(store: db.Store) -> None:
    """The quick read path is read-only: a bug there can never change a game."""
    await running(store)
    quick = store.reads  # type: ignore[attr-defined]
    if isinstance(store, PostgresStore):
        async with quick._pool.acquire() as conn:
            with pytest.raises(asyncpg.ReadOnlySQLTransactionError):
                await conn.execute("UPDATE games SET version = 99")
    else:
        with pytest.raises(sqlite3.OperationalError):
            await quick._conn.execute("UPDATE games SET version = 99")
    assert (await store.open_game("c")).version == 0  # type: ignore[union-attr]


async def test_a_channels_fault_is_recorded_once_updated_and_dropped_with_its_notices(
    store: db.Store,
) -> None:
    first = db.ChannelFault(
        "c1", "permissions", ("attach_files",), "2026-12-01T18:00:00", 1, "2026-12-01T18:01:00"
    )
    assert await store.add_fault(first)
    again = replace(first, kind="locked", missing=(), since="2026-12-01T19:00:00")
    assert not await store.add_fault(again), "a second refusal does not make a second fault"
    assert await store.channel_faults() == [first]
    later = replace(first, missing=("attach_files", "view_channel"), tries=2, next_try="2026-12-01T18:03:00")
    await store.update_fault(later)
    await store.add_fault(
        db.ChannelFault("c2", "locked", (), "2026-12-01T18:00:00", 1, "2026-12-01T18:01:00")
    )
    assert [f.channel for f in await store.channel_faults()] == ["c1", "c2"]
    assert (await store.channel_faults())[0] == later
    event = {"key": "svc.fault.permissions", "params": {"channel": "<#c1>", "permissions": []}}
    await store.add_notices(["a", "b"], "c1", event)
    await store.add_notices(["a"], "c2", {"key": "svc.fault.locked", "params": {}})
    assert await store.noticed_players() == ["a", "b"]
    assert await store.drop_fault("c1") and not await store.drop_fault("c1")
    assert [f.channel for f in await store.channel_faults()] == ["c2"]
    assert await store.noticed_players() == ["a"], "the notices about a channel that works again go"
    (told,) = await store.take_notices("a")
    assert (told.player, told.channel, told.event["key"]) == ("a", "c2", "svc.fault.locked")
    assert await store.take_notices("a") == [], "each notice is told once"


async def test_notices_come_oldest_first(store: db.Store) -> None:
    for n in range(3):
        await store.add_notices(["a"], f"c{n}", {"key": f"k{n}", "params": {}})
    assert [n.event["key"] for n in await store.take_notices("a")] == ["k0", "k1", "k2"]


async def test_a_players_own_settings_are_merged_and_read_by_player(store: db.Store) -> None:
    assert await store.player_settings(["a", "b"]) == {}
    assert await store.set_player_settings("a", {"zone": "Europe/Paris", "quiet": "22:00-07:00"}) == {
        "zone": "Europe/Paris",
        "quiet": "22:00-07:00",
    }
    assert await store.set_player_settings("a", {"quiet": None, "remind": "12h"}) == {
        "zone": "Europe/Paris",
        "remind": "12h",
    }
    await store.set_player_settings("b", {"remind": "off"})
    assert await store.player_settings(["a", "b", "c", "a"]) == {
        "a": {"zone": "Europe/Paris", "remind": "12h"},
        "b": {"remind": "off"},
    }


async def test_away_periods_end_early_and_a_new_one_ends_the_last(store: db.Store) -> None:
    t = "2026-12-0{}T00:00:00+00:00".format
    first = await store.add_away("a", "g", t(1), t(8))
    assert (first.player, first.guild, first.since, first.until) == ("a", "g", t(1), t(8))
    await store.add_away("a", "other", t(1), t(3))  # another server's is its own
    again = await store.add_away("a", "g", t(2), t(9))  # the first ends where the second begins
    assert [(p.since, p.until) for p in await store.away("g", ["a"], t(1))] == [(t(1), t(2)), (t(2), t(9))]
    ended = await store.end_away("a", "g", t(4))
    assert ended is not None and ended.id == again.id and ended.until == t(4)
    assert await store.end_away("a", "g", t(5)) is None, "nobody away then"
    assert [p.until for p in await store.away("g", ["a", "b"], t(3))] == [t(4)]
    assert await store.away("g", [], t(1)) == []


async def test_an_announcement_keeps_its_timing(store: db.Store) -> None:
    rec = await running(store)
    timing = {"players": {"a": {"next": "2026-12-02T00:00:00+00:00", "pace": 3600}}, "paused": {"b": 60}}
    saved = await store.save_announcement(db.Announcement(rec.id, 0, "active", 0, 0, ("a",), timing=timing))
    assert saved is not None and saved.timing == timing
    again = await store.save_announcement(replace(saved, timing={}))
    assert again is not None and (await store.announcement(rec.id)) == again and again.timing == {}


async def test_a_league_is_one_open_per_channel_and_written_over_the_revision_read(store: db.Store) -> None:
    league = await store.create_league(
        channel="hall", guild="g", name="Spring", game="warchest", creator="a", doc={"players": []}
    )
    assert (league.status, league.rev, league.doc) == ("signup", 1, {"players": []})
    with pytest.raises(db.LeagueBusy) as busy:
        await store.create_league(
            channel="hall", guild="g", name="Other", game="warchest", creator="b", doc={}
        )
    assert busy.value.name == "Spring"
    assert await store.open_league("hall") == league
    started = await store.save_league(replace(league, status="running", doc={"round": 1}))
    assert started is not None and started.rev == 2 and started.doc == {"round": 1}
    assert await store.save_league(replace(league, doc={"round": 9})) is None, "a stale revision"
    assert (await store.get_league(league.id)) == started
    assert [lg.id for lg in await store.leagues(("running",))] == [league.id]
    assert await store.leagues(("running",), guild="other") == []
    over = await store.save_league(replace(started, status="over"))
    assert over is not None and await store.open_league("hall") is None
    again = await store.create_league(
        channel="hall", guild="g", name="Summer", game="cryhavoc", creator="a", doc={}
    )
    assert again.id != league.id
    assert [lg.name for lg in await store.leagues(("signup", "over"), guild="g")] == ["Spring", "Summer"]
