"""The console's ``help`` and ``/game help`` list what the console accepts: the bot's slash commands
(as ``bot.py`` registers them) and the console's own, a line each, in the console's language."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import i18n
from console import parse
from console.app import Console
from table.play.commands import Commands
from tests.discord.support import stand_in_commands
from tests.help_lines import Entries, help_entries, mentioned, registered_payloads, tree_entries

CONSOLE_OWN = {
    "en": {
        ("press",): ("<button>",),
        ("clock",): (),
        ("clock", "advance"): ("<by>",),
        ("clock", "set"): ("<at>",),
        ("league",): (),
    },
    "fr": {
        ("appuyer",): ("<bouton>",),
        ("horloge",): (),
        ("horloge", "avancer"): ("<de>",),
        ("horloge", "régler"): ("<à>",),
        ("ligue",): (),
    },
}
"""The console's own commands: a button pressed by name, time moved by hand, and ``/league`` alone (a
group of subcommands, which Discord cannot run by itself: there it is ``/league status``)."""


@pytest.fixture
async def commands(tmp_path: Path) -> AsyncIterator[Commands]:
    async with stand_in_commands(tmp_path / "console.sqlite3") as cmds:
        yield cmds


async def run(commands: Commands, tmp_path: Path, line: str, locale: str) -> str:
    out = io.StringIO()
    assert await Console(commands, out, tmp_path / "out", locale).run_line(line)
    return out.getvalue()


def console_expected(registered: Entries, lang: str) -> Entries:
    """The registered commands, each with the options a terminal can give (no attached file), plus the
    console's own; ``/play`` without an action lists the legal moves, so its action may be left out."""
    expected = {**registered, **CONSOLE_OWN[lang]}
    play = ("play",) if lang == "en" else ("jouer",)
    expected[play] = tuple(f"[{o[1:-1]}]" for o in expected[play])
    return expected


@pytest.mark.parametrize(("locale", "asked"), [("en", "help"), ("fr", "aide"), ("en", "bob: /game help")])
async def test_the_help_lists_the_registered_commands_and_the_consoles_own(
    commands: Commands, tmp_path: Path, locale: str, asked: str
) -> None:
    registered = tree_entries(await registered_payloads(tmp_path), locale, files=False)
    text = await run(commands, tmp_path, asked, locale)
    listed = help_entries(text, locale)
    assert listed == console_expected(registered, locale)
    listing = text.replace(i18n.t("console.help", locale), "")  # the syntax notes name "/command"
    assert mentioned(listing) <= {path[0] for path in listed}
    accepted = {parse.parse_line(f"bob: /{' '.join(path)}" + " x" * ("<" in "".join(o)), locale).path
                for path, o in listed.items()}  # fmt: skip
    read = set(parse.commands())
    assert accepted == read, "every command listed is one the console reads, and the other way"


async def test_the_french_game_help_speaks_french(commands: Commands, tmp_path: Path) -> None:
    text = await run(commands, tmp_path, "bob: /partie aide", "fr")
    assert text.startswith("[privé, pour bob]\nComment jouer :")
    assert "/horloge avancer <de> : Avancer l'horloge" in text and "fichier_carte" not in text
    assert "/game" not in text and "/play" not in text
