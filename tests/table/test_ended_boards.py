"""The final board of a game ended outside its rules shows how it ended, never a turn.

A resignation, an agreed draw, an abort or a moderator's end leaves the engine's position as it was,
with a player still to act: the board posted with the end, and its alt text, must show the result
banner and nobody to play, in every game and language.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import render
from render.batailles.panels import status_lines as bt_status
from render.catalog import tr
from render.cryhavoc.panels import status_lines as ch_status
from render.text import recording
from render.warchest.images import _status_line as wc_status
from table import Commands, Ctx
from tests.table.conftest import FakeRenderer, channel_posts

GAMES = {
    "warchest": ("wc", "seed=5"),
    "batailles": ("bt", "seed=5 armies=classic map=open_field"),
    "cryhavoc": ("ch", "seed=5"),
}

NAMES = {"alice": "Alice", "bob": "Bob"}

STATUS = {"wc": wc_status, "bt": bt_status, "ch": ch_status}
"""Each game's status line: what its board says the game waits for, or how it ended."""


def player(user: str, locale: str, **kwargs: Any) -> Ctx:
    return Ctx("chan", user, NAMES[user], locale, locale, **kwargs)


async def resign(cmds: Commands, locale: str) -> None:
    await cmds.resign(player("bob", locale))


async def draw(cmds: Commands, locale: str) -> None:
    await cmds.draw(player("alice", locale))
    await cmds.draw(player("bob", locale))


async def abort(cmds: Commands, locale: str) -> None:
    await cmds.abort(player("alice", locale))
    await cmds.abort(player("bob", locale))


async def moderator_end(cmds: Commands, locale: str) -> None:
    await cmds.end(Ctx("chan", "mod", "Mod", locale, locale, moderator=True), "alice")


ENDINGS: dict[str, tuple[Callable[[Commands, str], Awaitable[None]], str]] = {
    "resign": (resign, "over.win"),
    "draw": (draw, "over.draw"),
    "abort": (abort, "over.aborted"),
    "moderator end": (moderator_end, "over.win"),
}


async def ended(cmds: Commands, renderer: FakeRenderer, game: str, ending: str, locale: str) -> Any:
    """The last post of a game of ``game`` ended by ``ending`` right after its start, and the view
    its board was drawn from."""
    await cmds.new(player("alice", locale), game, options=GAMES[game][1])
    await cmds.join(player("bob", locale))
    await cmds.start(player("alice", locale))
    await cmds.announcer.drain()
    await ENDINGS[ending][0](cmds, locale)
    post = (await channel_posts(cmds))[-1]
    return post, renderer.calls[-1]["view"]


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("ending", sorted(ENDINGS))
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_the_final_board_shows_the_ending_and_nobody_to_play(
    commands: Commands, renderers: tuple[FakeRenderer, FakeRenderer], game: str, ending: str, locale: str
) -> None:
    post, view = await ended(commands, renderers[0], game, ending, locale)
    prefix, key = GAMES[game][0], ENDINGS[ending][1]
    banner = tr(f"render.{prefix}.{key}", locale, players=["Alice"])
    assert view["to_act"] == [] and view["result"] is not None
    with recording() as found:
        render.render(view, names=NAMES, locale=locale)
    drawn = [d.shown for d in found]
    assert banner in drawn, drawn
    to_play = tr(f"render.{prefix}.badge.to_act", locale)
    assert to_play not in drawn, drawn
    assert banner in post.alt
    table = await commands.tables.latest("chan")
    assert table is not None and table.to_act() == []
    running = table.game.view(table.state, None)  # the position the engine was left in
    assert running["to_act"], "the engine still has a player to act"
    waiting, _ = STATUS[prefix](running, NAMES, locale)
    assert waiting not in drawn and waiting not in post.alt, post.alt


async def test_the_replay_ends_on_the_result(
    commands: Commands, renderers: tuple[FakeRenderer, FakeRenderer]
) -> None:
    """The replay's last frame is the final board: the resignation's result, nobody to play."""
    await ended(commands, renderers[0], "warchest", "resign", "en")
    (post,) = await commands.replay(player("alice", "en"))
    assert tr("render.wc.over.win", "en", players=["Alice"]) in post.alt, post.alt
    assert tr("render.wc.to_act", "en", players="") not in post.alt
