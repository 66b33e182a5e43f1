"""``/game rules`` typed in the console: topics by option, French names, and each page's pointer to
the next one typed back as it is shown."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from console.app import Console
from table.play.commands import Commands
from tests.discord.support import stand_in_commands


@pytest.fixture
async def commands(tmp_path: Path) -> AsyncIterator[Commands]:
    async with stand_in_commands(tmp_path / "console.sqlite3") as cmds:
        yield cmds


async def run(commands: Commands, tmp_path: Path, line: str, locale: str = "en") -> str:
    out = io.StringIO()
    assert await Console(commands, out, tmp_path / "out", locale).run_line(line)
    return out.getvalue()


async def test_a_topic_by_its_option(commands: Commands, tmp_path: Path) -> None:
    shown = await run(commands, tmp_path, "alice: /game rules game:warchest topic:archer")
    assert shown.startswith("[private to alice]\n**War Chest · Archer** (unit)\n4 coins: 2 start in the bag")
    shown = await run(
        commands, tmp_path, "alice: /partie règles jeu:Champ d'honneur sujet:cavalerie légère", "fr"
    )
    assert shown.startswith("[privé, pour alice]\n**Champ d'honneur · Cavalerie légère** (unité)\n")
    shown = await run(commands, tmp_path, "alice: /game rules batailles", "fr")
    assert "**Batailles · Présentation** (page 1/7)" in shown
    shown = await run(commands, tmp_path, "alice: /game rules game:warchest topic:cav")
    assert shown.endswith(
        "“cav” fits several topics of War Chest: Cavalry or Light Cavalry. Type more of the name.\n"
    )


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("game", ["warchest", "batailles", "cryhavoc"])
async def test_each_pages_pointer_opens_the_next_page(
    commands: Commands, tmp_path: Path, locale: str, game: str
) -> None:
    command = "/partie règles" if locale == "fr" else "/game rules"
    shown = await run(commands, tmp_path, f"alice: {command} {game}", locale)
    for number in range(2, 8):
        pointer = shown.strip().splitlines()[-1]
        typed = pointer[pointer.index("/") :]
        shown = await run(commands, tmp_path, f"alice: {typed}", locale)
        assert f"(page {number}/7)" in shown.splitlines()[1], (typed, shown)
    last = shown.strip().splitlines()[-1]
    assert "topic:" not in last and "sujet:" not in last, "the last page points nowhere"
