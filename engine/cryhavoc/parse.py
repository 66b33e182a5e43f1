"""Reading typed action text against the legal actions of the moment.

Matching against ``legal_actions`` keeps parsing forgiving without guessing: a prefix of words that
fits exactly one legal action is enough (``go mossdeep`` when only one destination is open). Players
type in their own words as well, accents optional: the verbs and names of each language's catalog
(``WORDS``), handed in as a ``Lexicon``, so that a region typed by its name in any language
or a card by its name (``Harvest Protocol``) is its id. The action's ``str()`` is always the English text.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.cryhavoc.actions import VERBS, Action
from engine.cryhavoc.content import BOARDS, CARDS, SKILLS, STRUCTURES, TERRAINS
from engine.errors import BadInput, IllegalAction
from engine.lexicon import PLAIN, Lexicon, Sources
from engine.matching import (
    FOLDS_KEPT,
    Phrases,
    choose,
    examples,
    fold_words,
    lead,
    phrases,
    substitute,
    typed_text,
)
from engine.text import Msg, msg

WORDS = Sources(
    "cryhavoc",
    catalog=(
        ("ch.typed.verb", "verb"),
        ("ch.typed.word", "name"),
        ("ch.card", "name"),
        ("ch.structure", "name"),
        ("ch.skill", "name"),
    ),
    kinds=frozenset({"verb", "name"}),
)
"""Where players' words for Cry Havoc are written: the verbs and names hints show (``ch.typed.*``),
the names of cards, structures and skills as every language's catalog writes them, and
``words/cryhavoc.json`` for the other forms (imperatives, verbs of several words, short names). A
word may stand for several verbs (in French, one verb both builds with a card and constructs a
structure), tried in the order they are written; the legal actions of the moment decide."""

_NAMED = frozenset(
    {*(region for board in BOARDS.values() for region in board.regions), *TERRAINS}
    | {"control", "prisoners", "deck", "humans", "pilgrims"}
)
"""Argument ids a hint shows by a catalog name of their own (``ch.typed.word.*``: regions,
objectives, sources, factions); the others (``attrition``, ``machines``) read the same everywhere."""
_THINGS = {
    **{card: "ch.card" for card in CARDS},
    **{structure: "ch.structure" for structure in STRUCTURES},
    **{skill: "ch.skill" for skill in SKILLS},
}
"""Card, structure and skill ids -> the catalog area that names them."""


@dataclass(frozen=True)
class _Reading:
    """A lexicon as ``readings`` reads it, every form folded as typed text is."""

    verbs: dict[str, tuple[str, ...]]
    """One folded word -> the verbs it may stand for, the likelier first."""
    verb_phrases: Phrases
    arguments: Phrases
    spellings: dict[str, list[tuple[str, ...]]]
    """Argument id -> the folded words of each of its names (``ma_protocol``: ``harvest protocol``...)."""


@functools.lru_cache(maxsize=8)
def _reading(lexicon: Lexicon) -> _Reading:
    verbs: dict[str, tuple[str, ...]] = {}
    verb_phrases: list[tuple[str, str]] = []
    for form, verb in lexicon.pairs("verb"):
        folded = fold_words(form, hyphens=True)
        if len(folded) == 1:
            known = verbs.get(folded[0], ())
            verbs[folded[0]] = known if verb in known else (*known, verb)
        else:
            verb_phrases.append((form, verb))
    arguments = phrases(lexicon.pairs("name"))
    spellings: dict[str, list[tuple[str, ...]]] = {}
    for spelled, named in arguments.items():
        spellings.setdefault(named, []).append(spelled)
    return _Reading(verbs, phrases(verb_phrases), arguments, spellings)


def _word(w: str) -> Msg | str:
    if w in _NAMED:
        return msg(f"ch.typed.word.{w}")
    if w in _THINGS:
        return msg(f"{_THINGS[w]}.{w}")
    return w


def typed(a: Action) -> Msg:
    """``a``'s text in the reader's words (the catalog's verbs and names), as a hint quotes it: it
    reads back as ``a``, those entries being forms of the lexicon (``WORDS``)."""
    words: list[Msg | str] = [msg(f"ch.typed.verb.{a.verb}")]
    words += [_word(w) for w in str(a).split()[1:]]
    return typed_text(words)


def hints(legal: Sequence[Action], verb: str | None) -> str | list[Msg]:
    """A few legal actions of ``verb`` (else of every kind) as a hint lists them for typing."""
    return examples(legal, verb, typed)


def readings(text: str, lexicon: Lexicon = PLAIN) -> list[list[str]]:
    """The word lists ``text`` may mean, one per verb of the text its first word stands for."""
    return [list(words) for words in _readings(text, lexicon)]


@functools.lru_cache(maxsize=FOLDS_KEPT)
def _readings(text: str, lexicon: Lexicon) -> tuple[tuple[str, ...], ...]:
    """``readings``, remembered per text: a move's text is read back as it is played, and the same
    texts come back in every game."""
    reading = _reading(lexicon)
    words = substitute(lead(fold_words(text, hyphens=True), reading.verb_phrases), reading.arguments, start=1)
    if not words:
        return ()
    verbs = (words[0],) if words[0] in VERBS else reading.verbs.get(words[0], ())
    return tuple((verb, *words[1:]) for verb in verbs)


def _starts(words: list[str]) -> Callable[[Action], bool]:
    """Whether an action's text begins with ``words`` (the abbreviations this game accepts)."""
    return lambda a: str(a).split()[: len(words)] == words


def _shortened(words: list[str], spellings: Mapping[str, list[tuple[str, ...]]]) -> Callable[[Action], bool]:
    """Whether ``words`` begin an action with its arguments shortened: each argument named by the start
    of its id or of one of its names, in either language (``pay harvest`` for ``pay ma_protocol``,
    ``go vineholt hollow`` for ``go vineholt hollowgrove``)."""

    def fits(a: Action) -> bool:
        return a.verb == words[0] and _begins(tuple(words[1:]), str(a).split()[1:], spellings)

    return fits


def _begins(
    typed: tuple[str, ...], args: Sequence[str], spellings: Mapping[str, list[tuple[str, ...]]]
) -> bool:
    """Whether ``typed`` names the first of ``args`` (by the start of a spelling of it, word by word),
    then begins the rest the same way; words typed beyond the arguments fit nothing."""
    if not typed:
        return True
    if not args:
        return False
    for spelling in ((args[0],), *spellings.get(args[0], ())):
        for k in range(1, min(len(typed), len(spelling)) + 1):
            if not spelling[k - 1].startswith(typed[k - 1]):
                break
            if _begins(typed[k:], args[1:], spellings):
                return True
    return False


def match(text: str, legal: Sequence[Action], lexicon: Lexicon = PLAIN) -> Action:
    options = readings(text, lexicon)
    spellings = _reading(lexicon).spellings
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
                _starts(words) if strict else _shortened(words, spellings),
                ambiguous_key="ch.error.ambiguous",
                illegal_key="ch.error.illegal",
                typed=typed,
            )
        except IllegalAction as err:
            refusal = refusal or err
    assert refusal is not None
    raise refusal
