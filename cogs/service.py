"""The play-by-post service on Discord: ``/games`` (and a player's card of all their games),
``/notify``, ``/settings`` (and a server's list of games) and the timed loop.

The loop (discord.py's ``tasks.loop``) runs the table layer's scheduler: catch-up posts for games
whose last move was stored but not posted, reminders and deadlines. Everything it must not repeat
is claimed in the store first, so a restart neither drops nor doubles a reminder.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs.game import as_choices, make_ctx
from cogs.replies import offer_choices
from cogs.slash import command
from cogs.translator import label, offer_languages
from engine.registry import pools
from table.core.collector import Collector
from table.core.settings import POLICIES
from table.core.tables import load_describer

if TYPE_CHECKING:
    from cogs.game import GameCog
    from table.posting.schedule import Scheduler

log = logging.getLogger(__name__)

_POOL_CHOICES = [app_commands.Choice(name=label(f"cmd.choice.pool.{pool}"), value=pool) for pool in pools()]
"""The rating pools offered by ``/leaderboard``, ``/history`` and ``/stats``."""


class ServiceCog(commands.Cog):
    """Commands about a player's games and a server's settings, and the scheduler's loop."""

    def __init__(
        self, bot: commands.Bot, game: GameCog, scheduler: Scheduler | None, *, tick_seconds: float
    ) -> None:
        self.bot = bot
        self.game = game
        self.scheduler = scheduler
        self.ticker = tasks.loop(seconds=tick_seconds)(self._tick)
        self.ticks = 0  # ticks done since start-up (tests wait on it rather than on the clock)
        self.collector = Collector()
        self.ticker.before_loop(self._before_first_tick)

    def start_ticking(self) -> None:
        """Run the scheduler from now on (once the bot logs in: the first tick waits until ready)."""
        if self.scheduler is not None and not self.ticker.is_running():
            self.ticker.start()

    async def cog_unload(self) -> None:
        self.ticker.cancel()
        self.collector.stop()

    async def _before_first_tick(self) -> None:
        await self.bot.wait_until_ready()

    async def _tick(self) -> None:
        assert self.scheduler is not None
        began = time.perf_counter()
        try:
            report = await self.scheduler.tick()
        except Exception:
            log.exception("the scheduler's tick failed")
            return
        self.ticks += 1
        if self.ticker.current_loop == 0:
            took = time.perf_counter() - began
            log.info("start-up catch-up: %d game(s) announced (in %.3f s)", report.caught_up, took)
            # The describer of the posts' images is imported off the loop, before the first post
            # needs it. Then what start-up made (modules, catalogs, rules data, caches), which lives
            # as long as the bot, is put out of the collector's sight (``table.core.collector``): a
            # collection in a busy minute walks only what came since, instead of stopping the loop
            # for 100-300 ms.
            try:
                await asyncio.to_thread(load_describer)
            except Exception:
                log.exception("loading the images' describer failed (the first post loads it)")
            self.collector.started()
            return
        if report.caught_up or report.reminders or report.deadlines:
            log.info("tick: %s", report)
        if not self.scheduler.announcer.busy():
            # an idle moment: the collector walks now what a busy minute would have stopped for
            self.collector.idle()

    @command("games")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction, card: bool | None = None) -> None:
        await self.game._answer(interaction, lambda ctx: self.game.table.games(ctx, card), private=True)

    @command("leaderboard")
    @app_commands.guild_only()
    @app_commands.choices(game=_POOL_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        page: app_commands.Range[int, 1, 10000] = 1,
    ) -> None:
        await self.game._answer(interaction, lambda ctx: self.game.table.leaderboard(ctx, game, page))

    @command("history")
    @app_commands.guild_only()
    @app_commands.choices(game=_POOL_CHOICES)
    async def history(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: str | None = None,
        page: app_commands.Range[int, 1, 10000] = 1,
    ) -> None:
        who = None if player is None else str(player.id)
        await self.game._answer(interaction, lambda ctx: self.game.table.history(ctx, who, game, page))

    @command("stats")
    @app_commands.guild_only()
    @app_commands.choices(game=_POOL_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: str | None = None,
        public: bool = False,
    ) -> None:
        who = None if player is None else str(player.id)
        await self.game._answer(
            interaction, lambda ctx: self.game.table.stats(ctx, who, game, public), private=not public
        )

    @command("notify")
    async def notify(
        self,
        interaction: discord.Interaction,
        dm: bool | None = None,
        text: bool | None = None,
        timezone: app_commands.Range[str, 1, 64] | None = None,
        quiet: app_commands.Range[str, 1, 20] | None = None,
        remind: app_commands.Range[str, 1, 10] | None = None,
    ) -> None:
        await self.game._answer(
            interaction,
            lambda ctx: self.game.table.notify(ctx, dm, text, timezone, quiet, remind),
            private=True,
        )

    @notify.autocomplete("timezone")
    async def timezone_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Time zone names matching what the player typed (a city is enough)."""
        pairs = await self.game.table.timezone_autocomplete(make_ctx(interaction), current)
        return await offer_choices(interaction, as_choices(pairs))

    @command("away")
    @app_commands.guild_only()
    async def away(
        self, interaction: discord.Interaction, for_: app_commands.Range[str, 1, 20] | None = None
    ) -> None:
        await self.game._answer(interaction, lambda ctx: self.game.table.away(ctx, for_), private=True)

    @command("settings")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @offer_languages("language")
    @app_commands.choices(
        on_deadline=[app_commands.Choice(name=label(f"cmd.choice.policy.{p}"), value=p) for p in POLICIES],
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        language: str | None = None,
        remind: app_commands.Range[str, 1, 10] | None = None,
        deadline: app_commands.Range[str, 1, 10] | None = None,
        on_deadline: str | None = None,
        games_channel: discord.TextChannel | discord.Thread | None = None,
        games_list: bool | None = None,
    ) -> None:
        chosen = None if games_channel is None else str(games_channel.id)
        await self.game._answer(
            interaction,
            lambda ctx: self.game.table.settings(
                ctx,
                games_channel=chosen,
                games_list=games_list,
                language=language,
                remind=remind,
                deadline=deadline,
                on_deadline=on_deadline,
            ),
            private=True,
        )
