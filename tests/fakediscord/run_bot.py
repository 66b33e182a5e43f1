"""Run the real bot, ``bot.main()``, in a process of its own, against a fake Discord.

``python -m tests.fakediscord.run_bot`` reads the fake's address from ``FAKE_DISCORD_URL`` and its
gateway from ``FAKE_DISCORD_GATEWAY``, points discord.py there (the two process-wide addresses the
in-process harness patches too), then starts the bot exactly as ``make run`` does: settings from
the environment, the store on disk, every cog, the scheduler. Tests kill it with real signals.

``FAKE_STORE_DELAY`` (seconds) slows the store down: every call to it waits that long first, as a
loaded database server would make it, so a test can stop the bot while much of its work is
still under way.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import sys
from typing import Any

import discord.gateway
import discord.http
import yarl

from tests.fakediscord.rest import API_PREFIX


class SlowStore:
    """The real store, each of its calls (but closing) made ``delay`` seconds late."""

    def __init__(self, store: Any, delay: float) -> None:
        self._store = store
        self._delay = delay

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if name == "close" or not inspect.iscoroutinefunction(found):
            return found

        async def late(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(self._delay)
            return await found(*args, **kwargs)

        return late


def slow_down_the_store(delay: float) -> None:
    import db

    opening = db.open_store

    async def open_slow(target: Any) -> Any:
        return SlowStore(await opening(target), delay)

    db.open_store = open_slow  # type: ignore[assignment]


def main() -> int:
    discord.http.Route.BASE = os.environ["FAKE_DISCORD_URL"] + API_PREFIX
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["FAKE_DISCORD_GATEWAY"])
    delay = float(os.environ.get("FAKE_STORE_DELAY") or 0)
    if delay > 0:
        slow_down_the_store(delay)
    import bot

    return bot.main()


if __name__ == "__main__":
    sys.exit(main())
