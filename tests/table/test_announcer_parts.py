"""The announcer's collaborators on their own: the folding of edits and the spill-over of a long post.

Each is small enough to be checked without a store or a channel: folding with an injected clock and
sleep, a post's pieces as plain values.
"""

from __future__ import annotations

import asyncio

from launch import DISCORD_LIMITS
from table.core.clock import system_clock
from table.core.posts import Post
from table.core.wording import Wording
from table.posting.folding import Folding
from table.posting.planning import Planner

PLANNER = Planner(Wording(), system_clock, DISCORD_LIMITS)
"""Cuts a post to Discord's length of a message."""


class Clock:
    """A monotonic clock that moves only when told, and a sleep that never returns by itself."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        await asyncio.Event().wait()


async def turns() -> None:
    """Let the tasks started run until they wait."""
    for _ in range(5):
        await asyncio.sleep(0)


async def test_an_edit_waits_out_the_window_and_a_handover_ends_the_wait() -> None:
    clock = Clock()
    folding = Folding(3.0, sleep=clock.sleep, monotonic=clock)
    assert not folding.coalescing(7), "a post never edited waits for nothing"
    folding.edited(7)
    clock.now += 1.0
    assert folding.coalescing(7) and not folding.coalescing(8)

    waiting = asyncio.ensure_future(folding.wait(7, ["alice"]))
    await turns()
    assert clock.slept == [2.0], "only the rest of the window is waited"
    folding.moved(7, ["alice"])  # the same player goes on: folded into the edit
    await turns()
    assert not waiting.done()
    folding.moved(7, ["bob"])  # the turn goes to another: the wait ends at once
    await turns()
    assert waiting.done() and waiting.result() is True
    assert folding.coalescing(7), "woken early, the window is not used up"

    clock.now += 5.0
    assert not await folding.wait(7, ["bob"]), "past the window, nothing waits"


async def test_the_end_of_a_game_ends_the_wait_of_its_edit() -> None:
    clock = Clock()
    folding = Folding(3.0, sleep=clock.sleep, monotonic=clock)
    folding.edited(1)
    waiting = asyncio.ensure_future(folding.wait(1, ["alice"]))
    await turns()
    folding.moved(1, None)
    await turns()
    assert waiting.done() and waiting.result() is True


def test_a_long_post_goes_as_several_messages_the_board_and_the_ping_with_the_last() -> None:
    line = "x" * (DISCORD_LIMITS.text // 2 - 1)  # two to a message
    text = "\n".join([line] * 5)
    post = Post(text, image=b"png", mentions=("42",), nonce="g1.v3.active")
    pieces = PLANNER.pieces(post)
    assert len(pieces) == 3
    assert "\n".join(p.text for p in pieces) == text
    assert all(len(p.text) <= DISCORD_LIMITS.text for p in pieces)
    *lead, last = pieces
    assert last.image == b"png" and last.mentions == ("42",) and last.nonce == "g1.v3.active"
    assert [p.nonce for p in lead] == ["g1.v3.active.s.0", "g1.v3.active.s.1"]
    assert not any(p.image or p.mentions for p in lead)
    assert PLANNER.pieces(Post("short", nonce=None)) == [Post("short", nonce=None)]
