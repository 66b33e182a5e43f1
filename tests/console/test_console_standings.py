"""The console shows the records too: after two games between people, a newcomer sees the
leaderboard, the history and a player's record, and the final post gives the rating changes."""

from __future__ import annotations

from pathlib import Path

from tests.console.test_console_script import run_clean

SCRIPT = """
alice: /game new game:warchest options:seed=5
bob: /game join
alice: /game start
alice: /game resign
alice: /game new game:batailles options:seed=6
bob: /game join
alice: /game start
bob: /game resign
alice: /game new game:warchest options:seed=7 rated=no
bob: /game join
alice: /game start
alice: /game resign
carol: /leaderboard
carol: /leaderboard game:batailles
carol: /history player:@bob
carol: /stats player:alice game:warchest
carol: /leaderboard game:chess
carol: /press button:replay:1
"""


def test_two_games_make_a_leaderboard_a_history_and_a_record(tmp_path: Path) -> None:
    out = run_clean(tmp_path, SCRIPT).out
    assert "📈 Ratings (War Chest): alice" in out and "📈 Ratings (Batailles): alice" in out
    board = out.split("> carol: /leaderboard\n", 1)[1].split("> carol:", 1)[0]
    assert "🏆 War Chest, page 1/1" in board and "🏆 Batailles, page 1/1" in board
    assert "Fewer than 5 rated games" in board and "@bob **" in board
    history = out.split("> carol: /history player:@bob\n", 1)[1].split("> carol:", 1)[0]
    assert history.count("War Chest: 1. bob (+") == 1 and history.count("Batailles: 1. alice (+") == 1
    assert "War Chest: 1. bob · 2. alice (not rated)" in history, "rated=no at /game new"
    assert "Not rated (rated=no)." in out, "the lobby says so"
    record = out.split("> carol: /stats player:alice game:warchest\n", 1)[1].split("> carol:", 1)[0]
    assert "[private to carol]" in record and "1 game: 0 won, 0 drawn, 1 lost" in record
    assert "rating.png" in record or "image:" in record, "the rating chart is written beside the record"
    assert "is not a game with ratings: choose one of warchest, warchest-teams, batailles, cryhavoc" in out
    assert "▶ Replay #1 · 🏁 Board #1" in history, "the buttons by their labels"
    pressed = out.split("> carol: /press button:replay:1\n", 1)[1]
    assert "[private to carol]" in pressed and "replay.gif" in pressed, "the first game's replay"
