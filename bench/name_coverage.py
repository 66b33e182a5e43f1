"""How many display names the images draw with a placeholder box: the 200 names of
``tests/render/data/display_names.txt`` (Chinese, Japanese, Korean, Thai, Devanagari, Hebrew,
Arabic, emoji with skin tones, flags and joined sequences, mixed), measured with the renderer's own
glyph coverage (``render.text.placeholders``), not by looking at pixels.

Usage: python -m bench.name_coverage [--against REV]

Prints the names with at least one box, and the share of characters (clusters, as a reader counts
them, spaces left out) drawn as a box. With ``--against REV`` the same figures for the renderer of
git revision ``REV`` (its ``render/`` folder only, run in a subprocess) are printed first.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.render_bench import renderer_of

NAMES_FILE = Path(__file__).resolve().parents[1] / "tests" / "render" / "data" / "display_names.txt"


def display_names() -> list[str]:
    """The fixed list of names, comments and blank lines left out."""
    lines = NAMES_FILE.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def coverage(names: list[str]) -> dict[str, int]:
    """Names with a box, boxed characters and characters, in regular and in bold."""
    from render.text import clusters, placeholders

    found = {"names": len(names), "characters": 0}
    for bold in (False, True):
        weight = "bold" if bold else "regular"
        boxed = [placeholders(name, bold=bold) for name in names]
        found[f"names_boxed_{weight}"] = sum(1 for b in boxed if b)
        found[f"boxes_{weight}"] = sum(len(b) for b in boxed)
    found["characters"] = sum(1 for name in names for c in clusters(name) if not c.isspace())
    return found


def line(label: str, found: dict[str, int]) -> str:
    share = 100 * found["boxes_regular"] / found["characters"]
    return (
        f"{label}: {found['names_boxed_regular']}/{found['names']} names with a box "
        f"({found['names_boxed_bold']} in bold), {found['boxes_regular']}/{found['characters']} "
        f"characters drawn as a box ({share:.1f}%)"
    )


_OLD = (
    "import json; from bench.name_coverage import coverage, display_names; "
    "print(json.dumps(coverage(display_names())))"
)


def main(argv: list[str]) -> None:
    if "--against" in argv:
        revision = argv[argv.index("--against") + 1]
        with renderer_of(revision) as (tmp, env):
            done = subprocess.run(
                [sys.executable, "-c", _OLD], check=True, capture_output=True, text=True, env=env, cwd=tmp
            )
        print(line(revision, json.loads(done.stdout)))
    print(line("now", coverage(display_names())))


if __name__ == "__main__":
    main(sys.argv[1:])
