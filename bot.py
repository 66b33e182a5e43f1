"""Entry point: the Discord bot when a token is configured, else the console.

Settings come from the environment (see README.md): ``DISCORD_TOKEN``,
``DATABASE_PATH`` (default ./data/bot.sqlite3), ``DEV_GUILD_ID`` (sync the commands
to one server instantly instead of globally), ``CONSOLE_OUT`` (default ./out, where
the console writes board images) and ``LOG_LEVEL``. Both front ends share the same
store and table layer, so a game started in one is a game like any other.
"""

from __future__ import annotations

import asyncio
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
    from db import Store
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
        )


async def open_table(database_path: Path) -> tuple[Commands, Store]:
    """The command handlers over the store at ``database_path`` (created and migrated if needed).

    The caller owns the returned store and closes it when done.
    """
    from db import open_store
    from table.commands import Commands
    from table.tables import Tables

    store = await open_store(database_path)
    try:
        return Commands(Tables(store)), store
    except BaseException:
        await store.close()
        raise


class TabletopBot(commands.Bot):
    """The Discord bot: opens the store, installs the cogs and syncs the commands at start-up."""

    def __init__(self, settings: Settings, table: Commands | None = None) -> None:
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
        self._installed = False

    async def prepare(self) -> None:
        """Open the store and install the commands: everything start-up does except syncing.

        A bot built with its own ``table`` (tests) uses it and opens no store.
        """
        import cogs

        if self._installed:
            return
        if self.table is None:
            self.table, self.store = await open_table(self.settings.database_path)
        await cogs.install(self, self.table)
        self._installed = True

    async def setup_hook(self) -> None:
        await self.prepare()
        if not self.settings.sync_commands:
            return
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to server %s", len(synced), self.settings.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d commands globally (may take up to an hour to appear)", len(synced))

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            store, self.store = self.store, None
            if store is not None:
                await store.close()


def build_bot(settings: Settings, table: Commands | None = None) -> commands.Bot:
    """A ready-to-start bot; nothing is opened until it starts (``setup_hook``).

    ``table`` replaces the command handlers over the store at ``settings.database_path``.
    """
    return TabletopBot(settings, table)


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
