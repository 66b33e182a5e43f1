"""Within Discord's rate: a burst of moves in one channel makes no more posts and edits than the channel
takes (about 5 per 5 s), the moves made while a post waits fold into it, and the last move is shown.

Discord answers a post past the rate with a 429 (the fake does too); discord.py waits it out and
posts again. That wait is a board already outdated: the bot keeps within the rate itself, and a 429
that comes all the same (a rate Discord changed, another process) loses, doubles and reorders nothing.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tests.discord.tables import table, until

MOVES = 30


async def test_a_burst_of_moves_stays_within_the_channels_rate_and_ends_on_the_last_move(
    tmp_path: Path,
) -> None:
    async with table(tmp_path) as t:
        await t.open()
        for _ in range(MOVES):
            await t.move(settle=False)  # each as soon as its confirmation comes, not its post
        await until(t.shown, "the last move is shown")
        record = await t.record()
        assert record.version == MOVES and await t.stored_moves() == list(range(1, MOVES + 1))
        assert t.acked == list(range(1, MOVES + 1)), "every move was confirmed, once"
        requests = t.fake.channel_requests
        assert requests.busiest(t.chan.id, 5.0) <= 5, "never more than the channel takes"
        assert requests.count(t.chan.id) < MOVES, "moves made while a post waited folded into it"
        assert t.fake.message_rate is not None and t.fake.message_rate.rejected == 0
        assert await t.unnamed_moves() == [], "the posts name every move"
        last = t.posts()[-1]
        assert f"v{MOVES}" in (last.nonce or ""), "the channel ends on the last move"
        assert len({m.nonce for m in t.posts()}) == len(t.posts()), "no post made twice"


async def test_a_429_that_comes_all_the_same_is_waited_out_with_nothing_lost_doubled_or_reordered(
    tmp_path: Path,
) -> None:
    async with table(tmp_path) as t:
        await t.open()
        fault = t.fake.inject("rate_limited", channel=t.chan, times=2, retry_after=0.2)
        for _ in range(4):
            await t.move()
        await until(t.shown, "every move is shown")
        assert fault.hits == 2
        posts = t.posts()
        versions = [int((m.nonce or "").split(".")[1][1:]) for m in posts]
        assert versions == sorted(versions) and len(set(versions)) == len(versions), versions
        assert await t.unnamed_moves() == []
        assert await t.stored_moves() == [1, 2, 3, 4]


async def test_reminders_take_from_the_same_rate(tmp_path: Path) -> None:
    """A reminder due in a channel whose rate is spent waits for room, like a post (here the bot
    keeps to 2 requests per 5 s, stricter than the fake's rate, which would not tell)."""
    async with table(tmp_path, channel_rate=(2, 5.0)) as t:
        await t.open(options="seed=4 remind=1h")
        for _ in range(3):
            await t.move(settle=False)
        await until(t.shown, "every move is shown")  # the wait for the next player begins
        t.clock.advance(timedelta(hours=2))  # the reminder is due at once, in a spent window
        await until(lambda: any(m.content.startswith("⏰") for m in t.posts()), "the reminder")
        assert t.fake.channel_requests.busiest(t.chan.id, 5.0) <= 2
