"""The command tree as Discord receives it: within Discord's limits, in English and French.

The payloads are produced exactly as ``tree.sync()`` produces them, through the
bot's catalog translator, so the French localisations are checked too.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from discord import Locale, app_commands

import i18n
from cogs.translator import label, translate
from table.play.command_tree import DISCORD, commands_for, help_line
from tests.fakediscord.limits import check_commands
from tests.help_lines import help_entries, registered_payloads, tree_entries

NAME = re.compile(r"^[-_'\w]{1,32}$")


@pytest.fixture
async def payloads(tmp_path: Path) -> list[dict[str, Any]]:
    return await registered_payloads(tmp_path)


def _walk(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The payload and every nested option, depth first."""
    found = [payload]
    for option in payload.get("options", []):
        found += _walk(option)
    return found


async def test_every_command_passes_discords_limits(payloads: list[dict[str, Any]]) -> None:
    assert check_commands(payloads) == []


async def test_the_expected_commands_are_there(payloads: list[dict[str, Any]]) -> None:
    by_name = {p["name"]: p for p in payloads}
    assert set(by_name) == {
        "game",
        "play",
        "hand",
        "games",
        "leaderboard",
        "history",
        "stats",
        "notify",
        "away",
        "settings",
        "league",
    }
    subcommands = {o["name"] for o in by_name["game"]["options"]}
    assert subcommands == {
        "new", "join", "leave", "start", "status", "board", "log", "resign", "abort", "draw", "rules", "help",
        "kick", "end", "unrate", "undo", "replay", "addbot", "removebot", "why", "hint",
    }  # fmt: skip
    assert int(by_name["settings"]["default_member_permissions"]) == 1 << 5, "Manage Server only"
    assert by_name["games"]["contexts"] == [0] and by_name["settings"]["contexts"] == [0], "servers only"
    assert by_name["away"]["contexts"] == [0], "time off is in a server"
    zone = next(o for o in by_name["notify"]["options"] if o["name"] == "timezone")
    assert zone["autocomplete"] is True and zone["required"] is False
    new = next(o for o in by_name["game"]["options"] if o["name"] == "new")
    game_option = next(o for o in new["options"] if o["name"] == "game")
    assert {c["value"] for c in game_option["choices"]} >= {"warchest"}
    bots = next(o for o in new["options"] if o["name"] == "bots")
    assert (bots["min_value"], bots["max_value"]) == (0, 7)
    level = next(o for o in new["options"] if o["name"] == "level")
    assert [c["value"] for c in level["choices"]] == ["easy", "normal", "hard"]
    action = by_name["play"]["options"][0]
    assert action["name"] == "action" and action["autocomplete"] is True and action["required"] is True


async def test_everything_has_a_french_localisation_that_discord_accepts(
    payloads: list[dict[str, Any]],
) -> None:
    seen = 0
    for command in payloads:
        for item in _walk(command):
            name_fr = item["name_localizations"]["fr"]
            assert NAME.match(name_fr) and name_fr == name_fr.lower(), name_fr
            assert 1 <= len(item["description_localizations"]["fr"]) <= 100
            assert set(item["name_localizations"]) == {"fr"}
            for choice in item.get("choices", []):
                assert 1 <= len(choice["name_localizations"]["fr"]) <= 100
            seen += 1
    assert seen > 20
    by_name = {p["name"]: p for p in payloads}
    assert by_name["game"]["name_localizations"]["fr"] == "partie"
    assert by_name["play"]["name_localizations"]["fr"] == "jouer"


def test_translator_answers_french_only() -> None:
    string = label("cmd.game.new.name")
    assert string.message == "new"
    assert translate(string, Locale.french) == "nouvelle"
    assert translate(string, Locale.american_english) is None
    assert translate(string, Locale.german) is None
    assert translate(app_commands.locale_str("no key here"), Locale.french) is None


def test_every_command_catalog_key_is_a_valid_french_name() -> None:
    for key, text in i18n.catalog("fr").items():
        if key.startswith("cmd.") and key.endswith(".name"):
            assert NAME.match(text) and text == text.lower(), f"{key}: {text!r}"


@pytest.mark.parametrize("lang", i18n.LOCALES)
async def test_the_tree_is_the_one_the_table_layer_describes(
    payloads: list[dict[str, Any]], lang: str
) -> None:
    """``table.play.command_tree`` (which the help, the console and the README's check read) describes
    exactly the registered commands, their options in order and which of them are required."""
    lines = [help_line(c, DISCORD, lang) for c in commands_for(DISCORD)]
    assert help_entries("\n".join(lines), lang) == tree_entries(payloads, lang)
