"""The table layer over the real War Chest engine (and, once, the real renderer)."""

from __future__ import annotations

import random
from typing import Any

import engine
from cogs.markup import discord_text
from launch import DISCORD_LIMITS
from table import Commands, Tables, replay_game
from tests.table.conftest import CtxFactory, FakeRenderer, current, last_post, png_size


async def open_warchest(commands: Commands, ctx: CtxFactory, players: list[str], options: str = "") -> None:
    await commands.new(ctx(players[0]), "warchest", players=len(players), options=options)
    for p in players[1:]:
        await commands.join(ctx(p))
    await commands.start(ctx(players[0]))
    await commands.announcer.drain()  # as the front ends do after each command


async def test_lobby_to_first_moves_with_the_real_renderer(db_path: Any, ctx: CtxFactory) -> None:
    import db

    store = await db.open_store(db_path)
    try:
        commands = Commands(Tables(store, limits=DISCORD_LIMITS, seed_source=lambda: 99))
        await open_warchest(commands, ctx, ["alice", "bob"], options="armies=first")
        table = await current(commands)
        assert table.record.options == {"armies": "first"}
        for _ in range(2):
            player = table.to_act()[0]
            choices = await commands.autocomplete(ctx(player), "")
            assert 0 < len(choices) <= 25
            assert all(v.startswith(f"v{table.record.version}:") for _, v in choices)
            await commands.play(ctx(player, channel_locale="fr"), choices[0][1])
            table = await current(commands)
            post = await last_post(commands)
            width, height = png_size(post.image)
            assert width >= 600 and height >= 400
            assert post.mentions == tuple(table.to_act())
        hand = await commands.hand(ctx("alice", locale="fr"))
        assert hand[0].ephemeral and png_size(hand[0].image)[0] > 0
        assert "Sac" in hand[0].text
    finally:
        await commands.announcer.drain()
        await store.close()


async def test_a_random_game_replays_to_the_stored_state(
    commands: Commands, tables: Tables, ctx: CtxFactory, renderers: tuple[FakeRenderer, FakeRenderer]
) -> None:
    await open_warchest(commands, ctx, ["alice", "bob"], options="armies=random")
    pick = random.Random(7)
    game = engine.get_game("warchest")
    for _ in range(60):
        table = await current(commands)
        if table.record.status != "active":
            break
        player = table.to_act()[0]
        action = pick.choice(game.legal_actions(table.state, player))
        await commands.play(ctx(player), f"v{table.record.version}:{action}")
    table = await current(commands)
    assert table.record.version >= 30
    replayed = await replay_game(tables.store, engine.get_game, table.record.id)
    assert game.dump(replayed) == table.record.state
    log = await commands.log(ctx("alice"))
    assert "{" not in log[0].text  # every event rendered from the catalog
    public = renderers[0].calls[-1]["view"]
    assert public["private"] is None


async def test_four_players_take_the_engines_teams(commands: Commands, ctx: CtxFactory) -> None:
    await open_warchest(commands, ctx, ["p1", "p2", "p3", "p4"])
    table = await current(commands)
    assert [s.team for s in table.record.seats] == [0, 1, 0, 1]
    await commands.resign(ctx("p1"))
    assert "Winners: <@p2> and <@p4>" in discord_text((await last_post(commands)).text)
    assert (await current(commands)).record.result["winners"] == ["p2", "p4"]
