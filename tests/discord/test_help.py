"""``/game help`` on the fake Discord lists exactly the commands the bot synced, in the reader's language.

The tree compared with is the one the bot sent to the fake Discord at start-up (``tree.sync()``), so a
command added to a cog and left out of the help, or a help line for a command the bot does not have,
fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.discord.support import fake_discord, open_room
from tests.help_lines import help_entries, mentioned, tree_entries

MESSAGE_LIMIT = 2000


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_game_help_lists_every_synced_command_and_nothing_else(tmp_path: Path, locale: str) -> None:
    lang = locale[:2]
    async with fake_discord(tmp_path) as bot:
        await bot.start()
        room = open_room(bot, ("Server", "en-US"), "games", ("reader", locale))
        (reader,) = room.users.values()
        result = await room.fake.slash(reader, room.chan, "game help")
        synced = room.fake.commands
    assert synced, "the bot synced its commands"
    assert result.messages and all(m.ephemeral for m in result.messages), "the help is for the reader alone"
    assert all(len(m.content) <= MESSAGE_LIMIT for m in result.messages)
    text = "\n".join(m.content for m in result.messages)
    expected = tree_entries(synced, lang)
    assert help_entries(text, lang) == expected
    assert mentioned(text) <= {path[0] for path in expected}, "a command the bot does not have"
    if lang == "fr":
        assert text.startswith("Comment jouer") and "/partie revoir :" in text
    else:
        assert "/game replay:" in text and "/settings [language]" in text
