"""Pure drawing: a game view (a JSON-safe dict) in, PNG bytes out.

Nothing here talks to Discord or the store, so the table layer can run it in a worker thread and
tests can call it directly. Each game has one package (``render/warchest``, ...) beside the modules
they share (text, fonts, page, panels, palette), exporting the ``RENDERER`` that ``engine.registry``
points to (``render.games``); ``render``, ``render_details`` and ``render_private`` pick the game
from ``view["game"]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

import i18n
from render import alt, chart
from render.catalog import tr
from render.games import GameRenderer, LooseView, drawn, renderer_of


def render(view: Mapping[str, object], *, names: Mapping[str, str], locale: str) -> bytes:
    """The public board image of ``view`` (never uses ``view["private"]``), in ``locale``: what a
    player looks at first, sized to open whole on a phone."""
    return _pick(view).public(view, names=names, locale=locale)


def render_details(view: Mapping[str, object], *, names: Mapping[str, str], locale: str) -> bytes:
    """The public details of ``view`` that the board image leaves out (supplies, troop lists,
    factions, tracks, the legend), for anyone who asks; never uses ``view["private"]``."""
    return _pick(view).details(view, names=names, locale=locale)


def render_private(view: Mapping[str, object], *, names: Mapping[str, str], locale: str) -> bytes:
    """The viewer's own hidden part of ``view`` (hand, bag), shown to that player alone."""
    return _pick(view).private(view, names=names, locale=locale)


def draw(kind: str, view: Mapping[str, object], *, names: dict[str, str], locale: str) -> bytes:
    """The still image of ``kind`` (the kinds ``describe`` tells, but a replay, which
    ``render.animation`` draws from these) drawn from ``view``, in ``locale``: the one place that
    knows which function draws which kind and which view it takes, so that the table's drawing
    workers hand over a kind and a plain dict."""
    if kind == "chart":
        return chart.rating_chart(cast("chart.ChartView", view), names=names, locale=locale)
    if kind == "leaderboard":
        from render.leaderboard import LeaderboardView, leaderboard_image

        return leaderboard_image(cast("LeaderboardView", view), names=names, locale=locale)
    if kind == "standings":
        from render.standings import StandingsView, standings_image

        return standings_image(cast("StandingsView", view), names=names, locale=locale)
    function = {"board": render, "private": render_private}.get(kind, render_details)
    return function(view, names=names, locale=locale)


def describe(kind: str, view: Mapping[str, object], *, names: Mapping[str, str], locale: str) -> str:
    """The alt text of the image of ``kind`` (``board``, ``details``, ``private``, ``replay``,
    ``chart``, ``leaderboard``, ``standings``) drawn from ``view``, in ``locale``: what a sighted player
    takes from it first, at most 1,024 characters. Only ``private`` reads ``view["private"]``; a replay's
    ``view`` holds its ``frames``. A game without words here (a test's stand-in) gets ""."""
    locale = i18n.normalize(locale)
    if kind == "chart":
        return chart.chart_words(cast("chart.ChartView", view), locale)
    if kind == "leaderboard":
        from render.leaderboard import LeaderboardView, leaderboard_words

        return leaderboard_words(cast("LeaderboardView", view), locale)
    if kind == "standings":
        from render.standings import StandingsView, standings_words

        return standings_words(cast("StandingsView", view), locale)
    frames = (
        list(cast(Sequence[Mapping[str, object]], view.get("frames") or [])) if kind == "replay" else [view]
    )
    if any(renderer_of(frame.get("game")) is None for frame in frames):
        return ""
    if kind == "replay":
        last = _pick(frames[-1]).glance(frames[-1], names, locale) if frames else None
        return alt.replay_words(len(frames), last, locale)
    if kind == "private":
        return str(_pick(view).private_words(view, names, locale))
    glance = _pick(view).glance(view, names, locale)
    if kind == "details":
        return alt.details_words(glance, tr(f"render.alt.details.{view['game']}", locale), locale)
    return alt.board_words(glance, locale)


def text_board(view: Mapping[str, object], *, names: Mapping[str, str], locale: str) -> str:
    """The whole public position of ``view`` as lines a screen reader follows, in ``locale``
    (never uses ``view["private"]``); "" for a game without words here."""
    from render.board_text import text_board as board_text

    game = renderer_of(view.get("game"))
    if game is None:
        return ""
    locale = i18n.normalize(locale)
    return board_text(game.glance(view, names, locale), game.text_lines(view, names, locale), locale)


def _pick(view: Mapping[str, object]) -> GameRenderer[LooseView]:
    found = renderer_of(view.get("game"))
    if found is None:
        raise ValueError(f"no renderer for game {view.get('game')!r}; known: {', '.join(sorted(drawn()))}")
    return found
