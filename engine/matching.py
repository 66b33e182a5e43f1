"""Matching typed words against the legal actions of the moment, shared by the games that parse this way.

A game turns the player's text into words (its own verbs, aliases and folded names) and says which
abbreviations an action accepts; choosing among the legal actions and explaining a refusal is the
same everywhere: the full text wins, else exactly one abbreviation must fit, and an error lists a few
legal texts so the player sees what is possible.

Players type in their language (its words are a ``Lexicon`` from the catalogs), with or without
accents, with either apostrophe: ``fold_words`` reduces a text to plain lower-case words and
``substitute`` replaces the names of several words (``light cavalry``, ``Harvest Protocol``) by the
one word of the action text.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

from engine.errors import IllegalAction
from engine.text import Msg, msg

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
    typed: Callable[[A], Msg] | None = None,
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
        raise IllegalAction(ambiguous_key, input=text.strip(), legal=examples(found, None, typed))
    raise IllegalAction(illegal_key, input=text.strip(), legal=examples(legal, words[0], typed))


def examples(
    legal: Sequence[A], verb: str | None, typed: Callable[[A], Msg] | None = None
) -> str | list[Msg]:
    """A few legal action texts in backquotes: those of ``verb`` if any, else one per verb, so the
    list shows the kinds of thing that are possible; ``—`` when nothing is legal.

    With ``typed`` (an action's text as a catalog message, in the words of the reader's language that
    read back as that action) the list is of those messages, so a French player is shown French texts."""
    same = [a for a in legal if verb is not None and getattr(a, "verb", "") == verb]
    if same:
        chosen = same[:MAX_LISTED]
    else:
        seen: dict[str, A] = {}
        for a in legal:
            seen.setdefault(getattr(a, "verb", ""), a)
        chosen = list(seen.values())[:MAX_LISTED]
    if typed is not None and chosen:
        return [typed(a) for a in chosen]
    return ", ".join(f"`{a}`" for a in chosen) or "—"


def typed_text(words: Sequence[Msg | str]) -> Msg:
    """An action text of ``words`` (catalog messages for words that differ by language, plain text for
    the rest, such as hex labels) in backquotes, as a hint quotes it for typing."""
    return msg(f"typed.{len(words)}", **{f"w{i}": w for i, w in enumerate(words)})


_SEPARATORS = str.maketrans({"'": " ", "\u2019": " ", "\u2018": " ", "`": " ", ",": " "})


class Phrases(dict[tuple[str, ...], str]):
    """Folded words of a name -> the word that stands for it in action texts.

    A table is built once, at import, and read for every typed text (and every action a playout or a
    search parses): the phrase lengths are worked out on construction rather than by each reading.
    Tables are never changed after construction."""

    def __init__(
        self, pairs: Mapping[tuple[str, ...], str] | Iterable[tuple[tuple[str, ...], str]] = ()
    ) -> None:
        super().__init__(pairs)
        self.lengths: tuple[int, ...] = tuple(sorted({len(k) for k in self}, reverse=True))
        """The distinct phrase lengths, longest first."""
        self.longest: int = self.lengths[0] if self.lengths else 0


FOLDS_KEPT = 4096
"""How many folded texts are remembered. The same few words come again and again (unit and region
names, the words of each legal action's text as it is parsed back); the bound keeps what players type
from growing the memory."""


def fold_words(text: str, *, hyphens: bool = False) -> list[str]:
    """Lower-case words without accents; apostrophes and commas separate words, and hyphens too when
    ``hyphens`` is set: ``Royal\u2019s Coin`` gives ``["royal", "s", "coin"]``."""
    return list(_folded(text, hyphens))


@functools.lru_cache(maxsize=FOLDS_KEPT)
def _folded(text: str, hyphens: bool) -> tuple[str, ...]:
    """``fold_words`` as a tuple, which the cache may share between callers."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).translate(_SEPARATORS)
    return tuple((plain.replace("-", " ") if hyphens else plain).split())


def phrases(names: Mapping[str, str] | Iterable[tuple[str, str]]) -> Phrases:
    """A phrase table from ``name -> word`` pairs, each name folded as typed text is."""
    pairs = names.items() if isinstance(names, Mapping) else names
    return Phrases((tuple(fold_words(name, hyphens=True)), word) for name, word in pairs)


def substitute(words: list[str], table: Phrases, start: int = 0) -> list[str]:
    """``words`` with each phrase of ``table`` from index ``start`` on replaced by its word, the
    longest phrase first (``light cavalry`` before ``cavalry``)."""
    longest = table.longest
    out = words[:start]
    i = start
    while i < len(words):
        for n in range(min(longest, len(words) - i), 0, -1):
            word = table.get(tuple(words[i : i + n]))
            if word is not None:
                out.append(word)
                i += n
                break
        else:
            out.append(words[i])
            i += 1
    return out


def lead(words: list[str], table: Phrases) -> list[str]:
    """``words`` with a phrase of ``table`` at their very start replaced by its word: a verb typed as
    several words (the French for taking the initiative is three)."""
    for n in table.lengths:
        word = table.get(tuple(words[:n]))
        if word is not None and len(words) >= n:
            return [word, *words[n:]]
    return words
