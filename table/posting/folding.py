"""Moves folded into one edit: while the same players keep acting, their handover post is edited in
place, and edits coming within ``coalesce`` seconds of the last become one.

A move that hands the turn to others is never folded: it ends the wait at once, since the next post
is a new one and waiting would only keep its players waiting (a bot's quick turn would reach the next
player seconds late). Moves made while a post waits for room in its channel's rate are folded the same
way, by the announcement reading the store again when its turn comes (``Announcer.announce``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable

Sleep = Callable[[float], Awaitable[None]]


class Folding:
    """Each game's last edit, and the edits that wait out the coalescing window after it."""

    def __init__(self, coalesce: float, *, sleep: Sleep, monotonic: Callable[[], float]) -> None:
        self.coalesce = coalesce
        self._sleep = sleep
        self._monotonic = monotonic
        self._edited_at: dict[int, float] = {}
        self._waking: dict[int, tuple[frozenset[str], asyncio.Event]] = {}
        """Games whose edit waits out the coalescing window: who the post asks to act, and the event
        that ends the wait early when a move hands the turn to someone else."""

    def edited(self, game_id: int) -> None:
        """The game's post was just edited: its next edit waits out the window."""
        self._edited_at[game_id] = self._monotonic()

    def coalescing(self, game_id: int) -> bool:
        """Whether the game's post was edited within the coalescing window: its next edit waits."""
        last = self._edited_at.get(game_id)
        return last is not None and self.coalesce > 0 and self._monotonic() - last < self.coalesce

    def moved(self, game_id: int, to_act: Iterable[str] | None) -> None:
        """A move of the game was stored: ``to_act`` are who acts now (None once it is over). A
        handover is not folded into an edit: the edit waiting for the window goes out now."""
        waiting = self._waking.get(game_id)
        if waiting is not None and (to_act is None or frozenset(to_act) != waiting[0]):
            waiting[1].set()

    async def wait(self, game_id: int, to_act: Iterable[str]) -> bool:
        """Sleep out the rest of the coalescing window after the game's last edit; whether it waited.
        ``to_act`` are those the edited post asks: a move handing the turn to others ends the wait."""
        if not self.coalescing(game_id):
            return False
        left = self.coalesce - (self._monotonic() - self._edited_at[game_id])
        woken = asyncio.Event()
        self._waking[game_id] = (frozenset(to_act), woken)
        sleeping = asyncio.ensure_future(self._sleep(left))
        waking = asyncio.ensure_future(woken.wait())
        try:
            await asyncio.wait((sleeping, waking), return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._waking.pop(game_id, None)
            sleeping.cancel()
            waking.cancel()
        if not woken.is_set():
            self._edited_at[game_id] = self._monotonic() - self.coalesce  # the window is used up
        return True
