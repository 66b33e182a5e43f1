"""The scripted Cry Havoc game of docs/examples/cryhavoc-console.txt, piped into ``python bot.py``.

tools/script_game.py (``--game cryhavoc``) writes the file: two players, a fixed seed, moves drawn
with weights that favour scoring, fighting and marching. Replaying it checks that the console plays
a Cry Havoc game from the deal to its result: every move accepted, a board image after each, the
hand shown only to its owner, and the winner the engine finds for the same moves.
"""

from __future__ import annotations

import re
from pathlib import Path

import engine
import i18n
from engine.forced import forced_steps
from tests.console._support import (
    ROOT,
    blocks,
    boards_written,
    check_played,
    commands_of,
    png_images,
    run_clean,
)

EXAMPLE = ROOT / "docs" / "examples" / "cryhavoc-console.txt"
CRY_HAVOC = engine.get_game("cryhavoc")


def expected_winner(seed: int, moves: list[tuple[str, str]]) -> tuple[str, int]:
    """The winner and their VP when the engine plays the script's moves on the same deal, and the
    forced moves the table plays by itself after them (the script leaves those out)."""
    state = CRY_HAVOC.new_game(["alice", "bob"], seed, {"skills": "basic"})
    for player, text in moves:
        state, _ = CRY_HAVOC.apply(state, player, CRY_HAVOC.parse_action(state, player, text))
        for step in forced_steps(CRY_HAVOC, state):
            state = step.after
    result = CRY_HAVOC.result(state)
    assert result is not None and CRY_HAVOC.is_over(state)
    (winner,) = result.winners
    return winner, result.scores[winner]


def test_the_example_cry_havoc_game_plays_to_its_result(tmp_path: Path) -> None:
    script = EXAMPLE.read_text(encoding="utf-8")
    seed_match = re.search(r"^alice: /game new game:cryhavoc options:seed=(\d+)$", script, flags=re.MULTILINE)
    assert seed_match, "the example fixes its deal with seed="
    moves = re.findall(r"^(\w+): /play action:(.+)$", script, flags=re.MULTILINE)
    assert len(moves) > 50
    assert {verb.split()[0] for _p, verb in moves} >= {"move", "go", "recruit", "draw", "keep", "score"}
    winner, vp = expected_winner(int(seed_match[1]), moves)

    run = run_clean(tmp_path, script + "bob: /hand\nalice: /play action:pass\n")
    out = blocks(run.out)
    assert len(out) == len(commands_of(script)) + 2, "one echoed block per command line"
    start, hand = out[2], out[3]
    assert "image: " in start and re.search(r"Your turn: @(alice|bob)\.", start)
    assert hand.startswith("> alice: /hand\n[private to alice]\n") and "hand.png" in hand
    listed = re.search(r"^Hand: (.+)$", hand, flags=re.MULTILINE)
    assert listed and len(listed[1].split(", ")) == 4, hand
    names = {i18n.t(f"ch.card.{kind}", "en") for kind in _all_card_kinds()}
    assert set(listed[1].split(", ")) <= names

    played = [b for b in out if b.startswith(("> alice: /play", "> bob: /play"))][: len(moves)]
    check_played(moves, played)
    for (_player, action), block in zip(moves, played, strict=True):
        if action.startswith("keep"):
            assert i18n.t(f"ch.card.{action.split()[1]}", "en") not in block, "a kept card is secret"
    assert f"Game over! Winner: @{winner}. {winner} wins with {vp} VP." in played[-1], played[-1]
    status, bob_hand, late = out[-3:]
    assert "[private to alice]" in status and "finished" in status
    assert "[private to bob]" in bob_hand, "no hand once the game is over"
    assert "[private to alice]" in late, "no move after the end"
    handovers = sum("image: " in block for block in played)
    assert handovers < len(moves), "a player's several steps update one board"
    assert len(png_images(tmp_path)) == 2 + handovers == boards_written(run.out)  # start, alice's hand


def _all_card_kinds() -> set[str]:
    """Every card kind the catalog names (``ch.card.<kind>``)."""
    return {key[len("ch.card.") :] for key in i18n.catalog("en") if key.startswith("ch.card.")}
