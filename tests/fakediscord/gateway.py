"""The gateway side of the fake Discord: the websocket a discord.py client connects to.

It speaks plain JSON text frames: HELLO, then READY and one GUILD_CREATE per guild after IDENTIFY,
heartbeat acknowledgements, RESUMED after RESUME, member chunks on request, and any dispatch the
harness sends (INTERACTION_CREATE above all), each on the connection of the guild's shard.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord.model import FakeGuild
from tests.fakediscord.world import HANG_LIMIT, FakeWorld


@dataclass
class _Session:
    """One shard's gateway session: ``shard`` of ``count`` as IDENTIFY said, on socket ``ws``."""

    session_id: str
    shard: int = 0
    count: int = 1
    sequence: int = 0
    ws: web.WebSocketResponse | None = None


def guild_of(event: str, data: dict[str, Any]) -> str | None:
    """The guild a gateway event belongs to (None: a direct message, a user-level event)."""
    if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
        return str(data["id"])
    guild = data.get("guild_id")
    return None if guild is None else str(guild)


class FakeGateway(FakeWorld):
    """Gateway state and handlers; counters (`identifies`, `resumes`, `heartbeats`) are for tests.

    It is shard-aware, as Discord is: IDENTIFY names its shard (``[id, count]``, ``[0, 1]`` when the
    bot does not shard), and a guild's events and interactions go to the connection of shard
    ``(guild_id >> 22) % count`` only, READY listing only that shard's guilds. Events without a guild
    go to shard 0. ``shard_count`` is what ``GET /gateway/bot`` recommends.
    """

    def __init__(self, *, bot_name: str = "TestBot", heartbeat_interval_ms: int = 41250) -> None:
        super().__init__(bot_name=bot_name)
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.token: str | None = None
        self.shard_count = 1
        self.identifies = 0
        self.sessions_sent = 0  # sessions whose READY and every GUILD_CREATE were sent
        self.resumes = 0
        self.gateway_paths: list[str] = []
        self.gateway_ops: list[int] = []
        self.identified_shards: list[tuple[int, int]] = []  # (shard, count) of every IDENTIFY
        self.intents = 0  # gateway intents of the last IDENTIFY: privileged ones need approval
        self.heartbeats: list[float] = []  # monotonic arrival times; gaps show a blocked event loop
        self._sessions: dict[int, _Session] = {}  # by shard id: the session each shard runs now
        self._sockets: list[web.WebSocketResponse] = []
        self._pending_sends: list[asyncio.Task[None]] = []

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def shard_of(self, guild_id: str | None) -> int:
        """The shard whose connection receives ``guild_id``'s events, by the count the bot identified
        with (Discord's formula); shard 0 for events outside any guild."""
        if guild_id is None:
            return 0
        count = next((s.count for s in self._sessions.values()), self.shard_count)
        return (int(guild_id) >> 22) % count

    def _connected(self, shard: int) -> _Session | None:
        session = self._sessions.get(shard)
        if session is None or session.ws is None or session.ws.closed:
            return None
        return session

    def _forget_sessions(self) -> None:
        """The bot stopped: no session is resumable any more."""
        self._sessions.clear()

    def _dispatch_later(self, event: str, data: dict[str, Any]) -> None:
        """World changes made while the bot is connected reach it as gateway events, in order."""
        session = self._connected(self.shard_of(guild_of(event, data)))
        if session is not None:
            self._send_dispatch_nowait(session, event, data)

    def _send_dispatch_nowait(self, session: _Session, event: str, data: dict[str, Any]) -> None:
        assert session.ws is not None
        session.sequence += 1
        frame = json.dumps({"op": 0, "t": event, "s": session.sequence, "d": data})
        # Tasks start in creation order and `dispatch` awaits these first, so frames keep their order.
        self._pending_sends.append(asyncio.get_running_loop().create_task(session.ws.send_str(frame)))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event (op 0) to the bot's connection for the event's guild."""
        await self._send_to(self._connected(self.shard_of(guild_of(event, data))), event, data)

    async def _send_to(self, session: _Session | None, event: str, data: dict[str, Any]) -> None:
        pending, self._pending_sends = self._pending_sends, []
        for task in pending:
            await task
        if session is None or session.ws is None:
            raise RuntimeError("no bot is connected to the gateway (for this guild's shard)")
        session.sequence += 1
        await session.ws.send_str(json.dumps({"op": 0, "t": event, "s": session.sequence, "d": data}))

    async def reconnect_gateway(self, timeout: float = HANG_LIMIT, *, shard: int = 0) -> None:
        """Ask the bot to reconnect (op 7), as Discord does routinely; wait until it has RESUMEd."""
        session = self._connected(shard)
        if session is None or session.ws is None:
            raise RuntimeError("no bot is connected to the gateway")
        resumes = self.resumes
        await session.ws.send_str(json.dumps({"op": 7, "d": None}))
        deadline = time.monotonic() + timeout
        while self.resumes == resumes:
            if time.monotonic() > deadline:
                raise TimeoutError("the bot did not resume")
            await asyncio.sleep(0.005)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.append(ws)
        self.gateway_paths.append(request.path)
        try:
            await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                await self._gateway_op(ws, frame.get("op"), frame.get("d"))
        finally:
            self._sockets.remove(ws)
        return ws

    async def _gateway_op(self, ws: web.WebSocketResponse, op: int, data: Any) -> None:
        self.gateway_ops.append(op)
        if op == 1:  # heartbeat
            self.heartbeats.append(time.monotonic())
            await ws.send_str(json.dumps({"op": 11}))
        elif op == 2:  # identify
            if self.token is not None and data.get("token") != self.token:
                await ws.close(code=4004, message=b"Authentication failed.")
                return
            shard, count = (int(n) for n in (data.get("shard") or [0, 1]))
            if not 0 <= shard < count:
                await ws.close(code=4010, message=b"Invalid shard.")
                return
            self.identifies += 1
            self.identified_shards.append((shard, count))
            self.intents = int(data.get("intents") or 0)
            session = self._sessions[shard] = _Session(secrets.token_hex(16), shard, count, ws=ws)
            mine = [g for g in self.guilds.values() if self.shard_of(g.id) == shard]
            await self._send_to(session, "READY", self._ready_payload(session, mine))
            for guild in mine:
                payload = guild.create_payload(self._members())
                if guild.outage:
                    payload = {"id": guild.id, "unavailable": True}
                await self._send_to(session, "GUILD_CREATE", payload)
            self.sessions_sent += 1
        elif op == 6:  # resume
            resumed = next(
                (s for s in self._sessions.values() if s.session_id == data.get("session_id")), None
            )
            if resumed is None:
                await ws.send_str(json.dumps({"op": 9, "d": False}))
                return
            resumed.ws = ws
            self.resumes += 1
            await self._send_to(resumed, "RESUMED", {})
        elif op == 8:  # request guild members
            wanted = self.guilds.get(str(data.get("guild_id")))
            if wanted is not None:
                chunk = {
                    "guild_id": wanted.id,
                    "members": [wanted.member_payload(u) for u in self._members()],
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "nonce": data.get("nonce"),
                }
                await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    def _ready_payload(self, session: _Session, guilds: list[FakeGuild]) -> dict[str, Any]:
        return {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": g.id, "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway-resume",
            "shard": [session.shard, session.count],
            "application": {"id": self.application_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
