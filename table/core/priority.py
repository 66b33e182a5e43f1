"""The worker processes' place in the queue for a core: level with the bot's process, or behind it.

``WORKER_NICE`` (0-19, default 0) starts the drawing and computer-player workers that many nice values
behind the bot. Behind it, they leave the event loop the core it needs the moment an interaction
arrives during a burst, but they also give way to everything else in the same scheduling group: with
six busy processes beside the bot (load 7), a War Chest move took 5.6x its floor at nice 10 and 0.89x
at nice 0, while the loop's lateness in a burst of 500 moves was about a quarter lower at nice 10
(11-14 ms against 15-17 ms at p99). Level is the default: a container has its own group, and an
admin whose host runs nothing else may choose to put the workers behind.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Mapping

log = logging.getLogger(__name__)

DEFAULT_NICE = 0
"""How far behind the bot the workers queue (Linux nice values run from 0, level, to 19)."""


def worker_nice(env: Mapping[str, str] | None = None) -> int:
    """``WORKER_NICE`` (0-19; 0 keeps the workers level with the bot), else ``DEFAULT_NICE``."""
    env = os.environ if env is None else env
    text = (env.get("WORKER_NICE") or "").strip()
    if not text:
        return DEFAULT_NICE
    if text.isdigit() and int(text) <= 19:
        return int(text)
    log.warning("WORKER_NICE=%r is not a nice value from 0 to 19: %d is used", text, DEFAULT_NICE)
    return DEFAULT_NICE


def step_back(increment: int) -> None:
    """Run this (worker) process ``increment`` nice values behind where it is (``worker_nice``, read
    by the bot when it starts a pool: the worker's own environment is the fork server's); where the
    system refuses or has no nice values, the worker runs as it is."""
    if increment:
        with contextlib.suppress(AttributeError, OSError):
            os.nice(increment)
