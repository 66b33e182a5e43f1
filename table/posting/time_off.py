"""Time off as the channels see it: a player goes away, or comes back, in every game of a server.

``/away for:5d`` records the period (``db.Away``) and then, in each running game of that server the
player sits in: at an ``away=bot`` table a bot plays for them from now on (a note in the log, the
channel told, the bots poked); elsewhere, when the game waits for them, the channel is told once that
they are away until then (the wait remembers it: ``PlayerWait.told``), and at an ``away=pause`` table
its deadline stands still meanwhile (worked out when it comes, ``table.posting.waits``).

Coming back (``/away for:off``, or a move of theirs) ends the period: each bot that played for them
gives the seat back (a note, the channel told), and the deadline of each table waiting for them is
brought forward to what the pause really was. Coming back at the end of the period needs nothing:
the deadline already counted on it, and a bot gives the seat back when it next looks
(``ComputerPlayers.plays_for``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from db import Away, GameRecord
from table.bots.players import away_stand_ins, away_takeover_note, returned_note, stand_in_id, table_level
from table.core.clock import parse_stamp, stamp
from table.core.events import encode_msg
from table.core.marks import moment
from table.core.posts import Post, post_nonce
from table.core.settings import TableSettings, public_locale
from table.core.timing import Timing
from table.posting.outlet import OutletError
from table.posting.waits import waiting

if TYPE_CHECKING:
    from table.posting.announce import Announcer

log = logging.getLogger(__name__)


class TimeOff:
    """Players' time off applied to the games of a server (see the module's description)."""

    def __init__(self, announcer: Announcer) -> None:
        self.announcer = announcer

    async def now_away(self, player: str, guild: str, now: datetime) -> Away | None:
        """The period ``player`` is away in at ``now`` in server ``guild``, if any."""
        at = stamp(now)
        periods = await self.announcer.tables.store.away(guild, [player], at)
        found = [p for p in periods if p.since <= at]
        return found[-1] if found else None

    async def gone(self, player: str, records: Sequence[GameRecord], until: datetime) -> None:
        """``player`` is away until ``until``: each running game of ``records`` does what it chose."""
        for record in records:
            if record.status != "active":
                continue
            try:
                if TableSettings.of(record).away == "bot":
                    await self._stand_in(record, player, until)
                else:
                    await self._tell(record, player, until)
            except OutletError as exc:
                log.warning("telling game #%s that %s is away failed: %s", record.id, player, exc)

    async def _stand_in(self, record: GameRecord, player: str, until: datetime) -> None:
        """A bot of the table's level plays for ``player`` from now on, and the channel is told."""
        store = self.announcer.tables.store
        async with self.announcer.claimed(record.id) as held:
            if not held or player in away_stand_ins(await store.notes(record.id)):
                return
            actor = stand_in_id(table_level(record))
            await store.add_note(record.id, record.version, actor, encode_msg(away_takeover_note(player)))
            await self._post(record, player, until, "away")
        self.announcer.bots.poke(record)

    async def _tell(self, record: GameRecord, player: str, until: datetime) -> None:
        """The channel is told once per wait that the player it waits for is away until ``until``."""
        store = self.announcer.tables.store
        async with self.announcer.claimed(record.id) as held:
            current = await store.announcement(record.id) if held else None
            if current is None or current.status != "active" or player not in current.to_act:
                return
            timing = Timing.of(current.timing)
            wait = timing.wait_of(player, current.next_reminder)
            if wait.told == stamp(until):
                return
            told = timing.with_player(player, replace(wait, told=stamp(until)))
            saved = await store.save_announcement(replace(current, timing=told.to_json()))
            if saved is not None:
                await self._post(record, player, until, "away")

    async def _post(self, record: GameRecord, player: str, until: datetime, kind: str) -> None:
        table = self.announcer.tables.table(record)
        locale = await public_locale(self.announcer.tables.store, record)
        if kind == "away":
            text = self.announcer.waits.away_line(table, player, until, locale)
        else:
            text = self.announcer.words.t(
                "svc.bot.back",
                locale,
                player=table.name(player),
                game=self.announcer.words.game(table, locale),
            )
        nonce = post_nonce(
            f"g{record.id}", kind, player, int(until.timestamp()), limits=self.announcer.tables.limits
        )
        await self.announcer.outlet.send(record.channel, Post(text, nonce=nonce))

    async def back(self, player: str, guild: str, now: datetime) -> Away | None:
        """``player`` is back in server ``guild`` at ``now``: the period they were away in ends
        (``returned`` then tells their games); None when they were not away."""
        if await self.now_away(player, guild, now) is None:
            return None
        return await self.announcer.tables.store.end_away(player, guild, stamp(now))

    async def returned(self, player: str, records: Sequence[GameRecord], now: datetime) -> None:
        """``player`` came back early: in each running game of ``records``, a bot that played for
        them gives the seat back, and a deadline their time off paused is brought forward."""
        store = self.announcer.tables.store
        for record in records:
            if record.status != "active":
                continue
            pace = TableSettings.of(record)
            try:
                async with self.announcer.claimed(record.id) as held:
                    if not held:
                        continue
                    if pace.away == "bot" and player in away_stand_ins(await store.notes(record.id)):
                        note = encode_msg(returned_note(player))
                        await store.add_note(record.id, record.version, player, note)
                        await self._post(record, player, now, "back")
                    elif pace.away == "pause" and pace.deadline is not None:
                        await self._bring_forward(record, player, now)
            except OutletError as exc:
                log.warning("telling game #%s that %s is back failed: %s", record.id, player, exc)

    async def _bring_forward(self, record: GameRecord, player: str, now: datetime) -> None:
        """The deadline counted on ``player``'s time off lasting: it falls as the pause really was."""
        store = self.announcer.tables.store
        current = await store.announcement(record.id)
        if current is None or current.status != "active" or current.deadline is None or current.deadline_done:
            return
        absent = waiting(current, ())
        if player not in absent:
            return
        falls, timing = await self.announcer.waits.paused(record, current, absent, now)
        await store.save_announcement(replace(current, deadline=stamp(falls), timing=timing.to_json()))


def until_text(period: Away) -> str:
    """When a period away ends, as Discord shows it in each reader's time (a UTC date in the console)."""
    return moment(parse_stamp(period.until), "f")


__all__ = ["TimeOff", "until_text"]
