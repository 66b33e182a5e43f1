"""The neutral default of a pending decision, played for a player who let a deadline pass.

A table whose policy at the deadline is ``skip`` plays, for an absent player, the decision a game
treats as doing nothing: declining an optional follow-up, ending an activation or an action, passing,
folding. Only such choices qualify; a decision that has none (a draft pick, a troop to lose, a card
to keep) has no default, and the table keeps waiting for its player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

A = TypeVar("A")
"""A game's action: only its text is read."""


def neutral_default(legal: Sequence[A], preferences: Sequence[str]) -> A | None:
    """The first legal action whose text is one of ``preferences`` (or that word followed by its
    arguments), the preferences tried in order; None when the decision has no neutral choice."""
    texts: list[str] = []  # each action's text, made once and only when first needed
    for wanted in preferences:
        prefix = wanted + " "
        for i, action in enumerate(legal):
            if i == len(texts):
                texts.append(str(action))
            text = texts[i]
            if text == wanted or text.startswith(prefix):
                return action
    return None
