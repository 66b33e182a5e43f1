"""``/play`` in the console when a player has more legal moves than a list holds: the groups with their
counts, each group's moves when its words are typed, the moves left out said; a move begun answered with
its moves alone."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from console.app import Console
from tests.discord.support import stand_in_commands


@pytest.fixture
async def console(tmp_path: Path) -> AsyncIterator[tuple[Console, io.StringIO]]:
    async with stand_in_commands(tmp_path / "console.sqlite3") as commands:
        out = io.StringIO()
        yield Console(commands, out, tmp_path / "out"), out


async def said(console: Console, out: io.StringIO, line: str) -> str:
    out.truncate(0)
    out.seek(0)
    assert await console.run_line(line)
    await console.table.announcer.drain()
    return out.getvalue()


async def test_a_deployment_s_moves_are_grouped_and_each_group_lists_its_own(
    console: tuple[Console, io.StringIO],
) -> None:
    con, out = console
    for line in ("alice: /game new game:batailles", "bob: /game join", "alice: /game start"):
        await said(con, out, line)
    listed = await said(con, out, "alice: /play")
    assert listed.startswith("[private to alice]\nYour legal moves:\n640 moves, grouped by first words")
    rows = re.findall(r"^  (.+?)  —  (.+)$", listed, flags=re.MULTILINE)
    assert [r for r, _ in rows] == [
        f"deploy {troop} …"
        for troop in ("inf1", "inf2", "inf3", "arch1", "art1", "art2", "cav1", "cav2", "gen", "supply")
    ]
    assert all(label.endswith("(64 moves)") for _, label in rows)
    zones = await said(con, out, "alice: /play action:deploy cav2 …")
    assert "  deploy cav2 h2 …  —  Deploy cav2 in h2, facing … (4 moves)" in zones
    assert zones.count(" …  —  ") == 16 and "not legal" not in zones
    facings = await said(con, out, "alice: /play action:deploy cav2 h2")
    assert re.findall(r"^  (deploy cav2 h2 [nesw])  —", facings, flags=re.MULTILINE) == [
        "deploy cav2 h2 n",
        "deploy cav2 h2 e",
        "deploy cav2 h2 s",
        "deploy cav2 h2 w",
    ]
    played = await said(con, out, "alice: /play action:deploy cav2 h2 e")
    assert played.startswith("[private to alice]\nDone. alice deploys cav2: its place stays hidden")


async def test_a_move_begun_is_answered_with_its_moves_only(console: tuple[Console, io.StringIO]) -> None:
    con, out = console
    lines = ("alice: /game new game:warchest options:seed=5", "bob: /game join", "alice: /game start")
    for line in lines:
        await said(con, out, line)
    table = await con.table.tables.latest("console")
    assert table is not None
    user = table.to_act()[0]
    answer = await said(con, out, f"{user}: /play action:pass")
    assert answer.startswith(f"[private to {user}]\nLegal moves matching “pass”:\n  pass ")
    assert answer.count("[private to") == 1 and "not legal" not in answer
