"""What the fake Discord refuses: faults a test injects, and Discord's own per-channel message rate.

A moderator tightens a channel's permissions, deletes a thread or archives it; Discord has an outage or
rate-limits a busy channel. Tests make the fake answer as Discord then does, with Discord's status
and JSON error code, for some requests or until the fault is lifted::

    fault = fake.inject("missing_permissions", route=MESSAGES, channel=chan)   # 403, code 50013
    fault = fake.inject("rate_limited", route=MESSAGES, channel=chan, times=1, retry_after=0.3)
    fault.lift()

``ChannelRate`` is Discord's rate of messages in one channel (about 5 per 5 seconds on
``POST /channels/{id}/messages``): past it the fake answers a real 429, and every answer of that route
carries the ``X-RateLimit-*`` headers discord.py reads to pace itself. ``RequestLog`` counts the
requests of each channel on the same clock, so a test can check the busiest window.

Beside injected faults by route and channel, the fake keeps the bot's permissions per channel (in discord.py's
cache and in ``app_permissions``), archived, locked and deleted channels, and gateway connections closed
resumably (events replayed at RESUME) or invalidated. ``tests/discord/test_rates.py``, ``test_refusals.py``
and ``test_gateway_faults.py`` check each through it; ``python -m bench.faults`` runs a storm of moves while
faults come at random.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

MESSAGES = "/channels/{channel_id}/messages"
"""The route of a channel's new messages (a post)."""
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
"""The route of one message (its edit and its deletion)."""
CHANNEL = "/channels/{channel_id}"
"""The route of a channel itself (reading it, or editing a thread: archiving, locking)."""

KINDS: dict[str, tuple[int, int, str]] = {
    "rate_limited": (429, 0, "You are being rate limited."),
    "server_error": (500, 0, "500: Internal Server Error"),
    "bad_gateway": (502, 0, "502: Bad Gateway"),
    "unavailable": (503, 0, "503: Service Unavailable"),
    "missing_access": (403, 50001, "Missing Access"),
    "missing_permissions": (403, 50013, "Missing Permissions"),
    "unknown_channel": (404, 10003, "Unknown Channel"),
    "unknown_message": (404, 10008, "Unknown Message"),
    "thread_archived": (400, 50083, "Thread is archived"),
    "thread_locked": (403, 160005, "Thread is locked"),
}
"""Discord's answers a test may inject, by name: (HTTP status, JSON error code, message)."""

VIA = "1.1 google"
"""Discord's answers pass through Google's front end: discord.py takes a 429 without this header for
a ban by Cloudflare, and raises instead of waiting."""


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """discord.py only parses bodies whose Content-Type is exactly `application/json`."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def too_many(retry_after: float, *, is_global: bool = False, scope: str = "user") -> web.Response:
    """Discord's 429: the body discord.py reads (``retry_after`` in seconds, ``global``) and headers."""
    body = {
        "message": "You are being rate limited.",
        "retry_after": round(retry_after, 3),
        "global": is_global,
    }
    headers = {
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "Via": VIA,
        "X-RateLimit-Scope": "global" if is_global else scope,
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    return json_response(body, 429, headers)


@dataclass
class Fault:
    """One injected refusal: requests of ``method`` on ``route`` (in ``channel``, or anywhere) are
    answered with ``status`` and ``code``, ``times`` times (None: until ``lift``)."""

    kind: str
    status: int
    code: int
    message: str
    route: str | None = None
    method: str | None = None
    channel: str | None = None
    times: int | None = None
    retry_after: float = 1.0
    is_global: bool = False
    hits: int = 0
    lifted: bool = False

    def lift(self) -> None:
        """From now on the requests go through."""
        self.lifted = True

    @property
    def active(self) -> bool:
        return not self.lifted and (self.times is None or self.hits < self.times)

    def matches(self, method: str, route: str, channel: str | None) -> bool:
        return (
            self.active
            and (self.method is None or self.method == method)
            and (self.route is None or self.route == route)
            and (self.channel is None or self.channel == channel)
        )

    def answer(self) -> web.Response:
        self.hits += 1
        if self.status == 429:
            return too_many(self.retry_after, is_global=self.is_global, scope="shared")
        return json_response({"message": self.message, "code": self.code}, self.status)


def make_fault(
    kind: str,
    *,
    route: str | None,
    method: str | None,
    channel: str | None,
    times: int | None,
    retry_after: float,
    is_global: bool,
) -> Fault:
    if kind not in KINDS:
        raise ValueError(f"unknown fault {kind!r}; known: {', '.join(KINDS)}")
    status, code, message = KINDS[kind]
    if method is None and route == MESSAGES:
        method = "POST"
    return Fault(kind, status, code, message, route, method, channel, times, retry_after, is_global)


@dataclass
class _Window:
    start: float
    used: int = 0


@dataclass
class ChannelRate:
    """Discord's rate of new messages per channel: ``limit`` per ``per`` seconds, each channel's window
    opening at its first post, read on ``clock`` (a test may move it by hand)."""

    limit: int = 5
    per: float = 5.0
    clock: Callable[[], float] = time.monotonic
    rejected: int = 0
    """Posts answered 429 because their channel's window was full."""
    _windows: dict[str, _Window] = field(default_factory=dict)

    def take(self, channel: str) -> tuple[bool, dict[str, str]]:
        """Count one post in ``channel``: whether it may go, and the headers of the answer."""
        now = self.clock()
        window = self._windows.get(channel)
        if window is None or now >= window.start + self.per:
            window = self._windows[channel] = _Window(now)
        reset_after = max(0.0, window.start + self.per - now)
        allowed = window.used < self.limit
        if allowed:
            window.used += 1
        else:
            self.rejected += 1
        headers = {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.limit - window.used),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": "fake-channel-messages",
        }
        return allowed, headers


@dataclass
class Logged:
    """One request naming a channel: when it came (on the log's clock), what it was, and Discord's
    answer (0 until it is made)."""

    time: float
    method: str
    route: str
    status: int = 0


@dataclass
class RequestLog:
    """Every request that named a channel, by channel, in the order they came."""

    clock: Callable[[], float] = time.monotonic
    by_channel: dict[str, list[Logged]] = field(default_factory=dict)

    def note(self, channel: str, method: str, route: str) -> Logged:
        entry = Logged(self.clock(), method, route)
        self.by_channel.setdefault(channel, []).append(entry)
        return entry

    def count(self, channel: str, *, methods: tuple[str, ...] | None = None, taken: bool = False) -> int:
        return len(self._times(channel, methods, taken))

    def busiest(
        self, channel: str, seconds: float, *, methods: tuple[str, ...] | None = None, taken: bool = False
    ) -> int:
        """The most requests to ``channel`` within any ``seconds`` of the clock (a sliding window);
        ``taken``: only those Discord took (answered 2xx), not those it refused or failed."""
        times = self._times(channel, methods, taken)
        most, first = 0, 0
        for last, at in enumerate(times):
            while at - times[first] >= seconds:
                first += 1
            most = max(most, last - first + 1)
        return most

    def _times(self, channel: str, methods: tuple[str, ...] | None, taken: bool) -> list[float]:
        return sorted(
            e.time
            for e in self.by_channel.get(channel, [])
            if (methods is None or e.method in methods) and (not taken or 200 <= e.status < 300)
        )
