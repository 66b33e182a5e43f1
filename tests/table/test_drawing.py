"""Drawing off the interpreter: worker processes that can die, and only the newest board drawn."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import threading
from pathlib import Path
from typing import Any

import pytest

import db
from launch import DISCORD_LIMITS
from table import Commands, Tables
from table.core.drawing import ProcessDrawer, ThreadDrawer, default_workers, workers_from_env
from table.posting.announce import Announcer, RecordingOutlet
from tests.fakediscord.world import HANG_LIMIT
from tests.table.conftest import CtxFactory, current, png_size, start_nim
from tests.table.nim import lookup


async def test_a_dead_drawing_worker_is_replaced_and_the_move_still_announced(
    tmp_path: Path, ctx: CtxFactory
) -> None:
    store = await db.open_store(tmp_path / "pool.sqlite3")
    drawer = ProcessDrawer(workers=1)
    try:
        outlet = RecordingOutlet()
        tables = Tables(store, limits=DISCORD_LIMITS, drawer=drawer, seed_source=lambda: 5)
        commands = Commands(tables, Announcer(tables, outlet, coalesce=0))
        await commands.new(ctx("alice"), "warchest")
        await commands.join(ctx("bob"))
        await commands.start(ctx("alice"))
        await commands.announcer.drain()
        assert outlet.sent and outlet.sent[-1][1].image is not None
        workers = await drawer.pids()  # the pool's worker processes
        assert workers and all(pid != os.getpid() for pid in workers), "drawn in another process"
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        table = await current(commands)
        player = table.to_act()[0]
        await commands.play(ctx(player), str(table.game.legal_actions(table.state, player)[0]))
        await commands.announcer.drain()
        post = outlet.sent[-1][1] if len(outlet.sent) > 1 else outlet.edits[-1][2]  # type: ignore[index]
        assert post.image is not None and png_size(post.image)[0] > 300
        assert drawer.replaced >= 1
    finally:
        drawer.close()
        await store.close()


async def seated_nim(store: db.Store, drawer: Any, ctx: CtxFactory) -> tuple[Commands, RecordingOutlet]:
    """A Nim table of 40 drawn by ``drawer``, Alice and Bob seated, not yet started."""
    outlet = RecordingOutlet()
    tables = Tables(
        store, limits=DISCORD_LIMITS, drawer=drawer, games=lookup, known_games=("nim",), seed_source=lambda: 1
    )
    commands = Commands(tables, Announcer(tables, outlet, coalesce=0))
    await commands.new(ctx("alice"), "nim", options="heap=40 max=3")
    await commands.join(ctx("bob"))
    return commands, outlet


class GatedDrawer:
    """Draws a tiny PNG, the first time only once the test lets it: moves queue up meanwhile."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.held = asyncio.Event()
        self.drawn: list[int] = []

    async def draw(
        self, kind: str, view: dict[str, Any], *, names: dict[str, str], locale: str, outdated: Any = None
    ) -> bytes:
        if not self.drawn:
            self.held.set()
            await self.release.wait()
        self.drawn.append(view["heap"])
        from tests.discord.support import tiny_png

        return tiny_png(view, names=names, locale=locale)

    def idle(self) -> bool:
        return bool(self.drawn)


async def test_only_the_newest_position_is_drawn_when_moves_queue_up(tmp_path: Path, ctx: CtxFactory) -> None:
    """While a board is being drawn, three more moves arrive: the next drawing is of the newest."""
    store = await db.open_store(tmp_path / "latest.sqlite3")
    try:
        drawer = GatedDrawer()
        commands, outlet = await seated_nim(store, drawer, ctx)
        await commands.start(ctx("alice"))
        await asyncio.wait_for(drawer.held.wait(), HANG_LIMIT)  # the start's board, held in the drawer
        for _ in range(3):
            table = await current(commands)
            await commands.play(ctx(table.to_act()[0]), "take 1")
        drawer.release.set()
        await commands.announcer.drain()
        assert drawer.drawn == [40, 37], "the start's board, then only the newest of three moves"
        assert outlet.sent is not None and "37 left" in outlet.sent[-1][1].text
    finally:
        await store.close()


class WatchedDrawer:
    """Draws a tiny PNG and notes each drawing in ``log`` as it is asked for, with its language;
    ``free`` is what it says when asked whether a drawing would start at once."""

    def __init__(self, log: list[str]) -> None:
        self.log = log
        self.free = True

    def idle(self) -> bool:
        return self.free

    async def draw(
        self, kind: str, view: dict[str, Any], *, names: dict[str, str], locale: str, outdated: Any = None
    ) -> bytes:
        self.log.append(f"draw {locale}")
        from tests.discord.support import tiny_png

        return tiny_png(view, names=names, locale=locale)


async def test_a_moves_board_is_drawn_while_its_announcement_reads_the_game(
    tmp_path: Path, ctx: CtxFactory, monkeypatch: Any
) -> None:
    """The board of a stored move starts drawing at once, not after the announcement has read the
    game back, and is drawn once. A board drawn in a language the game no longer has (the channel's
    changed with the move) is drawn again in the new one. With no worker free (a burst of moves) the
    board waits for its announcement, which draws the newest version."""
    store = await db.open_store(tmp_path / "early.sqlite3")
    try:
        log: list[str] = []
        drawer = WatchedDrawer(log)
        commands, outlet = await seated_nim(store, drawer, ctx)
        await commands.start(ctx("alice"))
        await commands.announcer.drain()
        read = store.announcing

        async def logged(game_id: int) -> db.Announcing:
            log.append("read")
            return await read(game_id)

        monkeypatch.setattr(store, "announcing", logged)

        async def move(**channel: str) -> list[str]:
            log.clear()
            table = await current(commands)
            await commands.play(ctx(table.to_act()[0], **channel), "take 1")
            await commands.announcer.drain()
            return list(log)

        assert await move() == ["draw en", "read"], "drawn once, before the game was read back"
        assert outlet.sent is not None and "39 left" in outlet.sent[-1][1].text
        assert await move(channel_locale="fr") == ["draw en", "read", "draw fr"]
        assert (await current(commands)).record.locale == "fr" and "38" in outlet.sent[-1][1].text
        drawer.free = False
        assert await move(channel_locale="fr") == ["read", "draw fr"], "drawn when announced"
        assert "37" in outlet.sent[-1][1].text
    finally:
        await store.close()


async def test_a_real_games_replay_is_drawn_in_the_worker_pool(tmp_path: Path, ctx: CtxFactory) -> None:
    """A Cry Havoc game's replay, drawn by worker processes with the real renderer: a GIF of one
    frame at the start and one per handover, each a whole board, under Discord's upload limit."""
    from PIL import Image

    from render.animation import WIDTHS

    store = await db.open_store(tmp_path / "replay.sqlite3")
    drawer = ProcessDrawer(workers=1)
    try:
        tables = Tables(store, limits=DISCORD_LIMITS, drawer=drawer, seed_source=lambda: 21)
        commands = Commands(tables, Announcer(tables, RecordingOutlet(), coalesce=0))
        await commands.new(ctx("alice"), "cryhavoc")
        await commands.join(ctx("bob"))
        await commands.start(ctx("alice"))
        handovers, waiting = 0, None
        while handovers < 5:
            table = await current(commands)
            player = table.to_act()[0]
            await commands.play(ctx(player), str(table.game.legal_actions(table.state, player)[0]))
            now = (await current(commands)).to_act()
            handovers += now != [player] and now != waiting
            waiting = now
        await commands.announcer.drain()
        calls = drawer.calls
        (post,) = await commands.replay(ctx("carol"))
        assert drawer.calls == calls + 1, "one drawing job: the whole animation"
        assert post.filename == "replay.gif" and post.image is not None and len(post.image) <= 8 << 20
        with Image.open(io.BytesIO(post.image)) as gif:
            frames = gif.n_frames
            assert gif.format == "GIF" and gif.width == WIDTHS[0] and gif.height > WIDTHS[0] // 2
        assert f"{frames} frames" in post.text and frames >= 1 + handovers
        await commands.announcer.drain()
    finally:
        drawer.close()
        await store.close()


def _views(count: int) -> list[dict[str, Any]]:
    """The public views of the first ``count`` positions of a seeded War Chest game."""
    import engine
    from engine.rng import Rng

    game = engine.get_game("warchest")
    state = game.new_game(["a", "b"], 3, {})
    chooser, views = Rng(3), []
    for _ in range(count):
        player = game.to_act(state)[0]
        legal = game.legal_actions(state, player)
        state, _events = game.apply(state, player, legal[chooser.below(len(legal))])
        views.append(game.view(state, None))
    return views


async def test_drawings_beyond_the_workers_wait_their_turn_and_a_failure_leaves_its_worker_working() -> None:
    drawer = ProcessDrawer(workers=2)
    try:
        names = {"a": "Ann", "b": "Bo"}
        views = _views(5)
        assert drawer.idle(), "no worker started yet: one would be"
        drawings = [asyncio.ensure_future(drawer.draw("board", v, names=names, locale="en")) for v in views]
        await asyncio.sleep(0)  # each asks for a worker: two draw, three wait
        assert not drawer.idle(), "a drawing asked now would wait"
        pngs = await asyncio.gather(*drawings)
        assert drawer.idle()
        assert len(set(pngs)) == 5 and all(png_size(p)[0] > 300 for p in pngs)
        assert len(await drawer.pids()) == 2
        try:
            await drawer.draw("board", {"game": "chess"}, names=names, locale="en")
        except ValueError as err:
            assert "no renderer for game 'chess'" in str(err)
        else:
            raise AssertionError("a view no renderer knows must fail the drawing")
        assert await drawer.draw("board", views[0], names=names, locale="en") == pngs[0]
        assert drawer.replaced == 0
    finally:
        drawer.close()


async def test_a_drawing_given_up_just_as_its_answer_comes_frees_its_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker's answer is in, and the drawing is given up before it could take it: the worker is
    free for the next drawing all the same."""
    drawer = ProcessDrawer(workers=1)
    try:
        view = _views(1)[0]
        drawings: list[asyncio.Future[bytes]] = []
        heard = drawer.pool._readable

        def answered_then_given_up(worker: Any) -> None:
            heard(worker)
            drawings[0].cancel()

        monkeypatch.setattr(drawer.pool, "_readable", answered_then_given_up)  # before a worker starts
        drawings.append(asyncio.ensure_future(drawer.draw("board", view, names={}, locale="en")))
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(drawings[0], HANG_LIMIT)
        image = await asyncio.wait_for(drawer.draw("board", view, names={}, locale="en"), HANG_LIMIT)
        assert png_size(image)[0] > 300 and len(await drawer.pids()) == 1
    finally:
        drawer.close()


async def test_a_stale_board_is_not_drawn_when_a_newer_version_is_queued(
    tmp_path: Path, ctx: CtxFactory
) -> None:
    """Latest wins in the drawing queue: with the one worker busy on another channel's board, a
    channel's board waits its turn; two moves are stored there meanwhile, and when the turn comes
    only the newer position is drawn and shown (its summary names both moves)."""
    store = await db.open_store(tmp_path / "stale.sqlite3")
    try:
        hold = threading.Event()
        holding = threading.Event()
        release = threading.Event()
        drawn: list[int] = []

        def board(view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
            if hold.is_set():
                hold.clear()
                holding.set()
                release.wait(HANG_LIMIT)  # the gate: the worker stays busy until the test opens it
            drawn.append(view["heap"])
            from tests.discord.support import tiny_png

            return tiny_png(view, names=names, locale=locale)

        drawer = ThreadDrawer({"board": board}, workers=1)
        outlet = RecordingOutlet()
        tables = Tables(
            store,
            limits=DISCORD_LIMITS,
            drawer=drawer,
            games=lookup,
            known_games=("nim",),
            seed_source=lambda: 1,
        )
        commands = Commands(tables, Announcer(tables, outlet, coalesce=0))
        await start_nim(commands, ctx, "heap=40 max=3", channel="a")
        await start_nim(commands, ctx, "heap=10 max=3", channel="b")
        await commands.announcer.drain()
        drawn.clear()

        async def move(channel: str) -> None:
            table = await current(commands, channel)
            await commands.play(ctx(table.to_act()[0], channel), "take 1")

        hold.set()
        await move("a")  # its board takes the only worker, and is held there
        await asyncio.wait_for(asyncio.to_thread(holding.wait), HANG_LIMIT)
        await move("b")  # its board (9 left) waits for the worker
        while drawer.waiting < 1:
            await asyncio.sleep(0.005)
        await move("b")  # 8 left: the waiting board is outdated
        release.set()
        await asyncio.wait_for(commands.announcer.drain(), HANG_LIMIT)
        assert drawn == [39, 8], "the held board, then channel b's newest only"
        assert drawer.superseded == 1
        shown = [post.text for where, post in outlet.sent or [] if where == "b"]
        shown += [post.text for where, _message, post in outlet.edits or [] if where == "b"]
        assert "9 left" in shown[-1] and "8 left" in shown[-1], "the board shown names both moves"
        assert not any("9 left" in text and "8 left" not in text for text in shown), "9 left never shown"
    finally:
        release.set()
        await store.close()


def test_draw_workers_come_from_the_environment_under_either_name() -> None:
    """``DRAW_WORKERS`` sets the pool's size, ``RENDER_WORKERS`` (its older name) when it is not set;
    anything but a positive number leaves the default, one per usable core."""
    assert workers_from_env({"DRAW_WORKERS": "3", "RENDER_WORKERS": "5"}) == 3
    assert workers_from_env({"RENDER_WORKERS": "5"}) == 5
    assert workers_from_env({"DRAW_WORKERS": "lots"}) is None
    assert workers_from_env({"DRAW_WORKERS": "0"}) is None
    assert workers_from_env({}) is None
    assert ProcessDrawer().workers == default_workers() >= 1
