"""A saved game this version cannot read never blocks its channel: it can always be closed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.errors import GameError
from table import Commands
from table.core.errors import Unreadable
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
        assert "/game abort" in commands.words.t(err.value.msg, "en")
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


@pytest.mark.parametrize("how", ["abort", "end"])
async def test_a_moderator_who_is_not_seated_closes_an_unreadable_game(
    commands: Commands, ctx: CtxFactory, db_path: Path, how: str
) -> None:
    """Nobody seated may be left to close it (they left the server): a moderator always can, with
    ``/game abort`` or ``/game end``, and the channel is free for a new game."""
    await start_nim(commands, ctx)
    await spoil_state(db_path)
    commands.tables._states.clear()
    moderator = replace(ctx("mia"), moderator=True)
    with pytest.raises(GameError):
        await commands.abort(ctx("zoe"))  # not seated, not a moderator: refused
    await (commands.abort(moderator) if how == "abort" else commands.end(moderator))
    assert (await current(commands)).record.status == ("aborted" if how == "abort" else "over")
    posts = await commands.new(ctx("carol"), "nim")
    assert "Carol" in posts[0].text
