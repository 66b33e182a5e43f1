"""Every console example of the README works when pasted, as written (comments included)."""

from __future__ import annotations

import io
import re
from pathlib import Path

from tests.console._support import ROOT, blocks, run_clean


def readme_console_blocks() -> list[list[str]]:
    """The README's ``sh`` blocks that start the console with ``make run``: the lines typed into it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL):
        lines = block.splitlines()
        if lines and lines[0].strip() == "make run":
            found.append([line for line in lines[1:] if line.strip()])
    return found


def test_the_readme_has_a_console_walkthrough() -> None:
    assert readme_console_blocks(), "the README shows a console session"


def test_every_readme_console_line_works_when_pasted(tmp_path: Path) -> None:
    """Each block in a console of its own, as the README says (each opens a table in its one channel)."""
    for number, lines in enumerate(readme_console_blocks()):
        run = run_clean(tmp_path / f"session-{number}", "\n".join(lines) + "\n")
        out = blocks(run.out)
        assert len(out) == len(lines), "each pasted line is one command"
        for line, block in zip(lines, out, strict=True):
            assert block.startswith(f"> {line}\n"), block
            for failure in ("I could not read", "Unknown command", "Internal error", "has no option"):
                assert failure not in block, f"{line!r} failed:\n{block}"
        assert "⏰ @bob" in run.out, "the walkthrough's day without a move reminds bob"
        assert "Your turn: @bob." in run.out and "image: " in run.out


def test_the_readme_records_example_is_what_the_bot_prints_and_draws(tmp_path: Path) -> None:
    """The README's leaderboard and record, and their images, come from ``docs/examples/records-console.txt``
    played in the console (``python -m tools.records_example`` writes them): played again, the bot
    prints the same text and draws the same chart, within the golden images' tolerance."""
    from PIL import Image, ImageChops, ImageStat

    from tools.records_example import BOARD, CHART, Example, play, readme_part

    example: Example = play(tmp_path)
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme_part(text) == example.markdown(), "run python -m tools.records_example"
    assert "Wins by unit:" in example.record and "Average game:" in example.record
    assert "Fewer than 5 rated games" in example.leaderboard and "War Chest" in example.alt
    for png, path in ((example.chart, CHART), (example.board, BOARD)):
        drawn = Image.open(io.BytesIO(png)).convert("RGB")
        shown = Image.open(path).convert("RGB")
        assert drawn.size == shown.size, path.name
        assert max(ImageStat.Stat(ImageChops.difference(drawn, shown)).mean) < 1.0, path.name
