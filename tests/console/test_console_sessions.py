"""A game played over several runs of ``python bot.py`` on the same database and images.

Each run plays a move the previous run listed (``/play`` without an action), as a
player would across sessions: games survive a restart, refusals are private, and
images are numbered across runs.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.console._support import RUNS_OF_MOVES, images, listed_moves, png_images, run_clean


def test_a_two_player_game_over_several_console_runs(tmp_path: Path) -> None:
    first = run_clean(
        tmp_path,
        "# a game of War Chest in the console\n"
        "alice: /game new game:warchest options:armies=first\n"
        "\n"
        "bob: /game join\n"
        "bob: /game dance\n"
        "alice: /game start\n"
        "bob: /hand\n"
        "alice: /play\n"
        "bob: /play\n",
    )
    assert "> alice: /game new game:warchest options:armies=first\n" in first.out
    assert "a game of War Chest" not in first.out
    assert "Unknown command “/game dance”" in first.out
    # One of alice and bob must wait: they are told whose turn it is, not that they have no move.
    assert re.search(r"\[private to (alice|bob)\]\nIt is not your turn: waiting for (alice|bob)\.", first.out)
    assert "no legal move" not in first.out
    assert "[private to bob]" in first.out
    assert not re.search(r"<@\w+>", first.out), "mentions must read as @name"
    assert "@alice" in first.out or "@bob" in first.out
    written = png_images(tmp_path)
    assert len(written) >= 2  # the board at the start and bob's hand
    assert [p.name[:4] for p in written] == [f"{i:04d}" for i in range(1, len(written) + 1)]
    for path in written:
        assert f"image: {path}" in first.out

    player, moves = listed_moves(first.out)
    for _ in range(RUNS_OF_MOVES):
        other = "bob" if player == "alice" else "alice"
        before = len(images(tmp_path))
        run = run_clean(
            tmp_path,
            f"{other}: /play action:{moves[0]}\n"
            f"{player}: /play action:no such move\n"
            f"{player}: /play action:{moves[-1]}\n"
            "alice: /play\n"
            "bob: /play\n"
            "quit\n"
            "alice: /game status\n",
        )
        blocks = run.out.split("> ")
        assert blocks[1].startswith(f"{other}: /play") and f"[private to {other}]" in blocks[1]
        assert blocks[2].startswith(f"{player}: /play action:no such move")
        assert f"[private to {player}]" in blocks[2] and "“no such move”" in blocks[2]
        played = blocks[3]
        assert played.split("\n")[2].startswith("Done."), f"the move was refused:\n{played}"
        assert "image: " in played
        assert "/game status" not in run.out, "lines after quit must not run"
        assert len(png_images(tmp_path)) > before
        player, moves = listed_moves(run.out)


def test_the_console_writes_a_games_replay_and_its_details_to_its_folder(tmp_path: Path) -> None:
    """``/game replay`` in the console: the animation is written as a GIF beside the boards, drawn
    by the worker pool as on Discord; ``/game board details:true`` writes the details image too."""
    run = run_clean(
        tmp_path,
        "alice: /game new game:batailles options:armies=classic map=open_field\n"
        "bob: /game join\n"
        "alice: /game start\n"
        "alice: /play\n"
        "bob: /play\n"
        "carol: /game board details:true\n"
        "carol: /game replay\n",
    )
    replays = sorted((tmp_path / "images").glob("*.gif"))
    assert len(replays) == 1 and replays[0].read_bytes()[:6] in (b"GIF87a", b"GIF89a"), run.out
    assert "[private to carol]\nBatailles: the whole game" in run.out
    details = [p for p in png_images(tmp_path) if "details" in p.name]
    assert len(details) == 1, [p.name for p in png_images(tmp_path)]
