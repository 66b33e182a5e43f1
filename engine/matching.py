"""Matching typed words against the legal actions of the moment, shared by the games that parse this way.

A game turns the player's text into words (its own verbs, aliases and folded names) and says which
abbreviations an action accepts; choosing among the legal actions and explaining a refusal is the
same everywhere: the full text wins, else exactly one abbreviation must fit, and an error lists a few
legal texts so the player sees what is possible.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from engine.errors import IllegalAction

A = TypeVar("A")

MAX_LISTED = 6
"""How many action texts an error message quotes at the most."""


def choose(
    text: str,
    words: list[str],
    legal: Sequence[A],
    fits: Callable[[A], bool],
    *,
    ambiguous_key: str,
    illegal_key: str,
) -> A:
    """The legal action whose text is ``words``, else the only one ``fits`` accepts.

    Raises ``IllegalAction`` with ``ambiguous_key`` when several abbreviations fit (listing them), and
    with ``illegal_key`` when none does (listing legal actions of the typed verb first).
    """
    for a in legal:
        if str(a).split() == words:
            return a
    found = [a for a in legal if fits(a)]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise IllegalAction(ambiguous_key, input=text.strip(), legal=examples(found, None))
    raise IllegalAction(illegal_key, input=text.strip(), legal=examples(legal, words[0]))


def examples(legal: Sequence[A], verb: str | None) -> str:
    """A few legal action texts in backquotes: those of ``verb`` if any, else one per verb, so the
    list shows the kinds of thing that are possible; ``—`` when nothing is legal."""
    same = [a for a in legal if verb is not None and getattr(a, "verb", "") == verb]
    if same:
        chosen = same[:MAX_LISTED]
    else:
        seen: dict[str, A] = {}
        for a in legal:
            seen.setdefault(getattr(a, "verb", ""), a)
        chosen = list(seen.values())[:MAX_LISTED]
    return ", ".join(f"`{a}`" for a in chosen) or "—"
