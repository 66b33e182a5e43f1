"""The REST side of the fake Discord: the routes discord.py calls, answered as Discord would.

Start-up (`/users/@me`, `/oauth2/applications/@me`, `/gateway`), command sync, interaction callbacks
(JSON or multipart with `payload_json` and `files[n]`), follow-ups and edits through the interaction
webhook, channel messages, threads and direct messages. Anything else is recorded in
`unknown_requests` and answered with a Discord-like 404; what real Discord refuses is refused the same
way and recorded in `rejections`: the bot's permissions in each channel (``deny_bot``), archived and
locked threads, deleted channels, Discord's rate of messages per channel, and the faults a test injects
(``inject``, see faults.py).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from aiohttp import web

from tests.fakediscord import checks
from tests.fakediscord.faults import (
    MESSAGES,
    ChannelRate,
    Fault,
    Logged,
    RequestLog,
    json_response,
    make_fault,
    too_many,
)
from tests.fakediscord.gateway import FakeGateway
from tests.fakediscord.model import EPHEMERAL, LOADING, PERMISSION_BITS, REQUIRE_TAG, FakeChannel, SentMessage
from tests.fakediscord.world import HANG_LIMIT, PendingInteraction, RecordedRequest

API_PREFIX = "/api/v10"
NONCE_WINDOW = 300.0
"""Seconds within which Discord returns the message an author already created with the same nonce
(``enforce_nonce``) instead of creating another: "the past few minutes"."""
OLD_MESSAGE = timedelta(hours=1)
# Message flags a bot may set itself: suppress embeds, ephemeral, suppress notifications.
SETTABLE_FLAGS = 4 | EPHEMERAL | 4096

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

FORUM_TAGS = 20
"""Tags a forum may have."""
DISCORD_MESSAGE_RATE = (5, 5.0)
"""Discord's rate of new messages in one channel: about 5 per 5 seconds."""


class FakeRestApi(FakeGateway):
    """REST handlers over the shared world; an answer after `response_deadline` is refused (10062).

    Discord allows 3 s for the first answer. The harness enforces a deadline only where a test sets
    one: on a loaded machine a correct bot can be late for reasons of the machine, so the default is
    `HANG_LIMIT`, and deferral is tested as behaviour (the bot acknowledges while its slow work is
    still running), not by the clock.
    """

    def __init__(
        self,
        *,
        bot_name: str = "TestBot",
        heartbeat_interval_ms: int = 41250,
        response_deadline: float = HANG_LIMIT,
        message_rate: tuple[int, float] | None = DISCORD_MESSAGE_RATE,
    ) -> None:
        super().__init__(bot_name=bot_name, heartbeat_interval_ms=heartbeat_interval_ms)
        self.response_deadline = response_deadline
        self.faults: list[Fault] = []
        """Every fault injected (``inject``), lifted or not, with how many requests each answered."""
        self.message_rate = None if message_rate is None else ChannelRate(*message_rate)
        """Discord's rate of posts per channel, enforced with real 429s (None: no limit)."""
        self.channel_requests = RequestLog()
        """Every request naming a channel, by channel, on ``channel_requests.clock``."""
        self._held: dict[str, asyncio.Event] = {}
        self.held_requests = 0
        self._held_answers: dict[str, asyncio.Event] = {}
        self.held_answers = 0
        self._answers_waiting: dict[str, int] = {}
        self.nonce_clock: Callable[[], float] = time.monotonic
        """The clock of the nonce window (a test replaces it to step past the window)."""
        self.nonce_window = NONCE_WINDOW
        self._nonces: dict[tuple[str, str], tuple[float, SentMessage]] = {}
        self.nonce_repeats = 0
        """Posts Discord answered with the message already created for their nonce."""
        self.expired_channels: set[str] = set()
        """Channels whose interaction tokens no longer take follow-ups (``expire_tokens``)."""

    def _add_routes(self, app: web.Application) -> None:
        p = API_PREFIX
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/gateway", self._gateway),
            ("GET", "/gateway-resume", self._gateway),
            ("GET", f"{p}/gateway", self._get_gateway),
            ("GET", f"{p}/gateway/bot", self._get_gateway_bot),
            ("GET", f"{p}/users/@me", self._get_me),
            ("POST", f"{p}/users/@me/channels", self._create_dm),
            ("GET", f"{p}/users/{{user_id}}", self._get_user),
            ("GET", f"{p}/oauth2/applications/@me", self._get_application),
            ("GET", f"{p}/applications/@me", self._get_application),
            ("GET", f"{p}/applications/{{app_id}}/commands", self._get_commands),
            ("PUT", f"{p}/applications/{{app_id}}/commands", self._put_commands),
            ("GET", f"{p}/applications/{{app_id}}/guilds/{{guild_id}}/commands", self._get_commands),
            ("PUT", f"{p}/applications/{{app_id}}/guilds/{{guild_id}}/commands", self._put_commands),
            ("POST", f"{p}/interactions/{{interaction_id}}/{{token}}/callback", self._callback),
            ("POST", f"{p}/webhooks/{{app_id}}/{{token}}", self._followup),
            ("GET", f"{p}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}", self._get_webhook_message),
            (
                "PATCH",
                f"{p}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}",
                self._edit_webhook_message,
            ),
            (
                "DELETE",
                f"{p}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}",
                self._delete_webhook_message,
            ),
            ("GET", f"{p}/channels/{{channel_id}}", self._get_channel),
            ("PATCH", f"{p}/channels/{{channel_id}}", self._edit_channel),
            ("POST", f"{p}/channels/{{channel_id}}/messages", self._channel_send),
            ("GET", f"{p}/channels/{{channel_id}}/messages/{{message_id}}", self._get_channel_message),
            ("PATCH", f"{p}/channels/{{channel_id}}/messages/{{message_id}}", self._edit_channel_message),
            ("DELETE", f"{p}/channels/{{channel_id}}/messages/{{message_id}}", self._delete_channel_message),
            ("POST", f"{p}/channels/{{channel_id}}/threads", self._create_thread),
            ("POST", f"{p}/channels/{{channel_id}}/messages/{{message_id}}/threads", self._create_thread),
            ("GET", f"{p}/guilds/{{guild_id}}/members/{{user_id}}", self._get_member),
            ("POST", f"{p}/guilds/{{guild_id}}/scheduled-events", self._create_event),
            ("GET", "/attachments/{channel_id}/{message_id}/{index}/{filename}", self._get_attachment),
            ("GET", "/uploads/{upload_id}/{filename}", self._get_upload),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, path, self._recorded(handler))
        app.router.add_route("*", "/{tail:.*}", self._unknown)

    def _recorded(self, handler: Handler) -> Handler:
        async def wrapper(request: web.Request) -> web.StreamResponse:
            entry = RecordedRequest(request.method, request.path)
            self.requests.append(entry)
            logged, fault = self._injected(request)
            response = fault.answer() if fault is not None else await handler(request)
            if logged is not None:
                logged.status = response.status
            entry.status = response.status
            if response.status >= 400:
                body = response.body if isinstance(response, web.Response) else None
                entry.body = json.loads(body) if isinstance(body, bytes) else None
                self.rejections.append(entry)
            return response

        return wrapper

    def inject(
        self,
        kind: str,
        *,
        route: str | None = MESSAGES,
        method: str | None = None,
        channel: FakeChannel | str | None = None,
        times: int | None = None,
        retry_after: float = 1.0,
        is_global: bool = False,
    ) -> Fault:
        """Answer the bot's requests of ``method`` on ``route`` (without the API prefix, as faults.py
        names them: a channel's posts by default, whose method is POST), in ``channel`` or anywhere,
        as Discord refuses them: ``kind`` is one of ``faults.KINDS`` (``"missing_permissions"``: 403,
        50013...). ``times`` requests (None: until ``lift``). A 429 says ``retry_after`` seconds, and
        ``is_global`` for the bot's global rate."""
        channel_id = channel.id if isinstance(channel, FakeChannel) else channel
        fault = make_fault(
            kind,
            route=route,
            method=method,
            channel=channel_id,
            times=times,
            retry_after=retry_after,
            is_global=is_global,
        )
        self.faults.append(fault)
        return fault

    def _injected(self, request: web.Request) -> tuple[Logged | None, Fault | None]:
        """The injected fault that answers ``request``, if any; every request naming a channel is
        logged in ``channel_requests`` first, refused or not (the entry, to note the answer)."""
        info = request.match_info
        if info.route.resource is None:
            return None, None
        route = info.route.resource.canonical.removeprefix(API_PREFIX)
        channel = info.get("channel_id")
        logged = None
        if channel is None and "token" in info:  # an interaction's webhook: its channel
            record = self._interactions.get(info["token"])
            channel = record.channel.id if record is not None else None
        elif channel is not None:
            logged = self.channel_requests.note(channel, request.method, route)
        return logged, next((f for f in self.faults if f.matches(request.method, route, channel)), None)

    async def _unknown(self, request: web.Request) -> web.Response:
        body = await request.read()
        entry = RecordedRequest(request.method, request.path_qs, 404, body.decode(errors="replace") or None)
        self.requests.append(entry)
        self.unknown_requests.append(entry)
        return json_response({"message": "404: Not Found", "code": 0}, status=404)

    def _authorized(self, request: web.Request) -> bool:
        return self.token is None or request.headers.get("Authorization") == f"Bot {self.token}"

    @staticmethod
    def _unauthorized() -> web.Response:
        return json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    @staticmethod
    def _not_found(message: str, code: int) -> web.Response:
        return json_response({"message": message, "code": code}, status=404)

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
        """JSON body, or multipart with `payload_json` plus `files[n]` parts (what discord.py sends)."""
        if request.content_type.startswith("multipart/"):
            payload: dict[str, Any] = {}
            files: list[tuple[int, str, bytes]] = []
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                name = getattr(part, "name", None) or ""
                blob = await part.read()  # type: ignore[union-attr]
                if name == "payload_json":
                    payload = json.loads(blob)
                elif name.startswith("files["):
                    index = int(name[6:-1])
                    files.append((index, getattr(part, "filename", None) or name, bytes(blob)))
            return payload, [(n, b) for _, n, b in sorted(files)]
        if request.can_read_body:
            return await request.json(), []
        return {}, []

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return self._unauthorized()
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response(
            {"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit}
        )

    async def _get_me(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return self._unauthorized()
        return json_response({**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0})

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(request.match_info["user_id"])
        if user is None:
            return self._not_found("Unknown User", 10013)
        return json_response(user.payload())

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self.guilds.get(request.match_info["guild_id"])
        user = self.users.get(request.match_info["user_id"])
        if guild is None:
            return self._not_found("Unknown Guild", 10004)
        if user is None:
            return self._not_found("Unknown Member", 10007)
        member = guild.member_payload(user)
        member.pop("permissions")
        return json_response(member)

    async def _get_application(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return self._unauthorized()
        return json_response(
            {
                "id": self.application_id,
                "name": self.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "bot": self.bot_user.payload(),
            }
        )

    async def _get_commands(self, request: web.Request) -> web.Response:
        guild_id = request.match_info.get("guild_id")
        return json_response(self.guild_commands.get(guild_id, []) if guild_id else self.global_commands)

    async def _put_commands(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return self._unauthorized()
        if request.match_info["app_id"] != self.application_id:
            return json_response({"message": "Unknown Application", "code": 10002}, status=404)
        guild_id = request.match_info.get("guild_id")
        if guild_id is not None and guild_id not in self.guilds:
            return json_response({"message": "Missing Access", "code": 50001}, status=403)
        payload = await request.json()
        synced = []
        for command in payload:
            kind = command.get("type", 1)
            key = (guild_id, command["name"], kind)
            command_id = self._command_ids.setdefault(key, self._ids.next())
            entry = {
                **command,
                "id": command_id,
                "application_id": self.application_id,
                "version": self._ids.next(),
                "type": kind,
            }
            entry.setdefault("description", "")
            if guild_id is not None:
                entry["guild_id"] = guild_id
            synced.append(entry)
        self.command_puts += 1
        if guild_id is None:
            self.global_commands = synced
        else:
            self.guild_commands[guild_id] = synced
        return json_response(synced)

    def _new_message(
        self,
        channel_id: str,
        kind: str,
        data: dict[str, Any],
        files: list[tuple[str, bytes]],
        interaction: PendingInteraction | None,
    ) -> SentMessage:
        message = SentMessage(
            id=self._ids.next(),
            channel_id=channel_id,
            author=self.bot_user,
            kind=kind,
            content=data.get("content") or "",
            created_content=data.get("content") or "",
            created_components=list(data.get("components") or []),
            nonce=None if data.get("nonce") is None else str(data["nonce"]),
            flags=int(data.get("flags") or 0) & SETTABLE_FLAGS,
            files=list(files),
            descriptions=new_descriptions(data, len(files)),
            embeds=list(data.get("embeds") or []),
            components=list(data.get("components") or []),
            allowed_mentions=data.get("allowed_mentions"),
            interaction_id=interaction.result.interaction_id if interaction else None,
        )
        self._messages[message.id] = message
        if not message.ephemeral:
            self.channel_log.setdefault(channel_id, []).append(message)
        if interaction is not None:
            interaction.result.messages.append(message)
        else:
            for record in self._in_flight:
                if record.channel.id == channel_id:
                    record.result.channel_posts.append(message)
        return message

    def _message_json(self, message: SentMessage) -> web.Response:
        return json_response(message.payload(self.base_url, self.application_id))

    @staticmethod
    def _edit(message: SentMessage, data: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        """PATCH semantics: only the fields sent change; `attachments` lists which old files stay."""
        if "content" in data:
            message.content = data["content"] or ""
        if "embeds" in data:
            message.embeds = list(data["embeds"] or [])
        if "components" in data:
            message.components = list(data["components"] or [])
        if "allowed_mentions" in data:
            message.allowed_mentions = data["allowed_mentions"]
        if "attachments" in data:
            kept_ids = {str(a.get("id")) for a in data["attachments"] or []}
            kept = [i for i in range(len(message.files)) if f"{message.id}{i}" in kept_ids]
            message.descriptions = [message.alt(i) for i in kept]
            message.files = [message.files[i] for i in kept]
        message.descriptions.extend(new_descriptions(data, len(files)))
        message.files.extend(files)
        message.flags &= ~LOADING
        message.edits += 1

    async def _callback(self, request: web.Request) -> web.Response:
        """The first answer to an interaction; a refused one tells the waiting test at once."""
        record = self._interactions.get(request.match_info["token"])
        response = await self._answer_interaction(request, record)
        if record is not None and response.status >= 400:
            record.refused.set()
        return response

    async def _answer_interaction(
        self, request: web.Request, record: PendingInteraction | None
    ) -> web.Response:
        if record is None or record.result.interaction_id != request.match_info["interaction_id"]:
            return self._not_found("Unknown interaction", 10062)
        result = record.result
        if result.answered:
            refused = {"message": "Interaction has already been acknowledged.", "code": 40060}
            return json_response(refused, status=400)
        elapsed = time.monotonic() - record.created
        if elapsed > self.response_deadline:
            return self._not_found("Unknown interaction", 10062)
        payload, files = await self._read_body(request)
        kind = int(payload.get("type", 0))
        data = payload.get("data") or {}
        refusal: tuple[int, dict[str, Any]] | None = None
        if kind == 4:
            refusal = checks.message_errors(data, files)
        elif kind == 7:
            refusal = checks.message_errors(data, files, creating=False)
        elif kind == 8:
            refusal = checks.autocomplete_errors(data)
        if refusal is not None:
            return json_response(refusal[1], status=refusal[0])
        if kind in (6, 7) and record.target is None:
            return json_response(
                {"message": "Interaction is not a component interaction", "code": 50035}, 400
            )
        if kind == 8 and record.payload["type"] != 4:
            return json_response({"message": "Interaction is not an autocomplete", "code": 50035}, 400)

        message: SentMessage | None = None
        if kind == 4:
            message = self._new_message(record.channel.id, "response", data, files, record)
        elif kind == 5:
            loading = {"flags": (int(data.get("flags") or 0) & SETTABLE_FLAGS) | LOADING}
            message = self._new_message(record.channel.id, "response", loading, [], record)
            message.flags |= LOADING
        elif kind == 7 and record.target is not None:
            self._edit(record.target, data, files)
            message = record.target
        elif kind == 8:
            result.choices = list(data["choices"])
        elif kind == 9:
            result.modal = data
        result.response_type = kind
        result.response_flags = int(data.get("flags") or 0)
        result.response_delay = elapsed
        record.answered.set()

        interaction: dict[str, Any] = {"id": result.interaction_id, "type": record.payload["type"]}
        body: dict[str, Any] = {"interaction": interaction}
        if message is not None:
            interaction.update(
                response_message_id=message.id,
                response_message_loading=kind == 5,
                response_message_ephemeral=message.ephemeral,
            )
            body["resource"] = {"type": kind, "message": message.payload(self.base_url, self.application_id)}
        return json_response(body)

    def _webhook_record(self, request: web.Request) -> PendingInteraction | None:
        if request.match_info["app_id"] != self.application_id:
            return None
        record = self._interactions.get(request.match_info["token"])
        if record is None or not record.result.answered or record.channel.id in self.expired_channels:
            return None
        return record

    def expire_tokens(self, channel: str, expired: bool = True) -> None:
        """Answer follow-ups and edits through the tokens of interactions in ``channel`` as Discord
        does once a token has expired (15 minutes after its interaction): 404, Unknown Webhook. The
        first answer (the callback) is not concerned; ``expired=False`` ends it."""
        if expired:
            self.expired_channels.add(channel)
        else:
            self.expired_channels.discard(channel)

    def _webhook_message(self, record: PendingInteraction, message_id: str) -> SentMessage | None:
        if message_id == "@original":
            return record.result.original or record.target
        message = self._messages.get(message_id)
        if message is None or message.interaction_id != record.result.interaction_id:
            return None
        return message

    def _addressed_webhook_message(self, request: web.Request) -> SentMessage | web.Response:
        """The live message a webhook route names, or the 404 Discord answers (unknown webhook first)."""
        record = self._webhook_record(request)
        if record is None:
            return self._not_found("Unknown Webhook", 10015)
        message = self._webhook_message(record, request.match_info["message_id"])
        if message is None or message.deleted:
            return self._not_found("Unknown Message", 10008)
        return message

    async def _followup(self, request: web.Request) -> web.Response:
        record = self._webhook_record(request)
        if record is None:
            return self._not_found("Unknown Webhook", 10015)
        payload, files = await self._read_body(request)
        refusal = checks.message_errors(payload, files)
        if refusal is not None:
            return json_response(refusal[1], status=refusal[0])
        original = record.result.original
        if original is not None and original.loading and not original.deleted:
            # The first follow-up after a "thinking..." deferral replaces that message, which keeps the
            # visibility chosen at defer time whatever the follow-up asks for.
            self._edit(original, payload, files)
            original.edits -= 1
            message = original
        else:
            message = self._new_message(record.channel.id, "followup", payload, files, record)
        return self._message_json(message)

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        message = self._addressed_webhook_message(request)
        if isinstance(message, web.Response):
            return message
        return self._message_json(message)

    async def _edit_webhook_message(self, request: web.Request) -> web.Response:
        message = self._addressed_webhook_message(request)
        if isinstance(message, web.Response):
            return message
        payload, files = await self._read_body(request)
        refusal = checks.message_errors(payload, files, creating=False)
        if refusal is not None:
            return json_response(refusal[1], status=refusal[0])
        was_loading = message.loading
        self._edit(message, payload, files)
        if was_loading:
            message.edits -= 1  # filling in a deferred answer is its first content, not an edit
        return self._message_json(message)

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        message = self._addressed_webhook_message(request)
        if isinstance(message, web.Response):
            return message
        message.deleted = True
        return web.Response(status=204)

    async def _get_channel(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return self._unauthorized()
        channel = self.channels.get(request.match_info["channel_id"])
        if channel is None:
            return self._not_found("Unknown Channel", 10003)
        refused = self._refusal(channel)
        return refused or json_response(channel.payload())

    async def _edit_channel(self, request: web.Request) -> web.Response:
        """A thread reopened or locked by hand (``Thread.edit``): the fake asks Manage Threads for
        either, which always suffices on Discord."""
        if not self._authorized(request):
            return self._unauthorized()
        channel = self.channels.get(request.match_info["channel_id"])
        if channel is None:
            return self._not_found("Unknown Channel", 10003)
        body = await request.json()
        if channel.is_forum:
            return self._edit_forum(channel, body)
        unknown = set(body) - {"archived", "locked", "applied_tags"}
        if not channel.is_thread or unknown:
            return json_response(checks.form_error({k: "The fake edits threads only." for k in unknown}), 400)
        if "applied_tags" in body:
            refused = self._tagging_refusal(channel, [str(t) for t in body["applied_tags"] or []])
            if refused is not None:
                return refused
            channel.applied_tags = [str(t) for t in body["applied_tags"] or []]
        if "archived" in body or "locked" in body:
            refused = self._refusal(channel, "manage_threads")
            if refused is not None:
                return refused
        channel.archived = bool(body.get("archived", channel.archived))
        channel.locked = bool(body.get("locked", channel.locked))
        data = channel.payload()
        self._dispatch_later("THREAD_UPDATE", data)
        return json_response(data)

    def _edit_forum(self, forum: FakeChannel, body: dict[str, Any]) -> web.Response:
        """A forum's tags changed (``available_tags``: the new list, new tags without an id), which takes
        Manage Channels; at most 20 tags."""
        unknown = set(body) - {"available_tags"}
        if unknown:
            return json_response(
                checks.form_error({k: "The fake edits a forum's tags only." for k in unknown}), 400
            )
        refused = self._refusal(forum, "manage_channels")
        if refused is not None:
            return refused
        tags = list(body.get("available_tags") or [])
        if len(tags) > FORUM_TAGS:
            return json_response(checks.form_error({"available_tags": "Must be 20 or fewer in length."}), 400)
        forum.tags = [
            {**self.new_tag(str(t["name"])), **({"id": str(t["id"])} if t.get("id") else {})} for t in tags
        ]
        data = forum.payload()
        self._dispatch_later("CHANNEL_UPDATE", data)
        return json_response(data)

    def _tagging_refusal(self, post: FakeChannel, tags: list[str]) -> web.Response | None:
        """Discord's answer to a forum post tagged ``tags``: at most 5, each one of its forum's, and one at
        least where the forum requires it (40067)."""
        forum = self.channels.get(post.parent_id or "")
        if forum is None or not forum.is_forum:
            return json_response(checks.form_error({"applied_tags": "Only a forum's posts have tags."}), 400)
        known = {str(t["id"]) for t in forum.tags}
        if len(tags) > 5 or any(t not in known for t in tags):
            return json_response(checks.form_error({"applied_tags": "Unknown or too many tags."}), 400)
        if not tags and forum.flags & REQUIRE_TAG:
            return json_response(
                {"message": "A tag is required to create a forum post in this channel", "code": 40067}, 400
            )
        return None

    async def _create_event(self, request: web.Request) -> web.Response:
        """A server's scheduled event: the bot needs Create Events or Manage Events there; an external
        one needs a location and an end after its start; at most 100 per server."""
        if not self._authorized(request):
            return self._unauthorized()
        guild = self.guilds.get(request.match_info["guild_id"])
        if guild is None:
            return self._not_found("Unknown Guild", 10004)
        may = int(guild.bot_permissions)
        if not may & (PERMISSION_BITS["create_events"] | PERMISSION_BITS["manage_events"]):
            return json_response({"message": "Missing Permissions", "code": 50013}, 403)
        body = await request.json()
        location = (body.get("entity_metadata") or {}).get("location")
        start, end = body.get("scheduled_start_time"), body.get("scheduled_end_time")
        if body.get("entity_type") == 3 and (not location or not end or str(end) <= str(start)):
            return json_response(
                checks.form_error({"entity_metadata": "An external event needs a place and an end."}), 400
            )
        if len(guild.events) >= 100:
            return json_response({"message": "Maximum number of events reached", "code": 30038}, 400)
        event = {
            "id": self._ids.next(),
            "guild_id": guild.id,
            "channel_id": None,
            "creator_id": self.bot_user.id,
            "name": body.get("name"),
            "description": body.get("description"),
            "scheduled_start_time": start,
            "scheduled_end_time": end,
            "privacy_level": body.get("privacy_level", 2),
            "status": 1,
            "entity_type": body.get("entity_type"),
            "entity_id": None,
            "entity_metadata": {"location": location},
            "user_count": 0,
        }
        guild.events.append(event)
        return json_response(event)

    def _refusal(self, channel: FakeChannel, *needed: str) -> web.Response | None:
        """Discord's answer to a request of the bot in ``channel`` that needs ``needed`` permissions
        there: 50001 when it cannot even see the channel, 50013 when it lacks one of them; None when
        the bot may."""
        if not self.bot_may(channel, "view_channel"):
            return json_response({"message": "Missing Access", "code": 50001}, 403)
        if needed and not self.bot_may(channel, *needed):
            return json_response({"message": "Missing Permissions", "code": 50013}, 403)
        return None

    def _thread_refusal(self, channel: FakeChannel, *, posting: bool) -> web.Response | None:
        """A locked thread takes nothing from a bot that may not manage threads (160005); an archived
        one takes no edit, and a post only when it reopens the thread (which it does, as on Discord,
        unless the test said otherwise: then 50083)."""
        if not channel.is_thread:
            return None
        if channel.locked and not self.bot_may(channel, "manage_threads"):
            return json_response({"message": "Thread is locked", "code": 160005}, 403)
        if not channel.archived:
            return None
        if posting and channel.reopen_by_post:
            channel.archived = False
            self._dispatch_later("THREAD_UPDATE", channel.payload())
            return None
        return json_response({"message": "Thread is archived", "code": 50083}, 400)

    def _post_refusal(self, channel: FakeChannel, files: list[tuple[str, bytes]]) -> web.Response | None:
        """Why Discord refuses the bot's post (with ``files``) in ``channel``, if it does."""
        send = "send_messages_in_threads" if channel.is_thread else "send_messages"
        needed = (send, "attach_files") if files else (send,)
        return self._refusal(channel, *needed) or self._thread_refusal(channel, posting=True)

    async def _create_dm(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return self._unauthorized()
        body = await request.json()
        user = self.users.get(str(body.get("recipient_id")))
        if user is None:
            return self._not_found("Unknown User", 10013)
        channel_id = self.dm_channels.setdefault(user.id, self._ids.next())
        return json_response(
            {"id": channel_id, "type": 1, "recipients": [user.payload()], "last_message_id": None}
        )

    def _channel_exists(self, channel_id: str) -> bool:
        return channel_id in self.channels or channel_id in self.dm_channels.values()

    def hold_posts(self, channel: str) -> asyncio.Event:
        """Keep the bot's next posts and edits in ``channel`` waiting, unanswered, until the returned
        event is set: a test can then kill the bot between storing a move and announcing it. A post
        released after its bot died is dropped (nobody reads the answer), as Discord never saw it."""
        event = self._held.setdefault(channel, asyncio.Event())
        return event

    def release_posts(self, channel: str) -> None:
        """Let the posts ``hold_posts`` keeps in ``channel`` go, and hold none from now on."""
        held = self._held.pop(channel, None)
        if held is not None:
            held.set()

    def hold_answers(self, channel: str) -> asyncio.Event:
        """Create the bot's next posts in ``channel`` but keep Discord's answers waiting until the
        returned event is set: a test can then kill the bot after Discord made its post and before
        the bot learnt the message's id (and stored it). Its successor, posting the same again, is
        answered by the nonce rule (``_repeated``)."""
        event = self._held_answers.get(channel)
        if event is None or event.is_set():
            event = self._held_answers[channel] = asyncio.Event()
        return event

    def answers_held(self, channel: str) -> int:
        """How many posts made in ``channel`` wait for their answer now (``hold_answers``)."""
        return self._answers_waiting.get(channel, 0)

    def _repeated(self, payload: dict[str, Any]) -> SentMessage | None:
        """Discord's nonce rule: a post whose ``nonce`` (with ``enforce_nonce``) an author already
        used within ``nonce_window`` seconds is answered with the message created then; nothing new
        is created (None: the post is new, and ``_remember_nonce`` keeps its nonce once made)."""
        nonce = payload.get("nonce")
        if nonce is None or not payload.get("enforce_nonce"):
            return None
        key = (self.bot_user.id, str(nonce))
        now = self.nonce_clock()
        seen = self._nonces.get(key)
        if seen is not None and now - seen[0] <= self.nonce_window:
            self.nonce_repeats += 1
            return seen[1]
        return None

    def _remember_nonce(self, message: SentMessage) -> None:
        if message.nonce is not None:
            self._nonces[(message.author.id, message.nonce)] = (self.nonce_clock(), message)

    async def _wait_if_held(self, channel_id: str, request: web.Request) -> bool:
        """Hold a post or an edit in a held channel until released; False when its bot is gone by then."""
        held = self._held.get(channel_id)
        if held is None or held.is_set():
            return True
        self.held_requests += 1
        await held.wait()
        return request.transport is not None and not request.transport.is_closing()

    async def _channel_send(self, request: web.Request) -> web.Response:
        """A post, within Discord's rate of messages per channel: every answer carries the channel's
        rate headers (discord.py paces itself by them), and a post past the rate gets a real 429."""
        if self.message_rate is None or not self._authorized(request):
            return await self._channel_post(request)
        allowed, headers = self.message_rate.take(request.match_info["channel_id"])
        if allowed:
            response = await self._channel_post(request)
        else:
            response = too_many(float(headers["X-RateLimit-Reset-After"]))
        response.headers.update(headers)
        return response

    async def _channel_post(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return self._unauthorized()
        channel_id = request.match_info["channel_id"]
        if not self._channel_exists(channel_id):
            return self._not_found("Unknown Channel", 10003)
        closed = next(
            (u for u, c in self.dm_channels.items() if c == channel_id and not self.users[u].dms_open), None
        )
        if closed is not None:
            refused = {"message": "Cannot send messages to this user", "code": 50007}
            return json_response(refused, status=403)
        if not await self._wait_if_held(channel_id, request):
            return self._not_found("Unknown Channel", 10003)
        payload, files = await self._read_body(request)
        channel = self.channels.get(channel_id)
        denied = None if channel is None else self._post_refusal(channel, files)
        if denied is not None:
            return denied
        refusal = checks.message_errors(payload, files)
        if refusal is not None:
            return json_response(refusal[1], status=refusal[0])
        repeated = self._repeated(payload)
        if repeated is not None:
            return self._message_json(repeated)
        nonce = payload.get("nonce") if payload.get("enforce_nonce") else None
        message = self._new_message(
            channel_id, "channel", {**payload, "flags": payload.get("flags", 0), "nonce": nonce}, files, None
        )
        message.flags &= ~EPHEMERAL  # only interaction responses can be ephemeral
        self._remember_nonce(message)
        answer = self._held_answers.get(channel_id)
        if answer is not None and not answer.is_set():
            self.held_answers += 1
            self._answers_waiting[channel_id] = self.answers_held(channel_id) + 1
            try:
                await answer.wait()  # made, but its bot may be gone before it hears so
            finally:
                self._answers_waiting[channel_id] -= 1
        return self._message_json(message)

    def _channel_message(self, request: web.Request) -> SentMessage | None:
        message = self._messages.get(request.match_info["message_id"])
        if message is None or message.deleted or message.channel_id != request.match_info["channel_id"]:
            return None
        return message

    async def _get_channel_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None or message.ephemeral:
            return self._not_found("Unknown Message", 10008)
        return self._message_json(message)

    async def _edit_channel_message(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return self._unauthorized()
        channel = self.channels.get(request.match_info["channel_id"])
        if channel is None and request.match_info["channel_id"] not in self.dm_channels.values():
            return self._not_found("Unknown Channel", 10003)
        message = self._channel_message(request)
        if message is None or message.ephemeral:
            return self._not_found("Unknown Message", 10008)
        if not await self._wait_if_held(message.channel_id, request):
            return self._not_found("Unknown Message", 10008)
        if channel is not None:
            denied = self._refusal(channel) or self._thread_refusal(channel, posting=False)
            if denied is not None:
                return denied
        if message.age > OLD_MESSAGE:
            # Discord rate-limits edits of older messages much harder; a bot must expect refusals.
            refused = {
                "message": "Maximum number of edits to messages older than 1 hour reached.",
                "code": 30046,
            }
            return json_response(refused, status=400)
        payload, files = await self._read_body(request)
        if files and channel is not None and not self.bot_may(channel, "attach_files"):
            return json_response({"message": "Missing Permissions", "code": 50013}, 403)
        refusal = checks.message_errors(payload, files, creating=False)
        if refusal is not None:
            return json_response(refusal[1], status=refusal[0])
        self._edit(message, payload, files)
        return self._message_json(message)

    async def _delete_channel_message(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return self._unauthorized()
        message = self._channel_message(request)
        if message is None or message.ephemeral:
            return self._not_found("Unknown Message", 10008)
        message.deleted = True
        return web.Response(status=204)

    async def _create_thread(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return self._unauthorized()
        parent = self.channels.get(request.match_info["channel_id"])
        if parent is None or parent.is_thread:
            return self._not_found("Unknown Channel", 10003)
        if parent.is_forum:
            return await self._create_forum_post(request, parent)
        refused = self._refusal(parent, "create_public_threads")
        if refused is not None:
            return refused
        body = await request.json()
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            return json_response(checks.form_error({"name": "Must be between 1 and 100 in length."}), 400)
        thread = self._new_thread(parent, name, owner_id=self.bot_user.id)
        data = thread.payload()
        await self.dispatch("THREAD_CREATE", {**data, "newly_created": True})
        return json_response(data)

    async def _create_forum_post(self, request: web.Request, forum: FakeChannel) -> web.Response:
        """A forum's post: a thread of the forum and its first message, made at once, with its tags;
        it takes Send Messages in the forum (Discord's "Create Posts")."""
        refused = self._refusal(forum, "send_messages")
        if refused is not None:
            return refused
        body, files = await self._read_body(request)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            return json_response(checks.form_error({"name": "Must be between 1 and 100 in length."}), 400)
        message = dict(body.get("message") or {})
        refusal = checks.message_errors(message, files)
        if refusal is not None:
            return json_response(refusal[1], status=refusal[0])
        tags = [str(t) for t in body.get("applied_tags") or []]
        thread = self._new_thread(forum, name, owner_id=self.bot_user.id)
        thread.applied_tags = tags
        denied = self._tagging_refusal(thread, tags)
        if denied is not None:
            self.guilds[forum.guild_id].channels.remove(thread)
            del self.channels[thread.id]
            return denied
        first = self._new_message(thread.id, "channel", message, files, None)
        data = thread.payload()
        await self.dispatch("THREAD_CREATE", {**data, "newly_created": True})
        return json_response({**data, "message": first.payload(self.base_url, self.application_id)})

    async def _get_attachment(self, request: web.Request) -> web.Response:
        message = self._messages.get(request.match_info["message_id"])
        index = int(request.match_info["index"])
        if message is None or index >= len(message.files):
            return self._not_found("Not Found", 0)
        return web.Response(body=message.files[index][1], content_type="application/octet-stream")

    async def _get_upload(self, request: web.Request) -> web.Response:
        blob = self._uploads.get(request.match_info["upload_id"])
        if blob is None:
            return self._not_found("Not Found", 0)
        return web.Response(body=blob, content_type="application/octet-stream")


def new_descriptions(data: dict[str, Any], count: int) -> list[str | None]:
    """The descriptions of the ``count`` files uploaded with a request: ``attachments`` names each new
    file by its index among the uploads (what discord.py sends), with its ``description`` if any."""
    by_index = {str(a.get("id")): a.get("description") for a in data.get("attachments") or []}
    return [by_index.get(str(i)) for i in range(count)]
