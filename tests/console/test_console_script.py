"""A whole two-player War Chest game piped into ``python bot.py`` as one script.

The table's ``seed=`` option fixes the deal, so the scripted game of the README
(docs/examples/warchest-console.txt) replays move for move, as a tutorial or a bug
report would; the test adds a wrong-turn move and a move listing around it.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.console._support import PNG_MAGIC, blocks, example_game, images, run_console


def test_a_whole_game_piped_as_one_script(tmp_path: Path) -> None:
    seed, moves = example_game()
    first_player = moves[0][0]
    waiting = "bob" if first_player == "alice" else "alice"
    lines = [
        "# War Chest, first-game armies, a fixed deal",
        f"alice: /game new game:warchest options:armies=first seed={seed}",
        "bob: /game join",
        "alice: /game start",
        "alice: /hand",
        f"{waiting}: /play action:{moves[0][1]}",
        "alice:/play action:",
        "",
    ]
    lines += [f"{player}: /play action:{action}" for player, action in moves]
    lines += ["bob: /game status", "alice: /play action:pass royal"]
    run = run_console(tmp_path, "\n".join(lines) + "\n")
    assert run.code == 0, run.err
    assert "Traceback" not in run.out + run.err
    out = blocks(run.out)
    assert len(out) == 6 + len(moves) + 2, "one echoed block per command line, none for comments"
    new, join, start, hand, wrong_turn, listing = out[:6]
    assert new.startswith(f"> alice: /game new game:warchest options:armies=first seed={seed}\n")
    assert "@alice" in join or "@bob" in join
    assert "image: " in start and f"@{first_player}" in start
    assert "[private to alice]" in hand and "hand.png" in hand
    assert f"[private to {waiting}]" in wrong_turn and "image: " not in wrong_turn
    assert "[private to alice]" in listing
    played = out[6 : 6 + len(moves)]
    for (player, action), block in zip(moves, played, strict=True):
        assert block.startswith(f"> {player}: /play action:{action}\n")
        assert "[private to" not in block, f"refused: {block}"
        assert "image: " in block
        assert not re.search(r"<@\w+>", block)
    assert re.search(r"Winner: @(alice|bob)", played[-1]), "the result names the winner"
    assert "[private to alice]" in out[-1], "no move after the end"
    written = images(tmp_path)
    assert len(written) == 2 + len(moves)  # start, alice's hand, one board per move
    assert all(p.read_bytes().startswith(PNG_MAGIC) for p in written)
