"""A whole two-player War Chest game piped into ``python bot.py`` as one script.

The table's ``seed=`` option fixes the deal, so the scripted game of the README
(docs/examples/warchest-console.txt) replays move for move, as a tutorial or a bug
report would; the test adds a wrong-turn move and a move listing around it.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.console._support import blocks, check_played, example_game, png_images, run_clean


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
    run = run_clean(tmp_path, "\n".join(lines) + "\n")
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
    check_played(moves, played)
    assert not any(re.search(r"<@\w+>", block) for block in played)
    assert re.search(r"Winner: @(alice|bob)", played[-1]), "the result names the winner"
    assert "[private to alice]" in out[-1], "no move after the end"
    assert len(png_images(tmp_path)) == 2 + len(moves)  # start, alice's hand, one board per move
