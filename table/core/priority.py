"""The worker processes' place in the queue for a core: behind the bot's own process.

The bot's event loop answers every interaction within Discord's 3 seconds, keeps the gateway's
heartbeats and answers autocomplete while a player types; a drawing or a computer player's search
only delays the post it is for. On a machine with fewer cores than busy processes (a burst of moves
keeps every drawing worker busy), the kernel shares the cores by weight: a worker started with a
higher nice value leaves the loop the core it needs the moment it needs it, and still takes every
core the loop leaves idle, so drawing is no slower when the bot is not busy.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Mapping

log = logging.getLogger(__name__)

DEFAULT_NICE = 10
"""How far behind the bot the workers queue (Linux nice values run from 0, the default, to 19)."""


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
