"""The play-by-post service on Discord: the timed loop (``/games``, ``/notify`` and ``/settings`` are
made from the command tree, ``cogs.slash``, and answered by their handlers).

The loop (discord.py's ``tasks.loop``) runs the table layer's scheduler: catch-up posts for games
whose last move was stored but not posted, reminders and deadlines. Everything it must not repeat
is claimed in the store first, so a restart neither drops nor doubles a reminder.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from table.core.collector import Collector
from table.core.tables import load_describer

if TYPE_CHECKING:
    from cogs.game import GameCog
    from table.posting.schedule import Scheduler

log = logging.getLogger(__name__)


class ServiceCog(commands.Cog):
    """The scheduler's loop."""

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
