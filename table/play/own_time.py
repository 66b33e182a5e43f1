"""A player's own time, as commands: ``/away`` (time off in a server) and the time part of ``/notify``
(time zone, quiet hours, own reminder pace), and the "away until" marks that lobbies, ``/game
status``, the board and ``/games`` show.

Every answer here is private and in the caller's language; a refusal names what is accepted. What the
choices do to reminders, pings and deadlines is the timed loop's and the announcer's business
(``table.posting.waits``, ``table.posting.time_off``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from db import GameRecord
from table.core.away import parse_away_for
from table.core.clock import format_duration, parse_stamp, stamp
from table.core.errors import TableError
from table.core.hours import QUIET, REMIND, ZONE, PlayerTime, find_zone, parse_pace, parse_quiet, zone_choices
from table.core.marks import moment
from table.core.posts import Ctx, Post, is_bot
from table.core.ratings import NO_GUILD, guild_of
from table.core.settings import TableSettings
from table.core.tables import Table
from table.core.wording import Wording
from table.posting.time_off import TimeOff

if TYPE_CHECKING:
    from table.core.tables import Tables
    from table.posting.announce import Announcer

TABLE_PACE = ("table", "default", "défaut", "defaut")
"""``/notify remind:`` words that go back to each table's pace."""


class OwnTime:
    """``/away``, ``/notify timezone: quiet: remind:``, and the away marks of what players read: the
    store's player settings through the tables, the time and the waits through the announcer."""

    def __init__(self, tables: Tables, announcer: Announcer, words: Wording | None = None) -> None:
        self.tables = tables
        self.announcer = announcer
        self.words = words or Wording()

    @property
    def time_off(self) -> TimeOff:
        return TimeOff(self.announcer)

    # ---- /away ---------------------------------------------------------------------------------------

    async def away(self, ctx: Ctx, length: str | None = None) -> list[Post]:
        """Mark the caller away in every game of this server for ``length`` (``off``: back now);
        without it, say whether they are away. The tables they sit at do what each chose."""
        guild = ctx.guild_id or NO_GUILD
        now = self.announcer.clock()
        loc = ctx.locale
        if length is None or not length.strip():
            period = await self.time_off.now_away(ctx.user_id, guild, now)
            if period is None:
                return [Post(self.words.t("svc.away.not_away", loc), ephemeral=True)]
            back = moment(parse_stamp(period.until), "f")
            return [Post(self.words.t("svc.away.state", loc, until=back), ephemeral=True)]
        try:
            chosen = parse_away_for(length)
        except ValueError as why:
            key = "svc.error.away_too_long" if str(why) == "long" else "svc.error.bad_away"
            raise TableError(key, value=length.strip()[:40]) from None
        records = [record for record, _shown in await self.tables.store.games_of(ctx.user_id, ctx.guild_id)]
        if chosen is None:
            if await self.time_off.back(ctx.user_id, guild, now) is None:
                return [Post(self.words.t("svc.away.not_away", loc), ephemeral=True)]
            await self.time_off.returned(ctx.user_id, records, now)
            return [Post(self.words.t("svc.away.back", loc), ephemeral=True)]
        until = now + chosen
        await self.tables.store.add_away(ctx.user_id, guild, stamp(now), stamp(until))
        await self.time_off.gone(ctx.user_id, records, until)
        lines = [self.words.t("svc.away.set", loc, until=moment(until, "f"))]
        if records:
            lines.append(self.words.t("svc.away.games", loc, count=len(records)))
        else:
            lines.append(self.words.t("svc.away.no_tables", loc))
        return [Post("\n".join(lines), ephemeral=True)]

    async def back_by_move(self, ctx: Ctx, record: GameRecord) -> bool:
        """A move of the caller's ends their time off in the game's server (before the move is
        applied, so no bot plays for them meanwhile); whether they were away."""
        period = await self.time_off.back(ctx.user_id, guild_of(record), self.announcer.clock())
        return period is not None

    async def returned(self, ctx: Ctx, record: GameRecord) -> None:
        """After a move that ended the caller's time off: their games of that server are told."""
        records = [r for r, _shown in await self.tables.store.games_of(ctx.user_id, record.guild)]
        await self.time_off.returned(ctx.user_id, records, self.announcer.clock())

    # ---- /notify timezone: quiet: remind: ------------------------------------------------------------

    async def own_time(
        self, ctx: Ctx, timezone: str | None = None, quiet: str | None = None, remind: str | None = None
    ) -> list[str]:
        """Change the caller's time zone, quiet hours and own reminder pace (what is given: each is
        checked before anything is stored), and say where they stand, in their language."""
        changes: dict[str, str | None] = {}
        if timezone is not None and timezone.strip():
            changes[ZONE] = find_zone(timezone)
        if quiet is not None and quiet.strip():
            found = parse_quiet(quiet)
            changes[QUIET] = None if found is None else str(found)
        if remind is not None and remind.strip():
            if remind.strip().lower() in TABLE_PACE:
                changes[REMIND] = None
            else:
                pace = parse_pace(remind)
                changes[REMIND] = "off" if pace is None else format_duration(pace)
        store = self.tables.store
        if changes:
            settings = await store.set_player_settings(ctx.user_id, changes)
        else:
            settings = (await store.player_settings([ctx.user_id])).get(ctx.user_id, {})
        return self._own_time_lines(ctx, PlayerTime.of(settings), chosen=ZONE in settings)

    def _own_time_lines(self, ctx: Ctx, mine: PlayerTime, *, chosen: bool) -> list[str]:
        loc = ctx.locale
        now = self.announcer.clock()
        local = now.astimezone(mine.tz).strftime("%H:%M")
        lines = [self.words.t("svc.notify.zone", loc, zone=mine.zone, local=local) if chosen else ""]
        if not chosen:
            lines[0] = self.words.t("svc.notify.zone_none", loc)
        period = mine.next_period(now)
        if mine.quiet is None or period is None:
            lines.append(self.words.t("svc.notify.quiet_none", loc))
        else:
            start, end = (moment(at, "f") for at in period)
            lines.append(self.words.t("svc.notify.quiet", loc, hours=str(mine.quiet), start=start, end=end))
        if not mine.own_pace:
            lines.append(self.words.t("svc.notify.remind_table", loc))
        elif mine.pace is None:
            lines.append(self.words.t("svc.notify.remind_own_off", loc))
        else:
            lines.append(self.words.t("svc.notify.remind_own", loc, every=format_duration(mine.pace)))
        return lines

    async def timezone_autocomplete(self, ctx: Ctx, typed: str) -> list[tuple[str, str]]:
        """Zone names for ``/notify timezone:`` as the caller types (a city is enough)."""
        return [(name, name) for name in zone_choices(typed, self.tables.limits.choices)]

    # ---- the away marks of what players read ----------------------------------------------------------

    async def away_of(self, record: GameRecord, players: Iterable[str]) -> dict[str, datetime]:
        """The players of ``players`` away now in the game's server, with when they are back."""
        people = [p for p in dict.fromkeys(players) if not is_bot(p)]
        return await self.announcer.waits.away_until(record, people, self.announcer.clock())

    async def away_lines(self, table: Table, locale: str) -> list[str]:
        """A line per seated player who is away now: "Alice is away until <date>"."""
        away = await self.away_of(table.record, table.record.player_ids)
        return [
            self.words.t("svc.away.status", locale, player=table.name(p), until=moment(until, "f"))
            for p, until in away.items()
        ]

    def away_policy(self, table: Table, locale: str) -> str:
        """The lobby's word on what the table does for an away player (nothing said for ``off``, nor
        for ``pause`` without a deadline to pause)."""
        pace = TableSettings.of(table.record)
        if pace.away == "bot":
            return self.words.t("svc.lobby.away.bot", locale)
        if pace.away == "pause" and pace.deadline is not None and pace.away_max > timedelta(0):
            return self.words.t("svc.lobby.away.pause", locale, max=format_duration(pace.away_max))
        return ""


__all__ = ["OwnTime"]
