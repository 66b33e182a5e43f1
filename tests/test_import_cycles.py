"""No import circles anywhere in the tree, read from the source itself (nothing is imported).

Two modules that import each other can only be loaded in one order, are tested and understood only
together, and break as soon as one of them imports the other's name at the top: what both need belongs
in a module both import. Every import counts, wherever it stands (at the top, inside a function, under
``TYPE_CHECKING``): an import moved into a function hides a circle, it does not cut it.

``from package.module import name`` points at ``package.module``; ``from package import name`` at
``package.name`` when that is a module, else at the package's ``__init__``. A package's ``__init__``
is not counted as imported by its submodules' own imports, so ``table/__init__.py`` may re-export
what its modules define.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def project_modules(root: Path) -> dict[str, Path]:
    """Every module of the tree by its dotted name; hidden folders (``.venv``, ``.git``) left out."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).parts
        if any(part.startswith(".") for part in relative):
            continue
        found[module_name(root, path)] = path
    return found


def _owner(name: str, modules: dict[str, Path]) -> str | None:
    """The longest leading part of ``name`` that is a module of the tree (``a.b.f`` -> ``a.b``)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the tree that ``name`` (at ``path``) imports, anywhere in its source."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {m for a in node.names if (m := _owner(a.name, modules))}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                full = f"{base}.{alias.name}" if base else alias.name
                target = full if full in modules else _owner(base, modules)
                if target:
                    found.add(target)
    found.discard(name)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = project_modules(root)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion):
    each is a set of modules that all reach each other through imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    return sorted(groups)


def describe(group: list[str], graph: dict[str, set[str]]) -> str:
    edges = [f"{a} -> {b}" for a in group for b in sorted(graph[a]) if b in group]
    return "; ".join(edges)


def test_no_module_of_the_tree_is_part_of_an_import_circle() -> None:
    graph = import_graph(ROOT)
    assert {"bot", "launch", "console", "table.core.tables", "engine.warchest.rules"} <= set(graph)
    found = circles(graph)
    assert found == [], "import circles:\n" + "\n".join(describe(g, graph) for g in found)


def test_the_circle_finder_finds_circles_through_every_kind_of_import(tmp_path: Path) -> None:
    """The finder itself, on a small tree: a circle through a function's import and a relative one,
    a package re-exporting its module (no circle), and a chain (no circle)."""
    files = {
        "a.py": "def f():\n    import b\n",
        "b.py": "from pkg.inner import thing\n",
        "pkg/__init__.py": "from pkg.inner import thing\n",
        "pkg/inner.py": "from . import other\n",
        "pkg/other.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a\n",
        "chain/__init__.py": "",
        "chain/top.py": "from chain import low\n",
        "chain/low.py": "import json\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    graph = import_graph(tmp_path)
    assert graph["chain.top"] == {"chain.low"} and graph["pkg"] == {"pkg.inner"}
    assert circles(graph) == [["a", "b", "pkg.inner", "pkg.other"]]
