"""``table.play.command_tree``: the help it writes, paged within a message's limit without losing a line."""

from __future__ import annotations

import pytest

import i18n
from launch import DISCORD_LIMITS
from table.play.command_tree import CONSOLE, DISCORD, commands_for, help_pages, help_sections

GAMES = ["War Chest", "Batailles", "Cry Havoc"]


@pytest.mark.parametrize("front", [DISCORD, CONSOLE])
@pytest.mark.parametrize("lang", i18n.LOCALES)
@pytest.mark.parametrize("limit", [DISCORD_LIMITS.text, 700, 300])
def test_pages_keep_every_line_within_the_limit(front: str, lang: str, limit: int) -> None:
    whole = help_pages(front, lang, GAMES, limit=100_000)
    assert len(whole) == 1
    pages = help_pages(front, lang, GAMES, limit=limit)
    assert all(len(page) <= limit for page in pages)
    lines = [line for page in pages for line in page.splitlines() if line]
    assert lines == [line for line in whole[0].splitlines() if line], "every line, in order, once"
    commands = [line for line in lines if line.startswith("/")]
    assert len(commands) == len(commands_for(front))


@pytest.mark.parametrize("lang", i18n.LOCALES)
def test_a_section_starts_a_page_when_it_does_not_fit_the_previous_one(lang: str) -> None:
    longest = max(len(section) for section in help_sections(DISCORD, lang))
    pages = help_pages(DISCORD, lang, GAMES, limit=longest)
    assert len(pages) >= 3
    for page in pages[1:]:
        assert page.startswith("**") or page.startswith(i18n.t("help.games", lang, games=GAMES)), page[:80]


def test_the_console_lists_its_own_commands_and_discord_does_not() -> None:
    console = help_pages(CONSOLE, "en", GAMES, DISCORD_LIMITS.text)
    discord = help_pages(DISCORD, "en", GAMES, DISCORD_LIMITS.text)
    assert "/clock advance <by>: " in "".join(console) and "/press <button>: " in "".join(console)
    assert "/clock" not in "".join(discord) and "/press" not in "".join(discord)
    assert "[map_file]" in "".join(discord) and "map_file" not in "".join(console)
    assert "/play <action>: " in "".join(discord) and "/play [action]: " in "".join(console)
