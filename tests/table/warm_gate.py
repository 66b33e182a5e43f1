"""A drawing worker's warm-up held at a gate the test opens: what the worker runs (it imports this
module by name), apart from the test module so that a worker imports nothing else of the tests.

The gate is a Unix socket the test listens on: the warm-up's first step connects and waits for one
byte, so the worker cannot finish warming before the test lets it, whatever the machine's speed.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator, Sequence

from table.core.drawing import warm_up


def gated_warm_up(address: str, locales: Sequence[str]) -> Iterator[str]:
    """Wait at the gate, then warm up as the bot does."""
    with socket.socket(socket.AF_UNIX) as gate:
        gate.connect(address)
        gate.recv(1)
    yield "gate"
    yield from warm_up(locales)
