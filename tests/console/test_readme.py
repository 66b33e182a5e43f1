"""Every console example of the README works when pasted, as written (comments included)."""

from __future__ import annotations

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
    for lines in readme_console_blocks():
        run = run_clean(tmp_path, "\n".join(lines) + "\n")
        out = blocks(run.out)
        assert len(out) == len(lines), "each pasted line is one command"
        for line, block in zip(lines, out, strict=True):
            assert block.startswith(f"> {line}\n"), block
            for failure in ("I could not read", "Unknown command", "Internal error", "has no option"):
                assert failure not in block, f"{line!r} failed:\n{block}"
        assert "⏰ @bob" in run.out, "the walkthrough's day without a move reminds bob"
        assert "Your turn: @bob." in run.out and "image: " in run.out
