"""The ``/league`` commands' choices and the sign-up card's buttons: thin adapters over ``table.leagues``.

The ``/league`` slash commands are made from the command tree (``cogs.slash``) and answered as the
game's are (``GameCog.command``: acknowledged first, a refusal told privately); what a league posts
in its channel and its games' threads goes through the announcer's outlet and ``cogs.places``.
Discord cannot run a group of subcommands by itself, so the console's ``/league`` is ``/league
status`` here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.translator import label
from engine import GameError
from table.leagues.book import FORMATS

if TYPE_CHECKING:
    from cogs.game import GameCog
    from table.core.posts import Ctx, Post
    from table.leagues.service import Leagues


def format_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=label(f"cmd.choice.league_format.{f}"), value=f) for f in FORMATS]


class LeagueCog(commands.Cog):
    """The sign-up card's buttons (``/league``'s commands are made from the command tree, ``cogs.slash``)."""

    def __init__(self, game: GameCog, leagues: Leagues | None) -> None:
        self.game = game
        self.leagues = leagues

    def _press(self, league: int, action: str) -> Callable[[Ctx], Awaitable[list[Post]]]:
        async def run(ctx: Ctx) -> list[Post]:
            if self.leagues is None:
                raise GameError("league.error.none")
            return await self.leagues.press(ctx, league, action)

        return run

    async def pressed(self, interaction: discord.Interaction, league: int, action: str) -> None:
        """The sign-up card's Join or Leave, answered privately."""
        await self.game._component(interaction, self._press(league, action))


__all__ = ["LeagueCog"]
