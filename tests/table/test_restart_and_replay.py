"""Games survive restarts; the action log replays to the stored state."""

from __future__ import annotations

from typing import Any

import db
from table import Commands, replay_game
from tests.table.conftest import CtxFactory, FakeRenderer, current, last_post, make_tables, start_nim
from tests.table.nim import NIM, lookup


async def test_a_game_resumes_after_a_restart(
    db_path: Any, ctx: CtxFactory, renderers: tuple[FakeRenderer, FakeRenderer]
) -> None:
    store = await db.open_store(db_path)
    commands = Commands(make_tables(store, renderers))
    await start_nim(commands, ctx, options="heap=10")
    first = (await current(commands)).to_act()[0]
    await commands.play(ctx(first), "take 3")
    await commands.draw(ctx(first))
    await commands.announcer.drain()
    await store.close()

    store = await db.open_store(db_path)  # a new process: nothing carried over in memory
    try:
        commands = Commands(make_tables(store, renderers))
        table = await current(commands)
        assert table.record.version == 1 and table.state["heap"] == 7
        assert await store.votes(table.record.id, "draw") == {first: 1}
        nxt = table.to_act()[0]
        assert nxt != first
        await commands.play(ctx(nxt), "v1:take 2")
        assert (await last_post(commands)).mentions == (first,)
        assert (await current(commands)).state["heap"] == 5
    finally:
        await commands.announcer.drain()
        await store.close()


async def test_replay_rebuilds_the_stored_state(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx, options="heap=40 max=3")
    moves = [3, 1, 2, 2, 3, 1, 1, 3]
    for n in moves:
        table = await current(commands)
        await commands.play(ctx(table.to_act()[0]), f"take {n}")
    table = await current(commands)
    replayed = await replay_game(commands.tables.store, lookup, table.record.id)
    assert NIM.dump(replayed) == table.record.state
    assert replayed["heap"] == 40 - sum(moves)
    # the hands come from the seeded generator, so a wrong log order would not match
    assert replayed["hands"] == table.state["hands"]
