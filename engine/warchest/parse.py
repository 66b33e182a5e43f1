"""Reading typed action text against the legal actions of the moment.

Matching against ``legal_actions`` (instead of building an action and checking it afterwards)
makes parsing forgiving without guessing: ``bolster archer`` or ``move archer d2`` are accepted
when exactly one legal action fits, and an error can list the legal alternatives. French verbs and
unit names (the glossary's, accents optional) read as their English words, so ``renforcer archer``
is ``bolster archer``; the action's ``str()`` is always the English text.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from engine.errors import BadInput
from engine.matching import (
    FOLDS_KEPT,
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
from engine.warchest.units import NAME_PHRASES, coin_name

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
_VERB_ALIASES = {
    # French verbs (glossary), infinitive and imperative, folded (no accents)
    "deployer": "deploy",
    "deploie": "deploy",
    "renforcer": "bolster",
    "renforce": "bolster",
    "deplacer": "move",
    "deplace": "move",
    "controler": "control",
    "controle": "control",
    "attaquer": "attack",
    "attaque": "attack",
    "tactique": "tactic",
    "recruter": "recruit",
    "recrute": "recruit",
    "passer": "pass",
    "passe": "pass",
    "garde": "guard",
    "choisir": "pick",
    "choisis": "pick",
    "renoncer": "skip",
    "ignorer": "skip",
    "stop": "skip",
}
_VERB_PHRASES = phrases([("prendre l'initiative", "initiative"), ("prendre initiative", "initiative")])
_WORD_ALIASES = {"reserve": "supply", "pile": "stack"}
"""The Royal Guard's choice in French: ``garde réserve`` / ``garde pile``."""
_WORDS = ("supply", "stack")


def tokens(text: str) -> list[str]:
    """Folded words with French and multi-word names read as ids: ``Prendre l'initiative sceau
    royal`` -> ``initiative royal``, ``déplacer cavalerie légère e1 d2`` -> ``move light_cavalry e1 d2``."""
    return list(_tokens(text))


@functools.lru_cache(maxsize=FOLDS_KEPT)
def _tokens(text: str) -> tuple[str, ...]:
    """``tokens``, remembered per text: a move's text is read back as it is played, and the same
    texts come back in every game."""
    words = substitute(lead(fold_words(text), _VERB_PHRASES), NAME_PHRASES, start=1)
    out = []
    for i, word in enumerate(words):
        if i == 0:
            out.append(_VERB_ALIASES.get(word, word))
            continue
        coin = coin_name(word)
        out.append(coin if coin is not None else _WORD_ALIASES.get(word, word))
    return tuple(out)


def well_formed(words: list[str]) -> bool:
    if not words or words[0] not in VERBS:
        return False
    return all(coin_name(w) is not None or parse_label(w) is not None or w in _WORDS for w in words[1:])


def _short_forms(a: Action) -> list[list[str]]:
    """Accepted abbreviations: the unit's own hex may be left out when it is unambiguous."""
    full = str(a).split()
    if isinstance(a, (Bolster, Control)):
        return [full[:2]]
    if isinstance(a, (Move, Attack)) or (isinstance(a, Tactic) and a.src is not None):
        return [full[:2] + full[3:]]
    return []


def typed(a: Action) -> Msg:
    """``a``'s text in the reader's words (French verbs and unit names for a French reader), as a hint
    quotes it: it reads back as ``a`` (the names are those ``tokens`` knows)."""
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


def match(text: str, legal: Sequence[Action]) -> Action:
    words = tokens(text)
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
