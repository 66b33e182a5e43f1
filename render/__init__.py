"""Pure drawing: a game view (a JSON-safe dict) in, PNG bytes out.

Nothing here talks to Discord or the store, so the table layer can run it in a worker thread and
tests can call it directly. Each game has one package (``render/warchest``, ``render/batailles``,
``render/cryhavoc``) beside the modules they share (text, fonts, page, panels, palette);
``render``, ``render_details`` and ``render_private`` pick the game from ``view["game"]``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import i18n
from render import alt, chart
from render.batailles import images as batailles
from render.batailles import panels as batailles_panels
from render.catalog import tr
from render.cryhavoc import hand as cryhavoc_hand
from render.cryhavoc import images as cryhavoc
from render.cryhavoc import panels as cryhavoc_panels
from render.warchest import images as warchest
from render.warchest import panels as warchest_panels

Renderer = Callable[..., bytes]
T = TypeVar("T")

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


Words = Callable[[Mapping[str, Any], Mapping[str, str], str], Any]

GLANCES: dict[str, Words] = {
    "warchest": warchest.glance,
    "batailles": batailles_panels.glance,
    "cryhavoc": cryhavoc_panels.glance,
}
PRIVATE_WORDS: dict[str, Words] = {
    "warchest": warchest_panels.private_words,
    "batailles": batailles.private_words,
    "cryhavoc": cryhavoc_hand.private_words,
}


def describe(kind: str, view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> str:
    """The alt text of the image of ``kind`` (``board``, ``details``, ``private``, ``replay``,
    ``chart``, ``leaderboard``, ``standings``) drawn from ``view``, in ``locale``: what a sighted player
    takes from it first, at most 1,024 characters. Only ``private`` reads ``view["private"]``; a replay's
    ``view`` holds its ``frames``. A game without words here (a test's stand-in) gets ""."""
    locale = i18n.normalize(locale)
    if kind == "chart":
        return chart.chart_words(view, locale)
    if kind == "leaderboard":
        from render.leaderboard import leaderboard_words

        return leaderboard_words(view, locale)
    if kind == "standings":
        from render.standings import standings_words

        return standings_words(view, locale)
    frames = list(view.get("frames") or []) if kind == "replay" else [view]
    if any(frame.get("game") not in GLANCES for frame in frames):
        return ""
    if kind == "replay":
        last = _pick(GLANCES, frames[-1])(frames[-1], names, locale) if frames else None
        return alt.replay_words(len(frames), last, locale)
    if kind == "private":
        return str(_pick(PRIVATE_WORDS, view)(view, names, locale))
    glance = _pick(GLANCES, view)(view, names, locale)
    if kind == "details":
        return alt.details_words(glance, tr(f"render.alt.details.{view['game']}", locale), locale)
    return alt.board_words(glance, locale)


def text_board(view: Mapping[str, Any], *, names: Mapping[str, str], locale: str) -> str:
    """The whole public position of ``view`` as lines a screen reader follows, in ``locale``
    (never uses ``view["private"]``); "" for a game without words here."""
    from render.board_text import text_board as board_text

    if view.get("game") not in GLANCES:
        return ""
    locale = i18n.normalize(locale)
    return board_text(_pick(GLANCES, view)(view, names, locale), view, names, locale)


def _pick(table: Mapping[str, T], view: Mapping[str, Any]) -> T:
    game = view.get("game")
    if game not in table:
        raise ValueError(f"no renderer for game {game!r}; known: {', '.join(sorted(table))}")
    return table[str(game)]
