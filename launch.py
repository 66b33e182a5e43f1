"""What both front ends start from: the settings read from the environment, and the table opened
over the store.

The Discord bot (``bot.py``) and the console (``console/``) each import this module and neither
imports the other's start-up, so the bot can hand its settings to the console without the two
importing each other. See ``bot.py`` for the environment variables.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from table.core.limits import Limits

if TYPE_CHECKING:
    from db import Store
    from table.core.clock import Clock, Timer
    from table.play.commands import Commands
    from table.posting.announce import Outlet

log = logging.getLogger("launch")

DISCORD_LIMITS = Limits(
    message=2000, text=1900, choices=25, choice=100, button=80, alt=1024, nonce=25, event=100
)
"""Discord's limits: what one message, list of choices, label, alt text, nonce and server event may hold.

The Discord bot hands them to its table, and the cogs cut to them; the console hands the same, so
that what it shows is what a server would see. They are written here, in what both front ends start
from, because the console may not import the Discord front end (``cogs/``) and the eight numbers are
written once.
"""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment, parsed once."""

    token: str | None = None
    database_path: Path = Path("data/bot.sqlite3")
    database_url: str | None = None
    dev_guild_id: int | None = None
    console_out: Path = Path("out")
    log_level: str = "INFO"
    console_log_level: str = "WARNING"
    """The console's level: its logs go to the terminal it reads from, and an information line would
    land on the prompt a player is typing at, so only warnings and worse unless LOG_LEVEL says."""
    console_locale: str = "en"
    sync_commands: bool = True
    force_sync: bool = False
    tick_seconds: float = 60.0
    coalesce_seconds: float = 3.0
    heartbeat_path: Path | None = None
    heartbeat_max_age: float | None = None
    shutdown_grace: float = 8.0
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    lease_seconds: float = 60.0
    channel_rate: tuple[int, float] | None = (5, 5.0)
    """Posts and edits one Discord channel takes per so many seconds (Discord's rate: about 5 per 5 s);
    the bot keeps within it, folding the moves made meanwhile into one post (None: no limit, for
    tests that play whole games in one channel)."""
    warm_up: bool = True
    """Whether the drawing workers start and warm up at start-up (the Discord bot: once the gateway is
    ready), in the background (RENDER_WARMUP=0: each starts cold when the first drawing needs it, for
    a host short of memory)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        guild = (env.get("DEV_GUILD_ID") or "").strip()
        if guild and not guild.isdigit():
            raise ValueError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}")
        url = (env.get("DATABASE_URL") or "").strip() or None
        if url is not None and not url.startswith(("postgresql://", "postgres://")):
            raise ValueError("DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host/db)")
        heartbeat = (env.get("HEARTBEAT_PATH") or "").strip()
        shard_count, shard_ids = _shards(env)
        return cls(
            token=(env.get("DISCORD_TOKEN") or "").strip() or None,
            database_path=Path(env.get("DATABASE_PATH") or "data/bot.sqlite3"),
            database_url=url,
            dev_guild_id=int(guild) if guild else None,
            console_out=Path(env.get("CONSOLE_OUT") or "out"),
            log_level=(env.get("LOG_LEVEL") or "INFO").upper(),
            console_log_level=(env.get("LOG_LEVEL") or "WARNING").upper(),
            console_locale=env.get("CONSOLE_LOCALE") or "en",
            force_sync=(env.get("SYNC_COMMANDS") or "").strip() == "1",
            tick_seconds=_seconds(env, "TICK_SECONDS") or 60.0,
            heartbeat_path=Path(heartbeat) if heartbeat else None,
            heartbeat_max_age=_seconds(env, "HEARTBEAT_MAX_AGE"),
            shutdown_grace=_seconds(env, "SHUTDOWN_GRACE") or 8.0,
            shard_count=shard_count,
            shard_ids=shard_ids,
            lease_seconds=_seconds(env, "LEASE_SECONDS") or 60.0,
            warm_up=(env.get("RENDER_WARMUP") or "1").strip() != "0",
        )

    @property
    def database(self) -> str | Path:
        """Where the games live: the PostgreSQL URL when one is set, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def heartbeat(self) -> Path:
        """The file the running bot touches every tick (default: beside the SQLite file, in the data
        folder, which is the container's volume)."""
        return self.heartbeat_path or self.database_path.parent / "heartbeat"

    @property
    def heartbeat_limit(self) -> float:
        """How old the heartbeat may be and the bot still count as healthy: three missed ticks."""
        return self.heartbeat_max_age if self.heartbeat_max_age is not None else 3 * self.tick_seconds


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` (how many shards the whole bot has) and ``SHARD_IDS`` (which of them this
    process runs, e.g. ``0,1``; all of them when unset). Neither set: one process, unsharded."""
    count_text = (env.get("SHARD_COUNT") or "").strip()
    ids_text = (env.get("SHARD_IDS") or "").strip()
    if not count_text:
        if ids_text:
            raise ValueError("SHARD_IDS needs SHARD_COUNT: the number of shards the bot has in all")
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ValueError(f"SHARD_COUNT must be a whole number of shards, 1 or more, not {count_text!r}")
    count = int(count_text)
    if not ids_text:
        return count, None
    parts = [p.strip() for p in ids_text.split(",")]
    if not all(p.isdigit() and int(p) < count for p in parts):
        raise ValueError(
            f"SHARD_IDS must list shard numbers from 0 to {count - 1} separated by commas, not {ids_text!r}"
        )
    ids = tuple(sorted({int(p) for p in parts}))
    return count, ids


def _seconds(env: Mapping[str, str], name: str) -> float | None:
    """A positive number of seconds from ``env``, or None when the variable is unset."""
    text = (env.get(name) or "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise ValueError(f"{name} must be a number of seconds above 0, not {text!r}")
    return value


async def open_table(
    database: str | Path,
    outlet: Outlet,
    *,
    limits: Limits,
    clock: Clock | None = None,
    coalesce: float = 0.0,
    lease: float | None = None,
    warm: Sequence[str] = (),
    listing_pace: float | None = None,
    listing_timer: Timer | None = None,
) -> tuple[Commands, Store]:
    """The command handlers over the store at ``database`` (a SQLite file or a PostgreSQL URL,
    created and migrated if needed), announcing to ``outlet``; their ``announcer`` posts, their
    scheduler reminds.

    ``limits`` is what the front end's messages and lists may hold (``DISCORD_LIMITS`` for both the bot
    and the console): the table cuts every text and list to them.

    ``lease`` is how long this process's claim on a game's posts lasts (``Announcer``);
    ``listing_pace`` the least time between two edits of a player's card or a server's list of games
    (a minute by default), on ``listing_timer`` (the system's monotonic clock by default). With
    ``warm`` (locales), the drawing workers start now and warm up in those languages, in the
    background: nothing here waits for them (``table.core.drawing.ProcessDrawer.warm``).
    The caller owns the returned store and closes it when done.
    """
    from db import open_store
    from table.core.clock import system_clock
    from table.core.drawing import ProcessDrawer
    from table.core.tables import Tables
    from table.play.commands import Commands
    from table.posting.announce import DEFAULT_LEASE, Announcer
    from table.posting.listings import PACE

    store = await open_store(database)
    if isinstance(database, str):
        from db.postgres import describe

        log.info("games are stored in PostgreSQL: %s", describe(database))
    try:
        tables = Tables(store, limits=limits)
        if warm and isinstance(tables.drawer, ProcessDrawer):
            tables.drawer.warm(warm)
        announcer = Announcer(
            tables,
            outlet,
            clock=clock or system_clock,
            coalesce=coalesce,
            lease=lease or DEFAULT_LEASE,
            listing_pace=PACE if listing_pace is None else listing_pace,
            listing_timer=listing_timer,
        )
        return Commands(tables, announcer), store
    except BaseException:
        await store.close()
        raise
