"""The scripted Batailles game of docs/examples/batailles-console.txt, piped into ``python bot.py``.

tools/script_game.py (``--game batailles``) writes the file: preset armies, a fixed seed, both
players deploying at the same time, then turns of activations, moves and attacks until the round
limit gives a winner. Replaying it checks that the console plays a Batailles game from start to
result, with a board image after every move and every roll printed with its dice.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.console._support import (
    ROOT,
    blocks,
    boards_written,
    check_played,
    commands_of,
    png_images,
    run_clean,
)
from tests.engine.batailles.helpers import documented_maps

EXAMPLE = ROOT / "docs" / "examples" / "batailles-console.txt"


def test_the_example_batailles_game_plays_to_its_result(tmp_path: Path) -> None:
    script = EXAMPLE.read_text(encoding="utf-8")
    assert re.search(r"^alice: /game new game:batailles options:.*seed=\d+$", script, flags=re.MULTILINE)
    moves = re.findall(r"^(\w+): /play action:(.+)$", script, flags=re.MULTILINE)
    assert len(moves) > 50
    # Bob deploys while Alice is still deploying: both may act at once.
    assert moves[0][0] != moves[1][0] and all(a.startswith("deploy") for _p, a in moves[:2])

    run = run_clean(tmp_path, script + "alice: /hand\nbob: /play action:end\n")
    out = blocks(run.out)
    assert len(out) == len(commands_of(script)) + 2, "one echoed block per command line"
    start = out[2]
    assert "image: " in start and "@alice" in start and "@bob" in start

    played = [b for b in out if b.startswith(("> alice: /play", "> bob: /play"))][: len(moves)]
    check_played(moves, played)
    assert "(board updated in place: " in played[0], "after the first deployment both are still to act"
    rolls = re.findall(r"with \d+ dic?e(?: \+ \d+ for the hill)?: ([1-6 ]+), (\d+) hit", run.out)
    assert rolls, "the attacks show their dice"
    for faces, hits in rolls:
        assert int(hits) == sum(1 for f in faces.split() if int(f) >= 4)
    assert re.search(r"Winner: @(alice|bob)", played[-1]), played[-1]
    status, hand, late = out[-3:]
    assert "[private to alice]" in status
    assert "[private to alice]" in hand
    assert "[private to bob]" in late, "no move after the end"
    handovers = sum("image: " in block for block in played)
    assert 10 < handovers < len(moves) / 2, "one new board per handover, not one per move"
    assert len(png_images(tmp_path)) == 1 + handovers == boards_written(run.out)  # the start, then handovers


def test_a_typed_map_with_spaces_and_french_moves_in_the_console(tmp_path: Path) -> None:
    """The rules document's space-separated map, typed as ``options:custom_map=...`` with ``/``
    rows, deals the game; a deployment typed in French is played like the English one."""
    spaced = next(m for m in documented_maps() if " " in m and "/" in m and "," not in m)
    script = (
        f"alice: /game new game:batailles options:custom_map={spaced} armies=raiders seed=4\n"
        "bob: /game join\n"
        "alice: /game start\n"
        "alice: /play action:déployer horse1 a1 o\n"
        "bob: /play action:deploy horse1 a9 w\n"
        "alice: /game log\n"
    )
    out = blocks(run_clean(tmp_path, script).out)
    assert len(out) == 6
    assert "a battlefield of the table's own" in out[0] and "[private to" not in out[0]
    assert "image: " in out[2]
    for block in out[3:5]:
        assert "Done." in block and "(board updated in place: " in block, block
    assert "alice deploys horse1: its place stays hidden" in out[5], out[5]
    assert "a1" not in out[5] and "a9" not in out[5], "both armies deploy unseen: the log tells no place"


def test_the_last_steps_of_an_activation_are_taken_back_one_at_a_time(tmp_path: Path) -> None:
    """The example game up to Bob's first coordinated move (after the initiative roll): Bob takes
    back the move, then the coordination, each accepted by Alice's button; the deployment before
    them rolled the initiative and stays."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    upto = lines.index("bob: /play action:move s s") + 1
    script = "\n".join(lines[:upto]) + (
        "\nbob: /game undo\nalice: /press button:undo_accept\n"
        "bob: /game undo\nalice: /press button:undo_accept\n"
        "bob: /game undo\nbob: /game log\n"
    )
    out = blocks(run_clean(tmp_path, script).out)
    asked, accepted, again, accepted_again, refused, log = out[-6:]
    assert "bob asks to take back their last action: “bob's cav1 + inf2 move to e8" in asked, asked
    assert "@alice" in asked and "(buttons: Accept · Decline;" in asked, asked
    assert "Taken back" in accepted, accepted
    assert "take back their last action: “bob activates cav1 + inf2 in coordination in e9.”" in again, again
    assert "Taken back" in accepted_again, accepted_again
    assert "A die was rolled" in refused and "[private to bob]" in refused, refused
    assert "took back their last action: “bob activates cav1 + inf2 in coordination" in log, log
    assert log.count("(taken back)") == 2, log
    assert "bob took back their last action: “bob's cav1 + inf2 move to e8" in log, log
