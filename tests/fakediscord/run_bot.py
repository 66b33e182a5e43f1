"""Run the real bot, ``bot.main()``, in a process of its own, against a fake Discord.

``python -m tests.fakediscord.run_bot`` reads the fake's address from ``FAKE_DISCORD_URL`` and its
gateway from ``FAKE_DISCORD_GATEWAY``, points discord.py there (the two process-wide addresses the
in-process harness patches too), then starts the bot exactly as ``make run`` does: settings from
the environment, the store on disk, every cog, the scheduler. Tests kill it with real signals.
"""

from __future__ import annotations

import os
import sys

import discord.gateway
import discord.http
import yarl

from tests.fakediscord.rest import API_PREFIX


def main() -> int:
    discord.http.Route.BASE = os.environ["FAKE_DISCORD_URL"] + API_PREFIX
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["FAKE_DISCORD_GATEWAY"])
    import bot

    return bot.main()


if __name__ == "__main__":
    sys.exit(main())
