"""What a decision weighed, and which of its words would tell a seat's secrets.

``weighed`` turns a search's ``Outcome`` into the explanation a table keeps with a computer player's
move: the action played, then the root actions the search visited most, each with its mean value for
the deciding seat (about its chance of winning) and its share of the search's iterations. It reads
the outcome alone, so the same search (the same seed) gives the same explanation.

``secret`` says whether naming an action would show something only the deciding seat knows: a War
Chest coin in its hand (an action it did not play names a coin it holds; a recruit, a pass or the
initiative is played face down), a Cry Havoc card in its hand (the card it keeps after a draw, and
any card an action it did not play would have spent), a Batailles troop's place while the armies
deploy unseen; ``masked`` tells such an action without its secret when something is left to tell
(a War Chest recruit names the unit recruited, not the coin paid). ``revealed`` says when such a
secret may be told: ``hand`` once the game is over, ``place`` once both armies are deployed (or the
game is over). Each game says its own in ``ai/<game>/secrets.py``, found by its name as
``ai.models`` finds its model. Pure, like the rest of ``ai``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Protocol

from ai.search import Outcome
from engine import registry
from engine.text import Msg

WEIGHED = 3
"""The actions an explanation names beside the one played."""

HAND = "hand"
PLACE = "place"


def weighed(outcome: Outcome[object], top: int = WEIGHED) -> dict[str, Any]:
    """The explanation of ``outcome``, JSON-safe: ``action`` (its text), ``iterations``, and
    ``weighed``: the action played first, then the ``top`` others the search visited most (ties to
    the better mean, then to the order the search listed them), each as ``[text, value, share]``
    (``value`` the mean in [0, 1], ``share`` of the iterations; both None when nothing was searched)."""
    chosen = str(outcome.action)
    total = sum(outcome.visits.values())
    order = {text: i for i, text in enumerate(outcome.visits)}

    def entry(text: str) -> list[str | float | None]:
        if total <= 0 or text not in outcome.values:
            return [text, None, None]
        return [text, round(outcome.values[text], 4), round(outcome.visits.get(text, 0) / total, 4)]

    others = sorted(
        (text for text, n in outcome.visits.items() if text != chosen and n > 0),
        key=lambda text: (-outcome.visits[text], -outcome.values.get(text, 0.0), order[text]),
    )
    return {
        "action": chosen,
        "iterations": outcome.iterations,
        "weighed": [entry(chosen), *(entry(text) for text in others[:top])],
    }


class Secrets(Protocol):
    """A game's ``ai/<game>/secrets.py``: what its explanations may not name yet, and when they may."""

    def secret(self, state: object, seat: int, action: object, chosen: object) -> str | None: ...

    def masked(self, action: object) -> Msg | None: ...

    def revealed(self, state: object, kind: str) -> bool: ...


class _NothingHidden:
    """A game with no ``ai/<game>/secrets.py`` keeps nothing from its explanations."""

    def secret(self, state: object, seat: int, action: object, chosen: object) -> str | None:
        return None

    def masked(self, action: object) -> Msg | None:
        return None

    def revealed(self, state: object, kind: str) -> bool:
        return True


def _secrets(game: str) -> Secrets:
    entry = registry.find(game)
    if entry is None or entry.ai is None:
        return _NothingHidden()
    try:
        found: Secrets = import_module(f"{entry.ai}.secrets")
    except ModuleNotFoundError as missing:
        if missing.name not in (entry.ai, f"{entry.ai}.secrets"):
            raise  # the module is there but something it imports is not
        return _NothingHidden()
    return found


def secret(game: str, state: object, seat: int, action: object, chosen: object) -> str | None:
    """What naming ``action`` (``chosen`` being the one the seat played) would show that the other
    seats may not know yet: ``"hand"``, ``"place"``, or None when it shows nothing hidden."""
    return _secrets(game).secret(state, seat, action, chosen)


def masked(game: str, action: object) -> Msg | None:
    """``action`` told without its secret, when the rest of it says something (a War Chest recruit,
    pass or initiative without the coin discarded face down; a Cry Havoc card kept without the
    card); None when nothing of it is left to tell."""
    return _secrets(game).masked(action)


def revealed(game: str, state: object, kind: str, over: bool) -> bool:
    """Whether a secret of ``kind`` may be told now, ``state`` being the game's position (``over``:
    the game has ended, by its rules or otherwise)."""
    return over or _secrets(game).revealed(state, kind)


__all__ = ["HAND", "PLACE", "WEIGHED", "masked", "revealed", "secret", "weighed"]
