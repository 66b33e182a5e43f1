"""Batailles armies deploy at the same time, each unseen by the other until both are deployed: the
channel's posts (text, board and alt text) and the game's log say who deployed which troop and how
many, never where; each player sees their own deployment privately; once both armies are deployed,
the board shows every troop.

A computer player deploys its whole army the moment the game starts, so the person who deploys
second would otherwise see all of it in the channel.
"""

from __future__ import annotations

import re
from typing import Any

import db
from table.bots.thinkers import ThreadThinker
from tests.table.test_bot_turn_marks import busy_bot
from tests.table.test_bots import Table, ctx

BOT = "bot:1:normal"
ZONE = re.compile(r"\b[a-h][1-9]\b")
"""A zone's label ("c2"): what a deployment must not tell the other side."""


def zones_in(text: str) -> list[str]:
    return ZONE.findall(text)


async def test_a_bots_deployment_stays_hidden_from_the_channel_until_both_armies_are_deployed(
    store: db.Store,
) -> None:
    t = Table(store, ThreadThinker(busy_bot))
    await t.commands.new(ctx("alice"), "batailles", options="seed=5 armies=raiders map=open_field", bots=1)
    await t.commands.start(ctx("alice"))
    await t.drain()
    table = await t.game()
    log = await store.actions(table.record.id)
    bots_places = {a.action.split()[2] for a in log if a.player == BOT}
    assert len(log) == 6 and bots_places, "the bot deployed its whole army at once"
    assert table.to_act() == ["alice"]

    # the channel's post: its text, its board and its alt text say counts, no place
    assert t.outlet.sent is not None
    post = t.outlet.sent[-1][1]
    assert not zones_in(post.text), post.text
    assert "Bot 1 (normal) deploys" in post.text
    assert not zones_in(post.alt) and "Deployed 6/6" in post.alt and "Deployed 0/6" in post.alt
    view = table.view()
    assert not [t_["label"] for t_ in view["troops"] if t_["label"]]
    assert view["last"]["zones"] == [] and not view["since"]

    # the log says the same, to anyone who asks for it
    (logged,) = await t.commands.log(ctx("alice"))
    assert "Bot 1 (normal) deploys" in logged.text and not zones_in(logged.text), logged.text

    # alice sees her own deployment, privately, and still none of the bot's
    await t.commands.play(ctx("alice"), "deploy horse1 c2 e")
    await t.drain()
    (mine,) = [p for p in await t.commands.hand(ctx("alice")) if p.filename == "hand.png"]
    assert mine.ephemeral and "horse1 c2" in mine.text
    assert set(zones_in(mine.text + mine.alt)) == {"c2"}, "her own place, none of the bot's"
    post = await latest_post(t)
    assert not zones_in(post.text) and not zones_in(post.alt)

    # once both armies are deployed, the board shows every troop where it stands
    for _ in range(10):
        table = await t.game()
        if table.view()["phase"] != "deploy":
            break
        legal = table.game.legal_actions(table.state, "alice")
        await t.commands.play(ctx("alice"), str(legal[0]))
        await t.drain()
    bots = [t_ for t_ in (await t.game()).view()["troops"] if t_["seat"] == 1 and not t_["lost"]]
    assert bots and all(t_["label"] and not t_["hidden"] for t_ in bots)


async def latest_post(t: Table) -> Any:
    """The channel's latest public post: the handover post, or the edit that replaced it."""
    assert t.outlet.sent is not None and t.outlet.edits is not None
    index = len(t.outlet.sent)
    edits = [p for _c, message, p in t.outlet.edits if message == f"m{index}"]
    return edits[-1] if edits else t.outlet.sent[-1][1]
