"""The table layer writes no front end's markup: players, channels and moments are marks
(``table.core.marks``) that each front end renders, Discord's markup in ``cogs/markup.py``, plain names
and UTC dates in the console."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

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
numbers, Discord's limits would again be copied about (``table.core.limits`` holds them)."""


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
