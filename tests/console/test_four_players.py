"""A whole four-player War Chest game (two teams) piped into ``python bot.py``.

The script is the scripted example docs/examples/warchest-4p-console.txt, written by
``tools/script_game.py --players 4``: two players choose their team when they join, the lobby
places the other two, and the fixed deal replays move for move to a team victory. The test adds
one line, a teammate trying to play the first move out of turn, which must be refused privately.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.console._support import (
    ROOT,
    blocks,
    boards_written,
    check_played,
    commands_of,
    png_images,
    run_clean,
    run_console,
)

EXAMPLE = ROOT / "docs" / "examples" / "warchest-4p-console.txt"
PLAY = re.compile(r"^(\w+): /play action:(.+)$")


def seats_and_teams(start_block: str) -> list[tuple[str, int]]:
    """``Seats: dave (team 1), bob (team 2), ...`` of the start post, in seat order."""
    match = re.search(r"Seats: (.+)\.$", start_block, flags=re.MULTILINE)
    assert match, start_block
    pairs = re.findall(r"(\w+) \(team (\d)\)", match[1])
    return [(name, int(team)) for name, team in pairs]


def test_the_example_is_what_the_script_writer_produces() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    seed = re.search(r"seed=(\d+)", text)
    assert seed, "the example fixes its deal with seed="
    written = subprocess.run(
        [sys.executable, "tools/script_game.py", seed[1], "--players", "4"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert written.stdout == text, "regenerate the example with tools/script_game.py"


def test_a_scripted_four_player_game_ends_in_a_team_victory(tmp_path: Path) -> None:
    lines = commands_of(EXAMPLE.read_text(encoding="utf-8"))
    plays = [(m[1], m[2].strip()) for line in lines if (m := PLAY.match(line))]
    first = lines.index(next(line for line in lines if PLAY.match(line)))
    assert "players:4" in lines[0] and any("team:" in line for line in lines[:first])

    run = run_clean(tmp_path, "\n".join(lines) + "\n")
    out = blocks(run.out)
    assert len(out) == len(lines), "one echoed block per command line"
    assert all(block.startswith(f"> {line}\n") for block, line in zip(out, lines, strict=True))

    start = next(b for b in out if "/game start" in b.splitlines()[0])
    seats = seats_and_teams(start)
    assert sorted(name for name, _ in seats) == ["alice", "bob", "carol", "dave"]
    assert [team for _, team in seats] == [1, 2, 1, 2], "teammates never sit side by side"
    team_of = dict(seats)
    for line in lines[1:first]:
        chosen = re.search(r"^(\w+): /game join team:(\d)", line)
        if chosen:
            assert team_of[chosen[1]] == int(chosen[2]), f"{chosen[1]} did not get the team asked for"
    assert "image: " in start and f"@{plays[0][0]}" in start

    played = out[first : first + len(plays)]
    check_played(plays, played)
    for block, (player, _action), (following, _next) in zip(played, plays, plays[1:], strict=False):
        handed = f"Your turn: @{following}." in block
        assert handed or (following == player and "It is still your turn." in block), block
    winners = re.search(r"Winners: @(\w+) and @(\w+)\.", played[-1])
    assert winners, f"the last move names the winning team: {played[-1]}"
    assert team_of[winners[1]] == team_of[winners[2]], "both winners are teammates"
    status = out[-1]
    assert "[private to alice]" in status and "finished" in status and winners[0] in status
    assert len(png_images(tmp_path)) == boards_written(run.out) <= 2 + len(plays)  # the start, alice's hand


def test_nobody_but_the_player_to_act_moves_not_even_a_teammate(tmp_path: Path) -> None:
    lines = commands_of(EXAMPLE.read_text(encoding="utf-8"))
    first = lines.index(next(line for line in lines if PLAY.match(line)))
    opening = PLAY.match(lines[first])
    assert opening
    mover = opening[1]
    others = [p for p in ("alice", "bob", "carol", "dave") if p != mover]
    attempts = [f"{p}: /play action:{opening[2]}" for p in others]
    run = run_console(tmp_path, "\n".join([*lines[:first], *attempts, lines[first]]) + "\n")
    assert run.code == 0, run.err
    out = blocks(run.out)
    team_of = dict(seats_and_teams(next(b for b in out if "/game start" in b.splitlines()[0])))
    assert sum(team_of[p] == team_of[mover] for p in others) == 1, "exactly one teammate tried"
    for player, attempt, block in zip(others, attempts, out[first : first + len(others)], strict=True):
        assert block.startswith(f"> {attempt}\n") and f"[private to {player}]" in block
        reply = block.split("\n", 2)[2]
        assert mover in reply and "image: " not in block, "the refusal says whose turn it is"
    accepted = out[-1]
    assert accepted.startswith(f"> {lines[first]}\n[private to {mover}]\nDone.") and "image: " in accepted
