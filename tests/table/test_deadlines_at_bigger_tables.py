"""Deadlines at tables of more than two: a forfeit costs the absent player's whole side (a War Chest
team) and only that side (the other Cry Havoc players all win, as after a resignation)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import db
import engine
from table.core.clock import ManualClock
from tests.table.conftest import FakeRenderer
from tests.table.test_play_by_post import START, Service, ctx

SEATS = ("alice", "bob", "carol", "dave")


@pytest.fixture
async def service(db_path: Path, renderers: tuple[FakeRenderer, FakeRenderer]) -> AsyncIterator[Service]:
    store = await db.open_store(db_path)
    svc = Service(store, renderers, ManualClock(START))
    yield svc
    await svc.commands.announcer.drain()
    await store.close()


async def one_absent(svc: Service, name: str, players: int) -> str:
    """Open ``name`` for ``players`` with a forfeit deadline, play until one player alone must act."""
    cmds = svc.commands
    await cmds.new(ctx("alice"), name, players, "seed=3 remind=off deadline=1d on_deadline=forfeit")
    for seat in SEATS[1:players]:
        await cmds.join(ctx(seat))
    await cmds.start(ctx("alice"))
    await cmds.announcer.drain()
    game, rng = engine.get_game(name), random.Random(5)
    for _ in range(300):
        table = await cmds.tables.latest("chan")
        assert table is not None and table.state is not None
        acting = table.to_act()
        if len(acting) == 1 and table.record.version >= 3:
            return acting[0]
        player = rng.choice(acting)
        await cmds.play(ctx(player), str(rng.choice(game.legal_actions(table.state, player))))
        await cmds.announcer.drain()
    raise AssertionError("nobody ever acted alone")


@pytest.mark.parametrize(("name", "players"), [("warchest", 4), ("cryhavoc", 3), ("cryhavoc", 4)])
async def test_a_forfeit_costs_the_absent_players_side_only(
    service: Service, name: str, players: int
) -> None:
    absent = await one_absent(service, name, players)
    await service.later(hours=25)
    table = await service.commands.tables.latest("chan")
    assert table is not None and table.record.status == "over" and table.record.result is not None
    winners = set(table.record.result["winners"])
    side = {p for p in table.record.player_ids if table.side_of(p) == table.side_of(absent)}
    assert winners == set(table.record.player_ids) - side, "every other side wins; the absent side loses"
    if name == "warchest":
        assert len(side) == 2 and len(winners) == 2, "a team loses together"
    end = service.posts[-1]
    assert "missed the deadline" in end.text and set(end.mentions) == set(table.record.player_ids)
