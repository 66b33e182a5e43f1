"""The ``/league`` slash commands and the sign-up card's buttons: thin adapters over ``table.leagues``.

Each command is answered as the game's are (``GameCog._answer``: acknowledged first, a refusal told
privately); what a league posts in its channel and its games' threads goes through the announcer's
outlet and ``cogs.places``. Discord cannot run a group of subcommands by itself, so the console's
``/league`` is ``/league status`` here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.game import game_choices
from cogs.slash import command, group
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
    """``/league new, join, leave, start, status, standings, kick, end, history``."""

    league = group("league", guild_only=True)

    def __init__(self, game: GameCog, leagues: Leagues | None) -> None:
        self.game = game
        self.leagues = leagues

    def _run(self, call: str, *args: Any, **kwargs: Any) -> Any:
        async def run(ctx: Ctx) -> list[Post]:
            if self.leagues is None:
                raise GameError("league.error.none")
            handler = getattr(self.leagues, call)
            posts: list[Post] = await handler(ctx, *args, **kwargs)
            return posts

        return run

    @command("league.new")
    @app_commands.choices(game=game_choices(), format=format_choices())
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str = "swiss",
        rounds: app_commands.Range[int, 0, 30] | None = None,
        round_length: app_commands.Range[str, 1, 10] | None = None,
        players: app_commands.Range[int, 1, 8] | None = None,
        options: app_commands.Range[str, 0, 200] | None = None,
        name: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        call = self._run(
            "new",
            game,
            format=format,
            rounds=rounds,
            round_length=round_length,
            players=players,
            options=options or "",
            name=name,
        )
        await self.game._answer(interaction, call, private=True)

    @command("league.join")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.game._answer(interaction, self._run("join"), private=True)

    @command("league.leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.game._answer(interaction, self._run("leave"))

    @command("league.start")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.game._answer(interaction, self._run("start"), private=True)

    @command("league.status")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.game._answer(interaction, self._run("show"), private=True)

    @command("league.standings")
    async def standings(self, interaction: discord.Interaction) -> None:
        await self.game._answer(interaction, self._run("standings"), private=True)

    @command("league.kick")
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        await self.game._answer(interaction, self._run("kick", str(player.id)))

    @command("league.end")
    async def end(self, interaction: discord.Interaction) -> None:
        await self.game._answer(interaction, self._run("end"), private=True)

    @command("league.history")
    async def history(self, interaction: discord.Interaction) -> None:
        await self.game._answer(interaction, self._run("history"), private=True)

    async def pressed(self, interaction: discord.Interaction, league: int, action: str) -> None:
        """The sign-up card's Join or Leave, answered privately."""
        await self.game._component(interaction, self._run("press", league, action))


__all__ = ["LeagueCog"]
