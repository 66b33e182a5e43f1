"""The board posted after a computer player's whole turn shows that turn: every move it made on the
board since it was handed the turn is marked (hexes, zones or regions, paths, removed pieces), and
the last-action line names the last of them, never the "ends their turn" that closed it.

The bot moves at once, one decision after the other, so the player comes back to a post whose text
lists everything; the picture, which a phone shows first, must say the same.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import db
import engine
import render
from engine.batailles import rules as bt_rules
from render.batailles import board as bt_board
from render.cryhavoc import board as ch_board
from render.warchest import board as wc_board
from table.bots.thinkers import ThreadThinker
from table.core.replay import played, positions
from table.core.tables import Decision
from tests.table.test_bots import Table, ctx

BOT = "bot:1:normal"
IDLE = ("end", "done", "pass", "skip", "fold", "ready")
"""Verbs that close a turn or a step: the bot picks them only when nothing else is legal."""


def busy_bot(d: Decision) -> str:
    """A quick stand-in for the search that acts on the board whenever it can, so that a turn holds
    several moves: one of the seat's legal actions that is not an ending, picked by its seed."""
    rules = engine.get_game(d.game)
    position = rules.load(d.state)
    player = rules.view(position, None)["seats"][d.seat]["id"]
    legal = rules.legal_actions(position, player)
    acting = [a for a in legal if str(a).split()[0] not in IDLE] or legal
    return str(random.Random(d.seed).choice(acting))


def changed_board(name: str, record: Any) -> bool:
    """Whether the engine's own record of one action says it changed the board."""
    if name == "warchest":
        return bool(record[2] or record[3])
    if name == "batailles":
        return bt_rules.changes_board(record)
    return bool(record["regions"])


def places(name: str, record: Any) -> list[Any]:
    if name == "warchest":
        return list(record[2])
    if name == "batailles":
        return [tuple(z) for z in record["zones"]]
    return list(record["regions"])


def text_of(name: str, record: Any) -> str:
    return str(record[1] if name == "warchest" else record["text"])


def marked(name: str, view: dict[str, Any]) -> set[Any]:
    """The places the board marks for ``view``."""
    if name == "warchest":
        return set(wc_board.outlined_hexes(view))
    if name == "batailles":
        board = view["board"]
        return set(bt_board.marked_zones(view, board["width"], board["height"]))
    return set(ch_board.highlight_rings(view))


OPTIONS = {
    "warchest": "seed=7",
    "batailles": "seed=5 armies=raiders map=open_field",
    "cryhavoc": "seed=3",
}


@pytest.mark.parametrize("name", sorted(OPTIONS))
async def test_the_post_after_a_bots_turn_marks_the_whole_turn(store: db.Store, name: str) -> None:
    t = Table(store, ThreadThinker(busy_bot))
    await t.commands.new(ctx("alice"), name, options=OPTIONS[name], bots=1)
    await t.commands.start(ctx("alice"))
    game = engine.get_game(name)
    chooser = random.Random(1)
    run: list[Any] = []
    for _ in range(400):
        await t.drain()
        table = await t.game()
        assert table.record.status == "active"
        log = await store.actions(table.record.id)
        states = list(
            positions(game, table.record.player_ids, table.record.seed, table.record.options, played(log))
        )
        # the bot's last run of moves, each with the engine's own record of it
        run = []
        for entry, state in zip(reversed(log), reversed(states), strict=False):
            if entry.player != BOT:
                break
            record = state.last if name != "cryhavoc" else state["last"]
            run.insert(0, record)
        told = [r for r in run if changed_board(name, r)]
        if table.to_act() == ["alice"] and len(told) >= 2 and len(run) > len(told):
            break  # a bot's turn of several moves on the board and at least one that was not
        legal = game.legal_actions(table.state, "alice")
        await t.commands.play(ctx("alice"), str(chooser.choice(legal)))
    else:
        raise AssertionError("the bot never played a turn of several moves")
    view = table.view()
    assert [m["text"] for m in view["since"]] == [text_of(name, r) for r in told]
    assert view["last"]["text"] == text_of(name, told[-1]), "the line names the last move on the board"
    assert all(set(places(name, r)) <= marked(name, view) for r in told)
    # the post the player comes back to says so in its alt text, as its picture does
    assert t.outlet.sent is not None
    post = t.outlet.sent[-1][1]  # the handover post that gave alice the turn
    line = render.describe("board", view, names=table.names, locale="en")
    assert post.alt == line
    shown = next(part for part in line.split(". ") if part.startswith("Last action"))
    assert "Bot 1 (normal)" in shown and "ends their turn" not in shown and "finishes" not in shown
