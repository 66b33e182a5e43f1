"""The rules as a reference inside Discord: each game's pages and topics, found and shown in the
reader's language.

A game's rulebook is a list of topics. Its first topics are the summary pages, read in order (an
overview that lists everything, then set-up, a turn, actions, combat, scoring, the end); the others
explain one thing each: a unit, a card, a characteristic, a phase... Which topics a game has comes
from the engines' own data (``table.rules.rule_topics``), so a unit or card the engine knows always has
its page. Every text is a catalog entry, so a topic reads the same in English and French, and a
number it shows is passed from the same data the rules use.

Players name a topic by its id (``archer``), by its name in either language (``Soldat``, ``light
cavalry``), or by the start of a name when only one topic fits; autocomplete sends
``<game>:<id>`` so that a choice made without a game still names one.

Without a topic the overview is shown, which lists every page and topic group, and each page ends with the
command that opens the next one. Every reply fits one Discord message. The topics' texts are the catalog's
``i18n/locales/<lang>/rules_<game>.json``.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import i18n
from engine.matching import fold_words
from engine.text import Msg
from table.core.errors import TableError
from table.core.limits import Limits

MAX_SUGGESTIONS = 5
"""Close matches a refusal names at the most."""


def fold(text: str) -> str:
    """What a typed name is compared by: lower case, no accents, letters and digits only."""
    return "".join(c for c in "".join(fold_words(text, hyphens=True)) if c.isalnum())


@dataclass(frozen=True)
class Topic:
    """One thing to read: a page of the summary, or the rules of one unit, card, phase..."""

    id: str
    kind: str
    title: Msg
    body: tuple[Msg, ...]

    def spellings(self) -> set[str]:
        """Every folded name this topic answers to: its id and its title in each language."""
        return {fold(self.id), *(fold(i18n.t(self.title, lang)) for lang in i18n.LOCALES)}


@dataclass(frozen=True)
class Group:
    """A list of topics the overview names under one heading ("Units: Archer, Berserker...")."""

    key: str
    ids: tuple[str, ...]
    alphabetical: bool = False
    """Listed in the reader's alphabetical order (units), else in the order given (phases)."""


@dataclass(frozen=True)
class Rulebook:
    """A game's topics, its summary pages first in reading order."""

    game: str
    topics: tuple[Topic, ...]
    pages: tuple[str, ...]
    groups: tuple[Group, ...]

    @cached_property
    def by_id(self) -> dict[str, Topic]:
        return {topic.id: topic for topic in self.topics}

    def find(self, typed: str) -> Topic | None:
        """The topic ``typed`` names: an id or a name in full, else the only one whose name starts so."""
        wanted = fold(typed)
        if not wanted:
            return None
        for topic in self.topics:
            if wanted in topic.spellings():
                return topic
        starting = self.starting_with(wanted)
        return starting[0] if len(starting) == 1 else None

    def starting_with(self, wanted: str) -> list[Topic]:
        return [t for t in self.topics if any(s.startswith(wanted) for s in t.spellings())]

    def close_to(self, typed: str, locale: str) -> list[Topic]:
        """Topics whose name looks like ``typed``, for a refusal to suggest: names starting with it,
        else containing it, else spelled nearly alike."""
        wanted = fold(typed)
        found = self.starting_with(wanted) if wanted else []
        if not found and wanted:
            found = [t for t in self.topics if any(wanted in s for s in t.spellings())]
        if not found:
            names = {fold(i18n.t(t.title, locale)): t for t in self.topics}
            names.update({fold(t.id): t for t in self.topics})
            near = difflib.get_close_matches(wanted, list(names), n=MAX_SUGGESTIONS, cutoff=0.6)
            found = list({names[n].id: names[n] for n in near}.values())
        return found[:MAX_SUGGESTIONS]

    def next_page(self, topic: Topic) -> Topic | None:
        if topic.id not in self.pages:
            return None
        index = self.pages.index(topic.id) + 1
        return self.by_id[self.pages[index]] if index < len(self.pages) else None


# ---- showing ------------------------------------------------------------------------------------


def title_of(topic: Topic, locale: str) -> str:
    return i18n.t(topic.title, locale)


def render(book: Rulebook, topic: Topic, game: str, locale: str) -> str:
    """The text of one topic: a heading, its paragraphs, and on a page the way to the next one.

    The overview also lists the pages and the topics of each group, so every topic can be found
    from the first page. ``game`` is the game's display name in ``locale``.
    """
    title = title_of(topic, locale)
    if topic.id in book.pages:
        number = book.pages.index(topic.id) + 1
        head = i18n.t(
            "table.rules.header_page", locale, game=game, title=title, page=number, pages=len(book.pages)
        )
    else:
        kind = i18n.t(f"table.rules.kind.{topic.kind}", locale)
        head = i18n.t("table.rules.header", locale, game=game, title=title, kind=kind)
    lines = [head, *(i18n.t(part, locale) for part in topic.body)]
    if book.pages and topic.id == book.pages[0]:
        lines += _contents(book, game, locale)
    following = book.next_page(topic)
    if following is not None:
        lines.append(i18n.t("table.rules.next", locale, game=game, title=title_of(following, locale)))
    return "\n".join(lines)


def _contents(book: Rulebook, game: str, locale: str) -> list[str]:
    pages = [
        i18n.t("table.rules.page_entry", locale, page=n, title=title_of(book.by_id[p], locale))
        for n, p in enumerate(book.pages, start=1)
    ]
    lines = [i18n.t("table.rules.pages", locale, pages=pages)]
    for group in book.groups:
        names = [title_of(book.by_id[i], locale) for i in group.ids]
        if group.alphabetical:
            names.sort(key=fold)
        lines.append(i18n.t("table.rules.group", locale, group=Msg(group.key), topics=names))
    lines.append(i18n.t("table.rules.ask", locale, game=game))
    return lines


# ---- finding ------------------------------------------------------------------------------------


def split_choice(typed: str, books: Sequence[Rulebook]) -> tuple[str | None, str]:
    """``"warchest:archer"`` (an autocomplete value) -> ``("warchest", "archer")``; else ``(None, typed)``."""
    head, sep, rest = typed.strip().partition(":")
    if sep and head in {b.game for b in books}:
        return head, rest.strip()
    return None, typed.strip()


def unknown_topic(book: Rulebook, typed: str, game: str, locale: str) -> TableError:
    """The refusal of a topic ``book`` lacks, naming the closest topics (or the pages when none is close)."""
    near = book.close_to(typed, locale)
    if near:
        matches = [title_of(t, locale) for t in near]
        key = (
            "table.rules.ambiguous_topic" if book.starting_with(fold(typed)) else "table.rules.unknown_topic"
        )
        return TableError(key, topic=typed, game=game, matches=matches)
    pages = [title_of(book.by_id[p], locale) for p in book.pages]
    return TableError("table.rules.unknown_topic_pages", topic=typed, game=game, pages=pages)


def complete(
    books: Sequence[Rulebook], typed: str, locale: str, games: dict[str, str], limits: Limits
) -> list[tuple[str, str]]:
    """Autocomplete of the ``topic`` option: the topics whose name in the reader's language (or id)
    holds every typed word, names that start with what was typed first, as many as ``limits`` lets a
    list of choices hold.

    With several games (none chosen, none played here) each choice also names its game, from
    ``games`` (id -> display name).
    """
    words = [fold(w) for w in typed.split()]
    whole = fold(typed)
    first: list[tuple[str, str]] = []
    rest: list[tuple[str, str]] = []
    for book in books:
        for topic in book.topics:
            title = title_of(topic, locale)
            kind = i18n.t(f"table.rules.kind.{topic.kind}", locale)
            folded = fold(title)
            haystack = f"{folded} {fold(kind)} {fold(topic.id)}"
            if not all(w in haystack for w in words):
                continue
            if len(books) > 1:
                name = i18n.t(
                    "table.rules.choice_game", locale, title=title, kind=kind, game=games[book.game]
                )
            else:
                name = i18n.t("table.rules.choice", locale, title=title, kind=kind)
            value = f"{book.game}:{topic.id}"
            if len(value) > limits.choice:
                continue
            choice = (name if len(name) <= limits.choice else name[: limits.choice - 1] + "…", value)
            (first if whole and folded.startswith(whole) else rest).append(choice)
    return (first + rest)[: limits.choices]
