"""A fake Discord on 127.0.0.1 that an unmodified discord.py bot logs into and serves interactions from.

The bot runs its real code path: REST calls go through `discord.http.Route.BASE` and the gateway
through `DiscordWebSocket.DEFAULT_GATEWAY`, both pointed here while the harness is open. Tests build a
small world (guilds, channels, users), start the bot, then play slash commands, autocomplete and button
clicks as those users and read back what the bot answered::

    async with FakeDiscord() as fake:
        guild = fake.add_guild("G", locale="fr")
        chan = fake.add_channel(guild, "general")
        alice = fake.add_user("alice")
        await fake.start_bot(bot)
        r = await fake.slash(alice, chan, "game new", game="warchest")
        assert not r.ephemeral and r.files

Layers, each in its own module: `world.FakeWorld` (state), `gateway.FakeGateway` (websocket),
`rest.FakeRestApi` (HTTP routes), and here `FakeDiscord` (server lifecycle and the API for tests).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from tests.fakediscord import checks
from tests.fakediscord.gateway import NotDelivered
from tests.fakediscord.model import (
    APP_PERMISSIONS,
    FakeChannel,
    FakeGuild,
    FakeUser,
    InteractionResult,
    SentMessage,
)
from tests.fakediscord.options import ObjectPayloads, build_command_data
from tests.fakediscord.rest import API_PREFIX, DISCORD_MESSAGE_RATE, FakeRestApi
from tests.fakediscord.world import HANG_LIMIT, PendingInteraction, RecordedRequest

__all__ = ["HANG_LIMIT", "FakeDiscord", "InteractionLost", "InteractionTimeout", "RecordedRequest"]

INVOKER_TASK_NAMES = (
    "CommandTree-invoker",
    "discord.py: ",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
)


class InteractionTimeout(AssertionError):
    """The bot did not answer an interaction (Discord would show "The application did not respond")."""


class InteractionLost(InteractionTimeout):
    """The bot process the interaction went to died without answering it (``abandon_shard``)."""


def _without_user(member: dict[str, Any]) -> dict[str, Any]:
    """Resolved members come without their `user`, which Discord puts in `resolved.users`."""
    return {k: v for k, v in member.items() if k != "user"}


class FakeDiscord(FakeRestApi):
    """The fake server and the test-facing API. Use as `async with FakeDiscord() as fake`."""

    def __init__(
        self,
        *,
        bot_name: str = "TestBot",
        heartbeat_interval_ms: int = 41250,
        response_deadline: float = HANG_LIMIT,
        message_rate: tuple[int, float] | None = DISCORD_MESSAGE_RATE,
    ) -> None:
        super().__init__(
            bot_name=bot_name,
            heartbeat_interval_ms=heartbeat_interval_ms,
            response_deadline=response_deadline,
            message_rate=message_rate,
        )
        self._runner: web.AppRunner | None = None
        self._saved_base: str | None = None
        self._saved_gateway: yarl.URL | None = None
        self._bot: discord.Client | None = None
        self._bot_task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self._saved_base = discord.http.Route.BASE
        self._saved_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.base_url + API_PREFIX
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        try:
            if self._bot is not None:
                await self.stop_bot()
        finally:
            for ws in list(self._sockets):
                await ws.close()
            if self._runner is not None:
                await self._runner.cleanup()
            if self._saved_base is not None:
                discord.http.Route.BASE = self._saved_base
            if self._saved_gateway is not None:
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved_gateway

    async def start_bot(
        self,
        bot: discord.Client,
        token: str = "test",
        *,
        timeout: float = HANG_LIMIT,
        guild_ready_timeout: float = 0.05,
    ) -> None:
        """Run `bot.start(token)` in a task and return once the bot is ready (guilds received).

        `guild_ready_timeout` replaces discord.py's 2-second wait for late GUILD_CREATEs: the fake sends
        them all right after READY.
        """
        if self._bot is not None:
            raise RuntimeError("a bot is already running; call stop_bot() first")
        self.token = token
        bot._connection.guild_ready_timeout = guild_ready_timeout
        self._bot = bot
        self._bot_task = asyncio.create_task(bot.start(token), name="fakediscord-bot")
        deadline = time.monotonic() + timeout
        while not bot.is_ready():
            if self._bot_task.done():
                self._bot, task, self._bot_task = None, self._bot_task, None
                task.result()  # raises what stopped the bot
                raise RuntimeError("the bot stopped before becoming ready")
            if time.monotonic() > deadline:
                await self.stop_bot()
                raise TimeoutError(
                    f"bot not ready after {timeout} s; unknown requests: {self.unknown_requests}"
                )
            await asyncio.sleep(0.005)

    async def stop_bot(self, timeout: float = HANG_LIMIT) -> None:
        """Close the bot cleanly (as on shutdown); a new bot may then `start_bot` on the same world."""
        bot, task = self._bot, self._bot_task
        self._bot = self._bot_task = None
        if bot is None:
            return
        await bot.close()
        if task is not None:
            await asyncio.wait_for(task, timeout)
        self._forget_sessions()

    @property
    def bot(self) -> discord.Client | None:
        return self._bot

    def _object_payloads(self, guild: FakeGuild | None) -> ObjectPayloads:
        def attachment(filename: str, blob: bytes) -> dict[str, Any]:
            attachment_id = self._ids.next()
            self._uploads[attachment_id] = blob
            url = f"{self.base_url}/uploads/{attachment_id}/{filename}"
            return {
                "id": attachment_id,
                "filename": filename,
                "size": len(blob),
                "url": url,
                "proxy_url": url,
            }

        return ObjectPayloads(
            user=lambda u: u.payload(),
            member=lambda u: None if guild is None else _without_user(guild.member_payload(u)),
            channel=lambda c: {**c.payload(), "permissions": APP_PERMISSIONS},
            attachment=attachment,
        )

    def _commands_for(self, channel: FakeChannel) -> list[dict[str, Any]]:
        """Guild commands shadow global ones of the same name, as in Discord's client."""
        guild_commands = self.guild_commands.get(channel.guild_id, [])
        names = {c["name"] for c in guild_commands}
        return [*guild_commands, *(c for c in self.global_commands if c["name"] not in names)]

    async def _wait_for_command(self, channel: FakeChannel, name: str, timeout: float = HANG_LIMIT) -> None:
        """A bot that syncs in on_ready may not have synced anything yet when start_bot returns."""
        deadline = time.monotonic() + timeout
        while self.command_puts == 0 and not any(c["name"] == name for c in self._commands_for(channel)):
            if time.monotonic() > deadline:
                return
            await asyncio.sleep(0.01)

    def _base_interaction(
        self, kind: int, user: FakeUser, channel: FakeChannel, locale: str | None
    ) -> dict[str, Any]:
        if channel.archived:
            raise ValueError(f"thread {channel.name!r} is archived: Discord accepts no command there")
        guild = self.guilds[channel.guild_id]
        member = guild.member_payload(user)
        return {
            "id": self._ids.next(),
            "application_id": self.application_id,
            "type": kind,
            "token": "itk-" + secrets.token_urlsafe(24),
            "version": 1,
            "guild_id": guild.id,
            "guild": {"id": guild.id, "locale": guild.locale, "features": []},
            "channel_id": channel.id,
            "channel": {**channel.payload(), "permissions": user.permissions},
            "member": member,
            "locale": locale or user.locale,
            "guild_locale": guild.locale,
            "app_permissions": str(self.bot_permissions(channel)),
            "entitlements": [],
            "authorizing_integration_owners": {"0": guild.id},
            "context": 0,
            "attachment_size_limit": checks.DEFAULT_UPLOAD_LIMIT,
        }

    async def _command_interaction(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        values: dict[str, Any],
        locale: str | None,
        *,
        focused: str | None = None,
    ) -> dict[str, Any]:
        """A slash command (kind 2) or autocomplete (kind 4) payload, once the bot has registered the
        command: both carry the same `data`, autocomplete with its focused option marked."""
        await self._wait_for_command(channel, command.split()[0])
        guild = self.guilds[channel.guild_id]
        data = build_command_data(
            self._commands_for(channel), command, values, self._object_payloads(guild), focused=focused
        )
        payload = self._base_interaction(kind, user, channel, locale)
        payload["data"] = data
        return payload

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        *,
        locale: str | None = None,
        timeout: float = HANG_LIMIT,
        settle: bool = True,
        option_values: dict[str, Any] | None = None,
        **options: Any,
    ) -> InteractionResult:
        """Invoke `/command` ("game new" = group then subcommand) as `user` in `channel`.

        Option values: str/int/float/bool, FakeUser, FakeChannel, or (filename, bytes) for attachments;
        an option whose name clashes with a parameter here (`locale`, `timeout`, `settle`) goes in
        `option_values`. Returns once the bot has answered and its handler has finished (follow-ups
        included); with ``settle=False``, once the user has the whole answer, whatever the bot's
        handlers still do after it (a player sending moves as fast as the answers come). Raises
        InteractionTimeout when no answer comes within `timeout`.
        """
        values = {**options, **(option_values or {})}
        payload = await self._command_interaction(2, user, channel, command, values, locale)
        return await self._run(payload, channel, timeout, settle=settle)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        *,
        focused: str,
        locale: str | None = None,
        timeout: float = HANG_LIMIT,
        option_values: dict[str, Any] | None = None,
        **options: Any,
    ) -> list[tuple[str, Any]]:
        """Type into option `focused` (its text is `options[focused]`); return the (name, value) choices."""
        values = {**options, **(option_values or {})}
        payload = await self._command_interaction(4, user, channel, command, values, locale, focused=focused)
        result = await self._run(payload, channel, timeout)
        return [(c["name"], c["value"]) for c in result.choices or []]

    async def click(
        self,
        user: FakeUser,
        message: SentMessage,
        custom_id: str,
        *,
        values: list[str] | None = None,
        locale: str | None = None,
        timeout: float = HANG_LIMIT,
    ) -> InteractionResult:
        """Click the button (or pick `values` in the select menu) `custom_id` on a message of the bot."""
        component = next(
            (
                c
                for row in message.components
                for c in row.get("components", [])
                if c.get("custom_id") == custom_id
            ),
            None,
        )
        if component is None or message.deleted:
            raise ValueError(f"message {message.id} has no component {custom_id!r}")
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        if message.ephemeral and message.interaction_id is not None:
            owner = self._interaction_user(message.interaction_id)
            if owner is not None and owner != user.id:
                raise ValueError("only the user an ephemeral message was shown to can click it")
        channel = self.channels[message.channel_id]
        payload = self._base_interaction(3, user, channel, locale)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if values is not None:
            data["values"] = values
        payload["data"] = data
        payload["message"] = message.payload(self.base_url, self.application_id)
        return await self._run(payload, channel, timeout, target=message)

    async def deliver(
        self,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        kind: int = 2,
        message: SentMessage | None = None,
        components: list[dict[str, Any]] | None = None,
        copies: int = 1,
        locale: str | None = None,
        timeout: float = HANG_LIMIT,
    ) -> InteractionResult:
        """Deliver an interaction whose ``data`` goes out as given, unchecked: what a modified client,
        a client with a stale command list or a forged request may send, which ``slash`` and ``click``
        refuse to build. ``kind`` 2 is a command, 3 a component (on ``message``, shown with
        ``components`` in place of its own), 4 an autocomplete. ``copies`` > 1 delivers the same
        interaction (same id and token) that many times in a row, as a gateway may after a resume;
        Discord takes the first answer and refuses any other (400, code 40060)."""
        if kind in (2, 4):
            await self._wait_for_command(channel, str(data.get("name") or ""))
        payload = self._base_interaction(kind, user, channel, locale)
        payload["data"] = data
        if message is not None:
            shown = message.payload(self.base_url, self.application_id)
            if components is not None:
                shown["components"] = components
            payload["message"] = shown
        return await self._run(payload, channel, timeout, target=message, copies=copies)

    def _interaction_user(self, interaction_id: str) -> str | None:
        for record in self._interactions.values():
            if record.result.interaction_id == interaction_id:
                return str(record.payload["member"]["user"]["id"])
        return None

    async def _run(
        self,
        payload: dict[str, Any],
        channel: FakeChannel,
        timeout: float,
        target: SentMessage | None = None,
        *,
        copies: int = 1,
        settle: bool = True,
    ) -> InteractionResult:
        result = InteractionResult(interaction_id=payload["id"], token=payload["token"])
        record = PendingInteraction(
            payload, result, channel, time.monotonic(), target=target, shard=self.shard_of(channel.guild_id)
        )
        self._interactions[payload["token"]] = record
        self._in_flight.append(record)
        deadline = time.monotonic() + timeout
        earlier = self._handlers()  # a command still running from before is not this one's
        try:
            for _copy in range(copies):
                try:
                    await self.dispatch("INTERACTION_CREATE", payload)
                except NotDelivered:
                    record.lost.set()  # Discord dropped it: "This interaction failed"
                    raise InteractionLost(self._timeout_report(payload)) from None
            record.sent = True
            await self._wait_for_answer(record, deadline, earlier)
            if settle:
                await self._wait_for_handlers(deadline, earlier)
            if self._bot is None or not settle:
                await self._wait_for_follow_up(record, deadline)
        finally:
            self._in_flight.remove(record)
        if not result.complete and record.lost.is_set():
            raise InteractionLost(self._timeout_report(payload))
        if not result.answered:
            raise InteractionTimeout(self._timeout_report(payload))
        if not result.complete:
            raise InteractionTimeout("deferred but never completed: " + self._timeout_report(payload))
        return result

    async def _wait_for_answer(
        self, record: PendingInteraction, deadline: float, earlier: set[asyncio.Task[Any]]
    ) -> None:
        """Until the interaction is answered, or an answer was refused and the bot's handlers ended
        (it will not try again), or the deadline passes: a refusal fails the test without waiting."""
        answered = asyncio.ensure_future(record.answered.wait())
        refused = asyncio.ensure_future(record.refused.wait())
        lost = asyncio.ensure_future(record.lost.wait())
        try:
            await asyncio.wait(
                {answered, refused, lost},
                timeout=max(0.0, deadline - time.monotonic()),
                return_when=asyncio.FIRST_COMPLETED,
            )
            if not record.answered.is_set() and record.refused.is_set():
                await self._wait_for_handlers(deadline, earlier)
        finally:
            answered.cancel()
            refused.cancel()
            lost.cancel()

    @staticmethod
    async def _wait_for_follow_up(record: PendingInteraction, deadline: float) -> None:
        """A bot in another process that deferred ("thinking...") completes its answer later; its
        handlers are not tasks here to wait for, so wait for the answer itself (or its process's end)."""
        while (
            record.result.answered
            and not record.result.complete
            and not record.lost.is_set()
            and time.monotonic() < deadline
        ):
            await asyncio.sleep(0.01)

    @staticmethod
    def _handlers() -> set[asyncio.Task[Any]]:
        """discord.py's command and event tasks running now."""
        current = asyncio.current_task()
        return {
            t
            for t in asyncio.all_tasks()
            if t is not current and not t.done() and t.get_name().startswith(INVOKER_TASK_NAMES)
        }

    async def _wait_for_handlers(self, deadline: float, earlier: set[asyncio.Task[Any]]) -> None:
        """Wait for discord.py's command and event tasks begun since ``earlier`` was taken, so
        follow-ups sent after the answer count (a command of another channel still running, its
        channel stuck, is not waited for)."""
        while True:
            pending = self._handlers() - earlier
            remaining = deadline - time.monotonic()
            if not pending or remaining <= 0:
                return
            await asyncio.wait(pending, timeout=remaining)

    def _timeout_report(self, payload: dict[str, Any]) -> str:
        data = payload.get("data", {})
        what = data.get("name") or data.get("custom_id")
        return (
            f"no answer to interaction {what!r} (type {payload['type']}); "
            f"rejected requests: {self.rejections}; unknown requests: {self.unknown_requests}"
        )

    def in_flight(self, *, shard: int | None = None) -> int:
        """How many interactions are sent and not answered yet (to ``shard``'s connection only)."""
        return len([r for r in self._in_flight if r.sent and (shard is None or r.shard == shard)])

    def abandon_shard(self, shard: int) -> int:
        """The bot process running ``shard`` was killed: the interactions sent to it and not answered
        will never be (their ``slash`` raises ``InteractionLost`` at once); how many there were."""
        lost = [r for r in self._in_flight if r.shard == shard and not r.result.complete]
        for record in lost:
            record.lost.set()
        return len(lost)

    async def first_answer(self, timeout: float = HANG_LIMIT) -> InteractionResult:
        """The result of the first in-flight interaction the bot has acknowledged, while the bot's
        handler may still be running: what the user sees before the slow part is done."""
        deadline = time.monotonic() + timeout
        while True:
            answered = [r.result for r in self._in_flight if r.answered.is_set()]
            if answered:
                return answered[0]
            if time.monotonic() > deadline:
                raise InteractionTimeout("no interaction in flight was answered")
            await asyncio.sleep(0.005)

    async def wait_for_messages(
        self, result: InteractionResult, count: int, timeout: float = HANG_LIMIT
    ) -> None:
        """For bots that send follow-ups from their own background tasks."""
        deadline = time.monotonic() + timeout
        while len(result.messages) < count:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{len(result.messages)} messages, expected {count}")
            await asyncio.sleep(0.01)
