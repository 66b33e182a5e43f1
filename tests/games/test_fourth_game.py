"""A fourth game added the way a game is added: its packages and one registry entry, nothing else.

Nim (``tests.games.nim``: the rules of ``tests.table.nim``, a renderer drawing real PNG boards, a text
board, catalog words in two languages) is registered for each test and played to its end through the
table layer, the console and the fake Discord, with the bot's own renderer front (``render``) finding
Nim's drawing through the registry. No product module knows it: the scan of
``tests/test_game_names.py`` would see its name in one.

Drawing runs in threads of the test's process here: the drawing workers are other processes, forked
from a server started before the test registered its game.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import engine
import i18n
import render
from engine import registry
from launch import DISCORD_LIMITS
from table import Commands, Ctx, Tables
from table.core.drawing import ThreadDrawer, draw_now
from table.posting.announce import RecordingOutlet
from tests.games.nim import ENTRY, nim_registered
from tests.table.nim import GAME, NIM

SEED = 2
"""The deal of every test: Alice takes first (``NIM.new_game(["alice", "bob"], 2)``)."""
MOVES = (("alice", 3), ("bob", 1), ("alice", 3))
"""A heap of 7 emptied in three moves: 4 left, then 3, then Alice takes the last three."""
OPTIONS = f"heap=7 max=3 seed={SEED}"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _draw(kind: str) -> Any:
    return lambda view, **kw: draw_now(kind, view, kw["names"], kw["locale"])


def drawn_here() -> ThreadDrawer:
    """The bot's own drawing (``table.core.drawing.draw_now``, through ``render``), in threads."""
    kinds = ("board", "private", "details", "replay", "chart", "leaderboard", "standings")
    return ThreadDrawer({kind: _draw(kind) for kind in kinds})


@pytest.fixture
def nim(monkeypatch: pytest.MonkeyPatch) -> Iterator[registry.Entry]:
    monkeypatch.setattr("table.core.tables.shared_drawer", drawn_here)
    with nim_registered() as entry:
        yield entry


def png(data: bytes) -> Image.Image:
    assert data.startswith(PNG_MAGIC)
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


def stones(image: Image.Image) -> int:
    """The stones drawn on a board: grey discs, counted at their centres."""
    from tests.games.nim.render import STONE

    grey = image.convert("RGB")
    return sum(
        grey.getpixel((40 + i % 10 * STONE + STONE // 2, 40 + i // 10 * STONE + STONE // 2))
        == (120, 120, 120)
        for i in range(40)
    )


def test_the_registry_finds_every_part_of_the_fourth_game(nim: registry.Entry) -> None:
    assert registry.names() == (*engine.GAMES, "nim")
    assert engine.get_game("nim") is GAME and registry.pool_of("nim", 2) == "nim"
    view = NIM.view(NIM.new_game(["alice", "bob"], SEED, {"heap": "7"}), "alice")
    names = {"alice": "Alice", "bob": "Bob"}
    assert stones(png(render.render(view, names=names, locale="en"))) == 7
    assert render.text_board(view, names=names, locale="fr").splitlines() == [
        "Nim. À Alice de prendre.",
        "7 pierres dans le tas.",
        "Prochain à prendre : Alice.",
    ]
    assert render.describe("private", view, names=names, locale="en").startswith("Your colours: ")
    assert "nim" in registry.pools()


def test_unregistered_it_is_gone() -> None:
    with nim_registered():
        assert "nim" in registry.names()
    assert "nim" not in registry.names() and registry.find("nim") is None
    with pytest.raises(engine.BadInput):
        engine.get_game("nim")


# ---- the table layer ----------------------------------------------------------------------------------


def ctx(user: str, locale: str = "en") -> Ctx:
    return Ctx("heap", user, user.capitalize(), locale, "en")


async def test_a_game_through_the_table_layer(nim: registry.Entry, tmp_path: Path) -> None:
    import db

    store = await db.open_store(tmp_path / "nim.sqlite3")
    try:
        commands = Commands(Tables(store, limits=DISCORD_LIMITS))
        assert "nim" in commands.tables.known_games
        await commands.new(ctx("alice"), "nim", options=OPTIONS)
        await commands.join(ctx("bob"))
        await commands.start(ctx("alice"))
        await commands.announcer.drain()  # the start's post is made before any move (its board: 7 stones)
        hand = (await commands.hand(ctx("bob", "fr")))[0]
        assert hand.ephemeral and hand.image is not None and png(hand.image).size == (48, 24)
        assert any(word in hand.text for word in ("rouge", "vert", "bleu")), hand.text
        for player, n in MOVES:
            replies = await commands.play(ctx(player), f"take {n}")
            assert replies and replies[0].ephemeral, replies
        await commands.announcer.drain()
        outlet = commands.announcer.outlet
        assert isinstance(outlet, RecordingOutlet) and outlet.sent is not None
        boards = [post for where, post in outlet.sent if where == "heap" and post.image is not None]
        counts = [stones(png(post.image)) for post in boards if post.image]
        assert counts[0] == 7 and counts[-1] == 0, counts
        assert "takes the last stone." in boards[-1].text and boards[-1].alt.startswith("Nim."), boards[-1]
        table = await commands.tables.latest("heap")
        assert table is not None and table.record.status == "over"
        assert table.record.result is not None and table.record.result["winners"] == ["alice"]
        text = (await commands.board(ctx("bob", "fr"), text=True))[0]
        assert text.ephemeral and "0 pierre dans le tas." in text.text.splitlines(), text.text
    finally:
        await store.close()


# ---- the console ----------------------------------------------------------------------------------------


async def test_a_game_through_the_console(nim: registry.Entry, tmp_path: Path) -> None:
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
    script = [
        f"alice: /game new game:nim options:{OPTIONS}",
        "bob: /game join",
        "alice: /game start",
        *(f"{player}: /play action:take {n}" for player, n in MOVES[:2]),
        "bob: /game board text:true",
        f"{MOVES[2][0]}: /play action:take {MOVES[2][1]}",
    ]
    out = io.StringIO()
    assert await run_console(settings, io.StringIO("\n".join(script) + "\n"), out) == 0
    shown = out.getvalue()
    assert "Traceback" not in shown
    assert "• alice takes 3, 4 left.\nYour turn: @bob." in shown and "• bob takes 1, 3 left." in shown
    assert "Game over! Winner: @alice. alice emptied the heap." in shown
    assert "📈 Ratings (Nim): alice 3.4 (+3.4), bob −1.8 (−1.8)." in shown
    text = shown.split("> bob: /game board text:true\n", 1)[1].split("\n> ", 1)[0]
    assert text.splitlines() == [
        "[private to bob]",
        "Nim: the board as text:",
        "Nim. alice to take.",
        "3 stones in the heap.",
        "Next to take: alice.",
        text.splitlines()[-1],
    ]
    assert text.splitlines()[-1].startswith("Your colours: "), text
    boards = sorted((tmp_path / "images").glob("*.png"))
    assert boards, shown
    assert [stones(png(p.read_bytes())) for p in boards] == [7, 4, 3, 0]


# ---- the fake Discord -----------------------------------------------------------------------------------


async def test_a_game_through_the_fake_discord(nim: registry.Entry, tmp_path: Path) -> None:
    from tests.discord.support import board_image, current_board, fake_discord, open_room, play, start

    async with fake_discord(tmp_path) as bot:
        room = open_room(bot, ("Nimmers", "en"), "heap", ("alice", "en"), ("bob", "fr"))
        await bot.start()
        fake, chan = room.fake, room.chan
        alice, bob = room.by_name["alice"], room.by_name["bob"]
        r = await fake.slash(alice, chan, "game new", game="nim", options=OPTIONS)
        assert not r.ephemeral and "Nim" in r.content, r.contents
        await fake.slash(bob, chan, "game join")
        started = await start(room, alice)
        image = board_image(started.board)
        assert image is not None and stones(image) == 7
        users = {"alice": alice, "bob": bob}
        for player, n in MOVES:
            played = await play(room, users[player], f"take {n}")
        assert "takes the last stone." in played.board.content, played.board.content
        last = board_image(current_board(fake, chan))
        assert last is not None and stones(last) == 0
        record = await room.record()
        assert record.status == "over" and record.result is not None
        assert record.result["winners"] == [alice.id]
        text = await fake.slash(bob, chan, "game board", text=True)
        assert text.ephemeral and "0 pierre dans le tas." in text.content.splitlines(), text.contents
    assert i18n.t("table.game.nim", "fr") == "Nim"
    assert ENTRY.render is not None
