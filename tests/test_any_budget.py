"""The product code's use of ``Any`` may only shrink.

``Any`` switches the type check off wherever a value carries it: a view key misspelt in a renderer, a
state read as the wrong type, an action of one game handed to another. The engine contract is
generic over each game's state, action and view, and the views are ``TypedDict``s, so most of the
code no longer needs it. This test counts the lines that name ``Any`` (as a name, read by the
tokenizer: not in a string or a comment) per thousand lines of the product packages, and fails
above ``BOUND``. Lower ``BOUND`` when the figure drops; never raise it.
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("engine", "ai", "render", "table", "db", "cogs", "console")
"""The packages that run in the bot; with the top-level modules ``TOP``. Tests, benches and tools
are left out: their fakes are typed loosely on purpose."""
TOP = ("bot.py", "launch.py")

BOUND = 1.1
"""Lines naming ``Any`` per 1,000 product lines: 16.9 before the typed contract and views, 12.4
after; 12.9 before the search, the renderers, forced moves, playouts and undo were typed over each
game's state, action and view, and the stores' rows, statement parameters and JSON columns were
typed (``db.values``); 7.3 after (rounded up to the tenth); 7.29 before the worker pool's jobs, the
command checks, the persistent buttons, a table's state and views, replays, the announcements'
timing and waits, the leagues' pairing fields and the posts' words were typed; 4.44 after (the
bound leaves room for changes made alongside); 3.47 before the Batailles and War Chest saves became
``TypedDict``s of their JSON records, the leaderboard, chart and standings views ``TypedDict``s of
their renderers, the engine's ``JSON`` a recursive union, and catalog parameters, results, last
actions, notes, explanations, maps, pages and the command tree's payloads were typed; 0.998 after
(the bound: rounded up to the tenth, plus a tenth for changes made alongside)."""


def _sources() -> list[Path]:
    found = [path for package in PRODUCT for path in sorted((ROOT / package).rglob("*.py"))]
    return found + [ROOT / name for name in TOP]


def any_lines(text: str) -> set[int]:
    """The numbers of the lines of ``text`` where ``Any`` appears as a name."""
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return {token.start[0] for token in tokens if token.type == tokenize.NAME and token.string == "Any"}


def any_per_thousand_lines() -> float:
    lines = named = 0
    for source in _sources():
        text = source.read_text(encoding="utf-8")
        lines += len(text.splitlines())
        named += len(any_lines(text))
    return 1000 * named / lines


def test_any_lines_are_counted_as_names_only() -> None:
    text = 'from typing import Any\n# Any in a comment\nx: "Any" = 1\ny: dict[str, Any] = {}\ntyping.Any\n'
    assert any_lines(text) == {1, 4, 5}


def test_any_per_thousand_product_lines_stays_under_its_bound() -> None:
    figure = any_per_thousand_lines()
    assert figure <= BOUND, f"{figure:.2f} lines naming Any per 1,000 product lines, above {BOUND}"
