"""Each channel's rate, kept by the table layer with a clock the test moves: requests wait for room,
two may follow each other at once, the next ones are spaced out, and no window ever holds more than
the rate; a post too long for one message goes as several, cut between lines."""

from __future__ import annotations

import asyncio

from table.posting.channels import AT_ONCE, Budgets, spill
from table.posting.outlet import ChannelRate


class Time:
    """A monotonic clock that moves only when something sleeps on it."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


async def requests_at(budgets: Budgets, time: Time, channel: str, count: int) -> list[float]:
    """When each of ``count`` requests, made one after the other, went."""
    went = []
    for _ in range(count):
        async with budgets.spend(channel):
            went.append(time.now)
    return went


async def test_two_requests_go_at_once_then_they_are_spaced_and_no_window_holds_more_than_the_rate() -> None:
    time = Time()
    budgets = Budgets(ChannelRate(5, 5.0), monotonic=time, sleep=time.sleep)
    went = await requests_at(budgets, time, "c", 12)
    assert went[:AT_ONCE] == [100.0, 100.0]
    gaps = [b - a for a, b in zip(went[AT_ONCE - 1 :], went[AT_ONCE:], strict=False)]
    assert all(gap >= 1.0 for gap in gaps), gaps
    assert max(sum(1 for t in went if start <= t < start + 5.0) for start in went) <= 5


async def test_channels_do_not_share_their_rates_and_a_quiet_channel_is_forgotten() -> None:
    time = Time()
    budgets = Budgets(ChannelRate(1, 5.0), monotonic=time, sleep=time.sleep)
    assert await requests_at(budgets, time, "a", 1) == [100.0]
    assert await requests_at(budgets, time, "b", 1) == [100.0]
    assert await requests_at(budgets, time, "a", 1) == [105.0]
    time.now += 10.0
    await budgets.room("a")
    assert "a" not in budgets._slots


async def test_a_request_under_way_holds_its_place_until_its_answer_comes() -> None:
    time = Time()
    budgets = Budgets(ChannelRate(1, 5.0), monotonic=time, sleep=time.sleep)
    answered = asyncio.Event()
    went: list[float] = []

    async def slow() -> None:
        async with budgets.spend("c"):
            await answered.wait()
            time.now += 2.0  # Discord took two seconds to answer

    async def next_one() -> None:
        async with budgets.spend("c"):
            went.append(time.now)

    first = asyncio.ensure_future(slow())
    await asyncio.sleep(0)
    second = asyncio.ensure_future(next_one())
    await asyncio.sleep(0)
    assert went == []
    answered.set()
    await asyncio.gather(first, second)
    assert went == [107.0], "a window after the answer, not after the request"


async def test_without_a_rate_nothing_waits() -> None:
    time = Time()
    budgets = Budgets(None, monotonic=time, sleep=time.sleep)
    assert await requests_at(budgets, time, "c", 20) == [100.0] * 20


def test_a_long_text_is_spilled_between_lines_the_last_message_as_full_as_it_can_be() -> None:
    lines = [f"line {n:02d} " + "x" * 40 for n in range(30)]
    text = "\n".join(lines)
    pieces = spill(text, 500)
    assert all(len(p) <= 500 for p in pieces)
    assert "\n".join(pieces) == text
    assert len(pieces[-1]) > 450 and len(pieces) == 3
    assert spill("short", 500) == ["short"]
