"""Entry point: the Discord bot when a token is configured, else the console.

Settings come from the environment (see README.md): ``DISCORD_TOKEN``,
``DATABASE_PATH`` (default ./data/bot.sqlite3), ``DEV_GUILD_ID`` (sync the commands
to one server instantly instead of globally), ``CONSOLE_OUT`` (default ./out, where
the console writes board images) and ``LOG_LEVEL``. Both front ends share the same
store and table layer, so a game started in one is a game like any other.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

if TYPE_CHECKING:
    from db import GameRecord, Store
    from table.announce import Outlet
    from table.clock import Clock
    from table.commands import Commands

log = logging.getLogger("bot")


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment, parsed once."""

    token: str | None = None
    database_path: Path = Path("data/bot.sqlite3")
    dev_guild_id: int | None = None
    console_out: Path = Path("out")
    log_level: str = "INFO"
    console_locale: str = "en"
    sync_commands: bool = True
    force_sync: bool = False
    tick_seconds: float = 60.0
    coalesce_seconds: float = 3.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        guild = (env.get("DEV_GUILD_ID") or "").strip()
        if guild and not guild.isdigit():
            raise ValueError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}")
        return cls(
            token=(env.get("DISCORD_TOKEN") or "").strip() or None,
            database_path=Path(env.get("DATABASE_PATH") or "data/bot.sqlite3"),
            dev_guild_id=int(guild) if guild else None,
            console_out=Path(env.get("CONSOLE_OUT") or "out"),
            log_level=(env.get("LOG_LEVEL") or "INFO").upper(),
            console_locale=env.get("CONSOLE_LOCALE") or "en",
            force_sync=(env.get("SYNC_COMMANDS") or "").strip() == "1",
        )


async def open_table(
    database_path: Path, outlet: Outlet, *, clock: Clock | None = None, coalesce: float = 0.0
) -> tuple[Commands, Store]:
    """The command handlers over the store at ``database_path`` (created and migrated if needed),
    announcing to ``outlet``; their ``announcer`` posts, their scheduler reminds.

    The caller owns the returned store and closes it when done.
    """
    from db import open_store
    from table.announce import Announcer
    from table.clock import system_clock
    from table.commands import Commands
    from table.tables import Tables

    store = await open_store(database_path)
    try:
        tables = Tables(store)
        announcer = Announcer(tables, outlet, clock=clock or system_clock, coalesce=coalesce)
        return Commands(tables, announcer), store
    except BaseException:
        await store.close()
        raise


class TabletopBot(commands.Bot):
    """The Discord bot: opens the store, installs the cogs and syncs the commands at start-up."""

    def __init__(
        self, settings: Settings, table: Commands | None = None, *, clock: Clock | None = None
    ) -> None:
        from cogs import GameTree

        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=GameTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.store: Store | None = None
        self.table: Commands | None = table
        self.clock = clock
        self._installed = False

    async def prepare(self) -> None:
        """Open the store and install the commands: everything start-up does except syncing.

        A bot built with its own ``table`` (tests) uses it and opens no store.
        """
        import cogs
        from cogs.outlet import DiscordOutlet
        from table.schedule import Scheduler

        if self._installed:
            return
        scheduler = None
        if self.table is None:
            self.table, self.store = await open_table(
                self.settings.database_path,
                DiscordOutlet(self),
                clock=self.clock,
                coalesce=self.settings.coalesce_seconds,
            )
            self.table.announcer.link = _channel_link
            scheduler = Scheduler(self.table.announcer)
        await cogs.install(
            self,
            self.table,
            announcer=getattr(self.table, "announcer", None) if scheduler else None,
            scheduler=scheduler,
            tick_seconds=self.settings.tick_seconds,
        )
        self._installed = True

    async def setup_hook(self) -> None:
        from cogs import ServiceCog

        await self.prepare()
        service = self.get_cog("ServiceCog")
        if isinstance(service, ServiceCog):
            service.start_ticking()
        if not self.settings.sync_commands:
            return
        guild = None
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
        scope = "global" if guild is None else f"guild:{guild.id}"
        digest = await self._command_digest(guild)
        stored = None if self.store is None else await self.store.meta(f"commands:{scope}")
        if stored == digest and not self.settings.force_sync:
            log.info("commands unchanged since the last sync (%s): not syncing", scope)
            return
        synced = await self.tree.sync(guild=guild)
        if self.store is not None:
            await self.store.set_meta(f"commands:{scope}", digest)
        where = "globally (may take up to an hour to appear)" if guild is None else f"to server {guild.id}"
        log.info("synced %d commands %s", len(synced), where)

    async def _command_digest(self, guild: discord.abc.Snowflake | None) -> str:
        """A hash of exactly what ``tree.sync`` would send: a restart with the same commands (a
        crash loop, a redeploy) then syncs nothing, and stays clear of Discord's sync rate limit."""
        translator = self.tree.translator
        commands_ = self.tree.get_commands(guild=guild)
        if translator is None:
            payload = [c.to_dict(self.tree) for c in commands_]
        else:
            payload = [await c.get_translated_payload(self.tree, translator) for c in commands_]
        text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            store, self.store = self.store, None
            if store is not None:
                await store.close()


def _channel_link(record: GameRecord) -> str:
    """A link a direct message can carry to the game's channel."""
    if record.guild is None:
        return f"<#{record.channel}>"
    return f"https://discord.com/channels/{record.guild}/{record.channel}"


def build_bot(
    settings: Settings, table: Commands | None = None, *, clock: Clock | None = None
) -> TabletopBot:
    """A ready-to-start bot; nothing is opened until it starts (``setup_hook``).

    ``table`` replaces the command handlers over the store at ``settings.database_path`` (then
    nothing is announced or timed: tests of the Discord adapters alone); ``clock`` replaces the
    system clock for reminders and deadlines.
    """
    return TabletopBot(settings, table, clock=clock)


def configure_logging(level: str) -> None:
    """Logs go to stderr so that the console's replies on stdout stay clean."""
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )


def main() -> int:
    """Run until stopped; the exit status says whether the configuration was usable."""
    try:
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    if settings.token:
        bot = build_bot(settings)
        try:
            bot.run(settings.token, log_handler=None)
        except discord.LoginFailure:
            log.error("Discord refused the token in DISCORD_TOKEN; check it in the developer portal")
            return 1
        return 0
    from console import run_console

    try:
        return asyncio.run(run_console(settings))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
