"""The layering rules of docs/architecture.md, checked on the source itself.

``engine/`` stays pure so that rules can be tested, replayed and run by random
players without Discord, images or a database; ``render/`` draws views, never the
store or Discord. A violation is found by reading the imports of every module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Modules that touch the outside world or belong to higher layers.
IO_MODULES = {
    "discord",
    "PIL",
    "aiosqlite",
    "sqlite3",
    "asyncio",
    "socket",
    "http",
    "urllib",
    "aiohttp",
    "requests",
    "subprocess",
    "threading",
    "multiprocessing",
    "shutil",
    "tempfile",
    "io",
    "os",
}
PROJECT_UPPER = {"cogs", "console", "table", "db", "render", "bot", "i18n"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def _modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", ["engine", "ai"])
def test_engine_is_pure(package: str) -> None:
    """``ai/`` (the computer players) is held to the engine's rule: it runs in worker processes and
    replays games, so it must not reach Discord, images, the store or the outside world."""
    files = _modules(package)
    assert files, f"{package}/ has no modules"
    for path in files:
        bad = _imports(path) & (IO_MODULES | PROJECT_UPPER)
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("package", ["render"])
def test_render_does_not_reach_discord_or_the_store(package: str) -> None:
    for path in _modules(package):
        bad = _imports(path) & {"discord", "aiosqlite", "sqlite3", "db", "cogs", "table", "console"}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


TABLE_PARTS = {
    "leagues": {"play", "posting", "bots", "rules", "core"},
    "play": {"posting", "bots", "rules", "core"},
    "posting": {"bots", "core"},
    "bots": {"core"},
    "rules": {"core"},
    "core": set(),
}
"""Which sub-packages of ``table/`` each may import: leagues -> play -> posting -> bots -> core, and play ->
rules -> core. What a player calls sits on top (a league makes tables through what a player calls); the
core (the tables, the store's view of a game, posts, drawing) knows nothing of the rest, so each part can
be read and tested with only what lies under it."""


def _project_imports(path: Path) -> set[str]:
    """The dotted names ``path`` imports, wherever the import stands (top, function, TYPE_CHECKING)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def test_table_modules_live_in_its_sub_packages() -> None:
    loose = [p.name for p in sorted((ROOT / "table").glob("*.py")) if p.name != "__init__.py"]
    assert loose == [], f"table/ modules outside a sub-package: {loose}"
    parts = {p.name for p in (ROOT / "table").iterdir() if (p / "__init__.py").exists()}
    assert parts == set(TABLE_PARTS)
    for part in parts:
        init = ast.parse((ROOT / "table" / part / "__init__.py").read_text(encoding="utf-8"))
        assert ast.get_docstring(init), f"table/{part}/__init__.py says nothing of what it holds"


@pytest.mark.parametrize("part", sorted(TABLE_PARTS))
def test_table_sub_packages_import_one_way(part: str) -> None:
    allowed = TABLE_PARTS[part] | {part}
    for path in _modules(f"table/{part}"):
        reached = {name.split(".")[1] for name in _project_imports(path) if name.startswith("table.")}
        bad = reached - allowed
        assert not bad, f"{path.relative_to(ROOT)} imports table.{sorted(bad)} (allowed: {sorted(allowed)})"


def test_catalogs_have_the_same_keys_and_placeholders() -> None:
    import i18n

    en, fr = i18n.catalog("en"), i18n.catalog("fr")
    shared = set(en) - i18n.OWN_KEYS
    assert shared == set(fr) - i18n.OWN_KEYS, (
        f"missing in fr: {sorted(shared - set(fr))}; in en: {sorted(set(fr) - set(en))}"
    )
    for key, entry in ((k, en[k]) for k in shared):
        names_en, names_fr = i18n.fields(entry), i18n.fields(fr[key])
        assert names_en == names_fr, f"{key}: placeholders differ ({names_en} vs {names_fr})"


def _english_only_command_words() -> tuple[set[str], set[str]]:
    """The English command and option names that French spells differently ("new", "players"...)."""
    import i18n

    en, fr = i18n.catalog("en"), i18n.catalog("fr")
    names = [k for k in en if k.startswith("cmd.") and k.endswith(".name") and en[k] != fr[k]]
    commands = {str(en[k]) for k in names if k.count(".") <= 3}
    options = {str(en[k]) for k in names if k.count(".") == 4}
    return commands, options


def test_french_messages_name_the_french_commands() -> None:
    """A French Discord client shows /partie nouvelle, /jouer, /main: every French text says the same,
    down to the subcommands (/partie rejoindre, not /partie join) and the options (joueurs:, not players:).
    """
    import re

    import i18n

    commands, options = _english_only_command_words()
    assert {"game", "play", "hand", "new", "join"} <= commands and {"players", "team"} <= options
    french_commands = {
        str(v) for k, v in i18n.catalog("fr").items() if k.startswith("cmd.game.") and k.count(".") == 3
    }
    english = re.compile(r"/(game|play|hand)\b")
    subcommand = re.compile(r"/partie\s+([^\W\d_]+)")
    option = re.compile(r"(?<![\w={])(" + "|".join(sorted(options)) + r"):")
    wrong = {}
    for key, entry in i18n.catalog("fr").items():
        for text in i18n.variants(entry):
            bad = english.findall(text) + option.findall(text)
            bad += [w for w in subcommand.findall(text) if w not in french_commands]
            if bad:
                wrong[key] = bad
    assert not wrong, f"French texts naming English commands: {wrong}"


CLOCK_READS = ("time.time(", "time.monotonic(", "time.perf_counter(", "datetime.now(", "elapsed")
"""What reading the wall clock in a test looks like."""


def test_no_test_asserts_on_wall_clock_time() -> None:
    """A loaded CI machine runs everything slower: a test that asserts a duration fails there for
    no fault of the code. Tests inject clocks and assert behaviour; speed belongs to ``bench/``."""
    offenders = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = line.split("#", 1)[0]
            if code.lstrip().startswith("assert") and any(c in code for c in (*CLOCK_READS, "_delay")):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []
