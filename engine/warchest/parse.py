"""Reading typed action text against the legal actions of the moment.

Matching against ``legal_actions`` (instead of building an action and checking it afterwards)
makes parsing forgiving without guessing: ``bolster archer`` or ``move archer d2`` are accepted
when exactly one legal action fits, and an error can list the legal alternatives. The words players
type in their languages come from the catalogs as a ``Lexicon`` (accents optional), each read as
the word of the action text it stands for; the action's ``str()`` is always the English text.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import BadInput
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
from engine.warchest.actions import Action, Attack, Bolster, Control, Move, Tactic
from engine.warchest.board import parse_label
from engine.warchest.units import coin_id

VERBS = (
    "deploy",
    "bolster",
    "move",
    "control",
    "attack",
    "tactic",
    "initiative",
    "recruit",
    "pass",
    "guard",
    "skip",
    "pick",
)
_WORDS = ("supply", "stack")
"""The words of the Royal Guard's choice, besides verbs, units and hexes."""

WORDS = Sources(
    "warchest",
    catalog=(("wc.typed.verb", "verb"), ("wc.typed.unit", "unit"), ("wc.typed.word", "word")),
    kinds=frozenset({"verb", "unit", "word"}),
)
"""Where players' words for War Chest are written: the verbs, unit names and words hints show
(``wc.typed.*``), and ``words/warchest.json`` for the other forms (imperatives, short names)."""


@dataclass(frozen=True)
class _Reading:
    """A lexicon as the tokenizer reads it: folded one-word forms, and phrases of several words."""

    verbs: dict[str, str]
    verb_phrases: Phrases
    units: dict[str, str]
    """A unit's name folded into one word (``cavalerielegere``, ``porteetendard``), as a typed word
    that joins its parts with hyphens is read."""
    unit_phrases: Phrases
    words: dict[str, str]


@functools.lru_cache(maxsize=8)
def _reading(lexicon: Lexicon) -> _Reading:
    verbs: dict[str, str] = {}
    verb_phrases: list[tuple[str, str]] = []
    for form, verb in lexicon.pairs("verb"):
        folded = fold_words(form)
        if len(folded) == 1:
            verbs.setdefault(folded[0], verb)
        else:
            verb_phrases.append((form, verb))
    units: dict[str, str] = {}
    unit_phrases: list[tuple[str, str]] = []
    for form, unit in lexicon.pairs("unit"):
        folded = fold_words(form, hyphens=True)
        units.setdefault("".join(folded), unit)
        if len(folded) > 1:
            unit_phrases.append((form, unit))
    words: dict[str, str] = {}
    for form, word in lexicon.pairs("word"):
        words.setdefault("".join(fold_words(form)), word)
    return _Reading(verbs, phrases(verb_phrases), units, phrases(unit_phrases), words)


def tokens(text: str, lexicon: Lexicon = PLAIN) -> list[str]:
    """Folded words with the lexicon's verbs and names (of one word or several) read as ids:
    ``move Light Cavalry e1 d2`` -> ``move light_cavalry e1 d2``; a verb of several words is read at
    the start, a name of several words anywhere after the verb."""
    return list(_tokens(text, lexicon))


@functools.lru_cache(maxsize=FOLDS_KEPT)
def _tokens(text: str, lexicon: Lexicon) -> tuple[str, ...]:
    """``tokens``, remembered per text: a move's text is read back as it is played, and the same
    texts come back in every game."""
    reading = _reading(lexicon)
    words = substitute(lead(fold_words(text), reading.verb_phrases), reading.unit_phrases, start=1)
    out = []
    for i, word in enumerate(words):
        if i == 0:
            out.append(reading.verbs.get(word, word))
            continue
        coin = coin_id(word) or reading.units.get("".join(fold_words(word.replace("_", "-"), hyphens=True)))
        out.append(coin if coin is not None else reading.words.get(word, word))
    return tuple(out)


def well_formed(words: list[str]) -> bool:
    if not words or words[0] not in VERBS:
        return False
    return all(coin_id(w) is not None or parse_label(w) is not None or w in _WORDS for w in words[1:])


def _short_forms(a: Action) -> list[list[str]]:
    """Accepted abbreviations: the unit's own hex may be left out when it is unambiguous."""
    full = str(a).split()
    if isinstance(a, (Bolster, Control)):
        return [full[:2]]
    if isinstance(a, (Move, Attack)) or (isinstance(a, Tactic) and a.src is not None):
        return [full[:2] + full[3:]]
    return []


def typed(a: Action) -> Msg:
    """``a``'s text in the reader's words (the catalog's ``wc.typed.*``), as a hint quotes it: it reads
    back as ``a``, those entries being forms of the lexicon (``WORDS``)."""
    words: list[Msg | str] = []
    for i, word in enumerate(str(a).split()):
        if i == 0:
            words.append(msg(f"wc.typed.verb.{word}"))
        elif word in _WORDS:
            words.append(msg(f"wc.typed.word.{word}"))
        elif parse_label(word) is None:
            words.append(msg(f"wc.typed.unit.{word}"))
        else:
            words.append(word)
    return typed_text(words)


def hints(legal: Sequence[Action], verb: str | None) -> str | list[Msg]:
    """A few legal actions of ``verb`` (else of every kind) as a hint lists them for typing."""
    return examples(legal, verb, typed)


def match(text: str, legal: Sequence[Action], lexicon: Lexicon = PLAIN) -> Action:
    words = tokens(text, lexicon)
    if not well_formed(words):
        raise BadInput("wc.error.bad_input", input=text.strip(), examples=hints(legal, None))
    return choose(
        text,
        words,
        legal,
        lambda a: words in _short_forms(a),
        ambiguous_key="wc.error.ambiguous",
        illegal_key="wc.error.illegal",
        typed=typed,
    )
