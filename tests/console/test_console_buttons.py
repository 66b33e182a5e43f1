"""Buttons in the console: pressed by the label printed under a post, in the console's language, or by
the action it carries; a name that presses nothing lists the buttons there; a menu prints its choices,
each chosen by number or label."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import db
from console.app import Console
from launch import DISCORD_LIMITS
from table.core.tables import Tables
from table.play.commands import Commands
from table.posting.announce import Announcer
from tests.discord.support import tiny_png


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[db.Store]:
    opened = await db.open_store(tmp_path / "console.sqlite3")
    yield opened
    await opened.close()


def console_on(store: db.Store, out: io.StringIO, folder: Path, locale: str = "en") -> Console:
    """A console that is also its table's outlet, as ``python bot.py`` makes it: the channel's posts
    and their buttons are printed."""
    console = Console(None, out, folder, locale)
    tables = Tables(store, limits=DISCORD_LIMITS, render=tiny_png, render_private=tiny_png)
    console.table = Commands(tables, Announcer(tables, console, coalesce=0))
    return console


async def run(console: Console, out: io.StringIO, *lines: str) -> str:
    """What the console prints for ``lines``."""
    out.truncate(0)
    out.seek(0)
    for line in lines:
        assert await console.run_line(line)
        await console.table.announcer.drain()
    return out.getvalue()


async def test_buttons_are_pressed_by_their_labels(store: db.Store, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_on(store, out, tmp_path / "out")
    start = ("alice: /game new game:warchest options:seed=5", "bob: /game join", "alice: /game start")
    shown = await run(console, out, *start)
    assert "(buttons: Join · Leave · Start; press one with /press button:<name>)" in shown
    assert "[join]" not in shown, "labels, not the actions buttons carry"
    await run(console, out, "alice: /play action:deploy lancer e1")
    asked = await run(console, out, "alice: /game undo")
    assert "(buttons: Accept · Decline;" in asked
    for wrong in ("blah", ""):
        refused = await run(console, out, f"bob: /press button:{wrong}")
        said = f"No button or choice here is called “{wrong}”. Press one of: Accept or Decline."
        assert refused == f"[private to bob]\n{said}\n"
    taken = await run(console, out, "bob: /press button:accept")
    assert "Taken back" in taken and "Your turn: @alice." in taken

    menu = await run(console, out, "alice: /press button:My moves")
    options = re.findall(r"^  (\d+)\. (.+)$", menu, flags=re.MULTILINE)
    assert menu.startswith("[private to alice]\nYour moves: choose one") and len(options) > 5
    assert "(choose one with /press button:<number or name>)" in menu
    label = next(text for _number, text in options if text.startswith("Pass"))
    played = await run(console, out, f"alice: /press button:{label.lower()}")
    assert played.startswith("[private to alice]\nDone. alice discards a coin face down to pass."), played


async def test_a_french_console_presses_french_labels(store: db.Store, tmp_path: Path) -> None:
    out = io.StringIO()
    console = console_on(store, out, tmp_path / "out", "fr")
    start = ("alice: /partie nouvelle jeu:warchest options:seed=5", "bob: /partie rejoindre")
    shown = await run(console, out, *start, "alice: /partie commencer")
    assert "(boutons : Ma main · Mes coups · Détails · Règles ; appuyez avec /appuyer bouton:<nom>)" in shown
    await run(console, out, "alice: /jouer action:déployer lancier e1", "alice: /partie reprendre")
    refused = await run(console, out, "bob: /appuyer bouton:accept")
    assert "Appuyez sur l'un de ceux-ci : Accepter ou Refuser." in refused
    taken = await run(console, out, "bob: /appuyer bouton:Accepter")
    assert "À vous de jouer : @alice." in taken
    menu = await run(console, out, "alice: /appuyer bouton:mes coups")
    assert "(choisissez avec /appuyer bouton:<numéro ou nom>)" in menu
    played = await run(console, out, "alice: /appuyer bouton:1")
    assert played.startswith("[privé, pour alice]\nC'est fait."), played
