"""Discord adapters: slash commands, autocomplete and the error handler.

``install`` puts the commands on a bot and the catalog translator on its tree;
everything they do goes through ``table.play.commands.Commands``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.channels import ChannelCog
from cogs.components import GameButton, GameMenu, LeagueButton
from cogs.game import GameCog
from cogs.league import LeagueCog
from cogs.service import ServiceCog
from cogs.translator import CatalogTranslator
from cogs.tree import GameTree, OtherComponent

if TYPE_CHECKING:
    from discord.ext import commands

    from table.leagues.service import Leagues
    from table.play.commands import Commands
    from table.posting.announce import Announcer
    from table.posting.schedule import Scheduler


async def install(
    bot: commands.Bot,
    table: Commands,
    *,
    announcer: Announcer | None = None,
    scheduler: Scheduler | None = None,
    tick_seconds: float = 60.0,
    leagues: Leagues | None = None,
) -> GameCog:
    """Add the game and service commands to ``bot`` and localise them through the catalog.

    ``scheduler`` (reminders, deadlines, catch-up posts) runs every ``tick_seconds`` once the bot
    is ready; without one (tests of the commands alone) nothing is timed.
    """
    cog = GameCog(table, announcer)
    await bot.add_cog(cog)
    await bot.add_cog(LeagueCog(cog, leagues))
    bot.add_dynamic_items(GameButton, GameMenu, LeagueButton, OtherComponent)
    await bot.add_cog(ServiceCog(bot, cog, scheduler, tick_seconds=tick_seconds))
    if announcer is not None:  # the channels' news matter to a bot that announces
        await bot.add_cog(ChannelCog(table))
    await bot.tree.set_translator(CatalogTranslator())
    return cog


__all__ = ["CatalogTranslator", "ChannelCog", "GameCog", "GameTree", "LeagueCog", "ServiceCog", "install"]
