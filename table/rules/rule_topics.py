"""What each game's rulebook holds, read from the engines' own data.

The texts live in the catalog (``i18n/locales/<lang>/rules_<game>.json``); this module only says
which topics exist, in which order, and passes each text the numbers the engine plays by. A unit,
card, structure or skill added to an engine's data therefore gets its topic at once, and the
rulebook tests fail until its text is written in both languages.

Each game's own topics are built in its module of ``table.rules.games`` (named by
``engine.registry``) from the pieces here: a topic, the summary pages, a rulebook with its groups.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from importlib import import_module

from engine import registry
from engine.text import Msg
from table.rules.rulebook import Group, Rulebook, Topic

PAGES = ("overview", "setup", "turn", "actions", "combat", "scoring", "end")
"""The summary pages every game has, in reading order; the first lists every topic."""


def topic(
    game: str,
    kind: str,
    tid: str,
    *body: Msg,
    title: Msg | None = None,
    params: Mapping[str, object] | None = None,
) -> Topic:
    """A topic whose first paragraph is ``rules.<game>.<kind>.<id>`` (with ``params``) and whose
    title is that key's ``.title`` unless given."""
    key = f"rules.{game}.{kind}.{tid}"
    return Topic(tid, kind, title or Msg(f"{key}.title"), (Msg(key, params or {}), *body))


def summary_pages(game: str, numbers: Mapping[str, object]) -> list[Topic]:
    """The summary pages; each text takes from ``numbers`` what it shows (the engine's own values)."""
    return [topic(game, "page", p, params=numbers) for p in PAGES]


def make_book(
    game: str,
    topics: Iterable[Topic],
    groups: Iterable[tuple[str, Iterable[str]]],
    alphabetical: Iterable[str] = (),
) -> Rulebook:
    """A rulebook with the summary pages; ``groups`` are what the overview lists, under
    ``table.rules.group.<key>``, those in ``alphabetical`` sorted by name in the reader's language."""
    sort = set(alphabetical)
    return Rulebook(
        game,
        tuple(topics),
        PAGES,
        tuple(Group(f"table.rules.group.{key}", tuple(ids), key in sort) for key, ids in groups),
    )


def msgs_of(prefix: str, ids: Iterable[str]) -> list[Msg]:
    return [Msg(f"{prefix}.{i}") for i in ids]


# ---- all games ----------------------------------------------------------------------------------


@cache
def _book_of(module: str) -> Rulebook:
    built: Rulebook = import_module(module).book()
    return built


def rulebook(game: str) -> Rulebook | None:
    """The rulebook of ``game``, built once; ``None`` for a game without one (``engine.registry``)."""
    entry = registry.find(game)
    if entry is None or entry.rules is None:
        return None
    return _book_of(entry.rules)


__all__ = ["PAGES", "make_book", "msgs_of", "rulebook", "summary_pages", "topic"]
