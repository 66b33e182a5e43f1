"""When the garbage collector walks the bot's objects: between busy minutes rather than in them.

CPython's collector stops the interpreter while it walks a generation, and its oldest generation
holds everything that lives long: a full walk of a running bot's objects takes 100-300 ms, and in a
busy minute (hundreds of moves at once) it falls in the middle of one, so every interaction and
autocomplete waiting on the event loop waits for it. Objects that outlive a burst (modules, catalogs,
caches, the tables of active games) are therefore frozen (``gc.freeze``) while the bot is idle, right
after a collection of what came since the last freeze: a collection in the next burst walks only
what that burst made. Cycles among frozen objects are still reclaimed: once every ``FULL_EVERY``
seconds of idle ticks, everything is unfrozen and walked once.

The two younger generations are walked on a timer as well (``YOUNG_EVERY``). CPython starts a walk
of the youngest when the objects made outnumber the objects freed by 700, and a busy minute frees
as much as it makes (the tables of the moves before): measured during a burst of 500 moves, the
youngest generation held 30,000-57,000 objects when its walk finally came, and that walk took
20-35 ms of the loop, the middle one's up to 50 ms. Walked every 50 ms, they hold what 50 ms made,
and a walk takes a millisecond or two.

After the start-up catch-up, what start-up made is frozen without a walk, which would stop the loop for up to
a second as the first moves arrive. The oldest generation is walked at most every 1,000 walks of the middle
one besides.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable

FULL_EVERY = 3600.0
"""Seconds between two walks of every object, the frozen ones included (at an idle moment)."""
YOUNG_EVERY = 0.05
"""Seconds between two walks of the two younger generations (besides CPython's own)."""
OLDEST_EVERY = 1000
"""Collections of the middle generation between two of the oldest (CPython's default is 10; the
timer makes 20 a second): the oldest generation is walked at idle moments, and at most every 50 s
besides (a bot busy for that long)."""


class Collector:
    """The bot's use of the garbage collector: ``started`` once start-up is done, then ``idle`` at
    each moment with nothing under way (the timed loop's ticks)."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        full_every: float = FULL_EVERY,
        young_every: float = YOUNG_EVERY,
    ) -> None:
        self._clock = clock
        self._full_every = full_every
        self._young_every = young_every
        self._timer: asyncio.TimerHandle | None = None
        self._last_full = clock()
        self.walks = 0
        """Collections made at idle moments (each followed by a freeze)."""
        self.full_walks = 0
        """Of these, the ones that walked the frozen objects too."""

    def started(self) -> None:
        """Start-up is done: what it made is frozen (not walked first: a walk of everything
        start-up made stops the loop for up to a second, and the first moves may be arriving; its
        garbage waits for the first full walk, at an idle moment), the oldest generation is walked
        less often from now on, and the younger ones on a timer of this event loop as well."""
        young, middle, _oldest = gc.get_threshold()
        gc.set_threshold(young, middle, OLDEST_EVERY)
        gc.freeze()
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self._young_every, self._walk_young)

    def stop(self) -> None:
        """No more timed walks (the bot stops)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _walk_young(self) -> None:
        gc.collect(1)
        self._timer = asyncio.get_running_loop().call_later(self._young_every, self._walk_young)

    def idle(self) -> None:
        """Nothing is under way: collect what came since the last freeze (everything, once every
        ``FULL_EVERY`` seconds) and freeze what survives."""
        full = self._clock() - self._last_full >= self._full_every
        if full:
            self._last_full = self._clock()
            self.full_walks += 1
        self._settle(full=full)

    def _settle(self, *, full: bool) -> None:
        if full:
            gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.walks += 1
