"""Every command of the command tree has exactly one handler in each front end that offers it, and
no front end handles a command the tree does not describe: adding a command is one tree entry and
one handler per front end, and forgetting either fails here."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot import build_bot
from cogs.slash import command, group, path_of
from console.commands import HANDLERS
from launch import Settings
from table.play.command_tree import CONSOLE, DISCORD, commands_for, find


async def test_each_discord_command_has_one_handler(tmp_path: Path) -> None:
    bot = build_bot(Settings(database_path=tmp_path / "tree.sqlite3", sync_commands=False))
    await bot.prepare()
    try:
        handlers = [c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
        assert all(path_of(c) is not None for c in handlers), "a command made outside the tree"
        assert Counter(path_of(c) for c in handlers) == Counter(c.path for c in commands_for(DISCORD))
    finally:
        await bot.close()


def test_a_handler_for_a_command_the_tree_lacks_fails_at_once() -> None:
    with pytest.raises(LookupError):
        command("game.teleport")
    with pytest.raises(LookupError):
        command("clock.advance")  # the console's own
    with pytest.raises(LookupError):
        group("teleport")


def test_a_handler_whose_options_are_not_the_trees_fails_at_once() -> None:
    async def join(self: object, interaction: discord.Interaction, side: int | None = None) -> None:
        return None

    with pytest.raises(TypeError, match="team"):
        command("game.join")(join)

    async def board(
        self: object, interaction: discord.Interaction, text: bool = False, details: bool = False
    ) -> None:
        return None

    with pytest.raises(TypeError, match="details"):
        command("game.board")(board)


def test_each_console_command_has_one_handler() -> None:
    assert set(HANDLERS) == {c.path for c in commands_for(CONSOLE)}
    assert len(HANDLERS) == len(commands_for(CONSOLE))


def test_a_console_handler_for_a_command_the_tree_lacks_fails_at_once() -> None:
    with pytest.raises(LookupError):
        find("game.teleport", CONSOLE)
    with pytest.raises(LookupError):
        find("game.new.map_file", CONSOLE)
