"""The store's refusals reach the player as the engine's errors, with the same messages.

The store knows no game (``db.errors``); when another writer (a second process sharing the
database) moved a game on or ended it between the table's read and its write, the player still hears
"choose again on the latest board" or "the game is over", exactly as when the table saw it first.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import db
import i18n
from db.errors import Conflict, GameEnded, StaleVersion
from engine.errors import GameOver, StaleAction
from table import Commands
from table.core.errors import player_facing
from tests.table.conftest import CtxFactory, current, start_nim


async def refusing(error: Exception) -> None:
    raise error


async def test_a_stale_version_is_the_engines_stale_action_with_both_versions() -> None:
    with pytest.raises(StaleAction) as err:
        await player_facing(refusing(StaleVersion(7, given=2, current=3)))
    assert err.value.msg.key == "error.stale" and err.value.msg.params == {"given": 2, "current": 3}
    assert i18n.t(err.value.msg, "en") == i18n.t(StaleAction(given=2, current=3).msg, "en")


async def test_a_finished_game_is_the_engines_game_over_and_other_refusals_pass() -> None:
    with pytest.raises(GameOver) as err:
        await player_facing(refusing(GameEnded(7)))
    assert err.value.msg.key == "error.game_over" and err.value.msg.params == {}
    with pytest.raises(Conflict):
        await player_facing(refusing(Conflict("game not started")))
    assert await player_facing(refusing_nothing()) == 5


async def refusing_nothing() -> int:
    return 5


async def test_a_move_another_writer_got_in_first_is_stale_for_the_player(
    commands: Commands, ctx: CtxFactory
) -> None:
    await start_nim(commands, ctx)
    table = await current(commands)  # read before the other writer's move
    first = table.to_act()[0]
    store = commands.tables.store
    await store.apply_action(
        table.record.id, version=0, player=first, action="take 1", events=[], state={}, status="active"
    )
    with pytest.raises(StaleAction) as err:
        async with commands.tables.lock(table.record.channel):
            await commands.tables.apply(table, first, "take 2", version=0)
    assert err.value.msg.params == {"given": 0, "current": 1}
    assert await store.count_actions(table.record.id) == 1


async def test_a_move_on_a_game_ended_meanwhile_is_game_over(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx)
    table = await current(commands)
    store = commands.tables.store
    await store.finish_game(table.record.id, version=0, status="aborted", result=None)
    with pytest.raises(GameOver):
        async with commands.tables.lock(table.record.channel):
            await commands.tables.apply(table, table.to_act()[0], "take 1", version=0)


@pytest.mark.parametrize("vote", ["draw", "abort"])
async def test_a_vote_on_a_game_ended_meanwhile_is_game_over(
    commands: Commands, ctx: CtxFactory, monkeypatch: pytest.MonkeyPatch, vote: str
) -> None:
    await start_nim(commands, ctx)
    store = commands.tables.store
    add_vote: Callable[..., Awaitable[Any]] = store.add_vote

    async def ended_first(game_id: int, *args: Any, **kwargs: Any) -> Any:
        """Another process ends the game between the table's read and the vote's write."""
        await store.finish_game(game_id, version=0, status="aborted", result=None)
        return await add_vote(game_id, *args, **kwargs)

    monkeypatch.setattr(store, "add_vote", ended_first)
    with pytest.raises(GameOver):
        await getattr(commands, vote)(ctx("bob"))
    assert await store.votes((await current_game(store)).id, "draw") == {}


async def current_game(store: db.Store) -> db.GameRecord:
    record = await store.latest_game("chan")
    assert record is not None and record.status == "aborted"
    return record
