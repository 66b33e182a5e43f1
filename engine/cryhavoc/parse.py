"""Reading typed action text against the legal actions of the moment.

Matching against ``legal_actions`` keeps parsing forgiving without guessing: French verbs are
accepted, and a prefix of words that fits exactly one legal action is enough (``go mossdeep``
when only one destination is open).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cryhavoc.actions import VERBS, Act
from engine.errors import BadInput, IllegalAction

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
MAX_LISTED = 6


def tokens(text: str) -> list[str]:
    words = text.lower().replace(",", " ").split()
    if words:
        words[0] = _ALIASES.get(words[0], words[0])
    return words


def match(text: str, legal: Sequence[Act]) -> Act:
    words = tokens(text)
    if not words or words[0] not in VERBS:
        raise BadInput("ch.error.bad_input", input=text.strip(), examples=examples(legal, None))
    for a in legal:
        if str(a).split() == words:
            return a
    found = [a for a in legal if str(a).split()[: len(words)] == words]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise IllegalAction("ch.error.ambiguous", input=text.strip(), legal=examples(found, None))
    raise IllegalAction("ch.error.illegal", input=text.strip(), legal=examples(legal, words[0]))


def examples(legal: Sequence[Act], verb: str | None) -> str:
    """A few legal action texts, preferring those with the typed verb."""
    same = [a for a in legal if a.verb == verb]
    if same:
        chosen = same[:MAX_LISTED]
    else:
        seen: dict[str, Act] = {}
        for a in legal:
            seen.setdefault(a.verb, a)
        chosen = list(seen.values())[:MAX_LISTED]
    return ", ".join(f"`{a}`" for a in chosen) or "—"
