"""Terminal front end, used when no Discord token is configured.

Reads ``user: /command option:value`` lines from standard input (with a prompt
when it is a terminal, or piped from a script), and plays them on the same store
and table layer as the Discord bot. Ends with status 0 at the end of input or on
``quit``.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from typing import TYPE_CHECKING, TextIO

import i18n

if TYPE_CHECKING:
    from launch import Settings

PROMPT = "> "


async def read_line(stream: TextIO, interactive: bool) -> str | None:
    """The next line, or None at the end of input; read in a thread to keep the loop free."""
    if interactive:
        try:
            return await asyncio.to_thread(input, PROMPT)
        except EOFError:
            return None
    text = await asyncio.to_thread(stream.readline)
    return text if text else None


async def run_console(settings: Settings, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run lines until the input ends; the exit status is 0 unless the store cannot open."""
    from console.app import Console
    from launch import DISCORD_LIMITS, open_table

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    interactive = stdin is sys.stdin and stdin.isatty() and stdout.isatty()
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing and history for input())
    console = Console(None, stdout, settings.console_out, settings.console_locale)
    warm = [settings.console_locale] if settings.warm_up else []
    # The console takes posts at any rate: a card and a list of games are printed at every change. It
    # keeps a Discord server's limits, so that what it prints is what a server would show.
    table, store = await open_table(
        settings.database, console, limits=DISCORD_LIMITS, clock=console.clock, warm=warm, listing_pace=0
    )
    console.table = table
    from table.leagues.service import Leagues

    console.leagues = Leagues(table, console)
    try:
        await table.announcer.bots.resume()  # the bots' moves a restart left pending
        await table.announcer.listings.resume()  # the cards and lists a restart left behind
        await table.announcer.drain()
        if interactive:
            console.say(i18n.t("console.welcome", settings.console_locale))
        while (text := await read_line(stdin, interactive)) is not None:
            if not interactive and text.strip() and not text.lstrip().startswith("#"):
                console.say(PROMPT + text.rstrip("\n"))
            if not await console.run_line(text):
                break
    finally:
        await store.close()
    return 0


__all__ = ["run_console"]
