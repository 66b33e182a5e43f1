"""Entry point: the Discord bot when a token is configured, else the console.

Settings come from the environment (see README.md): ``DISCORD_TOKEN``,
``DATABASE_URL`` (a ``postgresql://`` URL: the games live in PostgreSQL) or else
``DATABASE_PATH`` (a SQLite file, default ./data/bot.sqlite3), ``DEV_GUILD_ID`` (sync the
commands to one server instantly instead of globally), ``CONSOLE_OUT`` (default ./out, where
the console writes board images), ``LOG_LEVEL``, ``TICK_SECONDS`` (the timed loop's pace),
``HEARTBEAT_PATH`` and ``HEARTBEAT_MAX_AGE`` (the health check), ``SHUTDOWN_GRACE``, and
``SHARD_COUNT`` / ``SHARD_IDS`` (run as some shards of a bot that several processes serve together,
over one PostgreSQL database) with ``LEASE_SECONDS`` (how long a process's claim on a game's posts
lasts), ``RENDER_WARMUP`` (``0``: no warm-up of the drawing workers at start-up) and ``DRAW_WORKERS``
(how many drawing workers; ``RENDER_WORKERS`` is its older name), ``WORKER_NICE`` (how far behind
the bot the drawing and thinking workers queue for a core, 0-19, default 0: level). Both
front ends share the same store and table layer, so a game started in one is a game like any other.

``python bot.py --health`` exits 0 when the running bot's heartbeat is fresh (the container's
HEALTHCHECK). SIGTERM (``docker stop``) and SIGINT stop the bot cleanly: the gateway closes, the
commands and posts under way finish within ``SHUTDOWN_GRACE`` (what still runs then is cancelled
and waited for), the process gives up its claims, then the store closes.

Several processes. ``SHARD_COUNT`` and ``SHARD_IDS`` run the bot as some of the shards of a bigger one
(discord.py's ``AutoShardedBot``, ``ShardedTabletopBot``); without them it is one unsharded process. Every
process opens the same PostgreSQL database and is sent, by Discord, the events and interactions of its shards'
servers only; the scheduler still sees every game of the database. Changes to a game are decided by the store,
never by a process (``table.core.tables``), a game's posts are made under its claim
(``table.posting.owners``), and a post is made once by its nonce (``table.core.posts``). What a process keeps
in memory is only what can be lost at any moment: the per-channel and per-game locks, loaded states cached by
game and version, the time of each game's last edit (another process that announces the game next merely does
not fold its first edit), the announcement tasks under way (a restart's catch-up redoes what they had not
stored). ``tests/discord/test_shards.py`` kills and restarts such processes.

Starting. A start opens the store (creating and migrating it), takes over the claims its predecessors left,
installs the commands and syncs them only when their payload changed (its hash is kept in ``meta``); then
discord.py logs in and connects the gateway, and ``GuildWait`` spares ``on_ready`` discord.py's two seconds of
waiting for servers already in. Commands are answered from READY on; ``on_ready`` then starts the drawing
workers and their warm-up (not earlier: the fork server's imports and the warm-up's drawings would take a core
from the start), and the first tick catches up what was stored but not posted. Each step logs how long it
took, when it ended and the process's CPU time so far (``start-up: claims taken over in 0.050 s (at 0.115 s,
cpu 0.693 s)``), and the first tick how long its catch-up took: the timeline ``python -m bench.startup``
prints.

Stopping. SIGTERM and SIGINT start ``TabletopBot``'s stop: the gateway closes (no new interaction arrives),
the timed loop begins no new tick and the computer players no new decision (``Announcer.stop``); the commands,
clicks, posts and tick under way get ``SHUTDOWN_GRACE`` seconds to finish. What still runs then is cancelled
and waited for (``Announcer.cancel``, discord.py's command tasks; a cancelled move rolls back, a cancelled
post is made by the next start's catch-up, which reads only the store), and in the bot's own loop every other
task too; only then are the claims given up, discord.py's HTTP session closed and the store closed, so no task
ever meets a closed store. ``tests/discord/test_process_lifecycle.py`` sends SIGTERM in the middle of a storm
of moves in six channels on a store slowed down by the test runner (``FAKE_STORE_DELAY``), and checks exit 0,
no traceback, no claim left, and that the next start shows everything stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import logging
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TextIO

import discord
from discord.ext import commands

from launch import DISCORD_LIMITS, Settings, open_table
from table.posting.owners import shard_scope
from table.posting.schedule import Scheduler, TickReport

if TYPE_CHECKING:
    from db import GameRecord, Store
    from table.core.clock import Clock, Timer
    from table.play.commands import Commands
    from table.posting.announce import Announcer

log = logging.getLogger("bot")

WORK_TASKS = ("CommandTree-invoker", "discord-ui-", "discord.py: on_")
"""Names discord.py gives the tasks that run a command, a click or an event handler: the work a
shutdown lets finish."""
CANCEL_WAIT = 0.5
"""Seconds a stop waits for cancelled work to end (a rollback, a claim given up) before it goes on."""
BEAT_EVERY = 10.0
"""Seconds between two heartbeats written in the middle of a long tick."""
NO_INPUT = (
    "no DISCORD_TOKEN is set and standard input is empty: set DISCORD_TOKEN to run the Discord bot,"
    " or give the console its lines from a terminal or a script (make run < script.txt)"
)


class BeatingScheduler(Scheduler):
    """The scheduler as the bot runs it: every tick that completes calls ``beat`` (the heartbeat the
    health check reads), and so does a long tick as it goes from game to game, at most every
    ``BEAT_EVERY`` seconds (a tick held up by many slow games is not a stuck bot); ``idle`` tells a
    shutdown whether a tick is under way."""

    def __init__(self, announcer: Announcer, beat: Callable[[], None]) -> None:
        super().__init__(announcer, progress=self._going)
        self._beat = beat
        self._beaten = time.monotonic()
        self.ticks = 0
        self.idle = asyncio.Event()
        self.idle.set()

    def _going(self) -> None:
        if time.monotonic() - self._beaten >= BEAT_EVERY:
            self._beaten = time.monotonic()
            self._beat()

    async def tick(self) -> TickReport:
        self.idle.clear()
        try:
            # what other processes recorded of the channels that refuse the bot
            await self.announcer.channels.faults.refresh()
            report = await super().tick()
        finally:
            self.idle.set()
        self.ticks += 1
        self._beaten = time.monotonic()
        self._beat()
        return report


class GuildWait:
    """Ends discord.py's wait for the servers at connection once every server READY announced has
    arrived, rather than ``guild_ready_timeout`` (2 s) after the last one.

    After READY, discord.py reads each server's GUILD_CREATE from a queue and gives up on more only
    when none came for ``guild_ready_timeout`` seconds: with every server already in, that is 2 s of
    nothing before ``on_ready``, the first tick (catch-up, heartbeat, health) and the start-up
    counted as done. READY lists the servers this connection (or shard) will receive; discord.py
    dispatches ``guild_available`` (or ``guild_join``) for each as it takes it from the queue, before
    it waits for the next one. Once every announced server of every connected shard has been taken,
    the wait's timeout is made 0, so the next wait ends at once; at the next READY (a new session)
    it is the configured one again until that READY's servers are in. A server that stays
    unavailable never arrives, and then discord.py's own timeout applies, as before.
    """

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._sharded = isinstance(client, discord.AutoShardedClient)
        self._configured: float | None = None
        self._waiting: dict[int | None, set[int]] = {}
        """Per shard (None: the one connection of an unsharded client), the servers READY announced
        that have not arrived yet."""

    def saw(self, event: str, args: Sequence[object]) -> None:
        """Follow one dispatched event (``Client.dispatch`` calls this before any handler)."""
        if event == "connect" and not self._sharded:
            self._connected(None)
        elif event == "shard_connect" and self._sharded and args and isinstance(args[0], int):
            self._connected(args[0])
        elif (
            event in ("guild_available", "guild_join")
            and args
            and isinstance(guild := args[0], discord.Guild)
        ):
            waiting = self._waiting.get(self._shard_of(guild))
            if waiting:
                waiting.discard(guild.id)
                self._settle()

    def _shard_of(self, guild: discord.Guild) -> int | None:
        return guild.shard_id if self._sharded else None

    def _connected(self, shard: int | None) -> None:
        state = self._client._connection
        if self._configured is None or state.guild_ready_timeout != 0:
            self._configured = state.guild_ready_timeout
        state.guild_ready_timeout = self._configured
        guilds = self._client.guilds
        self._waiting[shard] = {g.id for g in guilds if g.unavailable and self._shard_of(g) == shard}
        self._settle()

    def _settle(self) -> None:
        if any(self._waiting.values()) or self._configured is None:
            return
        self._client._connection.guild_ready_timeout = 0


class TabletopBot(commands.Bot):
    """The Discord bot: opens the store, installs the cogs and syncs the commands at start-up.

    ``close`` is a clean stop: the gateway closes first (no new command arrives), the commands, posts
    and scheduler tick under way finish within ``settings.shutdown_grace`` seconds, what still runs
    then is cancelled and waited for, the claims are given up, then discord.py closes its HTTP
    session and the store closes: no task meets a closed store. SIGTERM and SIGINT call it
    (``serve``).
    """

    def __init__(
        self,
        settings: Settings,
        table: Commands | None = None,
        *,
        clock: Clock | None = None,
        listing_timer: Timer | None = None,
    ) -> None:
        from cogs import GameTree

        sharding: dict[str, Any] = {}  # discord.py's client options, untyped there
        if settings.shard_count is not None:
            sharding["shard_count"] = settings.shard_count
            if settings.shard_ids is not None:
                sharding["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=GameTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **sharding,
        )
        self.settings = settings
        self.store: Store | None = None
        self.table: Commands | None = table
        self.clock = clock
        self.listing_timer = listing_timer
        self.scheduler: BeatingScheduler | None = None
        self._installed = False
        self._stopping = False
        self._shutdown: asyncio.Task[None] | None = None
        self.serving: asyncio.Task[object] | None = None
        """The task that runs the bot (``serve``): the loop is the bot's own, so a stop may end every
        other task in it before the store closes."""
        self._guild_wait = GuildWait(self)
        self._began = time.perf_counter()
        self._warm_locales: tuple[str, ...] = ()
        """The languages the drawing workers warm up in, once the gateway is ready (then emptied)."""

    def dispatch(self, event_name: str, /, *args: object, **kwargs: object) -> None:
        self._guild_wait.saw(event_name, args)
        super().dispatch(event_name, *args, **kwargs)

    def _timed(self, what: str, since: float) -> float:
        """Log how long a step of start-up took, and when it ended after the bot was built, with the
        process's CPU time so far (what is not CPU is waiting, or another process's turn): the
        start-up's timeline, which ``bench.startup`` reads. Returns now."""
        now = time.perf_counter()
        cpu = time.process_time()
        log.info("start-up: %s in %.3f s (at %.3f s, cpu %.3f s)", what, now - since, now - self._began, cpu)
        return now

    async def prepare(self) -> None:
        """Open the store and install the commands: everything start-up does except syncing.

        A bot built with its own ``table`` (tests) uses it and opens no store.
        """
        import cogs
        import i18n
        from cogs.outlet import DiscordOutlet
        from table.posting.outlet import ChannelRate

        if self._installed:
            return
        scheduler = None
        step = time.perf_counter()
        if self.table is None:
            rate = self.settings.channel_rate
            self.table, self.store = await open_table(
                self.settings.database,
                DiscordOutlet(self, None if rate is None else ChannelRate(*rate)),
                limits=DISCORD_LIMITS,
                clock=self.clock,
                coalesce=self.settings.coalesce_seconds,
                lease=self.settings.lease_seconds,
                listing_timer=self.listing_timer,
            )
            self._warm_locales = tuple(i18n.LOCALES) if self.settings.warm_up else ()
            step = self._timed("store opened and migrated", step)
            self.table.announcer.link = _channel_link
            self.table.announcer.listings.link = _post_link
            await self.table.announcer.take_over(
                shard_scope(self.settings.shard_count, self.settings.shard_ids),
                sole=self.settings.shard_count is None,
            )
            step = self._timed("claims taken over", step)
            scheduler = self.scheduler = BeatingScheduler(self.table.announcer, self._beat)
        leagues = None
        if scheduler is not None:
            from cogs.places import DiscordPlaces
            from table.leagues.service import Leagues

            leagues = Leagues(self.table, DiscordPlaces(self, self.table.announcer.outlet))
        await cogs.install(
            self,
            self.table,
            announcer=getattr(self.table, "announcer", None) if scheduler else None,
            scheduler=scheduler,
            tick_seconds=self.settings.tick_seconds,
            leagues=leagues,
        )
        self._timed("commands installed", step)
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
        step = time.perf_counter()
        digest = await self._command_digest(guild)
        stored = None if self.store is None else await self.store.meta(f"commands:{scope}")
        if stored == digest and not self.settings.force_sync:
            self._timed("commands compared with the last sync", step)
            log.info("commands unchanged since the last sync (%s): not syncing", scope)
            return
        synced = await self.tree.sync(guild=guild)
        if self.store is not None:
            await self.store.set_meta(f"commands:{scope}", digest)
        self._timed("commands synced", step)
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
        shards = ""
        if self.settings.shard_count is not None:
            ids = self.settings.shard_ids or tuple(range(self.settings.shard_count))
            shards = f" as shard(s) {', '.join(map(str, ids))} of {self.settings.shard_count}"
        self._timed("gateway ready", self._began)
        log.info("connected as %s to %d servers%s", self.user, len(self.guilds), shards)
        self._warm_drawers()

    def _warm_drawers(self) -> None:
        """Start the drawing workers and their warm-up, in the background, once: after the gateway is
        ready, so that the fork server's imports and the warm-up's drawings do not take a core from
        the start-up itself (started with the store, on two busy cores, they made the steps after
        the imports take about 2.5 times as long)."""
        from table.core.drawing import ProcessDrawer

        locales, self._warm_locales = self._warm_locales, ()
        drawer = getattr(getattr(self.table, "tables", None), "drawer", None)
        if locales and isinstance(drawer, ProcessDrawer):
            drawer.warm(locales)

    # ---- health and shutdown ----------------------------------------------------------------------

    def _beat(self) -> None:
        """Write the heartbeat: the loop ticked, the store answered, the gateway is up."""
        if self._stopping or not self.is_ready():
            return
        path = self.settings.heartbeat
        beat = {"time": datetime.now(UTC).isoformat(timespec="seconds"), "pid": os.getpid()}
        beat["ticks"] = self.scheduler.ticks if self.scheduler else 0
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            spare = path.with_name(path.name + ".new")
            spare.write_text(json.dumps(beat) + "\n", encoding="utf-8")
            spare.replace(path)
        except OSError as exc:
            log.warning("the heartbeat file %s could not be written: %s", path, exc)

    def is_closed(self) -> bool:
        """Closed, or closing: discord.py then stops reconnecting once the gateway is shut."""
        return self._stopping or super().is_closed()

    def stop(self, reason: str) -> None:
        """Begin a clean stop (a signal handler: returns at once)."""
        if not self._stopping:
            log.info("%s: shutting down", reason)
        self._begin_shutdown()

    def _begin_shutdown(self) -> asyncio.Task[None]:
        if self._shutdown is None:
            self._stopping = True
            self._shutdown = asyncio.get_running_loop().create_task(self._shut_down(), name="bot-shutdown")
        return self._shutdown

    async def close(self) -> None:
        await asyncio.shield(self._begin_shutdown())
        store, self.store = self.store, None  # opened by a start-up still under way at the signal
        if store is not None:
            await store.close()

    async def _shut_down(self) -> None:
        from cogs import ServiceCog
        from table.core.drawing import ProcessDrawer

        await self._close_gateway()  # no new interaction arrives from here on
        # The announcer of the table this bot opened (a table handed in is its owner's to stop).
        announcer: Announcer | None = self.scheduler.announcer if self.scheduler is not None else None
        service = self.get_cog("ServiceCog")
        ticker = service.ticker if isinstance(service, ServiceCog) else None
        if ticker is not None:
            ticker.stop()  # no new tick begins; the one under way finishes
        if announcer is not None:
            announcer.stop()  # no new decision of a computer player begins
        unfinished = await self._finish_work(self.settings.shutdown_grace)
        if ticker is not None:
            ticker.cancel()
        # What still runs is cancelled, and waited for: nothing uses the store once it closes.
        # A cancelled command rolls back; a cancelled post is caught up at the next start.
        cancelled = await self._cancel_work(announcer)
        try:
            if announcer is not None and self.store is not None:
                try:
                    await announcer.release_all()
                except Exception as exc:  # the store is unreachable: the claims lapse with their lease
                    log.warning("this process's claims could not be released: %s", exc)
            await super().close()
        finally:
            await self._end_the_rest()
            store, self.store = self.store, None
            if store is not None:
                await store.close()
            drawer = getattr(getattr(self.table, "tables", None), "drawer", None)
            if self.serving is not None and isinstance(drawer, ProcessDrawer):
                drawer.close(at_once=True)  # no drawing is awaited any more
            with contextlib.suppress(OSError):
                self.settings.heartbeat.unlink(missing_ok=True)
        if unfinished or cancelled:
            log.warning(
                "stopped after %d task(s) still running were cancelled; what they stored is shown at"
                " the next start",
                max(unfinished, cancelled),
            )
        log.info("stopped cleanly: gateway closed, work finished, store closed")

    async def _close_gateway(self) -> None:
        """Close the gateway connection, or each shard's when the bot runs as shards."""
        if isinstance(self, commands.AutoShardedBot):
            for shard in self.shards.values():
                if not shard.is_closed():
                    await shard.disconnect()
        elif self.ws is not None and self.ws.open:
            await self.ws.close(code=1000)

    def _running_work(self) -> list[asyncio.Task[object]]:
        """The commands, clicks and event handlers under way (discord.py's tasks for them)."""
        current = asyncio.current_task()
        return [
            t
            for t in asyncio.all_tasks()
            if t is not current and not t.done() and t.get_name().startswith(WORK_TASKS)
        ]

    async def _finish_work(self, grace: float) -> int:
        """Wait for the commands, posts and scheduler tick under way, at most ``grace`` seconds;
        how many commands were still running then (``_cancel_work`` ends them)."""

        async def settle() -> None:
            while pending := self._running_work():
                await asyncio.wait(pending)
            announcer = getattr(self.table, "announcer", None)
            if announcer is not None:
                await announcer.drain()
            if self.scheduler is not None:
                await self.scheduler.idle.wait()
                while timed := self.scheduler.pending():
                    await asyncio.wait(timed)

        try:
            await asyncio.wait_for(settle(), grace)
        except TimeoutError:
            return len(self._running_work()) or 1
        return 0

    async def _cancel_work(self, announcer: Announcer | None) -> int:
        """Cancel the commands, posts, decisions and tick still running, and wait for them to end
        (their transactions roll back, their claims are given up); how many there were."""
        pending: list[asyncio.Future[Any]] = list(self._running_work())
        if announcer is not None:
            pending += announcer.cancel()
        if self.scheduler is not None:
            pending += self.scheduler.pending()
        pending = [p for p in pending if not p.done()]
        for future in pending:
            future.cancel()
        service = self.get_cog("ServiceCog")
        tick = getattr(getattr(service, "ticker", None), "get_task", lambda: None)()
        ending = [*pending, tick] if tick is not None and not tick.done() else pending
        if ending:
            await asyncio.wait(ending, timeout=CANCEL_WAIT)
        return len(pending)

    async def _end_the_rest(self) -> None:
        """When the loop is the bot's own (``serve``): cancel any other task left in it (a drawing
        awaited by nobody, a library's helper) and wait for them, before the store closes."""
        if self.serving is None:
            return
        current = asyncio.current_task()
        rest = [t for t in asyncio.all_tasks() if t not in (current, self.serving) and not t.done()]
        for task in rest:
            task.cancel()
        if rest:
            await asyncio.wait(rest, timeout=CANCEL_WAIT)


class ShardedTabletopBot(TabletopBot, commands.AutoShardedBot):
    """The bot as some of the shards of a bigger one (``SHARD_COUNT``, ``SHARD_IDS``): Discord sends
    this process the events of its shards' servers only. Everything a player relies on is in the
    database, so the processes need not know of each other (docs/architecture.md, "Several
    processes")."""


def _channel_link(record: GameRecord) -> str:
    """A link a direct message can carry to the game's channel."""
    if record.guild is None:
        return f"<#{record.channel}>"
    return f"https://discord.com/channels/{record.guild}/{record.channel}"


def _post_link(record: GameRecord, message: str | None) -> str:
    """A link to the game's latest post (Discord shows it as the channel and a message), else to its
    channel: what a player's card and a server's list of games point at."""
    if message is None or record.guild is None:
        return _channel_link(record)
    return f"https://discord.com/channels/{record.guild}/{record.channel}/{message}"


def build_bot(
    settings: Settings,
    table: Commands | None = None,
    *,
    clock: Clock | None = None,
    listing_timer: Timer | None = None,
) -> TabletopBot:
    """A ready-to-start bot; nothing is opened until it starts (``setup_hook``).

    ``table`` replaces the command handlers over the store at ``settings.database_path`` (then
    nothing is announced or timed: tests of the Discord adapters alone); ``clock`` replaces the
    system clock for reminders and deadlines, ``listing_timer`` the monotonic clock and the sleep
    that pace the players' cards and the servers' lists of games (a minute between two edits).
    """
    kind = TabletopBot if settings.shard_count is None else ShardedTabletopBot
    return kind(settings, table, clock=clock, listing_timer=listing_timer)


def configure_logging(level: str) -> None:
    """Logs go to stderr so that the console's replies on stdout stay clean."""
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )


async def serve(bot: TabletopBot, token: str) -> None:
    """Run ``bot`` until it is stopped: by SIGTERM (``docker stop``), SIGINT (Ctrl-C) or Discord.

    Python ignores SIGTERM while it is a container's first process unless it handles it itself;
    here both signals start the bot's clean stop, and the process then exits 0.
    """
    loop = asyncio.get_running_loop()
    bot.serving = asyncio.current_task()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, bot.stop, signal.Signals(sig).name)
    try:
        async with bot:
            try:
                await bot.start(token)
            finally:
                await bot.close()
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)


def stdin_is_empty(stream: TextIO | None) -> bool:
    """Whether the console would read nothing at all: no standard input, or one that ends at once
    (``/dev/null``, a container run without ``-i``). A terminal, or a pipe that brings lines even
    later, is not empty. Peeking waits for the first byte or the end, and consumes nothing."""
    if stream is None:
        return True
    try:
        if stream.isatty():
            return False
        buffer = stream.buffer
        return isinstance(buffer, io.BufferedReader) and buffer.peek(1) == b""
    except (AttributeError, OSError, ValueError):
        return False


def check_health(settings: Settings, now: datetime | None = None) -> tuple[bool, str]:
    """Whether the running bot's heartbeat is fresh, and a line saying why (``--health``)."""
    path = settings.heartbeat
    try:
        beat = json.loads(path.read_text(encoding="utf-8"))
        written = datetime.fromisoformat(beat["time"])
    except FileNotFoundError:
        return False, f"unhealthy: no heartbeat at {path} (the bot is not running, or not connected yet)"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return False, f"unhealthy: the heartbeat at {path} cannot be read ({exc})"
    age = ((now or datetime.now(UTC)) - written).total_seconds()
    if age > settings.heartbeat_limit:
        return (
            False,
            f"unhealthy: the last heartbeat is {age:.0f} s old (over {settings.heartbeat_limit:g} s)",
        )
    return True, f"healthy: heartbeat {max(age, 0):.0f} s old, {beat.get('ticks', 0)} tick(s) since start"


def main(argv: Sequence[str] | None = None) -> int:
    """Run until stopped; the exit status says whether the configuration was usable.

    ``--health`` instead checks the running bot's heartbeat: 0 when it is fresh, 1 when not.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2
    if args == ["--health"]:
        healthy, why = check_health(settings)
        print(why, file=sys.stdout if healthy else sys.stderr)
        return 0 if healthy else 1
    if args:
        print(f"unknown arguments {args}; the only one is --health", file=sys.stderr)
        return 2
    import engine
    import i18n

    try:
        i18n.check(getattr(engine.get_game(name), "words", None) for name in engine.GAMES)
    except ValueError as exc:
        print(f"catalog error: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level if settings.token else settings.console_log_level)
    if settings.token:
        bot = build_bot(settings)
        try:
            asyncio.run(serve(bot, settings.token))
        except discord.LoginFailure:
            log.error("Discord refused the token in DISCORD_TOKEN; check it in the developer portal")
            return 1
        return 0
    if stdin_is_empty(sys.stdin):
        print(NO_INPUT, file=sys.stderr)
        return 2
    from console import run_console

    try:
        return asyncio.run(run_console(settings))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
