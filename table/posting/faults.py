"""Channels that refuse the bot, and the people told about them.

On a real server a moderator tightens a channel's permissions, locks a thread, lets one archive
itself, or deletes a channel. Nothing a player did is lost to that: every move is stored before
anything is posted. What changes is what the bot does with the channel:

- **A refusal that lasts** (``Refused``: a permission taken away, a locked thread, an archived thread
  the bot may not reopen) is recorded in the store (``db.ChannelFault``), so a restart remembers it.
  The channel is then left alone (``paused``): no post, no board drawn for it, but for one try now and
  then, further apart after each refusal (``backoff``: 1 minute, doubling, up to an hour). The
  people who can have it fixed are told once: the game's players and its creator, by direct message
  at once when they chose direct messages (``/notify``) and are not in their quiet hours, else
  privately with their next answer in any channel (``db.Notice``), naming what the bot lacks where
  the front end knows it.
- **The fault ends** when a post goes through there again (a try, or a post made after ``retry_now``:
  an interaction in the channel showing the bot has what it lacked, a moderator changing the channel
  or a role). The catch-up then posts what was missed, once, as for any unannounced game, and the
  notices not told yet are dropped.
- **A deleted channel** (``ChannelGone``, or the front end hearing of it) closes its open game as
  abandoned: aborted, with the reason, unrated, its log kept, its players told as above. Nothing
  is left to post there: its announcement is marked shown.

The faults are the store's ``channel_faults`` (migration 9); the notices' table is read only for players this
process knows to have some. A moderator's change or an interaction whose ``app_permissions`` now include what
was missing (once a minute at most) makes the try due at once. A deleted channel's game is ``aborted`` with
the reason ``svc.reason.channel_gone`` and stays unrated (``table.core.ratings.is_rated`` rates only
``over``); a game that ended there before its end was posted is marked shown too. ``/game new`` checks the
bot's permissions first and names what it lacks (View Channel, Send Messages or Send Messages in Threads,
Attach Files, and Create Public Threads for ``thread:``), making nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime, timedelta

import i18n
from db import Announcement, ChannelFault, Conflict, GameEnded, GameRecord, StaleVersion, Store
from engine.contract import Result
from engine.errors import GameError
from engine.text import Msg, msg
from table.core.clock import Clock, parse_stamp, stamp
from table.core.events import decode_msg, encode_msg, encode_result
from table.core.hours import PlayerTime
from table.core.marks import channel_link
from table.core.posts import Post
from table.core.ratings import settle
from table.core.settings import public_locale
from table.core.text import game_title, pings
from table.posting.outlet import Outlet, OutletError, Refused

log = logging.getLogger(__name__)

FIRST_TRY = timedelta(minutes=1)
LAST_TRY = timedelta(hours=1)
CLOSE_TRIES = 3
"""Times a deleted channel's game is read again to close it when a move lands meanwhile."""


class Paused(OutletError):
    """The channel refuses the bot and its next try is not due yet: nothing was sent."""


def backoff(tries: int) -> timedelta:
    """How long a channel that refused the bot ``tries`` times is left alone before the next try."""
    doubled: timedelta = FIRST_TRY * 2 ** min(max(0, tries - 1), 16)
    return min(LAST_TRY, doubled)


def fault_message(fault: ChannelFault, game: str) -> Msg:
    """What the people of a game are told about its channel's fault."""
    where = {"channel": channel_link(fault.channel), "game": game_title(game)}
    permissions = [Msg(f"perm.{name}") for name in fault.missing]
    if fault.kind == "locked":
        return msg("svc.fault.locked", **where)
    if fault.kind == "archived":
        return msg("svc.fault.archived", permissions=permissions, **where)
    if permissions:
        return msg("svc.fault.permissions", permissions=permissions, **where)
    return msg("svc.fault.refused", **where)


class Faults:
    """The channels that refuse the bot, as the store keeps them, with this process's copy for the
    decisions taken on every post (``paused``, ``trying``); ``refresh`` reads again what other
    processes recorded."""

    def __init__(self, store: Store, front: Outlet, clock: Clock) -> None:
        self.store = store
        self.front = front
        """The front end's own outlet: direct messages telling players."""
        self.clock = clock
        self.known: dict[str, ChannelFault] = {}
        self._noticed: set[str] = set()
        """Players who may have notices still to tell: only theirs are read at each answer."""
        self._asked: dict[str, datetime] = {}
        """When an interaction last made each channel due (``covered``): once a ``FIRST_TRY`` at most."""
        self._loaded = False
        self.closed: Callable[[GameRecord], None] = lambda record: None
        """Told of each game a deleted channel closed (the announcer's listings of games show it)."""

    async def refresh(self) -> None:
        """Read the faults and who has notices from the store (at the first need, and every tick:
        another process may have recorded some)."""
        self.known = {f.channel: f for f in await self.store.channel_faults()}
        self._noticed = set(await self.store.noticed_players())
        self._loaded = True

    async def loaded(self) -> None:
        if not self._loaded:
            await self.refresh()

    # ---- deciding, on every post ----------------------------------------------------------------

    def paused(self, channel: str) -> bool:
        """Whether ``channel`` refuses the bot and its next try is not due: leave it alone."""
        fault = self.known.get(channel)
        return fault is not None and parse_stamp(fault.next_try) > self.clock()

    def trying(self, channel: str) -> ChannelFault | None:
        """Before a request to ``channel``: its fault when this request is its try (the next one is
        then not due before a longer wait, whatever comes of this one); raises ``Paused`` when the
        channel is left alone now."""
        fault = self.known.get(channel)
        if fault is None:
            return None
        now = self.clock()
        if parse_stamp(fault.next_try) > now:
            raise Paused(f"channel {channel} refuses the bot ({fault.kind}); next try at {fault.next_try}")
        self.known[channel] = replace(fault, next_try=stamp(now + backoff(fault.tries + 1)))
        return fault

    async def refused(self, channel: str, error: Refused) -> None:
        """The channel refused a request: record it (a new fault, or one more refusal of a known one,
        its next try further off) and, the first time, tell the people who can have it fixed."""
        now = self.clock()
        fault = ChannelFault(channel, error.kind, error.missing, stamp(now), 1, stamp(now + backoff(1)))
        if await self.store.add_fault(fault):
            self.known[channel] = fault
            log.warning(
                "channel %s refuses the bot (%s): its games are kept, the players told", channel, error
            )
            await self._tell_about(fault)
            return
        stored = self.known.get(channel) or next(
            (f for f in await self.store.channel_faults() if f.channel == channel), fault
        )
        tries = stored.tries + 1
        again = replace(
            stored,
            kind=error.kind,
            missing=error.missing or stored.missing,
            tries=tries,
            next_try=stamp(now + backoff(tries)),
        )
        await self.store.update_fault(again)
        self.known[channel] = again
        log.info("channel %s still refuses the bot (%s): next try at %s", channel, error, again.next_try)

    async def worked(self, channel: str) -> None:
        """A request to ``channel`` went through: its fault, if any, is over."""
        if channel in self.known:
            del self.known[channel]
            self._asked.pop(channel, None)
            if await self.store.drop_fault(channel):
                log.info("channel %s takes the bot's posts again: what it missed is caught up", channel)

    async def retry_now(self, channel: str) -> bool:
        """Something changed in ``channel`` that may end its fault (a moderator's change, an
        interaction showing the bot has what it lacked): its next try is due now. Whether it has one."""
        fault = self.known.get(channel)
        if fault is None:
            return False
        due = replace(fault, next_try=stamp(self.clock()))
        await self.store.update_fault(due)
        self.known[channel] = due
        return True

    def covered(self, channel: str, may: Iterable[str]) -> bool:
        """Whether the permissions the bot has in ``channel`` (``may``, the front end's names) now
        include every one its fault named: worth a try at once. Not more than once a ``FIRST_TRY``
        (every move in the channel says so, and a channel may refuse for a reason they do not show)."""
        fault = self.known.get(channel)
        if fault is None or not fault.missing or not set(fault.missing) <= set(may):
            return False
        now, last = self.clock(), self._asked.get(channel)
        if last is not None and now - last < FIRST_TRY:
            return False
        self._asked[channel] = now
        return True

    # ---- a deleted channel ----------------------------------------------------------------------

    async def gone(self, channel: str) -> GameRecord | None:
        """``channel`` was deleted: its open game is closed as abandoned (aborted, unrated, its log
        kept), marked shown (nothing can be posted there any more) and its people told; a game that
        had ended there before its end could be posted is marked shown too, its people told that.
        The game closed, if there was one."""
        self.known.pop(channel, None)
        await self.store.drop_fault(channel)
        for _attempt in range(CLOSE_TRIES):
            record = await self.store.open_game(channel)
            if record is None:
                await self._ended_unshown(channel)
                return None
            why = Result(winners=(), reason=msg("svc.reason.channel_gone"))
            try:
                closed = await self.store.finish_game(
                    record.id, version=record.version, status="aborted", result=encode_result(why)
                )
            except (GameError, Conflict, GameEnded, StaleVersion):
                continue  # a move landed meanwhile: read it again
            await self._shown(closed)
            await settle(self.store, closed)
            await self._ended_unshown(channel)
            log.warning("channel %s was deleted: game #%s closed as abandoned", channel, closed.id)
            gone = msg("svc.fault.gone", channel=channel_link(channel), game=game_title(closed.game))
            await self._tell(closed, channel, gone)
            return closed
        log.warning("channel %s was deleted but its game kept moving: the next post closes it", channel)
        return None

    async def _ended_unshown(self, channel: str) -> None:
        """The channel's games that ended before their end was posted: it never will be."""
        for record in await self.store.unannounced():
            if record.channel != channel or record.is_open:
                continue
            await self._shown(record)
            await settle(self.store, record)
            ended = msg("svc.fault.gone_ended", channel=channel_link(channel), game=game_title(record.game))
            await self._tell(record, channel, ended)

    async def _shown(self, record: GameRecord) -> None:
        """Mark the closed game announced: its channel is gone, so the catch-up must not post there."""
        self.closed(record)
        if record.state is None:
            return  # a lobby: never announced
        for _attempt in range(CLOSE_TRIES):
            current = await self.store.announcement(record.id)
            base = current or Announcement(
                record.id, record.version, record.status, record.version, record.version
            )
            if await self.store.save_announcement(
                replace(base, version=record.version, status=record.status)
            ):
                return

    # ---- telling people -------------------------------------------------------------------------

    async def _tell_about(self, fault: ChannelFault) -> None:
        record = await self.store.open_game(fault.channel) or await self.store.latest_game(fault.channel)
        if record is None:
            return
        await self._tell(record, fault.channel, fault_message(fault, record.game))

    async def _tell(self, record: GameRecord, channel: str, message: Msg) -> None:
        """Tell the game's people (its players and its creator) ``message``: by direct message at
        once those who chose direct messages, the others with their next answer."""
        people = list(dict.fromkeys(pings([*record.player_ids, record.creator])))
        locale = await public_locale(self.store, record)
        later = []
        for person in people:
            if (
                await self.store.notify(person)
                and not await self._quiet(person)
                and await self._direct(person, i18n.t(message, locale))
            ):
                continue
            later.append(person)
        if later:
            await self.store.add_notices(later, channel, encode_msg(message))
            self._noticed.update(later)

    async def _quiet(self, person: str) -> bool:
        """Whether ``person`` is in their quiet hours now: no direct message then (they are told with
        their next answer instead)."""
        chosen = (await self.store.player_settings([person])).get(person)
        return chosen is not None and PlayerTime.of(chosen).is_quiet(self.clock())

    async def _direct(self, person: str, text: str) -> bool:
        try:
            return await self.front.direct(person, Post(text))
        except Exception:
            log.warning("telling %s by direct message failed: told with their next answer", person)
            return False

    async def notices(self, player: str, locale: str) -> list[str]:
        """What ``player`` is still to be told, in ``locale``, once (taken from the store)."""
        await self.loaded()
        if player not in self._noticed:
            return []
        self._noticed.discard(player)
        return [i18n.t(decode_msg(n.event), locale) for n in await self.store.take_notices(player)]


__all__ = ["FIRST_TRY", "LAST_TRY", "Faults", "Paused", "backoff", "fault_message"]
