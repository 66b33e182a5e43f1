"""What each game draws, found by the game's name through ``engine.registry``.

A game's render package (``Entry.render``) exports ``RENDERER``, a ``GameRenderer`` naming its
functions; ``render``'s entry points pick it from ``view["game"]``. The package is imported the
first time one of its views is drawn, so a worker process drawing one game loads only that one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Generic, TypeVar

from engine import registry
from render.alt import Glance

V = TypeVar("V", contravariant=True)
"""The view of one game (``engine/<game>/view.py``'s ``TypedDict``), which its renderer reads."""

Renderer = Callable[..., bytes]
"""``(view, *, names, locale) -> PNG bytes``."""

Glancer = Callable[[V, Mapping[str, str], str], Glance]
"""``(view, names, locale) -> glance``: what the board's alt texts are made of."""

Words = Callable[[V, Mapping[str, str], str], str]
"""``(view, names, locale) -> text``: the viewer's own hidden part in words."""

Lines = Callable[[V, Mapping[str, str], str], list[str]]
"""``(view, names, locale) -> lines``: the game's own part of the text board."""


@dataclass(frozen=True)
class GameRenderer(Generic[V]):
    """The drawing and the words of one game over its views ``V``: its public board, the public
    details, a player's own hidden part, the glance its alt texts are made of, the private part in
    words, the text board."""

    public: Renderer
    details: Renderer
    private: Renderer
    glance: Glancer[V]
    private_words: Words[V]
    text_lines: Lines[V]

    @classmethod
    def of(
        cls, images: ModuleType, *, glance: Glancer[V], private_words: Words[V], text_lines: Lines[V]
    ) -> GameRenderer[V]:
        """The renderer of a game whose ``images`` module draws its three pictures (``render``,
        ``render_details``, ``render_private``), as every game of the bot lays them out."""
        return cls(
            images.render, images.render_details, images.render_private, glance, private_words, text_lines
        )


LooseView = Mapping[str, object]
"""A view of a game known only at run time, by its ``"game"``: as ``renderer_of``'s callers hold it."""


def renderer_of(game: object) -> GameRenderer[LooseView] | None:
    """The renderer of ``game`` (a view's ``"game"``), or None for a game drawn by nothing here. Its
    views are the ones of the game of that name, known only at run time: the caller hands it the
    view whose ``"game"`` it read, which the registry's entry for that name says is the renderer's
    own."""
    entry = registry.find(game) if isinstance(game, str) else None
    if entry is None or entry.render is None:
        return None
    found: GameRenderer[LooseView] = import_module(entry.render).RENDERER
    return found


def drawn() -> tuple[str, ...]:
    """The registered games that have images."""
    return tuple(entry.name for entry in registry.entries() if entry.render is not None)
