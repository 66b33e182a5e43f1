"""The type check covers the whole bot, strictly, with no blanket exemptions.

``make test`` runs mypy on the files ``[tool.mypy]`` of pyproject.toml lists. A package left out of
that list would not be checked at all, and nothing would say so; an unqualified ``# type: ignore``
or a module-wide exemption would silence every error of its line or module, not the one a library's
missing types force. These tests keep the list whole and the exemptions narrow.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_CHECKED = {"tests"}
"""Packages mypy does not check: the tests (their fixtures and fakes are typed loosely on purpose)."""


def _mypy() -> dict[str, object]:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    config: dict[str, object] = pyproject["tool"]["mypy"]
    return config


def _checked_sources() -> list[Path]:
    files = _mypy()["files"]
    assert isinstance(files, list)
    found: list[Path] = []
    for entry in files:
        found += ROOT.glob(entry) if "*" in entry else [ROOT / entry]
    return [
        source for place in found for source in ([place] if place.is_file() else sorted(place.rglob("*.py")))
    ]


def test_every_package_and_top_level_module_is_checked_strictly() -> None:
    config = _mypy()
    files = config["files"]
    assert isinstance(files, list)
    packages = {init.parent.name for init in ROOT.glob("*/__init__.py")} - NOT_CHECKED
    assert packages - set(files) == set(), "add the new package to [tool.mypy] files"
    assert "*.py" in files  # bot.py and any other top-level module
    assert config["strict"] is True
    assert config.get("warn_unused_ignores", True) is True  # an ignore that no longer applies goes
    assert "overrides" not in config  # no module exempted or loosened


def test_type_ignores_name_their_error_codes() -> None:
    bare = re.compile(r"#\s*type:\s*ignore(?!\[[a-z-]+(?:,\s*[a-z-]+)*\])")
    inline_config = re.compile(r"#\s*mypy:")  # e.g. ignore-errors, or strictness turned off in one file
    found = []
    for source in _checked_sources():
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
            if bare.search(line) or inline_config.search(line):
                found.append(f"{source.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
