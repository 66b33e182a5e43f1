"""Gates that hold a worker process where a test wants it, and the test's end of them.

What a worker runs must be importable by name (it crosses to the worker as a reference), so the
worker's side lives here, apart from the test modules, and a worker imports nothing else of the
tests. A gate is a Unix socket the test listens on: the worker connects and waits for one byte, so
it cannot get past the gate before the test lets it, whatever the machine's speed, and the test
knows, from the connection, that the worker has reached it.
"""

from __future__ import annotations

import asyncio
import functools
import os
import socket
import time
from collections.abc import Iterator, Sequence

from table.core.drawing import warm_up


def wait_at(address: str) -> None:
    """The worker's side: wait at the gate until the test opens it."""
    with socket.socket(socket.AF_UNIX) as gate:
        gate.connect(address)
        gate.recv(1)


def gated_warm_up(address: str, locales: Sequence[str]) -> Iterator[str]:
    """Wait at the gate, then warm up as the bot does."""
    wait_at(address)
    yield "gate"
    yield from warm_up(locales)


def short_warm_up(locales: Sequence[str]) -> Iterator[str]:
    """A warm-up of two steps that draw nothing."""
    yield from ("one", "two")


def warm_up_held_at_its_end(address: str, locales: Sequence[str]) -> Iterator[str]:
    """Two quick steps, then a last one held at the gate."""
    yield from short_warm_up(locales)
    wait_at(address)
    yield "gate"


def gated(address: str, value: str) -> str:
    """A job held at the gate: ``value`` once the test lets it through."""
    wait_at(address)
    return value


def pause(seconds: float) -> None:
    """A job that keeps its worker busy for a while."""
    time.sleep(seconds)


def pid() -> int:
    """A job that says which worker ran it."""
    return os.getpid()


class Gate:
    """The test's end of a gate: counts the workers that reached it, lets them all go at once."""

    def __init__(self) -> None:
        self.address = f"\0worker-gate-{os.getpid()}-{id(self)}"
        self.waiting = 0
        self.arrived = asyncio.Event()
        self.opened = asyncio.Event()

    async def _hold(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.waiting += 1
        self.arrived.set()
        await self.opened.wait()
        writer.write(b"!")
        await writer.drain()
        writer.close()

    async def reached(self, count: int = 1) -> None:
        """Wait until ``count`` workers in all have reached the gate."""
        while self.waiting < count:
            self.arrived.clear()
            await self.arrived.wait()

    def warm_up(self) -> functools.partial[object]:
        """The warm-up function a drawer sends its workers: the bot's, behind this gate."""
        return functools.partial(gated_warm_up, self.address)
