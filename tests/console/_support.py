"""Running the console as users do: ``python bot.py`` without a token, a script piped in."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[2]
RUNS_OF_MOVES = 2
SEEDS_TRIED = 60
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@dataclass
class Run:
    code: int
    out: str
    err: str


def run_console(tmp_path: Path, script: str) -> Run:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(
        DATABASE_PATH=str(tmp_path / "db" / "bot.sqlite3"),
        CONSOLE_OUT=str(tmp_path / "images"),
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
    )
    done = subprocess.run(
        [sys.executable, "bot.py"],
        cwd=ROOT,
        input=script,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def listed_moves(out: str) -> tuple[str, list[str]]:
    """Who was offered moves by ``/play`` without an action, and the moves (action texts)."""
    match = re.search(r"\[private to (\w+)\]\nYour legal moves:\n((?:  .*\n?)+)", out)
    assert match, f"no list of legal moves in:\n{out}"
    moves = [line.strip().split("  —  ")[0] for line in match[2].splitlines()]
    assert moves and all(moves)
    return match[1], moves


def images(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "images").glob("*.png"))


def blocks(out: str) -> list[str]:
    """The output cut at each echoed input line (``> user: /command``), echo included."""
    assert out.startswith("> "), out[:200]
    return ["> " + b for b in out[2:].split("\n> ")]


def short_game(players: list[str]) -> tuple[int, list[tuple[str, str]]]:
    """A seed and a complete game for it: (player, action text) in order, the shortest found.

    Moves favour control and attack so that games end quickly; the table deals a game
    with ``new_game(players in join order, seed, options)``, as replay does.
    """
    game = engine.get_game("warchest")
    best: tuple[int, list[tuple[str, str]]] | None = None
    for seed in range(SEEDS_TRIED):
        rng = random.Random(seed)
        state = game.new_game(players, seed, {"armies": "first"})
        moves: list[tuple[str, str]] = []
        while not game.is_over(state) and len(moves) < 400:
            player = game.to_act(state)[0]
            legal = game.legal_actions(state, player)
            for word in ("control", "attack", "deploy", "move", ""):
                preferred = [a for a in legal if str(a).startswith(word)]
                if preferred:
                    break
            action = rng.choice(preferred)
            state, _ = game.apply(state, player, action)
            moves.append((player, str(action)))
        if game.is_over(state) and (best is None or len(moves) < len(best[1])):
            best = (seed, moves)
    assert best is not None
    return best
