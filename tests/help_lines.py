"""Reading the help as a player does, and the command tree as Discord receives it, to compare the two.

A help line reads ``/game new <game> [players] …: what it does`` (`` : `` in French): the command's
words, its options (``<required>``, ``[optional]``), then its description. ``help_entries`` reads
those lines back; ``tree_entries`` writes the same shape from the payloads ``tree.sync()`` sends,
in the names that language's Discord client shows.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot import build_bot
from cogs.translator import CatalogTranslator
from launch import Settings

Entries = dict[tuple[str, ...], tuple[str, ...]]
"""A command's words (``("partie", "nouvelle")``) -> its options as the help shows them."""

SUBCOMMAND = 1
ATTACHMENT = 11
_SEPARATORS = {"en": ": ", "fr": " : "}
_SLASH = re.compile(r"(?<![\w/<])/(\w+)")


def help_entries(text: str, lang: str) -> Entries:
    """The commands a help text lists, one line each (a command listed twice fails)."""
    found: Entries = {}
    for line in text.splitlines():
        if not line.startswith("/"):
            continue
        shown, sep, what = line.partition(_SEPARATORS[lang])
        assert sep and what.strip(), f"a help line without a description: {line!r}"
        words = shown[1:].split()
        path = tuple(w for w in words if w[0] not in "<[")
        options = tuple(w for w in words if w[0] in "<[")
        assert words[: len(path)] == list(path), f"options before the command's words: {line!r}"
        assert path not in found, f"{shown} is listed twice"
        found[path] = options
    return found


def mentioned(text: str) -> set[str]:
    """Every top-level command a text names (``/partie``, ``/jouer``), in descriptions too."""
    return set(_SLASH.findall(text))


def _name(item: dict[str, Any], lang: str) -> str:
    return str(item["name"] if lang == "en" else item["name_localizations"][lang])


def _options(command: dict[str, Any], lang: str, *, files: bool) -> tuple[str, ...]:
    shown = []
    for option in command.get("options", []):
        if option["type"] == ATTACHMENT and not files:
            continue
        name = _name(option, lang)
        shown.append(f"<{name}>" if option.get("required") else f"[{name}]")
    return tuple(shown)


def tree_entries(payloads: list[dict[str, Any]], lang: str, *, files: bool = True) -> Entries:
    """Every command and subcommand of the synced payloads with its options; ``files=False`` leaves out
    the options that take an attached file (which a terminal cannot send)."""
    found: Entries = {}
    for command in payloads:
        name = _name(command, lang)
        subcommands = [o for o in command.get("options", []) if o["type"] == SUBCOMMAND]
        if not subcommands:
            found[(name,)] = _options(command, lang, files=files)
        for sub in subcommands:
            found[(name, _name(sub, lang))] = _options(sub, lang, files=files)
    return found


async def registered_payloads(tmp_path: Path) -> list[dict[str, Any]]:
    """The command tree exactly as ``tree.sync()`` would send it, from the bot ``bot.py`` builds."""
    bot = build_bot(Settings(database_path=tmp_path / "tree.sqlite3", sync_commands=False))
    await bot.prepare()  # type: ignore[attr-defined]
    try:
        translator = bot.tree.translator
        assert isinstance(translator, CatalogTranslator)
        return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]
    finally:
        await bot.close()
