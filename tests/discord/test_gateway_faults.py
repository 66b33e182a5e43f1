"""The gateway closes under a storm of moves: no move lost, doubled or left unannounced.

Discord closes the bot's connection now and then. With a resumable close (4000) discord.py RESUMEs and
Discord sends again what it missed; with INVALID_SESSION it must identify anew, and what Discord sent
meanwhile is lost (an interaction fails for its player, who sends it again). Moves keep coming in three
channels throughout; the store and the channels are checked afterwards.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from tests.discord.tables import Table, table, until
from tests.fakediscord.server import InteractionLost

CHANNELS = 3
MOVES = 8
"""Moves per channel."""


async def storm(t: Table, lost: list[str]) -> None:
    """The channel's players move as fast as the bot answers, sending again a move that was lost."""
    while len(t.acked) < MOVES:
        try:
            await t.move(settle=False)
        except InteractionLost:  # "This interaction failed": the player tries again a little later
            lost.append(t.chan.id)
            await asyncio.sleep(0.2)


async def test_resumed_and_new_sessions_in_a_storm_of_moves_lose_double_and_hide_nothing(
    tmp_path: Path,
) -> None:
    async with table(tmp_path) as first:
        tables = [first] + [
            replace(first, chan=first.fake.add_channel(first.guild, f"partie-{n}"), acked=[])
            for n in range(1, CHANNELS)
        ]
        for t in tables:
            await t.open()
        lost: list[str] = []
        storms = [asyncio.ensure_future(storm(t, lost)) for t in tables]

        async def moved(count: int) -> bool:
            return sum(len(t.acked) for t in tables) >= count

        await until(lambda: moved(CHANNELS * 2), "moves under way")
        await first.fake.close_gateway(4000)  # resumable: what was sent meanwhile comes at the RESUME
        await until(lambda: moved(CHANNELS * 4), "moves after the resume")
        await first.fake.invalidate_session()  # a new session: what was sent meanwhile is lost
        await asyncio.gather(*storms)
        for t in tables:
            await until(t.shown, f"every move of {t.chan.name} shown")

        fake = first.fake
        assert fake.resumes >= 1 and fake.identifies == 2 and fake.invalidations == 1
        assert lost, "moves were sent while the bot had no session (discord.py waits 5 s to identify)"
        for t in tables:
            assert t.acked == list(range(1, MOVES + 1)), "each move confirmed once"
            assert await t.stored_moves() == t.acked, "each stored once"
            assert await t.unnamed_moves() == [], "each shown"
            nonces = [m.nonce for m in t.posts()]
            assert len(nonces) == len(set(nonces)), "no post made twice"
        assert fake.rejections == []
