"""The table layer writes no front end's markup: players, channels and moments are marks
(``table.core.marks``) that each front end renders, Discord's markup in ``cogs/markup.py``, plain names
and UTC dates in the console. Nor does it hold a front end's limits: each front end hands its own to
``Tables`` (``launch.DISCORD_LIMITS`` for the bot and the console), and the table reads what it was
handed."""

from __future__ import annotations

import ast
import io
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import launch
from bot import build_bot
from cogs.markup import discord_text
from console.app import plain_text
from table.core.marks import ChannelLink, Mention, Moment, channel_link, mention, moment, parts
from table.core.text import clip, split

ROOT = Path(__file__).resolve().parents[2]
DISCORD_MARKUP = ("<@", "<#", "<t:")


def test_no_discord_markup_is_written_in_the_table_layer() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "table").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if any(markup in line for markup in DISCORD_MARKUP)
    ]
    assert found == [], "\n".join(found)


LIMIT_NUMBERS = re.compile(r"(?<![\w.])(?:1900|2000|1024)(?![\w.])|\[:\s*(?:25|80|100)\]|=\s*25\b")
"""A message's length, an alt text's, a list's 25 entries, a label's 80 or 100 characters: written as
numbers, Discord's limits would again be copied about (``launch.DISCORD_LIMITS`` holds them)."""


def test_discords_limits_are_one_value_that_the_table_layer_and_the_cogs_read() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for package in ("table", "cogs")
        for path in sorted((ROOT / package).rglob("*.py"))
        if path != ROOT / "table" / "core" / "limits.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if LIMIT_NUMBERS.search(line.split("#")[0]) and not line.strip().startswith(('"', "``"))
    ]
    assert found == [], "\n".join(found)


def _limits_values(path: Path) -> list[str]:
    """Where ``path`` names a module-level limits value rather than the one its caller handed it: an
    import of ``launch`` or ``cogs`` (where Discord's value is), a name ending in ``LIMITS``, or a
    ``Limits(...)`` made at the top of a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.split(".")[0] in ("launch", "cogs")
        ):
            found.append(f"{node.lineno}: imports from {node.module}")
        elif isinstance(node, ast.Import) and any(
            a.name.split(".")[0] in ("launch", "cogs") for a in node.names
        ):
            found.append(f"{node.lineno}: imports {', '.join(a.name for a in node.names)}")
        elif isinstance(node, ast.alias) and node.name.endswith("LIMITS"):
            found.append(f"imports {node.name}")
        elif isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name.endswith("LIMITS"):
                found.append(f"{node.lineno}: reads {name}")
    for statement in tree.body:
        if isinstance(statement, ast.Assign | ast.AnnAssign) and isinstance(statement.value, ast.Call):
            called = statement.value.func
            if isinstance(called, ast.Name) and called.id == "Limits":
                found.append(f"{statement.lineno}: makes a Limits value")
    return found


def test_the_table_layer_reads_the_limits_its_front_end_hands_it() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{where}"
        for path in sorted((ROOT / "table").rglob("*.py"))
        if path != ROOT / "table" / "core" / "limits.py"
        for where in _limits_values(path)
    ]
    assert found == [], "\n".join(found)


def test_the_scan_finds_a_module_level_limits_value(tmp_path: Path) -> None:
    reader = tmp_path / "reader.py"
    reader.write_text("from table.core.limits import LIMITS\n\ncut = LIMITS.text\n", encoding="utf-8")
    maker = tmp_path / "maker.py"
    maker.write_text(
        "SIZES = Limits(message=1, text=1, choices=1, choice=1, button=1, alt=1, nonce=1, event=1)\n"
    )
    assert len(_limits_values(reader)) == 2
    assert _limits_values(maker) == ["1: makes a Limits value"]


async def test_the_bot_and_the_console_hand_their_tables_discords_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = build_bot(
        launch.Settings(database_path=tmp_path / "bot.sqlite3", sync_commands=False, warm_up=False)
    )
    await bot.prepare()  # type: ignore[attr-defined]
    try:
        assert bot.table.tables.limits is launch.DISCORD_LIMITS  # type: ignore[attr-defined]
    finally:
        await bot.close()

    handed: list[Any] = []
    opened = launch.open_table

    async def spy(*args: Any, **kwargs: Any) -> Any:
        commands, store = await opened(*args, **kwargs)
        handed.append(commands.tables.limits)
        return commands, store

    monkeypatch.setattr(launch, "open_table", spy)
    from console import run_console

    settings = launch.Settings(database_path=tmp_path / "console.sqlite3", warm_up=False)
    assert await run_console(settings, io.StringIO(""), io.StringIO()) == 0
    assert handed == [launch.DISCORD_LIMITS]


AT = datetime(2026, 3, 28, 21, 0, 30, tzinfo=UTC)


def test_marks_read_back_as_values_and_each_front_end_writes_them_its_way() -> None:
    text = f"{mention('123')} plays in {channel_link('456')}, {moment(AT, 'f')}."
    assert list(parts(text)) == [
        Mention("123"),
        " plays in ",
        ChannelLink("456"),
        ", ",
        Moment(datetime(2026, 3, 28, 21, 0, 30, tzinfo=UTC), "f"),
        ".",
    ]
    assert discord_text(text) == f"<@123> plays in <#456>, <t:{int(AT.timestamp())}:f>."
    assert plain_text(text) == "@123 plays in #456, 2026-03-28 21:00 UTC."
    assert len(discord_text(text)) == len(text), "a mark is as long as Discord's markup for it"


def test_a_mark_is_never_cut() -> None:
    who = mention("502123456789012345")
    assert clip(f"Turn: {who}", 12) == "Turn: …"
    pieces = split("x" * 10 + who, 25)
    assert pieces == ["x" * 10, who]
