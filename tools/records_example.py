"""Write the README's records example from what the bot prints and draws.

Usage: python -m tools.records_example

Plays ``docs/examples/records-console.txt`` (eight rated games, then ``/leaderboard`` and ``/stats``)
in a fresh console on a temporary database, then writes, between the README's two markers, the
leaderboard and the record as the console printed them, and the images the bot drew with them, with
the alt text it gave them: the leaderboard's table (``docs/images/leaderboard.png``) and the record's
chart (``docs/images/rating-chart.png``). ``tests/console/test_readme.py``
plays the same script and holds the README to it, so the example cannot drift from the bot.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "docs" / "examples" / "records-console.txt"
README = ROOT / "README.md"
CHART = ROOT / "docs" / "images" / "rating-chart.png"
BOARD = ROOT / "docs" / "images" / "leaderboard.png"
START = "<!-- records example: python -m tools.records_example writes what follows -->"
END = "<!-- end of the records example -->"


@dataclass(frozen=True)
class Example:
    """What the console printed for the leaderboard and the record, and the images it drew."""

    leaderboard: str
    board_alt: str
    board: bytes
    record: str
    alt: str
    chart: bytes

    def markdown(self) -> str:
        """The README's part between the markers."""
        return "\n".join(
            [
                START,
                "```text",
                self.leaderboard,
                "```",
                "",
                f"![{self.board_alt}]({BOARD.relative_to(ROOT).as_posix()})",
                "",
                "```text",
                self.record,
                "```",
                "",
                f"![{self.alt}]({CHART.relative_to(ROOT).as_posix()})",
                END,
            ]
        )


def play(folder: Path) -> Example:
    """Run the example script in a console whose database and images live in ``folder``."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(
        DATABASE_PATH=str(folder / "bot.sqlite3"),
        CONSOLE_OUT=str(folder / "images"),
        CONSOLE_LOCALE="en",
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
    )
    done = subprocess.run(
        [sys.executable, "bot.py"],
        cwd=ROOT,
        input=SCRIPT.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    return read(done.stdout)


def _block(out: str, command: str) -> list[str]:
    """The lines the console printed for ``command`` (up to the next command's echo)."""
    after = out.split(f"> {command}\n", 1)[1]
    return re.split(r"^> ", after, maxsplit=1, flags=re.MULTILINE)[0].rstrip("\n").splitlines()


def _split(lines: list[str]) -> tuple[str, str, bytes]:
    """A reply's text, its image's alt text and the image the console wrote."""
    image = next(line.removeprefix("image: ") for line in lines if line.startswith("image: "))
    alt = next(line.removeprefix("alt text: ") for line in lines if line.startswith("alt text: "))
    kept = [line for line in lines if not line.startswith(("image: ", "alt text: "))]
    return "\n".join(kept).strip("\n"), alt, Path(image).read_bytes()


def read(out: str) -> Example:
    """The example in the console's output."""
    commands = [line for line in SCRIPT.read_text(encoding="utf-8").splitlines() if ": /" in line]
    board = _split(_block(out, next(c for c in commands if "/leaderboard" in c)))
    record = _split(_block(out, next(c for c in commands if "/stats" in c)))
    return Example(*board, *record)


def readme_part(text: str) -> str:
    """The README's part between the markers, markers included."""
    start = text.index(START)
    return text[start : text.index(END, start) + len(END)]


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        example = play(Path(folder))
    text = README.read_text(encoding="utf-8")
    README.write_text(text.replace(readme_part(text), example.markdown()), encoding="utf-8")
    CHART.write_bytes(example.chart)
    BOARD.write_bytes(example.board)
    print(f"wrote {README.relative_to(ROOT)}, {BOARD.relative_to(ROOT)} and {CHART.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
