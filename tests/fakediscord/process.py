"""The bot as a real process on the fake Discord, for tests that kill it with real signals.

``BotProcess`` starts ``python -m tests.fakediscord.run_bot`` with a token, a database file and the
fake's address, reads its log (stderr) as it comes, and waits for what the bot says it did
(connected, caught up) rather than for a while: every wait has the harness's hang limit only.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path

from tests.fakediscord.server import HANG_LIMIT, FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
READY = "connected as "
CAUGHT_UP = "start-up catch-up: "


class BotProcess:
    """One run of the bot; ``start`` a new one on the same database for a restart."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[str] = []
        self._changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(
        cls,
        fake: FakeDiscord,
        database: Path | str,
        env: Mapping[str, str] | None = None,
        *,
        tree: Path = ROOT,
        program: tuple[str, ...] = ("-m", "tests.fakediscord.run_bot"),
    ) -> BotProcess:
        """``database``: a SQLite file, or a PostgreSQL URL (then pass ``HEARTBEAT_PATH`` in ``env``,
        or the heartbeat goes beside the default SQLite file). ``tree`` is the checkout whose bot
        runs (another revision's, for a bench), ``program`` the interpreter's arguments that run it."""
        environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
        where = {"DATABASE_URL" if isinstance(database, str) else "DATABASE_PATH": str(database)}
        environment.update(
            where,
            # one drawing worker, drawing only what is asked: every test's bot is a new process,
            # and the warm-up's throwaway boards of every game would cost each several seconds of
            # a core (the warm-up has tests of its own; a caller may ask for it in ``env``)
            DRAW_WORKERS="1",
            RENDER_WARMUP="0",
            DISCORD_TOKEN=fake.token or "test",
            FAKE_DISCORD_URL=fake.base_url,
            FAKE_DISCORD_GATEWAY=fake.gateway_url,
            LOG_LEVEL="INFO",
            PYTHONPATH=str(tree),
            PYTHONUNBUFFERED="1",
        )
        environment.update(env or {})
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            *program,
            cwd=tree,
            env=environment,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        return cls(proc)

    async def _read(self) -> None:
        assert self.proc.stderr is not None
        while line := await self.proc.stderr.readline():
            self.lines.append(line.decode(errors="replace").rstrip("\n"))
            self._changed.set()
        self._changed.set()

    @property
    def log(self) -> str:
        return "\n".join(self.lines)

    async def wait_for_log(self, text: str, *, count: int = 1, timeout: float = HANG_LIMIT) -> str:
        """The ``count``-th log line containing ``text``; fails if the process ends first."""

        async def seen() -> str:
            while True:
                found = [line for line in self.lines if text in line]
                if len(found) >= count:
                    return found[count - 1]
                if self.proc.returncode is not None and self._reader.done():
                    raise AssertionError(
                        f"the bot exited ({self.proc.returncode}) before {text!r}:\n{self.log}"
                    )
                self._changed.clear()
                await self._changed.wait()

        try:
            return await asyncio.wait_for(seen(), timeout)
        except TimeoutError:
            raise AssertionError(f"no {text!r} in the bot's log:\n{self.log}") from None

    async def ready(self) -> None:
        """Connected to the gateway, commands installed, and the start-up catch-up done."""
        await self.wait_for_log(READY)
        await self.wait_for_log(CAUGHT_UP)

    async def kill(self, sig: int = signal.SIGKILL) -> int:
        """Send ``sig`` and wait for the process to end; its exit status."""
        self.signal(sig)
        return await self.exited()

    def signal(self, sig: int) -> None:
        """Send ``sig`` without waiting (the process may then finish what it was doing)."""
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(sig)

    async def exited(self) -> int:
        """Wait for the process to end, its log read to the last line; its exit status."""
        code = await asyncio.wait_for(self.proc.wait(), HANG_LIMIT)
        await asyncio.wait_for(self._reader, HANG_LIMIT)
        return code
