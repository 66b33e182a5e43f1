"""The documents players and admins read: sane files, well-formed headings, links that resolve.

A scripted edit once inserted a paragraph between every character of a rules document (33 KB
became 12.7 MB) and nothing noticed. These checks read every file under ``docs/`` and the README
the way a reader's viewer would, so such an accident fails the suite instead of landing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_BYTES = 200_000
"""Far above any hand-written document here (the largest is about 35 KB)."""

FILES = sorted(p for p in (ROOT / "docs").rglob("*") if p.is_file())
PICTURES = [p for p in FILES if p.suffix == ".png"]
DOCS = [p for p in FILES if p not in PICTURES]
MARKDOWN = [ROOT / "README.md", *(p for p in DOCS if p.suffix == ".md")]

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(\S.*)$")
_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
_PICTURE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _prose_lines(text: str) -> list[tuple[int, str]]:
    """The numbered lines outside fenced code blocks (where ``#`` is a shell comment)."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def test_there_are_documents_to_check() -> None:
    assert any(p.name == "warchest.md" for p in DOCS)
    assert len(MARKDOWN) >= 5


@pytest.mark.parametrize("path", DOCS, ids=_rel)
def test_every_document_is_utf8_text_of_a_sane_size(path: Path) -> None:
    data = path.read_bytes()
    assert len(data) <= MAX_BYTES, f"{_rel(path)} is {len(data)} bytes: an edit gone wrong?"
    text = data.decode("utf-8")  # raises on anything that is not UTF-8
    assert "\x00" not in text
    assert "\r" not in text, f"{_rel(path)} has Windows line ends"
    assert text.endswith("\n"), f"{_rel(path)} does not end with a line end"


@pytest.mark.parametrize("path", PICTURES, ids=_rel)
def test_every_picture_is_a_png_of_a_sane_size(path: Path) -> None:
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n"), f"{_rel(path)} is not a PNG"
    assert len(data) <= MAX_BYTES, f"{_rel(path)} is {len(data)} bytes"


@pytest.mark.parametrize("path", MARKDOWN, ids=_rel)
def test_every_picture_shown_exists(path: Path) -> None:
    for target in _PICTURE.findall(path.read_text(encoding="utf-8")):
        assert (path.parent / target).is_file(), f"{_rel(path)} shows {target}, which does not exist"


@pytest.mark.parametrize("path", MARKDOWN, ids=_rel)
def test_headings_form_an_outline(path: Path) -> None:
    """One title first, then headings that never skip a level, none repeated under one parent."""
    lines = _prose_lines(path.read_text(encoding="utf-8"))
    first = next(line for _, line in lines if line.strip())
    assert _HEADING.match(first) and first.startswith("# "), f"{_rel(path)} does not start with a title"
    depth = 0
    seen: dict[tuple[str, ...], int] = {}
    trail: list[str] = []
    for number, line in lines:
        if line.startswith("#") and not _HEADING.match(line):
            raise AssertionError(f"{_rel(path)}:{number}: malformed heading {line[:40]!r}")
        m = _HEADING.match(line)
        if m is None:
            continue
        level, title = len(m.group(1)), m.group(2).strip()
        assert level <= depth + 1, f"{_rel(path)}:{number}: heading skips from level {depth} to {level}"
        assert level > 1 or depth == 0, f"{_rel(path)}:{number}: a second title"
        trail = [*trail[: level - 1], title]
        key = tuple(trail)
        assert key not in seen, f"{_rel(path)}:{number}: heading {title!r} repeats line {seen[key]}"
        seen[key] = number
        depth = level


@pytest.mark.parametrize("path", MARKDOWN, ids=_rel)
def test_links_to_files_resolve(path: Path) -> None:
    text = "\n".join(line for _, line in _prose_lines(path.read_text(encoding="utf-8")))
    for target in _LINK.findall(text):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        file = (path.parent / target.split("#", 1)[0]).resolve()
        assert file.exists(), f"{_rel(path)} links to {target}, which does not exist"
        assert ROOT in file.parents, f"{_rel(path)} links outside the repository: {target}"


RULES = sorted((ROOT / "docs" / "rules").glob("*.md"))
READINGS = "## How the bot reads the rules"
"""The heading after which a rules document explains its readings of the seed; the rules before it
are written for players."""
IMPLEMENTATION_WORDS = re.compile(
    r"axial|coordinates|\(x, ?y\)|seed|engine|generator|json|\.py\b|python|catalog|\bcode\b|\bview\b"
    r"|snowflake|implementation|parser|bench|markers_left|\bdata/|docs/|\bstate\b",
    re.IGNORECASE,
)
"""Words that tell how the bot is made, not how the game is played."""


def test_there_is_a_rules_document_per_game() -> None:
    assert {p.stem for p in RULES} == {"warchest", "batailles", "cryhavoc"}


@pytest.mark.parametrize("path", RULES, ids=_rel)
def test_a_rules_document_gives_the_rules_then_the_readings_with_the_quoted_seed(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(f"\n{READINGS}\n") == 1, f"{_rel(path)} has no single {READINGS!r} section"
    rules, readings = text.split(f"\n{READINGS}\n")
    assert rules.count("\n## ") >= 5, f"{_rel(path)}: the player's rules come first"
    quotes = re.findall(r"^> « .+", readings, flags=re.MULTILINE)
    assert len(quotes) >= 10, f"{_rel(path)}: the readings quote the French seed"
    assert not re.findall(r"^> « ", rules, flags=re.MULTILINE), f"{_rel(path)}: a seed quote among the rules"


@pytest.mark.parametrize("path", RULES, ids=_rel)
def test_the_players_part_of_a_rules_document_has_no_implementation_words(path: Path) -> None:
    rules = path.read_text(encoding="utf-8").split(f"\n{READINGS}\n")[0]
    found = [
        f"{number}: {m.group()!r} in {line.strip()[:60]!r}"
        for number, line in enumerate(rules.splitlines(), start=1)
        for m in IMPLEMENTATION_WORDS.finditer(line)
    ]
    assert found == []


def _readme_commands() -> list[tuple[str, ...]]:
    """The commands of the README's table under "## Playing", as paths (``("game", "new")``), in order."""
    from table.play.command_tree import GROUPS

    section = (ROOT / "README.md").read_text(encoding="utf-8").split("\n## Playing\n", 1)[1]
    rows = re.findall(r"^\| (`.+?) \|", section.split("\n## ", 1)[0].split("\n\n| command |", 1)[1], re.M)
    paths = []
    for cell in rows:
        for shown in re.findall(r"`(/[^`]+)`", cell):
            words = shown[1:].split()
            paths.append(tuple(words[:2]) if words[0] in GROUPS else (words[0],))
    return paths


def test_the_readmes_command_table_lists_every_slash_command_once() -> None:
    """The README's table and ``/game help`` are read by the same players: the same commands, each once
    (``table.play.command_tree`` is the tree the cogs register, a test of the synced payload checks)."""
    from table.play.command_tree import DISCORD, commands_for

    listed = _readme_commands()
    twice = sorted({p for p in listed if listed.count(p) > 1})
    assert not twice, f"listed twice: {twice}"
    assert set(listed) == {c.path for c in commands_for(DISCORD)}
