"""Pure drawing: a game view (a JSON-safe dict) in, PNG bytes out.

Nothing here talks to Discord or the store, so the table layer can run it in a worker thread and
tests can call it directly. Each game has one package (``render/warchest``, ``render/batailles``,
``render/cryhavoc``) beside the modules they share (text, fonts, page, panels, palette);
``render``, ``render_details`` and ``render_private`` pick the game from ``view["game"]``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from render.batailles import images as batailles
from render.cryhavoc import images as cryhavoc
from render.warchest import images as warchest

Renderer = Callable[..., bytes]

PUBLIC: dict[str, Renderer] = {"warchest": warchest.render, "batailles": batailles.render}
PUBLIC["cryhavoc"] = cryhavoc.render
DETAILS: dict[str, Renderer] = {
    "warchest": warchest.render_details,
    "batailles": batailles.render_details,
    "cryhavoc": cryhavoc.render_details,
}
PRIVATE: dict[str, Renderer] = {"warchest": warchest.render_private, "batailles": batailles.render_private}
PRIVATE["cryhavoc"] = cryhavoc.render_private


def render(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """The public board image of ``view`` (never uses ``view["private"]``), in ``locale``: what a
    player looks at first, sized to open whole on a phone."""
    return _pick(PUBLIC, view)(view, names=names, locale=locale)


def render_details(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """The public details of ``view`` that the board image leaves out (supplies, troop lists,
    factions, tracks, the legend), for anyone who asks; never uses ``view["private"]``."""
    return _pick(DETAILS, view)(view, names=names, locale=locale)


def render_private(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> bytes:
    """The viewer's own hidden part of ``view`` (hand, bag), shown to that player alone."""
    return _pick(PRIVATE, view)(view, names=names, locale=locale)


def _pick(table: Mapping[str, Renderer], view: Mapping[str, Any]) -> Renderer:
    game = view.get("game")
    if game not in table:
        raise ValueError(f"no renderer for game {game!r}; known: {', '.join(sorted(table))}")
    return table[str(game)]
