"""Running the console as users do: ``python bot.py`` without a token, a script piped in."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNS_OF_MOVES = 2
EXAMPLE = ROOT / "docs" / "examples" / "warchest-console.txt"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@dataclass
class Run:
    code: int
    out: str
    err: str


def run_console(tmp_path: Path, script: str, locale: str = "en") -> Run:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(
        DATABASE_PATH=str(tmp_path / "db" / "bot.sqlite3"),
        CONSOLE_OUT=str(tmp_path / "images"),
        CONSOLE_LOCALE=locale,
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


def run_clean(tmp_path: Path, script: str, locale: str = "en") -> Run:
    """``run_console`` that must end normally, with no traceback anywhere in its output."""
    run = run_console(tmp_path, script, locale)
    assert run.code == 0, run.err
    assert "Traceback" not in run.out + run.err
    return run


def commands_of(text: str) -> list[str]:
    """The lines the console runs (and echoes): neither blank nor comments."""
    return [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def check_played(moves: list[tuple[str, str]], played: list[str]) -> None:
    """Each block of ``played`` echoes its move of ``moves``, confirms it to its player privately,
    and shows the board it led to: a new post when the turn passed, else the turn's post updated."""
    for (player, action), block in zip(moves, played, strict=True):
        assert block.startswith(f"> {player}: /play action:{action}\n[private to {player}]\nDone."), (
            f"refused: {block}"
        )
        assert "image: " in block or "(board updated in place: " in block, block


def boards_written(out: str) -> int:
    """How many image files the console announced writing (edits overwrite one of them)."""
    return len(re.findall(r"^image: ", out, flags=re.MULTILINE))


def listed_moves(out: str) -> tuple[str, list[str]]:
    """Who was offered moves by ``/play`` without an action, and the moves (action texts)."""
    match = re.search(r"\[private to (\w+)\]\nYour legal moves:\n((?:  .*\n?)+)", out)
    assert match, f"no list of legal moves in:\n{out}"
    moves = [line.strip().split("  —  ")[0] for line in match[2].splitlines()]
    assert moves and all(moves)
    return match[1], moves


def images(tmp_path: Path) -> list[Path]:
    """The images the console wrote, in the order of their numbers."""
    return sorted((tmp_path / "images").glob("*.png"))


def png_images(tmp_path: Path) -> list[Path]:
    """``images``, each of which must be a PNG file."""
    written = images(tmp_path)
    assert all(p.read_bytes().startswith(PNG_MAGIC) for p in written)
    return written


def blocks(out: str) -> list[str]:
    """The output cut at each echoed input line (``> user: /command``), echo included."""
    assert out.startswith("> "), out[:200]
    return ["> " + b for b in out[2:].split("\n> ")]


def example_game() -> tuple[int, list[tuple[str, str]]]:
    """The seed and moves of the README's scripted game (docs/examples/warchest-console.txt).

    The file is written by tools/script_game.py; the test replays its moves, so the example
    that newcomers pipe into ``make run`` is checked to play through to a winner.
    """
    text = EXAMPLE.read_text(encoding="utf-8")
    seed_match = re.search(r"seed=(\d+)", text)
    assert seed_match, "the example fixes its deal with seed="
    moves = re.findall(r"^(\w+): /play action:(.+)$", text, flags=re.MULTILINE)
    assert moves
    return int(seed_match[1]), [(player, action.strip()) for player, action in moves]
