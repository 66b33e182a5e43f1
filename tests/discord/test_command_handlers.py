"""Both front ends are made from the command tree: every Discord command is built from its entry and
every console line dispatched by it, each reaching the entry's one handler, which takes the options
the tree passes it; a glue for a command the tree lacks fails at import. A command added to a copy of
the tree with one handler is offered on both front ends, with nothing else written."""

from __future__ import annotations

import inspect
from collections import Counter
from pathlib import Path

import pytest
from discord import app_commands

from bot import build_bot
from cogs.game import GameCog
from cogs.glue import GLUE
from cogs.slash import path_of
from console.commands import GLUE as CONSOLE_GLUE
from console.commands import HANDLERS
from launch import Settings
from table.core.posts import Ctx
from table.play.command_tree import COMMANDS, CONSOLE, DISCORD, commands_for, find


async def test_each_discord_command_is_made_from_the_tree_and_its_handler_takes_its_options(
    tmp_path: Path,
) -> None:
    bot = build_bot(Settings(database_path=tmp_path / "tree.sqlite3", sync_commands=False))
    await bot.prepare()
    try:
        made = [c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
        assert all(path_of(c) is not None for c in made), "a command made outside the tree"
        assert Counter(path_of(c) for c in made) == Counter(c.path for c in commands_for(DISCORD))
        cog = bot.get_cog("GameCog")
        assert isinstance(cog, GameCog)
        ctx = Ctx("c", "u", "U", "en", "en")
        for entry in COMMANDS:
            if entry.path in GLUE or entry.path in CONSOLE_GLUE:
                continue
            owner, name = entry.runs
            handler = getattr(cog.leagues if owner == "leagues" else cog.table, name)
            passed = {o.argument: o.default for o in entry.options if o.passed}
            inspect.signature(handler).bind(ctx, **passed)  # raises when a parameter is not the tree's
    finally:
        await bot.close()


def test_glue_for_a_command_the_tree_lacks_fails_at_once() -> None:
    with pytest.raises(LookupError):
        find("game.teleport", DISCORD)
    with pytest.raises(LookupError):
        find("clock.advance", DISCORD)  # the console's own
    with pytest.raises(LookupError):
        find("game.new.map_file", CONSOLE)


def test_each_console_command_has_one_handler() -> None:
    assert set(HANDLERS) == {c.path for c in commands_for(CONSOLE)}
    assert len(HANDLERS) == len(commands_for(CONSOLE))
    assert set(CONSOLE_GLUE) <= set(HANDLERS)
