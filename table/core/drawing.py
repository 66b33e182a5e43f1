"""Where board images are drawn: a pool of worker processes, off the bot's interpreter.

Drawing is Python code (Pillow calls between them) that holds the interpreter lock: in threads it
delays the event loop, and a late loop misses the gateway's heartbeats. Workers are processes
(``table.core.workers``, the pool the computer players' searches use too); only the view (JSON) goes
in and PNG bytes come out. A worker that dies, is stopped or gets stuck is replaced and its drawing
made by another, so the move is still announced. Tests and small tools may draw in threads with
their own renderers instead.

A new worker is cold: its first board of a game builds that game's static layers (the empty board or
map, drawn large and scaled down), loads fonts and fills the text caches, which costs far more than
any later board. ``ProcessDrawer.warm`` starts the workers at start-up and has each draw throwaway
boards of every game in the background (``warm_up``), a step at a time, only while no board is
asked for: a board asked for meanwhile waits at most for the throwaway board under way.

The warm-up starts once the Discord bot's gateway is ready, so as not to take a core from its start (the
console: ``open_table(..., warm=locales)``; never with ``RENDER_WARMUP=0``). The pool starts its workers in a
thread, since the fork server's first start imports the renderer, discord.py and the bot's script and must not
hold up the loop; the gateway connection and the console's prompt never wait for the warm-up, and each worker
reports its end (``ProcessDrawer.warm_reports``).

A move's board starts drawing as soon as the move is stored (``Announcer._post_soon``), while the announcement
takes the game's claim and reads the game and what its channel was shown (``Store.game_and_announcement``, one
read); the post uses that drawing when the version it announces is the one drawn, in the language it was drawn
in, and draws again otherwise. Only a game with no announcement under way and no edit waiting to be folded is
drawn early, so moves that queue up are still drawn newest only. A board waits in the queue with a check
(``outdated``) that the pool asks when its turn comes: when a newer version of its game has been stored and
queued for announcement meanwhile, the board is not drawn (``Superseded``), and the announcement reads the
game again and draws the newer version, which then waits its turn once more and is drawn whatever comes next,
so a game that keeps moving is still shown.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Protocol, cast

from table.core.workers import CHECK_EVERY, Superseded, WarmReport, WorkerPool, fork_server_modules

log = logging.getLogger(__name__)

KINDS = ("board", "private", "details", "replay", "chart", "leaderboard")
"""What can be drawn: the public board, a seat's hidden part, the public details, a whole game's
animation (``view`` then holds ``frames``, the public views of its handovers), a player's rating
chart and a server's leaderboard (``render.chart``, ``render.leaderboard``)."""


Outdated = Callable[[], bool]
"""Asked when a drawing's turn comes (a worker is free for it): whether what it would show is no
longer worth drawing (a newer version of the game is waiting to be announced)."""


class Drawer(Protocol):
    async def draw(
        self,
        kind: str,
        view: dict[str, object],
        *,
        names: dict[str, str],
        locale: str,
        outdated: Outdated | None = None,
    ) -> bytes:
        """The image; raises ``Superseded`` instead when ``outdated()`` says so as its turn comes."""
        ...

    def idle(self) -> bool:
        """Whether a drawing asked for now would start at once: a board drawn ahead of need waits
        for no other (a burst of moves is drawn as its announcements come)."""
        ...


def draw_now(kind: str, view: dict[str, object], names: dict[str, str], locale: str) -> bytes:
    """Draw in this process (what a worker runs): a replay's animation or ``render.draw``, imported
    here so that a worker loads the drawing when it first draws. The view came through the pool as
    a plain dict; ``kind`` says which renderer's view it is."""
    if kind == "replay":
        from render.animation import animate

        return animate(_frames(view), names=names, locale=locale)
    import render

    return render.draw(kind, view, names=names, locale=locale)


def _frames(view: Mapping[str, object]) -> Sequence[Mapping[str, object]]:
    """A replay's views, one per handover, as the table layer put them in ``view["frames"]``."""
    return cast(Sequence[Mapping[str, object]], view["frames"])


class ThreadDrawer:
    """Renderers run in threads of this process: for tests' stand-in renderers. With ``workers``, at
    most that many drawings run at once and the others wait their turn, oldest first, as in the
    pool of processes (an outdated one is then not drawn)."""

    def __init__(self, functions: dict[str, Callable[..., bytes]], *, workers: int | None = None) -> None:
        self.functions = functions
        self.calls = 0
        self.workers = workers
        self._turns: asyncio.Semaphore | None = None
        self.waiting = 0
        """Drawings waiting for their turn (with ``workers``)."""
        self.superseded = 0

    async def draw(
        self,
        kind: str,
        view: dict[str, object],
        *,
        names: dict[str, str],
        locale: str,
        outdated: Outdated | None = None,
    ) -> bytes:
        if self.workers is None:
            return await self._draw(kind, view, names, locale, outdated)
        if self._turns is None:
            self._turns = asyncio.Semaphore(self.workers)
        self.waiting += 1
        try:
            await self._turns.acquire()
        finally:
            self.waiting -= 1
        try:
            return await self._draw(kind, view, names, locale, outdated)
        finally:
            self._turns.release()

    async def _draw(
        self,
        kind: str,
        view: dict[str, object],
        names: dict[str, str],
        locale: str,
        outdated: Outdated | None,
    ) -> bytes:
        if outdated is not None and outdated():
            self.superseded += 1
            raise Superseded()
        self.calls += 1
        if kind == "replay":
            from render.animation import animate

            board = self.functions["board"]
            return await asyncio.to_thread(animate, _frames(view), names=names, locale=locale, draw=board)
        function = self.functions[kind]
        return await asyncio.to_thread(function, view, names=names, locale=locale)

    def idle(self) -> bool:
        return self._turns is None or not self._turns.locked()


WARM_NAMES = {"w0": "Alice", "w1": "Bérénice", "w2": "Chloé", "w3": "Dmitri"}


def warm_up(locales: Sequence[str] = ("en",)) -> Iterator[str]:
    """A worker's warm-up: the public board of a new game of every game and table size, and each
    game's hand, in the first of ``locales``; then each game's board once in the other locales.

    What this fills is what a worker keeps between boards: the imported renderer, the fonts, each
    game's static layers (board, battlefield, map tiles, legends), sprites and text measurements.
    Each step is one drawing, so that a real drawing asked for meanwhile waits for one at most."""
    import engine
    import render

    first, *others = list(locales) or ["en"]
    for name in engine.GAMES:
        game = engine.get_game(name)
        for players in game.player_counts:
            ids = list(WARM_NAMES)[:players]
            state = game.new_game(ids, 0, {})
            render.render(game.view(state, None), names=WARM_NAMES, locale=first)
            if players == min(game.player_counts):
                render.render_private(game.view(state, ids[0]), names=WARM_NAMES, locale=first)
            yield f"{name} {players} {first}"
        for locale in others:
            state = game.new_game(list(WARM_NAMES)[: min(game.player_counts)], 0, {})
            render.render(game.view(state, None), names=WARM_NAMES, locale=locale)
            yield f"{name} {min(game.player_counts)} {locale}"


DRAW_LIMIT = 60.0
"""Seconds of worker time a drawing may take before its worker counts as stuck and the drawing goes
to a fresh one: a board takes well under a second, and many times that on a loaded machine."""
REPLAY_LIMIT = 600.0
"""The same for a whole game's replay, many boards in one job."""


class ProcessDrawer:
    """Boards drawn with ``render`` in a pool of worker processes (``table.core.workers``; by default
    one per core this process may run on), so that no drawing waits for ever: a worker stopped,
    dead or stuck past ``DRAW_LIMIT`` is replaced and its drawing made by the next.

    ``warm`` starts every worker and has each draw throwaway boards of every game (``warm_up``) in
    the background, a step at a time and only while nothing else is drawn: a board asked for
    meanwhile waits for one step at most. ``warm_reports`` holds what each worker reported when its
    warm-up ended."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        check_every: float = CHECK_EVERY,
    ) -> None:
        self.pool = WorkerPool(
            workers or default_workers(),
            name="drawing",
            preload=fork_server_modules(),
            clock=clock,
            check_every=check_every,
        )

    @property
    def workers(self) -> int:
        return self.pool.size

    @property
    def warm_reports(self) -> list[WarmReport]:
        return self.pool.warm_reports

    @property
    def replaced(self) -> int:
        return self.pool.replaced

    @property
    def calls(self) -> int:
        return self.pool.calls

    @property
    def superseded(self) -> int:
        return self.pool.superseded

    async def draw(
        self,
        kind: str,
        view: dict[str, object],
        *,
        names: dict[str, str],
        locale: str,
        outdated: Outdated | None = None,
    ) -> bytes:
        """Draw in the next free worker, oldest request first. Latest wins: when its turn comes and
        ``outdated()`` says a newer version of the same board is waiting, the worker goes to the
        next request and this one raises ``Superseded`` (a burst of moves in one channel is drawn
        newest only, and the workers' time goes to boards someone will see)."""
        limit = REPLAY_LIMIT if kind == "replay" else DRAW_LIMIT
        image = await self.pool.run(draw_now, kind, view, dict(names), locale, limit=limit, outdated=outdated)
        return bytes(image)

    def idle(self) -> bool:
        return self.pool.idle()

    async def pids(self) -> list[int]:
        """The workers' process ids, starting them first."""
        return await self.pool.pids()

    def warm(
        self, locales: Sequence[str] = ("en",), function: Callable[..., Iterator[str]] | None = None
    ) -> None:
        """Start every worker now and warm each in turn (``function``, default ``warm_up``, given
        ``locales``), in the background: this returns at once."""
        self.pool.warm(function or warm_up, tuple(locales))

    async def until_warm(self) -> list[WarmReport]:
        """Wait until every worker has reported the end of its warm-up (tests, benches)."""
        return await self.pool.until_warm()

    def close(self, *, at_once: bool = False) -> None:
        """End the workers: each once its drawing is done, or ``at_once`` (a stop of the bot, whose
        drawings nobody waits for any more)."""
        self.pool.close(at_once=at_once)


def default_workers() -> int:
    """Drawing workers when nothing says how many: one per core this process may run on (a
    container limited to some cores gets that many), at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def workers_from_env(env: Mapping[str, str] | None = None) -> int | None:
    """``DRAW_WORKERS`` (or its older name ``RENDER_WORKERS``): how many drawing workers to run;
    None (the default, ``default_workers``) when unset, empty or not a positive number."""
    env = os.environ if env is None else env
    for name in ("DRAW_WORKERS", "RENDER_WORKERS"):
        text = (env.get(name) or "").strip()
        if text:
            if text.isdigit() and int(text) > 0:
                return int(text)
            log.warning("%s=%r is not a number of workers: the default is used", name, text)
            return None
    return None


_shared: ProcessDrawer | None = None


def shared_drawer() -> ProcessDrawer:
    """The process-wide pool (created on first use, closed at exit), of ``DRAW_WORKERS`` workers."""
    global _shared
    if _shared is None:
        _shared = ProcessDrawer(workers_from_env())
        atexit.register(_shared.close)
    return _shared
