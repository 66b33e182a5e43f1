"""Reading typed action text against the legal actions of the moment.

Matching against ``legal_actions`` keeps parsing forgiving without guessing: French verbs are
accepted, and a prefix of words that fits exactly one legal action is enough (``go mossdeep``
when only one destination is open).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cryhavoc.actions import VERBS, Act
from engine.errors import BadInput
from engine.matching import choose, examples

_ALIASES = {
    "défausser": "discard",
    "defausser": "discard",
    "déplacer": "move",
    "deplacer": "move",
    "recruter": "recruit",
    "construire": "build",
    "payer": "pay",
    "aller": "go",
    "bâtir": "construct",
    "batir": "construct",
    "activer": "activate",
    "piocher": "draw",
    "garder": "keep",
    "score": "score",
    "compétence": "skill",
    "competence": "skill",
    "fin": "end",
    "passer": "pass",
    "placer": "place",
    "jouer": "play",
    "coucher": "fold",
    "capturer": "capture",
    "tuer": "kill",
    "retraite": "retreat",
    "rançon": "ransom",
    "rancon": "ransom",
    "fini": "done",
}


def tokens(text: str) -> list[str]:
    words = text.lower().replace(",", " ").split()
    if words:
        words[0] = _ALIASES.get(words[0], words[0])
    return words


def match(text: str, legal: Sequence[Act]) -> Act:
    words = tokens(text)
    if not words or words[0] not in VERBS:
        raise BadInput("ch.error.bad_input", input=text.strip(), examples=examples(legal, None))
    return choose(
        text,
        words,
        legal,
        lambda a: str(a).split()[: len(words)] == words,
        ambiguous_key="ch.error.ambiguous",
        illegal_key="ch.error.illegal",
    )
