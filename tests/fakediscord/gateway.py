"""The gateway side of the fake Discord: the websocket a discord.py client connects to.

It speaks plain JSON text frames: HELLO, then READY and one GUILD_CREATE per guild after IDENTIFY,
heartbeat acknowledgements, RESUMED after RESUME, member chunks on request, and any dispatch the
harness sends (INTERACTION_CREATE above all), each on the connection of the guild's shard.

Discord closes connections when it pleases, and the fake can too: ``close_gateway`` closes one with a
resumable code (4000), after which the events of the session are kept and sent again, in order, when
the bot RESUMEs with the last sequence it read; ``invalidate_session`` sends INVALID_SESSION (op 9, not
resumable): the bot must IDENTIFY anew, and what is sent to its shard until then is lost, as on
Discord (an interaction then fails for its user, ``NotDelivered``).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord.model import FakeGuild
from tests.fakediscord.world import HANG_LIMIT, FakeWorld

HISTORY = 5000
"""Dispatches a session keeps for a RESUME: far more than a test sends while a connection is down."""


class NotDelivered(RuntimeError):
    """An event for a shard whose session Discord invalidated, before the bot identified again: Discord
    drops it (an interaction fails for its user, who tries again)."""


@dataclass
class _Session:
    """One shard's gateway session: ``shard`` of ``count`` as IDENTIFY said, on socket ``ws``."""

    session_id: str
    shard: int = 0
    count: int = 1
    sequence: int = 0
    ws: web.WebSocketResponse | None = None
    history: list[tuple[int, str]] = field(default_factory=list)
    """The session's last dispatches as (sequence, frame): what a RESUME sends again."""
    parked: bool = False
    """Its connection was closed resumably (``close_gateway``): events wait for the RESUME."""

    def frame(self, event: str, data: dict[str, Any]) -> str:
        self.sequence += 1
        text = json.dumps({"op": 0, "t": event, "s": self.sequence, "d": data})
        self.history.append((self.sequence, text))
        del self.history[:-HISTORY]
        return text

    @property
    def live(self) -> bool:
        return self.ws is not None and not self.ws.closed


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
        self._invalidated: set[int] = set()  # shards told INVALID_SESSION that have not identified since
        self.invalidations = 0
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
        return session if session is not None and session.live else None

    def _reachable(self, shard: int) -> _Session | None:
        """The shard's session when its events can reach the bot: connected, or parked for a RESUME."""
        session = self._sessions.get(shard)
        return session if session is not None and (session.live or session.parked) else None

    def _forget_sessions(self) -> None:
        """The bot stopped: no session is resumable any more."""
        self._sessions.clear()
        self._invalidated.clear()

    def _dispatch_later(self, event: str, data: dict[str, Any]) -> None:
        """World changes made while the bot is connected reach it as gateway events, in order."""
        session = self._reachable(self.shard_of(guild_of(event, data)))
        if session is not None:
            self._send_dispatch_nowait(session, event, data)

    def _send_dispatch_nowait(self, session: _Session, event: str, data: dict[str, Any]) -> None:
        frame = session.frame(event, data)
        if session.live:
            # Tasks start in creation order and `dispatch` awaits these first, so frames keep their order.
            self._pending_sends.append(asyncio.get_running_loop().create_task(self._write(session, frame)))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event (op 0) to the bot's connection for the event's guild (kept for its
        RESUME while the connection is closed resumably)."""
        shard = self.shard_of(guild_of(event, data))
        session = self._reachable(shard)
        if session is None and shard in self._invalidated:
            pending, self._pending_sends = self._pending_sends, []
            for task in pending:
                await task
            raise NotDelivered(f"shard {shard}'s session was invalidated: Discord drops {event}")
        await self._send_to(session, event, data)

    async def _send_to(self, session: _Session | None, event: str, data: dict[str, Any]) -> None:
        pending, self._pending_sends = self._pending_sends, []
        for task in pending:
            await task
        if session is None or (session.ws is None and not session.parked):
            raise RuntimeError("no bot is connected to the gateway (for this guild's shard)")
        frame = session.frame(event, data)
        if session.live:
            await self._write(session, frame)

    @staticmethod
    async def _write(session: _Session, frame: str) -> None:
        """Send one frame; one the closing connection no longer takes is in the session's history."""
        assert session.ws is not None
        try:
            await session.ws.send_str(frame)
        except ConnectionResetError:
            if not session.parked:
                raise

    async def reconnect_gateway(self, timeout: float = HANG_LIMIT, *, shard: int = 0) -> None:
        """Ask the bot to reconnect (op 7), as Discord does routinely; wait until it has RESUMEd."""
        session = self._connected(shard)
        if session is None or session.ws is None:
            raise RuntimeError("no bot is connected to the gateway")
        resumes = self.resumes
        await session.ws.send_str(json.dumps({"op": 7, "d": None}))
        await self._until(lambda: self.resumes > resumes, "the bot did not resume", timeout)

    async def close_gateway(
        self, code: int = 4000, *, shard: int = 0, wait: bool = True, timeout: float = HANG_LIMIT
    ) -> None:
        """Close the bot's connection with ``code`` (4000: an unknown error, resumable), as Discord does
        now and then; with ``wait``, until the bot has RESUMEd. What is sent meanwhile is replayed then."""
        session = self._connected(shard)
        if session is None or session.ws is None:
            raise RuntimeError("no bot is connected to the gateway")
        resumes = self.resumes
        session.parked = True
        await session.ws.close(code=code, message=b"Unknown error.")
        if wait:
            await self._until(lambda: self.resumes > resumes, "the bot did not resume", timeout)

    async def invalidate_session(
        self, *, shard: int = 0, wait: bool = True, timeout: float = HANG_LIMIT
    ) -> None:
        """Send INVALID_SESSION (op 9, not resumable) and forget the session: the bot must identify
        again, and events for the shard until its new READY are lost (``NotDelivered``). With
        ``wait``, until the new session's READY and guilds are sent."""
        session = self._connected(shard)
        if session is None or session.ws is None:
            raise RuntimeError("no bot is connected to the gateway")
        sent = self.sessions_sent
        del self._sessions[shard]
        self._invalidated.add(shard)
        self.invalidations += 1
        await session.ws.send_str(json.dumps({"op": 9, "d": False}))
        if wait:
            await self._until(lambda: self.sessions_sent > sent, "the bot did not identify again", timeout)

    async def connected(self, *, shard: int = 0, timeout: float = HANG_LIMIT) -> None:
        """Wait until the bot's connection for ``shard`` is up (after a close or an invalidation)."""
        await self._until(lambda: self._connected(shard) is not None, "the bot did not connect", timeout)

    @staticmethod
    async def _until(check: Callable[[], bool], failure: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline:
                raise TimeoutError(failure)
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
            self._invalidated.discard(shard)
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
            resumed.parked = False
            self.resumes += 1
            # what the bot did not read before the connection closed, in order, then RESUMED
            seen = int(data.get("seq") or 0)
            for sequence, frame in list(resumed.history):
                if sequence > seen:
                    await ws.send_str(frame)
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
