"""A player's legal moves as a list to read and narrow: what ``/play`` lists and autocomplete offers.

Discord's autocomplete holds 25 choices, and a reply is read by a screen reader line by line, while a
Batailles deployment has hundreds of legal moves. So a list of more than it holds groups the moves
by the words the reader types them with, after the words they all share (every ``deploy inf1 …``,
then every ``deploy inf1 c2 …``), each group with its count: typing a group's words, or choosing it,
lists that group, step by step down to single moves. When even the groups do not fit, the list
says how many moves it leaves out and that more words narrow it, so no move is ever out of reach.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.matching import fold_words
from table.posting.menus import common_words

GROUP_MARK = "…"
"""Ends a group's words in a choice's value: the front end sends them back to list the group, and
``/play`` never reads them as a move (``move n`` may be one, ``move n …`` never is)."""
_MARKS = (GROUP_MARK, "...")


@dataclass(frozen=True)
class Entry:
    """A move of the list, or a group of moves. ``said`` is how the reader types it (a group: the
    words its moves share); ``text`` the action text (empty for a group); ``label`` the reader's
    description (a group's: what its moves' labels share)."""

    label: str
    said: str
    text: str = ""
    count: int = 1

    @property
    def group(self) -> bool:
        return not self.text


def group_words(typed: str) -> str | None:
    """The words of a chosen group (``deploy inf1 …`` -> ``deploy inf1``); None when ``typed`` is no
    group. ``…`` alone stands for every move."""
    stripped = typed.strip()
    for mark in _MARKS:
        if stripped.endswith(mark):
            return stripped[: -len(mark)].strip()
    return None


def matches(typed: str, label: str, text: str, said: str) -> bool:
    """Whether a move fits what the reader typed: every typed word within its label, its action text
    or the reader's words for it, case and accents aside."""
    haystack = " ".join(fold_words(f"{label}\n{text}\n{said}"))
    return all(w in haystack for w in fold_words(typed))


def starts(words: str, said: str) -> bool:
    """Whether the reader's words for a move begin with a group's ``words``: a group lists its own
    moves and no others."""
    wanted = fold_words(words)
    return fold_words(said)[: len(wanted)] == wanted


def begins(typed: str, entries: Sequence[Entry]) -> bool:
    """Whether ``typed`` is the start of some moves (its last word perhaps cut short): a move begun,
    which ``/play`` answers with the moves it may become rather than a refusal."""
    wanted = fold_words(typed)
    if not wanted:
        return False
    for entry in entries:
        for words in (fold_words(entry.said), fold_words(entry.text)):
            head, last = wanted[:-1], wanted[-1]
            if len(words) >= len(wanted) and words[: len(head)] == head and words[len(head)].startswith(last):
                return True
    return False


def grouped(entries: Sequence[Entry], limit: int, name: Callable[[str, int], str]) -> tuple[list[Entry], int]:
    """At most ``limit`` entries for ``entries`` (moves), and how many moves were left out.

    Moves that fit are listed as they are. Past ``limit``, they are grouped by their words up to the
    first one where they differ; a group of one is its move. ``name(what, count)`` labels a group in
    the reader's language from what its moves' labels share. When the groups still do not fit, the
    first ``limit - 1`` are kept and the moves of the others counted, for the caller to say so.
    """
    if len(entries) <= limit:
        return list(entries), 0
    depth = len(common_words([entry.said for entry in entries]).split()) + 1
    groups: dict[tuple[str, ...], list[Entry]] = {}
    for entry in entries:
        groups.setdefault(tuple(entry.said.split()[:depth]), []).append(entry)
    out: list[Entry] = []
    for key, members in groups.items():
        if len(members) == 1:
            out.append(members[0])
            continue
        what = common_words([m.label for m in members]) or " ".join(key)
        out.append(Entry(name(what, len(members)), " ".join(key), count=len(members)))
    if len(out) <= limit:
        return out, 0
    kept = out[: limit - 1]
    return kept, sum(e.count for e in out[limit - 1 :])
