"""Reading typed action text against the legal actions of the moment.

Matching against ``legal_actions`` (instead of building an action and checking it afterwards)
makes parsing forgiving without guessing: ``bolster archer`` or ``move archer d2`` are accepted
when exactly one legal action fits, and an error can list the legal alternatives.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import BadInput
from engine.matching import choose, examples
from engine.warchest.actions import Action, Attack, Bolster, Control, Move, Tactic
from engine.warchest.board import parse_label
from engine.warchest.units import MULTIWORD, coin_name

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
    "déployer": "deploy",
    "deployer": "deploy",
    "renforcer": "bolster",
    "déplacer": "move",
    "deplacer": "move",
    "contrôler": "control",
    "controler": "control",
    "attaquer": "attack",
    "tactique": "tactic",
    "recruter": "recruit",
    "passer": "pass",
    "choisir": "pick",
    "ignorer": "skip",
    "stop": "skip",
}
_WORDS = ("supply", "stack")


def tokens(text: str) -> list[str]:
    """Lower-case words, two-word unit names folded, ``royal guard`` -> ``royal_guard``."""
    text = " ".join(text.lower().replace(",", " ").split())
    for two, one in MULTIWORD:
        text = text.replace(two, one)
    out = []
    for i, word in enumerate(text.split()):
        if i == 0:
            out.append(_VERB_ALIASES.get(word, word))
            continue
        coin = coin_name(word)
        out.append(coin if coin is not None else word)
    return out


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


def match(text: str, legal: Sequence[Action]) -> Action:
    words = tokens(text)
    if not well_formed(words):
        raise BadInput("wc.error.bad_input", input=text.strip(), examples=examples(legal, None))
    return choose(
        text,
        words,
        legal,
        lambda a: words in _short_forms(a),
        ambiguous_key="wc.error.ambiguous",
        illegal_key="wc.error.illegal",
    )
