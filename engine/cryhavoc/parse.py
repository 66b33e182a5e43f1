"""Reading typed action text against the legal actions of the moment.

Matching against ``legal_actions`` keeps parsing forgiving without guessing: a prefix of words that
fits exactly one legal action is enough (``go mossdeep`` when only one destination is open). French
works as well as English, accents optional (``engine/cryhavoc/words.py``): ``aller Mousse-Profonde
Pic-de-Silex`` is ``go mossdeep flintpeak``; the action's ``str()`` is always the English text.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from engine.cryhavoc import words as fr
from engine.cryhavoc.actions import VERBS, Act
from engine.errors import BadInput, IllegalAction
from engine.matching import (
    FOLDS_KEPT,
    Phrases,
    choose,
    examples,
    fold_words,
    lead,
    substitute,
    typed_text,
)
from engine.text import Msg, msg

_VERBS = {tuple(fold_words(k)): v for k, v in fr.VERBS.items()}
_ARGUMENTS = Phrases({**fr.ARGUMENTS, **fr.NAMED_THINGS})
_NAMED = frozenset(fr.ARGUMENTS.values())
"""Argument ids with a name of their own in French (regions, objectives, sources, factions)."""
_THINGS = {thing: group for group, things in fr.NAMES.items() for thing in things}
"""Card, structure and skill ids -> the catalog area that names them (``ch.card``...)."""
_GROUP_KEY = {"cards": "ch.card", "structures": "ch.structure", "skills": "ch.skill"}


def _word(w: str) -> Msg | str:
    if w in _NAMED:
        return msg(f"ch.typed.word.{w}")
    if w in _THINGS:
        return msg(f"{_GROUP_KEY[_THINGS[w]]}.{w}")
    return w


def typed(a: Act) -> Msg:
    """``a``'s text in the reader's words (French verbs and names for a French reader), as a hint
    quotes it: it reads back as ``a``."""
    words: list[Msg | str] = [msg(f"ch.typed.verb.{a.verb}")]
    words += [_word(w) for w in a.args]
    return typed_text(words)


def hints(legal: Sequence[Act], verb: str | None) -> str | list[Msg]:
    """A few legal actions of ``verb`` (else of every kind) as a hint lists them for typing."""
    return examples(legal, verb, typed)


def readings(text: str) -> list[list[str]]:
    """The word lists ``text`` may mean, one per English verb its first word stands for."""
    return [list(words) for words in _readings(text)]


@functools.lru_cache(maxsize=FOLDS_KEPT)
def _readings(text: str) -> tuple[tuple[str, ...], ...]:
    """``readings``, remembered per text: a move's text is read back as it is played, and the same
    texts come back in every game."""
    words = substitute(lead(fold_words(text, hyphens=True), fr.VERB_PHRASES), _ARGUMENTS, start=1)
    if not words:
        return ()
    verbs = (words[0],) if words[0] in VERBS else _VERBS.get((words[0],), ())
    return tuple((verb, *words[1:]) for verb in verbs)


_SPELLINGS: dict[str, list[tuple[str, ...]]] = {}
"""Argument id -> the folded words of each of its names (``ma_protocol``: ``harvest protocol``...)."""
for _spelled, _named in _ARGUMENTS.items():
    _SPELLINGS.setdefault(_named, []).append(_spelled)


def _starts(words: list[str]) -> Callable[[Act], bool]:
    """Whether an action's text begins with ``words`` (the abbreviations this game accepts)."""
    return lambda a: str(a).split()[: len(words)] == words


def _shortened(words: list[str]) -> Callable[[Act], bool]:
    """Whether ``words`` begin an action with its arguments shortened: each argument named by the start
    of its id or of one of its names, in either language (``pay harvest`` for ``pay ma_protocol``,
    ``go vineholt hollow`` for ``go vineholt hollowgrove``)."""

    def fits(a: Act) -> bool:
        return a.verb == words[0] and _begins(tuple(words[1:]), a.args)

    return fits


def _begins(typed: tuple[str, ...], args: Sequence[str]) -> bool:
    """Whether ``typed`` names the first of ``args`` (by the start of a spelling of it, word by word),
    then begins the rest the same way; words typed beyond the arguments fit nothing."""
    if not typed:
        return True
    if not args:
        return False
    for spelling in ((args[0],), *_SPELLINGS.get(args[0], ())):
        for k in range(1, min(len(typed), len(spelling)) + 1):
            if not spelling[k - 1].startswith(typed[k - 1]):
                break
            if _begins(typed[k:], args[1:]):
                return True
    return False


def match(text: str, legal: Sequence[Act]) -> Act:
    options = readings(text)
    if not options:
        raise BadInput("ch.error.bad_input", input=text.strip(), examples=hints(legal, None))
    refusal: IllegalAction | None = None
    for words in options:
        # Whole words first; the arguments shortened only when no action begins with them as typed.
        strict = any(_starts(words)(a) for a in legal)
        try:
            return choose(
                text,
                words,
                legal,
                _starts(words) if strict else _shortened(words),
                ambiguous_key="ch.error.ambiguous",
                illegal_key="ch.error.illegal",
                typed=typed,
            )
        except IllegalAction as err:
            refusal = refusal or err
    assert refusal is not None
    raise refusal
