"""Computer players at the table: bot seats, and a bot standing in for an absent player.

A bot seat is a seat whose player id starts with ``bot:`` (``bot:1:normal``, its number and level),
which no Discord user id (digits) nor console name (no ``:``) can be; it is named in the table's
language when it sits down ("Bot 1 (normal)", "Robot 1 (normal)"), and it is never pinged,
messaged or reminded. A player who lets a deadline pass at a table whose policy is ``bot`` is played
for by a bot of level ``normal`` until any command of theirs in that game: both the takeover and the
return are notes in the game's log (the takeover's actor is the bot, ``bot:stand-in:normal``), so the
log says what happened and the current stand-ins are read back from it after a restart. A player away
(``/away``) at a table whose ``away`` option is ``bot`` is played for the same way, by a bot of the
table's level, from the handover that waits for them (or their ``/away``) until they come back (a
move, ``/away for:off``, or the end of their time off): that takeover's note is ``svc.away.takeover``.

``ComputerPlayers`` plays, one decision at a time per game, whenever a bot is to act: after the start,
after any move, and for every running game with a bot when asked to ``resume`` (at start-up and on each
scheduler tick). The search (``ai.choose``) runs in worker processes of a pool of its own
(``table.bots.thinkers``), so a long search neither blocks the loop nor delays drawing; each decision
has a few seconds, and the decisions of one turn share a budget (``ai.levels.TurnBudget``: the step of
each is read from the game's log). Its seed comes from ``ai.seed_at(game seed, position, seat)``, so a
game with bots replays exactly, and a move taken back and played again meets the same reply. A bot waits
for the post that handed it the turn, not for the edits its own moves make of it (folded for a few
seconds by the announcer). The move goes through ``Tables.apply`` with the version the bot thought on,
under the channel's lock; when someone acted meanwhile the bot thinks again on the new position.

``/game new ... bots:N level:`` seats N bots after the creator (without ``players``, the smallest count that
seats them all); ``/game addbot`` seats one in the lobby and ``/game removebot`` takes the last one off (a bot
is no Discord user ``/game kick`` could name). A creator who leaves hands the lobby to the next person seated,
never to a bot (``table.play.lobby.human_heir``), and votes (draw, abort) need only the people.
``ComputerPlayers`` is one per ``Announcer``, which pokes it with every change it is poked with; simultaneous
decisions are played one bot after the other. A decision that takes longer than ``notice_after`` (3 s) is told
in the channel through the announcer's outlet ("Bot 1 (hard) is thinking…", changed to "has finished thinking"
once decided). ``resume`` finds the games through ``Store.running_with("bot:")``; how the players decide, and
how strong and quick each level is, is docs/computer-players.md.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Protocol

import i18n
from engine.errors import GameError
from engine.text import Msg, PlayerRef, msg
from table.bots.explain import explanation
from table.bots.thinkers import shared_thinker
from table.core.clock import Clock, stamp, system_clock
from table.core.errors import TableError
from table.core.events import decode_msg, encode_msg
from table.core.posts import BOT_PREFIX, Post, is_bot, post_nonce
from table.core.ratings import guild_of
from table.core.settings import TableSettings, public_locale
from table.core.tables import Choice, Decision, Thinker
from table.core.tasks import GameTasks

if TYPE_CHECKING:
    from db import GameRecord, Note, Store
    from table.core.tables import Table, Tables

log = logging.getLogger(__name__)

LEVELS = ("easy", "normal", "hard")
"""The levels of ``ai.levels``, as players type them."""
DEFAULT_LEVEL = "normal"
STAND_IN_LEVEL = "normal"
"""The level of the bot that plays for a player who let the deadline pass."""
DECISION_SECONDS = 4.0
"""The most one decision may search (``ai.choose``'s deadline): on a busy machine the bot plays the
best move found by then rather than keep the table waiting."""
THINKING_NOTICE = 3.0
"""Seconds a bot may think before the channel is told it is thinking: past this, a player waiting
with nothing said wonders whether the bot is stuck (a `hard` Batailles deployment thinks for half a
minute)."""
MAX_BOTS = 7
MAX_STEP = 64
"""How far back the log is read for a turn's decisions; past this, every decision gets the least share."""

TAKEOVER = "svc.bot.takeover"
AWAY_TAKEOVER = "svc.away.takeover"
RETURNED = "svc.bot.returned"


def bot_id(number: int, level: str) -> str:
    return f"{BOT_PREFIX}{number}:{level}"


def bot_number(player: str) -> int | None:
    """The number of a bot seat (``bot:2:easy`` -> 2), None for anyone else."""
    parts = player.split(":")
    if len(parts) == 3 and is_bot(player) and parts[1].isdigit():
        return int(parts[1])
    return None


def bot_level(player: str) -> str | None:
    """The level of a bot seat (``bot:2:easy`` -> ``easy``), None for anyone else."""
    level = player.rsplit(":", 1)[-1]
    return level if is_bot(player) and level in LEVELS else None


def stand_in_id(level: str = STAND_IN_LEVEL) -> str:
    """The actor of a takeover note: the bot that takes the seat."""
    return f"{BOT_PREFIX}stand-in:{level}"


def parse_level(typed: str | None) -> str:
    """A level as typed (English or French); refuses anything else, naming the levels."""
    if typed is None or not typed.strip():
        return DEFAULT_LEVEL
    word = typed.strip().lower()
    word = {"facile": "easy", "moyen": "normal", "difficile": "hard"}.get(word, word)
    if word not in LEVELS:
        raise TableError("table.error.bad_level", level=typed, levels=list(LEVELS))
    return word


def may_have_bots(record: GameRecord) -> bool:
    """Whether a computer player can play any seat of the game: a bot sits at it, or its deadline
    policy is ``bot`` (the only way a bot comes to stand in for a player, ``schedule._take_over``).
    A table's settings are fixed when it is created, so a game for which this is False never has a
    stand-in, and its moves, posts and commands skip reading its notes for them (a read per move
    and per post, each a trip to the store's thread)."""
    if any(is_bot(seat.player) for seat in record.seats):
        return True
    pace = TableSettings.of(record)
    return pace.on_deadline == "bot" or pace.away == "bot"


def table_level(record: GameRecord) -> str:
    """The level of a table's computer players: that of the bots seated there, else the stand-ins'."""
    seated = [level for seat in record.seats if (level := bot_level(seat.player)) is not None]
    return max(seated, key=LEVELS.index) if seated else STAND_IN_LEVEL


async def stand_ins(store: Store, record: GameRecord) -> dict[str, str]:
    """The players a bot plays for now, with the bot's level, from the game's notes in order; no
    read at all for a game no bot can stand in at (``may_have_bots``)."""
    if not may_have_bots(record):
        return {}
    return stand_ins_in(await store.notes(record.id))


def stand_ins_in(notes: Iterable[Note]) -> dict[str, str]:
    """``stand_ins`` from notes already read (the announcer reads them once for a post's summary)."""
    return {player: level for player, (level, _away) in _standing(notes).items()}


def away_stand_ins(notes: Iterable[Note]) -> set[str]:
    """The players a bot plays for because they are away (``away=bot``), not for a deadline."""
    return {player for player, (_level, away) in _standing(notes).items() if away}


def _standing(notes: Iterable[Note]) -> dict[str, tuple[str, bool]]:
    """Each player a bot plays for now: the bot's level, and whether it came for their time off."""
    out: dict[str, tuple[str, bool]] = {}
    for note in notes:
        key = note.event.get("key")
        if key not in (TAKEOVER, AWAY_TAKEOVER, RETURNED):
            continue
        player = decode_msg(note.event).params.get("player")
        if not isinstance(player, PlayerRef):
            continue
        if key == RETURNED:
            out.pop(player.id, None)
        else:
            level = (note.actor or "").rsplit(":", 1)[-1]
            out[player.id] = (level if level in LEVELS else STAND_IN_LEVEL, key == AWAY_TAKEOVER)
    return out


def takeover_note(player: str) -> Msg:
    return msg(TAKEOVER, player=PlayerRef(player))


def away_takeover_note(player: str) -> Msg:
    return msg(AWAY_TAKEOVER, player=PlayerRef(player))


def returned_note(player: str) -> Msg:
    return msg(RETURNED, player=PlayerRef(player))


# ---- playing ---------------------------------------------------------------------------------------


class Notices(Protocol):
    """Where a short line is said in a game's channel and later changed: the front end's outlet."""

    async def send(self, channel: str, post: Post) -> str: ...

    async def edit(self, channel: str, message: str, post: Post) -> bool: ...


class ComputerPlayers:
    """Plays the bots' decisions of every game, one at a time per game, as soon as they are due.

    ``announce`` has the channel shown a stored change (the announcer's poke); ``settled`` waits
    until the game's pending announcement is posted, so a bot's move follows the post that handed it
    the turn, as a player's would. With ``notices``, a bot that thinks longer than ``notice_after``
    seconds says so in the channel ("Bot 1 (hard) is thinking…"), and the line is changed once it
    has decided.
    """

    def __init__(
        self,
        tables: Tables,
        announce: Callable[[Table], None],
        settled: Callable[[int], Awaitable[None]],
        *,
        deadline: float = DECISION_SECONDS,
        clock: Clock = system_clock,
        notices: Notices | None = None,
        notice_after: float = THINKING_NOTICE,
    ) -> None:
        self.tables = tables
        self.clock = clock
        self._announce = announce
        self._settled = settled
        self.deadline = deadline
        self.notices = notices
        self.notice_after = notice_after
        self._said: dict[int, tuple[str, str, int]] = {}
        """Per game, the last line a bot said it was thinking in: (player, message id, version thought
        on). The bot's next decision right after its own move says so in the same line again."""
        self._tasks = GameTasks("the computer players")
        self._again: set[int] = set()
        self.stopped = False
        """Set by a stop of the bot: no decision starts any more (a restart resumes them)."""

    @property
    def thinker(self) -> Thinker:
        """The tables' thinker, else the process-wide pool (made when a bot first has to decide, so a
        bot with no computer player never starts its workers)."""
        if self.tables.thinker is None:
            self.tables.thinker = shared_thinker()
        return self.tables.thinker

    def poke(self, record: GameRecord) -> None:
        """Play what the bots of ``record``'s game have to play, in a task; returns at once."""
        if record.status != "active" or self.stopped or not may_have_bots(record):
            return  # a game no computer player can play is not read again after each move
        self._again.add(record.id)
        if self._tasks.get(record.id) is None:  # else the running task reads the game again
            self._tasks.start(record.id, record.channel, self._run(record.id))

    def pending(self, channel: str | None = None) -> list[asyncio.Task[None]]:
        """The games whose bots are still deciding (of ``channel``, or all)."""
        return self._tasks.pending(channel)

    async def resume(self) -> int:
        """Pick up every running game where a bot sits or stands in (after a restart); how many."""
        records = await self.tables.store.running_with(BOT_PREFIX)
        for record in records:
            self.poke(record)
        return len(records)

    def stop(self) -> list[asyncio.Task[None]]:
        """Start no decision from now on (the one under way may finish); the tasks still running."""
        self.stopped = True
        self._again.clear()
        return self._tasks.pending()

    async def _run(self, game_id: int) -> None:
        while game_id in self._again and not self.stopped:
            self._again.discard(game_id)
            while not self.stopped and await self._step(game_id):
                pass

    async def plays_for(self, record: GameRecord, player: str) -> str | None:
        """The level of the bot playing ``player``'s seat now, None when a person plays it. A bot that
        came for a player's time off gives the seat back once it is over (a note in the log)."""
        if is_bot(player):
            return bot_level(player) or DEFAULT_LEVEL
        if not may_have_bots(record):
            return None
        store = self.tables.store
        standing = _standing(await store.notes(record.id)).get(player)
        if standing is None:
            return None
        level, away = standing
        if away:
            now = stamp(self.clock())
            if not any(p.since <= now < p.until for p in await store.away(guild_of(record), [player], now)):
                await store.add_note(record.id, record.version, player, encode_msg(returned_note(player)))
                return None
        return level

    async def _bot_to_act(self, table: Table) -> tuple[str, str] | None:
        for player in table.to_act():
            level = await self.plays_for(table.record, player)
            if level is not None:
                return player, level
        return None

    async def _handed_over(self, game_id: int) -> bool:
        """Whether the channel was shown the post that handed the players now to act their turn.

        Only that post is waited for: the moves a bot makes in a row edit it, and those edits are
        folded for a few seconds (the announcer's ``coalesce``), which a bot must not sit out after
        each of its decisions (a Batailles turn of fifteen decisions took a minute).
        """
        record, shown = await self.tables.store.game_and_announcement(game_id)
        if record is None or shown is None or record.status != "active" or shown.status != "active":
            return False
        table = self.tables.table(record)
        if table.state is None or table.unreadable:
            return False
        return set(shown.to_act) == set(table.to_act())

    async def turn_step(self, game_id: int, player: str) -> int:
        """``turn_step`` of the game over the tables' store."""
        return await turn_step(self.tables.store, game_id, player)

    async def _step(self, game_id: int) -> bool:
        """One bot decision of the game, if one is due; whether the game moved on (look again).

        The bot thinks while the post that handed it the turn is drawn and sent (the search and the
        drawing have a worker process each), and plays once that post is out.
        """
        record = await self.tables.store.get_game(game_id)
        if record is None or record.status != "active":
            return False
        table = self.tables.table(record)
        if table.state is None or table.unreadable:
            return False
        due = await self._bot_to_act(table)
        if due is None:
            return False
        player, level = due
        thinking = asyncio.ensure_future(self._decide(table, player, level))
        try:
            if not await self._handed_over(game_id):
                await self._settled(game_id)
            choice = await self._thought(table, player, thinking)
        finally:
            thinking.cancel()  # a no-op once it is done; else this task was cancelled
        async with self.tables.lock(record.channel):
            fresh = await self.tables.open(record.channel)
            if fresh is None or fresh.record.id != game_id or fresh.record.version != record.version:
                return True  # someone acted meanwhile: think again on the new position
            if player not in fresh.to_act() or await self.plays_for(fresh.record, player) is None:
                return True  # the player came back
            text = choice.action
            why = explanation(fresh, player, choice)
            try:
                moved = await self.tables.apply(fresh, player, text, version=record.version)
                if why is not None:  # after the bot's own move, before the forced ones that followed it
                    seq = moved.table.record.version - len(moved.forced)
                    await self.tables.store.add_note(game_id, seq, None, why)
            except GameError:
                log.exception("the bot's move %r in game #%s was refused", text, game_id)
                fallback = fresh.game.legal_actions(fresh.state, player)
                if not fallback:
                    return False
                moved = await self.tables.apply(fresh, player, str(fallback[0]), version=record.version)
        self._announce(moved.table)
        return True

    async def _thought(self, table: Table, player: str, thinking: asyncio.Future[Choice]) -> Choice:
        """What ``thinking`` decides; when it takes more than ``notice_after`` seconds from the post
        that handed the bot its turn, the channel is told the bot is thinking, and told again (the
        line changed) once it has decided, just before its move is shown."""
        if self.notices is None:
            return await thinking
        try:
            return await asyncio.wait_for(asyncio.shield(thinking), self.notice_after)
        except TimeoutError:
            pass
        record = table.record
        before = self._said.get(record.id)
        again = before is not None and before[0] == player and before[2] + 1 == record.version
        said = await self._say(table, player, "svc.bot.thinking", before[1] if again and before else None)
        text = await thinking
        if said is not None:
            await self._say(table, player, "svc.bot.decided", said)
            self._said[record.id] = (player, said, record.version)
        return text

    async def _say(self, table: Table, player: str, key: str, message: str | None = None) -> str | None:
        """A line about ``player``'s bot in the game's channel, in its public language: a new post, or
        ``message`` changed. Its id, None when the channel refused it (nothing else depends on it)."""
        assert self.notices is not None
        record = table.record
        locale = await public_locale(self.tables.store, record)
        if is_bot(player):
            who = table.name(player)
        else:
            who = i18n.t("svc.bot.for", locale, player=table.name(player))
        post = Post(
            i18n.t(key, locale, player=who),
            nonce=post_nonce(f"g{record.id}", f"v{record.version}", key, limits=self.tables.limits),
        )
        try:
            if message is None:
                return await self.notices.send(record.channel, post)
            await self.notices.edit(record.channel, message, post)
        except Exception:  # the outlet's refusal: the move is played and shown all the same
            log.warning("telling channel %s that a bot is thinking failed", record.channel, exc_info=True)
        return message

    async def _decide(self, table: Table, player: str, level: str) -> Choice:
        """The bot's action and what it weighed; a search that fails plays the first legal action
        instead (and weighed nothing)."""
        try:
            asked = await decision(self.tables.store, table, player, level, self.deadline)
            return Choice.of(await self.thinker.think(asked))
        except Exception:
            log.exception("the bot of %s in game #%s could not decide", player, table.record.id)
            legal = table.game.legal_actions(table.state, player)
            return Choice(str(legal[0]) if legal else "")


async def turn_step(store: Store, game_id: int, player: str) -> int:
    """How many decisions ``player`` made in a row last (0 when the turn is theirs anew), from the
    game's log: the decisions of a turn share one budget (``ai.levels.TurnBudget``), and reading
    it from the log gives the same share after a restart and in a replay."""
    count = await store.count_actions(game_id)
    step = 0
    for done in reversed(await store.actions(game_id, offset=max(0, count - MAX_STEP))):
        if done.undone:
            continue
        if done.kind != "move" or done.player != player:
            break
        step += 1
    return step


async def decision(
    store: Store, table: Table, player: str, level: str, deadline: float | None = DECISION_SECONDS
) -> Decision:
    """What the search of ``player``'s seat at ``level`` is asked in ``table``'s position: its seed
    from the position (``ai.seed_at``), its share of the turn from the log."""
    import ai

    record = table.record
    seat = record.player_ids.index(player)
    state = table.game.dump(table.state)
    seed = ai.seed_at(record.seed, state, seat)
    step = await turn_step(store, record.id, player)
    return Decision(record.game, state, seat, level, seed, deadline, step)


def bot_name(number: int, level: str, locale: str) -> str:
    """A bot seat's display name in ``locale``: "Bot 1 (normal)", "Robot 1 (normal)"."""
    return i18n.t("table.bot.name", locale, n=number, level=i18n.t(f"table.bot.level.{level}", locale))


__all__ = [
    "ComputerPlayers",
    "bot_id",
    "bot_level",
    "is_bot",
    "may_have_bots",
    "stand_ins",
    "stand_ins_in",
]
