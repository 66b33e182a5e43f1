"""The gateway side of the fake Discord: the websocket a discord.py client connects to.

It speaks plain JSON text frames: HELLO, then READY and one GUILD_CREATE per guild after IDENTIFY,
heartbeat acknowledgements, RESUMED after RESUME, member chunks on request, and any dispatch the
harness sends (INTERACTION_CREATE above all).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord.world import HANG_LIMIT, FakeWorld


@dataclass
class _Session:
    session_id: str
    sequence: int = 0


class FakeGateway(FakeWorld):
    """Gateway state and handlers; counters (`identifies`, `resumes`, `heartbeats`) are for tests."""

    def __init__(self, *, bot_name: str = "TestBot", heartbeat_interval_ms: int = 41250) -> None:
        super().__init__(bot_name=bot_name)
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.token: str | None = None
        self.identifies = 0
        self.resumes = 0
        self.gateway_paths: list[str] = []
        self.gateway_ops: list[int] = []
        self.intents = 0  # gateway intents of the last IDENTIFY: privileged ones need approval
        self.heartbeats: list[float] = []  # monotonic arrival times; gaps show a blocked event loop
        self._session: _Session | None = None
        self._sockets: list[web.WebSocketResponse] = []
        self._current_ws: web.WebSocketResponse | None = None
        self._pending_sends: list[asyncio.Task[None]] = []

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def _dispatch_later(self, event: str, data: dict[str, Any]) -> None:
        """World changes made while the bot is connected reach it as gateway events, in order."""
        ws = self._current_ws
        if ws is not None and not ws.closed and self._session is not None:
            self._send_dispatch_nowait(event, data)

    def _send_dispatch_nowait(self, event: str, data: dict[str, Any]) -> None:
        ws, session = self._current_ws, self._session
        assert ws is not None and session is not None
        session.sequence += 1
        frame = json.dumps({"op": 0, "t": event, "s": session.sequence, "d": data})
        # Tasks start in creation order and `dispatch` awaits these first, so frames keep their order.
        self._pending_sends.append(asyncio.get_running_loop().create_task(ws.send_str(frame)))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event (op 0) to the connected bot."""
        pending, self._pending_sends = self._pending_sends, []
        for task in pending:
            await task
        ws, session = self._current_ws, self._session
        if ws is None or session is None:
            raise RuntimeError("no bot is connected to the gateway")
        session.sequence += 1
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": session.sequence, "d": data}))

    async def reconnect_gateway(self, timeout: float = HANG_LIMIT) -> None:
        """Ask the bot to reconnect (op 7), as Discord does routinely; wait until it has RESUMEd."""
        ws = self._current_ws
        if ws is None:
            raise RuntimeError("no bot is connected to the gateway")
        resumes = self.resumes
        await ws.send_str(json.dumps({"op": 7, "d": None}))
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
            if self._current_ws is ws:
                self._current_ws = None
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
            self.identifies += 1
            self.intents = int(data.get("intents") or 0)
            self._session = _Session(secrets.token_hex(16))
            self._current_ws = ws
            await self.dispatch("READY", self._ready_payload())
            for guild in self.guilds.values():
                await self.dispatch("GUILD_CREATE", guild.create_payload(self._members()))
        elif op == 6:  # resume
            session = self._session
            if session is None or data.get("session_id") != session.session_id:
                await ws.send_str(json.dumps({"op": 9, "d": False}))
                return
            self._current_ws = ws
            self.resumes += 1
            await self.dispatch("RESUMED", {})
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

    def _ready_payload(self) -> dict[str, Any]:
        assert self._session is not None
        return {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": g, "unavailable": True} for g in self.guilds],
            "session_id": self._session.session_id,
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway-resume",
            "shard": [0, 1],
            "application": {"id": self.application_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
