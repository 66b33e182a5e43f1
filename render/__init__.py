"""Pure drawing: a game view (a JSON-safe dict) in, PNG bytes out.

Nothing here talks to Discord or the store, so the table layer can run it in a worker thread and
tests can call it directly. Each game has one module; ``render`` and ``render_private`` pick it from
``view["game"]``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from render import batailles, cryhavoc, warchest

Renderer = Callable[..., bytes]

PUBLIC: dict[str, Renderer] = {"warchest": warchest.render, "batailles": batailles.render}
PUBLIC["cryhavoc"] = cryhavoc.render
PRIVATE: dict[str, Renderer] = {"warchest": warchest.render_private, "batailles": batailles.render_private}
PRIVATE["cryhavoc"] = cryhavoc.render_private


def render(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """The public board image of ``view`` (never uses ``view["private"]``), in ``locale``."""
    return _pick(PUBLIC, view)(view, names=names, locale=locale)


def render_private(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """The viewer's own hidden part of ``view`` (hand, bag), shown to that player alone."""
    return _pick(PRIVATE, view)(view, names=names, locale=locale)


def _pick(table: Mapping[str, Renderer], view: Mapping[str, Any]) -> Renderer:
    game = view.get("game")
    if game not in table:
        raise ValueError(f"no renderer for game {game!r}; known: {', '.join(sorted(table))}")
    return table[str(game)]
