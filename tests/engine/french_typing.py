"""What the French-typing tests of every game check: a French text means the English action,
whatever the accents, the case and the apostrophe a keyboard gives."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

import i18n
from engine.lexicon import Lexicon


def words(game: Any) -> Lexicon:
    """The words players may type for ``game`` in every language of the catalogs, as the table layer
    hands them to ``parse_action``."""
    return i18n.lexicon(getattr(game, "words", None))


def plain(text: str) -> str:
    """``text`` typed without accents."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def kinds_typed_in_french(
    game: Any, positions: Iterable[tuple[Any, str]], french: Callable[[str], str]
) -> set[str]:
    """Type every legal action of every position as ``french`` writes it, in three spellings; each
    must parse to that action. Returns the action kinds (verbs) met."""
    kinds: set[str] = set()
    for st, who in positions:
        for action in game.legal_actions(st, who):
            typed = french(str(action))
            for spelling in (typed, plain(typed).lower(), typed.upper().replace("'", "\u2019")):
                assert game.parse_action(st, who, spelling, words(game)) == action, spelling
            kinds.add(action.verb)
    return kinds
