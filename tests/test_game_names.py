"""No shared module names a game: each game is known through ``engine.registry`` alone.

A game's name in a shared module (a string, an identifier, an import) is a place that must change
when a game is added, and one a new game silently misses. So outside the game's own packages (the
ones its registry entry names) and the registry itself, the product's code names no game.
Docstrings and comments may still cite a game as an example: they are stripped before reading.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterable, Sequence
from pathlib import Path

from engine import registry

ROOT = Path(__file__).resolve().parent.parent

PRODUCT = ("engine", "ai", "render", "table", "db", "cogs", "console", "bot.py", "launch.py")
"""What runs in the bot: the packages and the two entry points (tests, benches and tools aside)."""


def _module_path(dotted: str) -> str:
    """``render.warchest`` -> ``render/warchest``: a package's folder, or a module's file."""
    return dotted.replace(".", "/")


def game_homes() -> list[str]:
    """Where naming a game is its business: each game's own packages and modules, and the registry."""
    homes = ["engine/registry.py"]
    for entry in registry.BUILT_IN:
        homes += [_module_path(part) for part in (entry.engine, entry.ai, entry.render, entry.rules) if part]
    return homes


def _stripped_lines(source: str) -> set[int]:
    """The lines of bare string statements (docstrings, attribute docstrings)."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def naming(source: str, names: Sequence[str]) -> list[str]:
    """The tokens of ``source``'s code (comments and docstrings left out) that name one of ``names``."""
    pattern = re.compile("|".join(map(re.escape, names)), re.IGNORECASE)
    prose = _stripped_lines(source)
    kinds = {tokenize.NAME, tokenize.STRING}
    kinds |= {getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in kinds or token.start[0] in prose:
            continue
        if pattern.search(token.string):
            found.append(f"{token.start[0]}: {token.string}")
    return found


def _product_files(root: Path) -> Iterable[Path]:
    for part in PRODUCT:
        path = root / part
        yield from [path] if path.is_file() else sorted(path.rglob("*.py"))


def offenders(root: Path, names: Sequence[str], homes: Sequence[str]) -> dict[str, list[str]]:
    """Each product module under ``root`` outside ``homes`` whose code names a game, with where."""
    out = {}
    for path in _product_files(root):
        relative = path.relative_to(root).as_posix()
        if any(
            relative == f"{home}.py" or relative == home or relative.startswith(f"{home}/") for home in homes
        ):
            continue
        hits = naming(path.read_text(encoding="utf-8"), names)
        if hits:
            out[relative] = hits
    return out


def test_no_shared_module_names_a_game() -> None:
    found = offenders(ROOT, registry.names(), game_homes())
    assert found == {}, f"modules naming a game outside its packages: {found}"


def test_the_scan_sees_a_name_in_code_and_not_in_prose() -> None:
    source = '''"""War Chest, as warchest names it."""
# warchest in a comment
GAME = "warchest"  # the code names it
def f():
    """batailles in a docstring."""
    return f"{x}.cryhavoc"
'''
    found = naming(source, registry.names())
    assert [hit.split(":")[0] for hit in found] == ["3", "6"], found


def test_the_store_layer_loads_no_game() -> None:
    """The stores are handed the rating pools and the reading of sides (``db.sides``): nothing under
    ``db/`` imports the engine, not even its errors (a stale move and a finished game are the store's
    own refusals, ``db.errors``), so no game's rules load with the store."""
    for path in sorted((ROOT / "db").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                modules = [node.module or ""]
            else:
                continue
            engine_parts = [m for m in modules if m.split(".")[0] == "engine"]
            assert not engine_parts, f"{path.relative_to(ROOT)} imports {modules}"
