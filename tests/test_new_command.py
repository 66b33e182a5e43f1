"""A command is one entry of the command tree and one handler of ``Commands``: a command added to a
copy of the tree (``/game toss``, with a ranged number option), with its handler and its catalog words,
is synced to the fake Discord with its option typed and ranged, answers there, and answers a console
line, with no Discord method, console map or parser written for it."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

import i18n
from table.core.posts import Ctx, Post
from table.play import command_tree
from table.play.command_tree import PRIVATE, Command, Option
from table.play.commands import Commands

WORDS = {
    "en": {
        "cmd.game.toss.name": "toss",
        "cmd.game.toss.desc": "Toss a coin of a few sides",
        "cmd.game.toss.sides.name": "sides",
        "cmd.game.toss.sides.desc": "How many sides the coin has",
    },
    "fr": {
        "cmd.game.toss.name": "lancer",
        "cmd.game.toss.desc": "Lancer une pièce à quelques faces",
        "cmd.game.toss.sides.name": "faces",
        "cmd.game.toss.sides.desc": "Combien de faces a la pièce",
    },
}


async def toss(self: Commands, ctx: Ctx, sides: int = 2) -> list[Post]:
    """The added command's one handler."""
    return [Post(f"{ctx.user_name} tosses a coin of {sides} sides", ephemeral=True)]


@pytest.fixture
def tossing(monkeypatch: pytest.MonkeyPatch) -> Iterator[Command]:
    entry = Command(
        ("game", "toss"),
        (Option("sides", int, least=2, most=6, default=2),),
        section="play",
        answer=PRIVATE,
        server_only=True,
    )
    monkeypatch.setattr(command_tree, "COMMANDS", (*command_tree.COMMANDS, entry))
    monkeypatch.setattr(Commands, "toss", toss, raising=False)
    for lang, words in WORDS.items():
        for key, text in words.items():
            monkeypatch.setitem(i18n.catalog(lang), key, text)
    yield entry


async def test_a_command_added_to_the_tree_is_offered_and_answered_on_discord(
    tossing: Command, tmp_path: Path
) -> None:
    from tests.discord.support import fake_discord, open_room

    async with fake_discord(tmp_path) as bot:
        room = open_room(bot, ("Tossers", "en"), "coins", ("alice", "en"))
        await bot.start()
        game = next(c for c in room.fake.commands if c["name"] == "game")
        (synced,) = [o for o in game["options"] if o["name"] == "toss"]
        assert synced["description"] == "Toss a coin of a few sides"
        assert synced["name_localizations"]["fr"] == "lancer"
        (sides,) = synced["options"]
        assert (sides["type"], sides["min_value"], sides["max_value"], sides["required"]) == (4, 2, 6, False)
        assert sides["name_localizations"]["fr"] == "faces"
        answer = await room.fake.slash(room.by_name["alice"], room.chan, "game toss", sides=3)
        assert answer.ephemeral and answer.content == "alice tosses a coin of 3 sides", answer.contents


async def test_a_command_added_to_the_tree_is_offered_and_answered_in_the_console(
    tossing: Command, tmp_path: Path
) -> None:
    from console import run_console
    from launch import Settings

    settings = Settings.from_env(
        {
            "DATABASE_PATH": str(tmp_path / "db.sqlite3"),
            "CONSOLE_OUT": str(tmp_path / "images"),
            "CONSOLE_LOCALE": "en",
            "RENDER_WARMUP": "0",
        }
    )
    script = ["alice: /game toss sides:5", "bob: /game toss", "carol: /game lancer faces:4"]
    script.append("alice: /game help")
    out = io.StringIO()
    assert await run_console(settings, io.StringIO("\n".join(script) + "\n"), out) == 0
    shown = out.getvalue()
    assert "Traceback" not in shown
    for player, sides in (("alice", 5), ("bob", 2), ("carol", 4)):
        assert f"{player} tosses a coin of {sides} sides" in shown, shown
    assert "/game toss [sides]" in shown, "the help lists it"
