"""Discord adapters: slash commands, autocomplete and the error handler.

``install`` puts the commands on a bot and the catalog translator on its tree;
everything they do goes through ``table.commands.Commands``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.game import GameCog
from cogs.translator import CatalogTranslator
from cogs.tree import GameTree

if TYPE_CHECKING:
    from discord.ext import commands

    from table.commands import Commands


async def install(bot: commands.Bot, table: Commands) -> GameCog:
    """Add the game commands to ``bot`` and localise them through the catalog."""
    cog = GameCog(table)
    await bot.add_cog(cog)
    await bot.tree.set_translator(CatalogTranslator())
    return cog


__all__ = ["CatalogTranslator", "GameCog", "GameTree", "install"]
