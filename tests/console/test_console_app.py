"""The console's presentation of replies, over a scripted stand-in for the table layer.

What the console adds on top of ``table.play.commands`` is checked here without a
database: mentions shown as names, private replies marked, images numbered and
written, errors explained without stopping.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from console.app import Console, next_image_number, plain_text
from engine import BadInput, NotYourTurn
from engine.text import PlayerRef
from table.core.marks import channel_link, mention, moment
from table.play.commands import Ctx, Post

PNG = b"\x89PNG\r\n\x1a\nfake"


class NothingToAnnounce:
    """The scripted commands post nothing to the channel themselves."""

    async def drain(self, channel: str | None = None) -> None:
        return None


class ScriptedCommands:
    """Records every call and answers with canned posts."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Ctx, tuple[Any, ...]]] = []
        self.announcer = NothingToAnnounce()

    async def new(
        self, ctx: Ctx, game: str, players: int | None = None, options: str = "", **bots: object
    ) -> list[Post]:
        self.calls.append(("new", ctx, (game, players, options)))
        return [Post(f"{mention(ctx.user_id)} opened a {game} lobby", mentions=(ctx.user_id,))]

    async def play(self, ctx: Ctx, action: str) -> list[Post]:
        self.calls.append(("play", ctx, (action,)))
        if action == "crash":
            raise RuntimeError("boom")
        if action == "wait":
            raise NotYourTurn("error.not_your_turn", waiting=PlayerRef("bob"))
        if action.startswith("bad"):
            raise BadInput("error.bad_input", input=action)
        return [
            Post(f"moved; {mention('bob')} to play", image=PNG, mentions=("bob",)),
            Post("secret", ephemeral=True),
        ]

    async def hand(self, ctx: Ctx) -> list[Post]:
        self.calls.append(("hand", ctx, ()))
        return [Post("your hand", image=PNG, filename="hand.png", ephemeral=True)]

    async def help(self, ctx: Ctx, front: str) -> list[Post]:
        self.calls.append(("help", ctx, (front,)))
        return [Post(f"the commands of the {front}", ephemeral=True)]

    async def legal_moves(self, ctx: Ctx, typed: str = "") -> list[Post]:
        self.calls.append(("legal_moves", ctx, (typed,)))
        return [
            Post("Your legal moves:\n  move archer e1 e2  —  Move the archer from e1 to e2", ephemeral=True)
        ]


def make_console(tmp_path: Path, locale: str = "en") -> tuple[Console, ScriptedCommands, io.StringIO]:
    table = ScriptedCommands()
    out = io.StringIO()
    return Console(table, out, tmp_path / "out", locale), table, out  # type: ignore[arg-type]


async def test_lines_act_as_the_named_user_in_the_console_channel(tmp_path: Path) -> None:
    console, table, out = make_console(tmp_path)
    assert await console.run_line("alice: /game new game:warchest players:2")
    name, ctx, args = table.calls[0]
    assert name == "new" and args == ("warchest", 2, "")
    assert (ctx.channel_id, ctx.user_id, ctx.user_name, ctx.locale) == ("console", "alice", "alice", "en")
    assert out.getvalue() == "@alice opened a warchest lobby\n"


async def test_images_are_numbered_files_and_private_posts_are_marked(tmp_path: Path) -> None:
    console, _, out = make_console(tmp_path)
    await console.run_line("alice: /play action:move archer e1 e2")
    await console.run_line("alice: /hand")
    lines = out.getvalue().splitlines()
    first, second = tmp_path / "out" / "0001-board.png", tmp_path / "out" / "0002-hand.png"
    assert lines == [
        "moved; @bob to play",
        f"image: {first}",
        "[private to alice]",
        "secret",
        "[private to alice]",
        "your hand",
        f"image: {second}",
    ]
    assert first.read_bytes() == PNG and second.read_bytes() == PNG
    again, _, _ = make_console(tmp_path)
    assert again.save_image(PNG, "board.png").name == "0003-board.png"


async def test_errors_are_private_and_the_console_goes_on(tmp_path: Path) -> None:
    console, table, out = make_console(tmp_path)
    assert await console.run_line("alice: /play action:wait")
    assert await console.run_line("alice: /play action:crash")
    assert await console.run_line("alice: /dance")
    assert await console.run_line("# a comment")
    assert await console.run_line("   ")
    text = out.getvalue()
    assert "[private to alice]\nIt is not your turn: waiting for @bob." in text
    assert "Internal error (logged): RuntimeError" in text
    assert "Unknown command “/dance”" in text
    assert [c[0] for c in table.calls] == ["play", "play"]
    assert not await console.run_line("quit")


async def test_play_alone_lists_the_legal_moves_and_a_refusal_lists_nothing_more(tmp_path: Path) -> None:
    """The list of moves is the table's answer, shown privately as it comes; a refused move is
    answered by its refusal alone (a move begun is answered with its list by the table itself)."""
    console, table, out = make_console(tmp_path)
    await console.run_line("alice: /play action:bad move")
    assert out.getvalue() == "[private to alice]\nI could not understand “bad move”.\n"
    out.truncate(0)
    out.seek(0)
    await console.run_line("alice: /play")
    assert out.getvalue() == (
        "[private to alice]\nYour legal moves:\n  move archer e1 e2  —  Move the archer from e1 to e2\n"
    )
    assert table.calls[-1][0] == "legal_moves"


async def test_french_console(tmp_path: Path) -> None:
    console, _, out = make_console(tmp_path, locale="fr")
    await console.run_line("alice: /main")
    assert out.getvalue().startswith("[privé, pour alice]\n")
    await console.run_line("help")
    assert out.getvalue().endswith("« quit » pour sortir.\n\nthe commands of the console\n")
    out.truncate(0)
    out.seek(0)
    await console.run_line("alice: /dance")
    await console.run_line("alice: /partie historique page:deux")
    await console.run_line("alice: /partie nouvelle joueurs:2")
    assert out.getvalue().splitlines() == [
        "Commande inconnue « /dance ». Commandes : /partie nouvelle, /partie rejoindre, /partie quitter,"
        " /partie robot, /partie sansrobot, /partie retirer, /partie commencer, /jouer, /main,"
        " /partie reprendre, /partie plateau, /partie état, /partie historique, /partie revoir,"
        " /partie pourquoi, /partie indice, /partie nulle, /partie abandonner, /partie annuler,"
        " /partie terminer, /partie déclasser,"
        " /ligue nouvelle, /ligue rejoindre, /ligue quitter, /ligue commencer, /ligue, /ligue état,"
        " /ligue classement, /ligue retirer, /ligue terminer, /ligue historique,"
        " /partie règles, /partie aide, /parties, /classement, /parties-finies, /bilan, /notifier,"
        " /absence, /réglages, /appuyer, /horloge, /horloge avancer, /horloge régler.",
        "L'option page demande un nombre entier, pas « deux ».",
        "La commande /partie nouvelle demande l'option jeu.",
    ]


def test_helpers() -> None:
    at = datetime(2026, 3, 28, 21, 0, 30, tzinfo=UTC)
    text = (
        f"{mention('alice')} and {mention('Anne Marie')} in {channel_link('r1-ann-bob')}, {moment(at, 'f')}"
    )
    assert plain_text(text) == "@alice and @Anne Marie in #r1-ann-bob, 2026-03-28 21:00 UTC"
    assert plain_text("<@alice> stays as typed") == "<@alice> stays as typed"


def test_image_numbering_continues(tmp_path: Path) -> None:
    assert next_image_number(tmp_path) == 1
    (tmp_path / "0007-board.png").write_bytes(PNG)
    (tmp_path / "notes.png").write_bytes(PNG)
    assert next_image_number(tmp_path) == 8


def test_the_console_logs_warnings_only_unless_told(monkeypatch: Any) -> None:
    """Logs share the terminal the console reads from: an information line would land on the prompt,
    so the console logs warnings and worse unless LOG_LEVEL asks for more; the Discord bot logs INFO."""
    import bot
    import console
    from launch import Settings

    assert Settings.from_env({}).console_log_level == "WARNING"
    assert Settings.from_env({"LOG_LEVEL": "info"}).console_log_level == "INFO"
    assert Settings.from_env({}).log_level == "INFO"
    levels: list[str] = []
    monkeypatch.setattr(bot, "configure_logging", levels.append)
    monkeypatch.setattr(bot, "stdin_is_empty", lambda stream: False)

    async def nothing(settings: Any) -> int:
        return 0

    monkeypatch.setattr(console, "run_console", nothing)
    for var in ("DISCORD_TOKEN", "LOG_LEVEL"):
        monkeypatch.delenv(var, raising=False)
    assert bot.main([]) == 0
    assert levels == ["WARNING"]
