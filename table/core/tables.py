"""Per-channel tables: load a game from the store, apply one action, persist, render.

Every command that changes a game holds the channel's ``asyncio.Lock`` from loading to
persisting, so two players acting at the same instant in this process are applied one after the
other (the second sees the first's result, and a version-pinned action goes stale). The lock only
spares the store needless conflicts: the store decides every change (one open game per channel, seats
counted under the lobby's row lock, a move only over the version it was chosen at), which is what holds
when several processes share the database (shards). Nothing lives only in memory:
the locks and a cache of loaded states can be dropped at any moment (a restart) without
losing a game. Images are drawn in worker processes so a slow image never blocks the event loop.

A game ended outside its rules (a resignation, an agreed draw, an abort, a moderator's end, a deadline's
forfeit) keeps its engine state as it was left, with a player still to act: every view the table layer hands
on (``Table.view``, ``ended_view``: boards, details, the text board, a replay's last frame) then carries the
stored result (``"aborted": true`` in it for an abort) and nobody to act, so the final board and its alt text
show the result banner, never a turn.

Forced moves (``engine.forced``): when the rules leave the player to act exactly one legal action, asking them
costs a ping, a reminder and a day of waiting for nothing. ``Tables.apply`` (which human moves, the bots'
moves and a deadline's ``skip`` all go through) plays, after the action it applies, every forced move that
follows, for every seat but a computer player's (a bot plays its own seat as before), each player to act in
turn in a phase where several act; ``lobby.start`` does the same after the deal (but for a forced move that
would end the game before anyone chose anything, left to its player: a start is a running game). They are
stored with the action (or the start) that led to them, in one transaction (``Store.apply_action(...,
forced=)``, ``start_game(..., forced=)``), each a row of the log of its own player marked ``auto`` (migration
11): no crash leaves a player pinged for a move that was never theirs, and the catch-up announces them once
like any move. The announcement then asks (and pings) whoever must really act; the summary, ``/game log``
(``Wording._action_line``) and the mover's confirmation say "(automatic)"; a forced move played for a player
the handover post did not ask does not count as the turn going round (the post is edited, nobody is pinged
again). ``/game undo`` (``Clicks._takeback``) passes over forced moves as nobody's answer: one goes
back with the action before it, whoever it was played for, under the same rule (``can_undo`` over the whole
span). A table that says ``auto=off`` at ``/game new`` (``TableSettings.auto``, shown in the lobby) plays
none.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

import engine
from db import Forced, GameRecord, Store
from db.reads import Reads, StoreReads
from engine import registry
from engine.contract import JSON, Game, Result
from engine.errors import GameOver, NotYourTurn, StaleAction
from engine.forced import ForcedStep, forced_steps
from engine.text import Msg
from table.core.drawing import Drawer, Outdated, ThreadDrawer, draw_now, shared_drawer
from table.core.errors import player_facing
from table.core.events import decode_result, encode_msg, encode_result
from table.core.limits import Limits
from table.core.marks import mention
from table.core.posts import Picture, is_bot
from table.core.ratings import use_engine_sides
from table.core.replay import played, replay
from table.core.settings import TableSettings
from table.core.text import lexicon
from table.core.workers import Superseded

log = logging.getLogger(__name__)

STATE_CACHE_SIZE = 256
"""Loaded states kept between commands (autocomplete asks for them on every keystroke)."""


class Renderer(Protocol):
    """``render.render`` / ``render.render_private``: a view in, PNG bytes out."""

    def __call__(self, view: dict[str, object], *, names: dict[str, str], locale: str) -> bytes: ...


@dataclass(frozen=True)
class Table:
    """A stored game together with its engine and, once started, its loaded state."""

    record: GameRecord
    game: Game
    state: object | None
    unreadable: bool = False
    """The stored state exists but this version of the engine cannot load it; the table can only be
    closed (``/game abort`` by any seated player or a moderator, no vote)."""

    @property
    def names(self) -> dict[str, str]:
        """Display names by player id, as stored when each player joined."""
        return {s.player: s.name for s in self.record.seats}

    def name(self, player: str) -> str:
        return self.names.get(player, player)

    def named(self, player: str) -> str:
        """How a message names a player: the seat's name, else (a moderator, say) a mention,
        which Discord shows as the member's name."""
        return self.names.get(player) or mention(player)

    def view(self, viewer: str | None = None) -> dict[str, object]:
        """What ``viewer`` sees of the game (None: the public board), ended as the table ended it
        (``ended_view``)."""
        return ended_view(self.game.view(self.state, viewer), self.record, self.game.is_over(self.state))

    def to_act(self) -> list[str]:
        if self.state is None or self.record.status != "active":
            return []
        return list(self.game.to_act(self.state))

    def side_of(self, player: str) -> str:
        """A player's side: the team when seats have teams, else the player alone."""
        seat = self.record.seat_of(player)
        if seat is not None and seat.team is not None:
            return f"team:{seat.team}"
        return f"player:{player}"

    def sides(self) -> dict[str, list[str]]:
        """Seated players grouped by side, in seat order."""
        out: dict[str, list[str]] = {}
        for seat in self.record.seats:
            out.setdefault(self.side_of(seat.player), []).append(seat.player)
        return out


def ended_view(view: dict[str, object], record: GameRecord, engine_over: bool) -> dict[str, object]:
    """``view`` as the table ended the game. A resignation, an agreed draw, an abort, a moderator's end
    or a deadline's forfeit ends a game outside its rules: the engine's state stays the position it
    was left in, with a player still to act, and knows nothing of the end. The stored result then
    stands in the view and nobody is to act, so the final board and its alt text show how the game
    ended, never a turn; an abort is marked so, since it has neither winner nor draw."""
    if engine_over or record.status not in ("over", "aborted") or record.result is None:
        return view
    result = decode_result(record.result).to_json()  # players in the reason as the views write them
    if record.status == "aborted":
        result["aborted"] = True
    return {**view, "to_act": [], "result": result}


@dataclass(frozen=True)
class Moved:
    """What one applied action produced, with the forced actions played after it (``forced``)."""

    table: Table
    player: str
    action: str
    events: list[Msg] = field(default_factory=list)
    result: Result | None = None
    forced: tuple[ForcedStep, ...] = ()


def stored(steps: Sequence[ForcedStep]) -> list[Forced]:
    """Forced actions as the store keeps them: each action's text, and its events encoded."""
    return [Forced(s.player, str(s.action), [encode_msg(e) for e in s.events]) for s in steps]


@dataclass(frozen=True)
class Decision:
    """One decision asked of a computer player: everything ``ai.choose`` needs, JSON-safe and picklable,
    so that it crosses to a worker process as one value and a thinker's shape never grows with it."""

    game: str
    state: dict[str, JSON]
    seat: int
    level: str
    seed: int
    deadline: float | None
    step: int = 0


@dataclass(frozen=True)
class Choice:
    """A computer player's answer to a ``Decision``: the action text, and what its search weighed
    (``ai.decide``'s ``weighed``: ``(text, value, share)`` per action, the one played first; value and
    share None when nothing was searched), picklable to come back from a worker process."""

    action: str
    weighed: tuple[tuple[str, float | None, float | None], ...] = ()
    iterations: int = 0

    @classmethod
    def of(cls, answer: str | Choice) -> Choice:
        """A thinker's answer as a ``Choice`` (a bare action text weighed nothing)."""
        return answer if isinstance(answer, Choice) else cls(str(answer))


class Thinker(Protocol):
    """Where computer players search for a ``Decision``'s move (``table.bots.thinkers`` implements it, in
    threads or worker processes). Declared here, beside the tables that hold one, so that the tables
    need not import the bots that use them. The answer is the action text, or a ``Choice`` that says
    what the search weighed too."""

    async def think(self, decision: Decision) -> str | Choice: ...


class Tables:
    """All tables of a bot, over one store.

    ``games`` looks a game up by name (``engine.get_game`` by default; tests pass their
    own small games) and ``known_games`` lists the names offered in help and rules
    (every game of ``engine.registry`` by default).
    ``seed_source`` draws the seed of each new game (random by default). Images are drawn by
    ``drawer`` (default: the process-wide pool of worker processes); ``render`` and
    ``render_private`` instead draw in threads with those functions (tests' stand-ins). Computer
    players decide through ``thinker`` (default: a pool of worker processes running ``ai.choose``).
    ``limits`` is what the front end's messages and lists may hold: the front end hands its own (the
    table holds no front end's numbers), and every text and list the table writes is cut to them.
    """

    def __init__(
        self,
        store: Store,
        *,
        limits: Limits,
        render: Renderer | None = None,
        render_private: Renderer | None = None,
        drawer: Drawer | None = None,
        games: Callable[[str], Game] = engine.get_game,
        known_games: Sequence[str] | None = None,
        seed_source: Callable[[], int] | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        self.store = store
        self.limits = limits
        """What the front end's messages and lists may hold."""
        self.thinker = thinker
        """Where computer players search; None: the process-wide pool of ``table.bots.thinkers``."""
        if drawer is None and (render is not None or render_private is not None):
            functions: dict[str, Callable[..., bytes]] = {
                "board": render or (lambda view, **kw: draw_now("board", view, kw["names"], kw["locale"])),
                "private": render_private
                or (lambda view, **kw: draw_now("private", view, kw["names"], kw["locale"])),
                "details": lambda view, **kw: draw_now("details", view, kw["names"], kw["locale"]),
                "chart": lambda view, **kw: draw_now("chart", view, kw["names"], kw["locale"]),
                "leaderboard": lambda view, **kw: draw_now("leaderboard", view, kw["names"], kw["locale"]),
                "standings": lambda view, **kw: draw_now("standings", view, kw["names"], kw["locale"]),
            }
            drawer = ThreadDrawer(functions)
        self.drawer: Drawer = drawer or shared_drawer()
        self._games = games
        self.known_games = tuple(registry.names() if known_games is None else known_games)
        use_engine_sides()
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self._locks: dict[str, asyncio.Lock] = {}
        self._states: OrderedDict[int, tuple[int, object]] = OrderedDict()

    # ---- plumbing ------------------------------------------------------------------------

    def lock(self, channel: str) -> asyncio.Lock:
        """The lock that serialises changes to the channel's game."""
        lock = self._locks.get(channel)
        if lock is None:
            lock = self._locks[channel] = asyncio.Lock()
        return lock

    def game(self, name: str) -> Game:
        return self._games(name)

    def new_seed(self) -> int:
        return int(self._seed_source())

    def table(self, record: GameRecord) -> Table:
        """Wrap a record, loading its state through the engine (cached per version)."""
        game = self.game(record.game)
        if record.state is None:
            return Table(record, game, None)
        cached = self._states.get(record.id)
        if cached is not None and cached[0] == record.version:
            self._states.move_to_end(record.id)
            return Table(record, game, cached[1])
        try:
            state = game.load(record.state)
        except Exception:
            log.exception("the saved state of game #%s (%s) cannot be loaded", record.id, record.game)
            return Table(record, game, None, unreadable=True)
        self._remember(record, state)
        return Table(record, game, state)

    def _remember(self, record: GameRecord, state: object) -> None:
        """Cache a running game's state; finished games and the least recently used drop out."""
        if record.status != "active":
            self._states.pop(record.id, None)
            return
        self._states[record.id] = (record.version, state)
        self._states.move_to_end(record.id)
        while len(self._states) > STATE_CACHE_SIZE:
            self._states.popitem(last=False)

    async def open(self, channel: str) -> Table | None:
        """The channel's game in the lobby or running."""
        record = await self.store.open_game(channel)
        return None if record is None else self.table(record)

    async def latest(self, channel: str) -> Table | None:
        """The channel's open game, else its most recent finished one."""
        record = await self.store.latest_game(channel)
        return None if record is None else self.table(record)

    @property
    def reads(self) -> Reads:
        """The store's quick read path (``db.reads``), or its own reads when it has none."""
        reads = getattr(self.store, "reads", None)
        return reads if reads is not None else StoreReads(self.store)

    async def peek(self, channel: str) -> Table | None:
        """``open`` through the quick read path: for answers a player waits on while typing
        (autocomplete), which must not queue behind the moves a burst is storing."""
        record = await self.reads.open_game(channel)
        return None if record is None else self.table(record)

    async def peek_latest(self, channel: str) -> Table | None:
        """``latest`` through the quick read path."""
        record = await self.reads.latest_game(channel)
        return None if record is None else self.table(record)

    # ---- moves ---------------------------------------------------------------------------

    async def apply(self, table: Table, player: str, text: str, *, version: int | None = None) -> Moved:
        """Parse and apply ``text`` for ``player`` and persist it; the caller holds the lock.

        Raises the engine's errors (and ``StaleAction`` when ``version`` is not the game's: an older
        one, or one it never reached) before anything is written; the store's refusal of a game another
        writer moved on or ended meanwhile is raised as the same errors (``player_facing``).
        """
        record, game, state = table.record, table.game, table.state
        if record.status in ("over", "aborted") or state is None or game.is_over(state):
            raise GameOver()
        if version is not None and version > record.version:
            raise StaleAction("error.version_ahead", current=record.version)
        if (
            version is not None
            and version != record.version
            and not await self._only_others_since(record, player, version)
        ):
            raise StaleAction(given=version, current=record.version)
        acting = game.to_act(state)
        if player not in acting:
            raise NotYourTurn(waiting=[table.name(p) for p in acting])
        action = game.parse_action(state, player, text, lexicon(game))
        new_state, events = game.apply(state, player, action)
        forced = self.forced(record, game, new_state)
        if forced:
            new_state = forced[-1].after
        over = game.is_over(new_state)
        result = game.result(new_state) if over else None
        saved = await player_facing(
            self.store.apply_action(
                record.id,
                version=record.version,
                player=player,
                action=str(action),
                events=[encode_msg(e) for e in events],
                state=game.dump(new_state),
                status="over" if over else "active",
                result=None if result is None else encode_result(result),
                forced=stored(forced),
            )
        )
        self._remember(saved, new_state)
        moved = Table(saved, game, new_state)
        return Moved(moved, player, str(action), list(events), result, tuple(forced))

    def forced(self, record: GameRecord, game: Game, state: object) -> list[ForcedStep]:
        """The actions to play at once from ``state`` for players whom the rules leave exactly one
        (``engine.forced``), stored with the action (or the start) that led to them: in one
        transaction, so no crash leaves a player pinged for a move that was never theirs to choose.
        None at a table that said ``auto=off``, and never for a computer player's seat (it plays
        its own moves, forced or not, as it always has)."""
        if not TableSettings.of(record).auto:
            return []
        return forced_steps(game, state, plays=lambda player: not is_bot(player))

    async def _only_others_since(self, record: GameRecord, player: str, version: int) -> bool:
        """Whether a choice ``player`` made at ``version`` may still stand: only other players acted
        since (both deploying at once in Batailles), so it was not made against a position of theirs
        that has moved on. Legality is then checked on the current position as for any move; a choice
        of theirs twice (a double click) finds their own first one in between and is refused."""
        if version > record.version or version < 0:
            return False
        log = await self.store.actions(record.id)
        since = log[version:]
        if any(entry.player == player or entry.kind != "move" for entry in since):
            return False
        game = self.game(record.game)
        then = replay(game, record.player_ids, record.seed, record.options, played(log[:version]))
        return player in game.to_act(then)

    # ---- images --------------------------------------------------------------------------

    async def picture(
        self,
        kind: str,
        view: dict[str, object],
        names: dict[str, str],
        locale: str,
        *,
        outdated: Outdated | None = None,
    ) -> Picture:
        """The image of ``kind`` drawn from ``view`` off the event loop, with its alt text written
        from the same view in the same language. With ``outdated``, raises ``Superseded`` instead
        when the drawing's turn comes and it is outdated (``table.core.drawing``)."""
        if outdated is None:
            data = await self.drawer.draw(kind, view, names=names, locale=locale)
        else:
            data = await self.drawer.draw(kind, view, names=names, locale=locale, outdated=outdated)
        return Picture(data, describe(kind, view, names, locale))

    async def board_image(
        self,
        table: Table,
        locale: str,
        *,
        outdated: Outdated | None = None,
        away: Mapping[str, datetime] | None = None,
    ) -> Picture | None:
        """The public board (spectator view) and its alt text; None before the start. ``away``: the
        seated players away now, with when they are back (their seats are marked, ``marked_away``).

        A drawing failure is logged and gives None: by then the move is already stored, and
        the post must still tell the players what happened and whose turn it is. A drawing found
        ``outdated`` when its turn comes raises ``Superseded``: the newer version is announced.
        """
        if table.state is None:
            return None
        try:
            view = marked_away(table.view(), away or {})
            return await self.picture("board", view, table.names, locale, outdated=outdated)
        except Superseded:
            raise
        except Exception:
            log.exception("drawing the board of game #%s failed", table.record.id)
            return None

    async def details_image(self, table: Table, locale: str) -> Picture | None:
        """The public details the board leaves out (tables, rosters, tracks); None before the start
        or when the drawing fails, as for the board."""
        if table.state is None:
            return None
        try:
            return await self.picture("details", table.view(), table.names, locale)
        except Exception:
            log.exception("drawing the details of game #%s failed", table.record.id)
            return None

    async def private_image(
        self, table: Table, player: str, locale: str
    ) -> tuple[dict[str, object], Picture | None]:
        """The player's own view and the image of its hidden part (None if nothing is hidden).

        As for the board, a drawing failure is logged and leaves the text listing alone.
        """
        if table.state is None:
            return {}, None
        view = table.view(player)
        if not view.get("private"):
            return view, None
        try:
            image: Picture | None = await self.picture("private", view, table.names, locale)
        except Exception:
            log.exception("drawing the hand of %s in game #%s failed", player, table.record.id)
            image = None
        return view, image


def marked_away(view: dict[str, object], away: Mapping[str, datetime]) -> dict[str, object]:
    """The view with the seat of each away player marked ``"away": "<UTC date they are back>"``,
    which the board draws as a badge by the name."""
    if not away:
        return view
    found = view.get("seats") or []
    seats = [
        {**seat, "away": away[seat["id"]].astimezone(UTC).date().isoformat()}
        if isinstance(seat, dict) and seat.get("id") in away
        else seat
        for seat in (found if isinstance(found, list) else [])
    ]
    return {**view, "seats": seats}


def load_describer() -> None:
    """Import the renderer's describer (``render``) now, in whatever thread calls this: the first
    post's alt text otherwise imports it on the event loop, which stops for a fifth of a second (more
    on a loaded machine) in the middle of the first moves. The bot calls it in a thread once ready."""
    import render  # noqa: F401


def describe(kind: str, view: Mapping[str, object], names: dict[str, str], locale: str) -> str:
    """The alt text of an image (``render.describe``, imported when first needed like the renderer);
    a failure is logged and gives "", so the image is still posted."""
    try:
        import render

        return render.describe(kind, view, names=names, locale=locale)
    except Exception:
        log.exception("writing the alt text of a %s image failed", kind)
        return ""


def text_board(view: Mapping[str, object], names: dict[str, str], locale: str) -> str:
    """The position as text (``render.text_board``); a failure is logged and gives ""."""
    try:
        import render

        return render.text_board(view, names=names, locale=locale)
    except Exception:
        log.exception("writing the text board failed")
        return ""
