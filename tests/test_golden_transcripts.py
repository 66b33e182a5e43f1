"""Golden transcripts: one seeded random game per registered game and table size, written out
as action texts and English events, compared on every run. A forced action (the only legal one) is
played without asking the random player, as a table plays it, and marked "(automatic)".

Any change of rules, random draws, action texts or English wording shows up as a diff of
tests/golden/<game>-<players>p.txt. After an intended change, regenerate them on purpose with
``make regen-golden`` (REGEN_GOLDEN=1) and review the diff.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.playout import random_steps
from engine.rng import Rng
from engine.text import Msg
from i18n import t

GOLDEN = Path(__file__).parent / "golden"
SEED = 20260
MAX_ACTIONS = 400
"""A transcript stops there: long enough to cover every phase, short enough to review."""
PLAYERS = ["alice", "bob", "carol", "dave"]

CASES = [(name, count) for name in engine.GAMES for count in engine.get_game(name).player_counts]


def playout(name: str, count: int, seed: int, limit: int) -> Iterator[tuple[str, Any, list[Msg], Any, bool]]:
    """A seeded random game: (who acted, the action, its events, the state after, whether it was
    forced) per action, at most ``limit`` actions; the same seed always plays the same game."""
    game = engine.get_game(name)
    for step in random_steps(game, PLAYERS[:count], seed, Rng(seed), limit=limit, auto=True):
        yield step.player, step.action, step.events, step.after, step.auto


def transcript(name: str, count: int) -> str:
    game = engine.get_game(name)
    names = {p: p.title() for p in PLAYERS[:count]}
    last = game.new_game(PLAYERS[:count], SEED, {})
    lines = [f"{name}, {count} players, seed {SEED}, default options"]
    for who, action, events, after, auto in playout(name, count, SEED, MAX_ACTIONS):
        lines.append(f"{who}: {action} (automatic)" if auto else f"{who}: {action}")
        lines.extend("    " + t(e, "en", names=names) for e in events)
        last = after
    result = game.result(last)
    if result is None:
        lines.append(f"(transcript stops after {MAX_ACTIONS} actions)")
    else:
        reason = t(result.reason, "en", names=names)
        lines.append(f"result: winners={list(result.winners)} draw={result.draw} {reason}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("name", "count"), CASES, ids=[f"{n}-{c}p" for n, c in CASES])
def test_golden_transcript(name: str, count: int) -> None:
    path = GOLDEN / f"{name}-{count}p.txt"
    text = transcript(name, count)
    if os.environ.get("REGEN_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run `make regen-golden` and review it"
    assert text == path.read_text(encoding="utf-8")
