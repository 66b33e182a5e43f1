"""Every console script under ``docs/examples/`` runs to its end as written, and the league's shows a
newcomer a whole small league: pairings, threads named in the output, standings and a second round."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.console._support import ROOT, blocks, commands_of, run_clean

EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.txt"))
LEAGUE = ROOT / "docs" / "examples" / "league-console.txt"


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: p.name)
def test_every_example_script_runs_to_its_end(tmp_path: Path, script: Path) -> None:
    text = script.read_text(encoding="utf-8")
    run = run_clean(tmp_path, text)
    out = blocks(run.out)
    assert len(out) == len(commands_of(text)), "one echoed block per command line"
    for block in out:
        for failure in ("I could not read", "Unknown command", "Internal error", "has no option"):
            assert failure not in block, block


def test_the_league_example_shows_pairings_threads_standings_and_a_second_round(tmp_path: Path) -> None:
    assert LEAGUE in EXAMPLES
    run = run_clean(tmp_path, LEAGUE.read_text(encoding="utf-8"))
    out = run.out
    assert "🧵 New thread #r1-ann-cat: R1 · ann and cat" in out
    assert "🧵 New thread #r1-bob-dan: R1 · bob and dan" in out
    assert out.count("Spring Cup, round 1 of 2") >= 2 and out.count("Spring Cup, round 2 of 2") == 1
    assert "— in #r1-ann-cat —" in out and "@ann and @cat: your game of War Chest in Spring Cup" in out
    assert re.search(r"🧵 New thread #r2-\w+-\w+", out)
    assert out.count("🧵 New thread #r2-") == 2, "round two is made once"
    assert "The league's round is over before the game." in out, "the unfinished game is closed"
    assert "🏁 **Spring Cup is over.** Winner: bob." in out
    assert "1. bob **2** · 2W 0D 0L" in out and "standings.png" in out
    assert "won by bob" in out
