"""A saved game this version cannot read never blocks its channel: it can always be closed."""

from __future__ import annotations

from pathlib import Path

import pytest

from table import Commands
from table.errors import Unreadable
from tests.postgres import run_sql
from tests.table.conftest import CtxFactory, current, start_nim


async def spoil_state(db_path: Path) -> None:
    """Write a state the engine cannot load, as a newer or broken version of the bot might have."""
    await run_sql(db_path, """UPDATE games SET state = '{"format": 999}' WHERE status = 'active'""")


async def test_an_unreadable_game_refuses_play_and_says_how_to_close_it(
    commands: Commands, ctx: CtxFactory, db_path: Path
) -> None:
    await start_nim(commands, ctx)
    await spoil_state(db_path)
    commands.tables._states.clear()  # a restart: nothing cached
    for attempt in (
        commands.play(ctx("alice"), "take 1"),
        commands.hand(ctx("bob")),
        commands.board(ctx("bob")),
        commands.resign(ctx("bob")),
        commands.draw(ctx("alice")),
    ):
        with pytest.raises(Unreadable) as err:
            await attempt
        assert "/game abort" in commands._t(err.value.msg, "en")
    (status,) = await commands.status(ctx("bob"))
    assert status.ephemeral and "cannot be read" in status.text
    assert await commands.autocomplete(ctx("alice"), "") == []


async def test_one_seated_player_closes_an_unreadable_game_without_a_vote(
    commands: Commands, ctx: CtxFactory, db_path: Path
) -> None:
    await start_nim(commands, ctx)
    await spoil_state(db_path)
    commands.tables._states.clear()
    (post,) = await commands.abort(ctx("bob"))
    assert not post.ephemeral
    assert (await current(commands)).record.status == "aborted"
    posts = await commands.new(ctx("carol"), "nim")  # the channel is free again
    assert "Carol" in posts[0].text
