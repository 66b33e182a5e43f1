"""What each game draws, found by the game's name through ``engine.registry``.

A game's render package (``Entry.render``) exports ``RENDERER``, a ``GameRenderer`` naming its
functions; ``render``'s entry points pick it from ``view["game"]``. The package is imported the
first time one of its views is drawn, so a worker process drawing one game loads only that one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from engine import registry

Renderer = Callable[..., bytes]
"""``(view, *, names, locale) -> PNG bytes``."""

Words = Callable[[Mapping[str, Any], Mapping[str, str], str], Any]
"""``(view, names, locale) -> words``: a glance (``render.alt.Glance``) or a text."""

Lines = Callable[[Mapping[str, Any], Mapping[str, str], str], list[str]]
"""``(view, names, locale) -> lines``: the game's own part of the text board."""


@dataclass(frozen=True)
class GameRenderer:
    """The drawing and the words of one game: its public board, the public details, a player's own
    hidden part, the glance its alt texts are made of, the private part in words, the text board."""

    public: Renderer
    details: Renderer
    private: Renderer
    glance: Words
    private_words: Words
    text_lines: Lines

    @classmethod
    def of(cls, images: Any, *, glance: Words, private_words: Words, text_lines: Lines) -> GameRenderer:
        """The renderer of a game whose ``images`` module draws its three pictures (``render``,
        ``render_details``, ``render_private``), as every game of the bot lays them out."""
        return cls(
            images.render, images.render_details, images.render_private, glance, private_words, text_lines
        )


def renderer_of(game: Any) -> GameRenderer | None:
    """The renderer of ``game`` (a view's ``"game"``), or None for a game drawn by nothing here."""
    entry = registry.find(game) if isinstance(game, str) else None
    if entry is None or entry.render is None:
        return None
    found: GameRenderer = import_module(entry.render).RENDERER
    return found


def drawn() -> tuple[str, ...]:
    """The registered games that have images."""
    return tuple(entry.name for entry in registry.entries() if entry.render is not None)
