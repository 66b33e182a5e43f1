"""The drawing workers warm up at start-up in the background: nothing waits for them, and they say
when they are done.

A cold worker's first board of a game builds that game's static layers, loads fonts and fills its
caches; the warm-up does it ahead of the first move. These tests hold the warm-up at a gate
(``tests.table.gates``) to show by the order of events, not by timing, that a board asked for
meanwhile and the console's answers do not wait for it.
"""

from __future__ import annotations

import asyncio
import io
import types
from pathlib import Path

import pytest

import db
import engine
from console import run_console
from launch import DISCORD_LIMITS, Settings
from table import Commands, Tables
from table.core import drawing, workers
from table.core.drawing import ProcessDrawer
from table.posting.announce import Announcer, RecordingOutlet
from tests.fakediscord.world import HANG_LIMIT
from tests.table.conftest import CtxFactory, png_size
from tests.table.gates import Gate


def every_step(locale: str) -> list[str]:
    """The warm-up's steps: each game at each table size."""
    return [f"{name} {n} {locale}" for name in engine.GAMES for n in engine.get_game(name).player_counts]


async def test_each_worker_warms_up_every_game_and_says_so() -> None:
    drawer = ProcessDrawer(workers=1)
    try:
        drawer.warm(["fr"])
        reports = await asyncio.wait_for(drawer.until_warm(), HANG_LIMIT * 2)
        assert [r["pid"] for r in reports] == await drawer.pids()
        (report,) = reports
        assert "error" not in report and report["steps"] == every_step("fr")
        assert report["seconds"] > 0
    finally:
        drawer.close()


async def test_a_board_asked_for_during_the_warm_up_is_drawn_by_a_worker_not_warming(
    tmp_path: Path, ctx: CtxFactory, gate: Gate
) -> None:
    """One worker is held warming at the gate: a board asked for as the workers start, and a game's
    first board, come from the other, before any warm-up ends; once let go, both workers warm up,
    one after the other."""
    store = await db.open_store(tmp_path / "warm.sqlite3")
    drawer = ProcessDrawer(workers=2)
    try:
        drawer.warm(["en"], gate.warm_up())
        game = engine.get_game("cryhavoc")
        view = game.view(game.new_game(["a", "b"], 1, {}), None)
        # asked before either worker has started: the one that starts warming is left to it
        board = await asyncio.wait_for(drawer.draw("board", view, names={}, locale="en"), HANG_LIMIT)
        assert png_size(board)[0] > 300
        outlet = RecordingOutlet()
        tables = Tables(store, limits=DISCORD_LIMITS, drawer=drawer, seed_source=lambda: 4)
        commands = Commands(tables, Announcer(tables, outlet, coalesce=0))
        await commands.new(ctx("alice"), "batailles")
        await commands.join(ctx("bob"))
        await commands.start(ctx("alice"))
        await asyncio.wait_for(commands.announcer.drain(), HANG_LIMIT)
        assert outlet.sent and outlet.sent[-1][1].image is not None
        assert png_size(outlet.sent[-1][1].image)[0] > 300, "the real board, drawn meanwhile"
        await asyncio.wait_for(gate.arrived.wait(), HANG_LIMIT)
        assert gate.waiting == 1, "one worker warms at a time"
        assert drawer.warm_reports == [], "no warm-up could end: the board did not wait for one"
        gate.opened.set()
        reports = await asyncio.wait_for(drawer.until_warm(), HANG_LIMIT * 2)
        assert sorted(r["pid"] for r in reports) == sorted(await drawer.pids())
        assert all(r["steps"] == ["gate", *every_step("en")] for r in reports)
    finally:
        drawer.close()
        await store.close()


async def test_the_console_answers_while_its_workers_warm_up(
    tmp_path: Path, gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The console starts its drawing workers' warm-up and, without waiting for it, plays a whole
    opening: the table, the seats, the start and its board are all printed before any warm-up can
    end. The warm-up then ends in each worker."""
    drawer = ProcessDrawer(workers=2)
    monkeypatch.setattr(drawing, "_shared", drawer)
    monkeypatch.setattr(drawing, "warm_up", gate.warm_up())
    settings = Settings.from_env(
        {"DATABASE_PATH": str(tmp_path / "bot.sqlite3"), "CONSOLE_OUT": str(tmp_path / "out")}
    )
    assert settings.warm_up, "the warm-up is on unless RENDER_WARMUP=0"
    script = "alice: /game new game:warchest\nbob: /game join\nalice: /game start\n"
    out = io.StringIO()
    try:
        code = await asyncio.wait_for(run_console(settings, io.StringIO(script), out), HANG_LIMIT)
        assert code == 0
        printed = out.getvalue()
        assert "bob joined" in printed and "image: " in printed, printed
        assert drawer.warm_reports == [], "every answer came before a warm-up could end"
        gate.opened.set()
        reports = await asyncio.wait_for(drawer.until_warm(), HANG_LIMIT * 2)
        assert len(reports) == 2 and all(r["steps"][1:] == every_step("en") for r in reports)
    finally:
        drawer.close()


def test_render_warmup_0_turns_the_warm_up_off() -> None:
    assert Settings.from_env({}).warm_up
    assert not Settings.from_env({"RENDER_WARMUP": "0"}).warm_up


def test_the_fork_server_imports_the_bots_script_when_it_can(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every new worker runs the main script again: imported once in the fork server, its imports
    (discord.py, the table layer) are already there for each worker."""
    script = types.ModuleType("__main__")
    script.__file__ = str(Path.cwd() / "bot.py")
    script.__spec__ = None
    monkeypatch.setitem(__import__("sys").modules, "__main__", script)
    assert workers.fork_server_modules() == ["render", "ai", "bot"]
    script.__file__ = "/elsewhere/bot.py"  # not importable by name from the current folder
    assert workers.fork_server_modules() == ["render", "ai"]
