"""Discord adapters: slash commands, autocomplete and the error handler.

``install`` puts the commands on a bot and the catalog translator on its tree;
everything they do goes through ``table.play.commands.Commands``.

Answer first. Every command, button and menu is acknowledged (deferred) before any store or engine work
(``GameCog._acknowledged``): Discord's 3 seconds run from the moment it sent the interaction, and in a burst a
move may queue behind a table's lock, the store's writer and the drawings of other channels. Moves and private
commands defer privately, the others publicly; a refusal then deletes the public "thinking..." and answers
privately (``Responder``). When Discord refuses the acknowledgement (10062: too late; 40060: answered
elsewhere) nothing runs, since nobody would be told. Autocomplete answers from the store's quick read path
(``db.reads``), never from a connection a burst keeps busy.

The table layer's handlers raise ``engine.errors.GameError`` for a refused request (nothing changed); the one
error handler renders ``err.msg`` in ``ctx.locale``, ephemerally. The first post answers the interaction,
later ones are follow-ups. A move is answered with a private confirmation; what the channel sees of it is the
announcer's (``table.posting.announce``), sent through ``cogs/outlet.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.channels import ChannelCog
from cogs.components import GameButton, GameMenu, LeagueButton
from cogs.game import GameCog
from cogs.glue import OFFERS, ORDER, completers, router
from cogs.league import LeagueCog
from cogs.service import ServiceCog
from cogs.slash import build
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
    """Add the slash commands, made from the command tree, and the cogs to ``bot``, and localise
    them through the catalog.

    ``scheduler`` (reminders, deadlines, catch-up posts) runs every ``tick_seconds`` once the bot
    is ready; without one (tests of the commands alone) nothing is timed.
    """
    cog = GameCog(table, announcer, leagues)
    await bot.add_cog(cog)
    for made in build(router(cog), offers=OFFERS, completers=completers(cog), order=ORDER):
        bot.tree.add_command(made)
    await bot.add_cog(LeagueCog(cog, leagues))
    bot.add_dynamic_items(GameButton, GameMenu, LeagueButton, OtherComponent)
    await bot.add_cog(ServiceCog(bot, cog, scheduler, tick_seconds=tick_seconds))
    if announcer is not None:  # the channels' news matter to a bot that announces
        await bot.add_cog(ChannelCog(table))
    await bot.tree.set_translator(CatalogTranslator())
    return cog


__all__ = ["CatalogTranslator", "ChannelCog", "GameCog", "GameTree", "LeagueCog", "ServiceCog", "install"]
