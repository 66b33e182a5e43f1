"""The fake Discord drives an unmodified discord.py bot: start-up, commands, answers, restarts."""

from __future__ import annotations

import asyncio
import io
import math
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
import pytest
from PIL import Image

from tests.fakediscord.conftest import World
from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.server import HANG_LIMIT, FakeDiscord, InteractionLost, InteractionTimeout


async def test_start_up_uses_only_known_routes(fake: FakeDiscord) -> None:
    guild = fake.add_guild("Les Joueurs", locale="fr")
    fake.add_channel(guild, "general")
    alice = fake.add_user("alice")
    bot = DemoBot()
    await fake.start_bot(bot)
    assert fake.unknown_requests == []
    assert fake.rejections == []
    assert fake.identifies == 1
    assert discord.Intents._from_value(fake.intents) == bot.intents
    seen = {(r.method, r.path) for r in fake.requests}
    assert ("GET", "/api/v10/users/@me") in seen
    assert ("PUT", f"/api/v10/applications/{fake.application_id}/commands") in seen
    assert bot.user is not None and str(bot.user.id) == fake.bot_user.id
    (cached,) = bot.guilds
    assert cached.name == "Les Joueurs"
    assert cached.preferred_locale is discord.Locale.french
    assert [c.name for c in cached.text_channels] == ["general"]
    assert cached.get_member(int(alice.id)) is not None


async def test_synced_commands_are_what_the_tree_sends(world: World) -> None:
    tree_payload = [c.to_dict(world.bot.tree) for c in world.bot.tree.get_commands()]
    synced = world.fake.commands
    assert [c["name"] for c in synced] == [c["name"] for c in tree_payload]
    game = next(c for c in synced if c["name"] == "game")
    assert [o["name"] for o in game["options"]] == ["new", "join"]
    assert all(c["id"] and c["application_id"] == world.fake.application_id for c in synced)


async def test_harness_patches_discord_urls_only_while_open() -> None:
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    async with FakeDiscord() as fake:
        assert f"http://127.0.0.1:{fake.port}/api/v10" == discord.http.Route.BASE
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY).startswith("ws://127.0.0.1:")
    assert base == discord.http.Route.BASE
    assert gateway == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY


async def test_subcommand_with_typed_options_and_locales(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "game new", game="warchest", players=3)
    assert r.response_type == 4
    assert not r.ephemeral and not r.deferred
    assert r.content == "new warchest players=3 locale=fr guild=fr"
    r = await world.fake.slash(world.bob, world.chan, "game new", game="batailles", locale="en-US")
    assert r.content == "new batailles players=None locale=en-US guild=fr"
    assert [m.content for m in world.fake.messages_in(world.chan)] == [
        "new warchest players=3 locale=fr guild=fr",
        "new batailles players=None locale=en-US guild=fr",
    ]


@pytest.mark.parametrize(
    ("command", "options", "complaint"),
    [
        ("nope", {}, "no synced slash command"),
        ("game", {}, "is a group"),
        ("game open", {}, "no subcommand"),
        ("game new", {}, "required"),
        ("game new", {"game": "chess"}, "not one of the choices"),
        ("game new", {"game": "warchest", "players": 9}, "above 4"),
        ("game new", {"game": "warchest", "players": "3"}, "integer"),
        ("game new", {"game": "warchest", "colour": "red"}, "no option 'colour'"),
    ],
)
async def test_slash_refuses_what_discord_clients_cannot_send(
    world: World, command: str, options: dict[str, Any], complaint: str
) -> None:
    with pytest.raises(ValueError, match=complaint):
        await world.fake.slash(world.alice, world.chan, command, **options)


async def test_ephemeral_reply_is_not_visible_in_the_channel(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "game join")
    assert r.ephemeral
    assert r.content == "seat for alice"
    assert world.fake.messages_in(world.chan) == []


async def test_deferred_reply_with_png_follow_up(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "play", action="pass")
    assert r.deferred
    first, second = r.messages
    assert first.kind == "response" and not first.loading
    assert r.content == f"<@{world.alice.id}> played pass"
    assert first.pinged_ids == [world.alice.id]
    ((name, blob),) = r.files
    assert name == "board.png"
    assert Image.open(io.BytesIO(blob)).size == (8, 8)
    assert second.kind == "followup" and second.ephemeral and second.content == "hand refreshed"
    assert [m.content for m in world.fake.messages_in(world.chan)] == [first.content]


async def test_first_follow_up_keeps_the_visibility_chosen_at_defer_time(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "peek")
    assert r.deferred and r.ephemeral and r.content == "your hand"
    assert [(m.kind, m.ephemeral) for m in r.messages] == [("response", True), ("followup", False)]
    assert [m.content for m in world.fake.messages_in(world.chan)] == ["public note"]


async def test_deferred_answer_filled_in_by_editing_the_original(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "edit", secret=True)
    assert r.deferred and r.ephemeral
    assert r.content == "edited"
    assert [n for n, _ in r.files] == ["b.png"]
    assert r.original is not None and r.original.edits == 0
    r = await world.fake.slash(world.alice, world.chan, "edit")
    assert not r.ephemeral and r.content == "edited"


async def test_autocomplete_returns_the_bots_choices(world: World) -> None:
    choices = await world.fake.autocomplete(world.bob, world.chan, "play", focused="action", action="arc")
    assert choices == [("ARCHER ATTACK C3", "archer attack c3"), ("ARCHER MOVE C3 D4", "archer move c3 d4")]
    assert await world.fake.autocomplete(world.bob, world.chan, "play", focused="action") != []
    with pytest.raises(ValueError, match="no autocomplete"):
        await world.fake.autocomplete(world.bob, world.chan, "game new", focused="game")


async def test_error_handler_answers_ephemerally(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "fail")
    assert r.ephemeral and r.content == "error: refused"
    assert world.bot.errors == ["Boom"]


async def test_unanswered_interaction_times_out(world: World) -> None:
    with pytest.raises(InteractionTimeout, match="silent"):
        await world.fake.slash(world.alice, world.chan, "silent", timeout=0.3)


async def test_answer_after_the_deadline_is_refused_like_discord() -> None:
    async with FakeDiscord(response_deadline=0.05) as fake:
        chan = fake.add_channel(fake.add_guild(), "general")
        alice = fake.add_user("alice")
        bot = DemoBot()
        await fake.start_bot(bot)
        with pytest.raises(InteractionTimeout, match="10062"):
            await fake.slash(alice, chan, "slow", seconds=0.1)
        assert bot.errors == ["404 10062"]


async def test_message_over_2000_characters_is_refused(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "long")
    assert r.content == "too long"
    assert world.bot.errors == ["400 50035"]
    (refused,) = world.fake.rejections
    assert refused.path.endswith("/callback") and refused.body["code"] == 50035


async def test_member_and_channel_options_are_resolved(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "who", member=world.bob, where=world.chan)
    assert r.content == "bob in general"


async def test_attachment_option_can_be_downloaded_by_the_bot(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "upload", file=("notes.txt", b"hello"))
    assert r.content == "notes.txt 5"


async def test_channel_posts_are_collected(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "post")
    assert r.ephemeral and r.content == "posting"
    assert [m.content for m in r.channel_posts] == ["a public post"]
    assert [m.content for m in world.fake.messages_in(world.chan)] == ["a public post"]


async def test_button_click_updates_the_message(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "buttons")
    message = r.original
    assert message is not None
    click = await world.fake.click(world.bob, message, "demo:ready")
    assert click.response_type == 7 and click.deferred is False
    assert message.content == "bob is ready" and message.edits == 1
    with pytest.raises(ValueError, match="disabled"):
        await world.fake.click(world.alice, message, "demo:ready")
    with pytest.raises(ValueError, match="no component"):
        await world.fake.click(world.alice, message, "demo:other")


async def test_select_menu_pick_answers_with_a_new_message(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "buttons")
    assert r.original is not None
    pick = await world.fake.click(world.bob, r.original, "demo:colour", values=["blue"])
    assert pick.response_type == 4 and pick.content == "bob picked blue"
    assert r.original.content == "press when ready"


async def test_original_and_follow_ups_can_be_edited_and_deleted(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "revise")
    assert r.contents == ["v2", "note 2"]
    assert [m.edits for m in r.messages] == [1, 1, 0]
    assert r.messages[2].deleted
    assert [m.content for m in world.fake.messages_in(world.chan)] == ["v2", "note 2"]
    assert world.fake.rejections == []


async def test_thread_created_by_the_bot_accepts_commands(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "thread", name="partie 1")
    thread = next(c for c in world.fake.channels.values() if c.is_thread)
    assert thread.name == "partie 1" and thread.parent_id == world.chan.id
    assert r.content == f"opened <#{thread.id}>"
    assert [m.content for m in world.fake.messages_in(thread)] == ["welcome"]
    r = await world.fake.slash(world.bob, thread, "game new", game="warchest")
    assert r.content.startswith("new warchest")


async def test_archived_thread_refuses_commands_and_a_post_reopens_it_unless_refused(world: World) -> None:
    thread = world.fake.add_thread(world.chan, "old", archived=True)
    with pytest.raises(ValueError, match="archived"):
        await world.fake.slash(world.alice, thread, "game join")
    world.fake.set_archived(thread, False)
    r = await world.fake.slash(world.alice, thread, "post")
    assert [m.content for m in r.channel_posts] == ["a public post"]
    world.fake.set_archived(thread)
    cached = world.bot.get_channel(int(thread.id))
    assert isinstance(cached, discord.Thread)
    await cached.send("still here")  # a post by someone allowed to send reopens it, as on Discord
    assert not thread.archived
    world.fake.set_archived(thread, reopen_by_post=False)
    with pytest.raises(discord.HTTPException) as refused:
        await cached.send("too late")
    assert refused.value.code == 50083
    assert [m.content for m in world.fake.messages_in(thread)] == ["a public post", "still here"]


async def test_direct_messages_are_recorded(world: World) -> None:
    await world.fake.slash(world.alice, world.chan, "dm")
    assert [m.content for m in world.fake.dms_to(world.alice)] == ["your turn"]
    assert world.fake.dms_to(world.bob) == []


async def test_restart_against_the_same_server(world: World) -> None:
    ids = {c["name"]: c["id"] for c in world.fake.commands}
    await world.fake.slash(world.alice, world.chan, "game new", game="warchest")
    shown = (await world.fake.slash(world.alice, world.chan, "buttons")).original
    assert shown is not None
    await world.fake.stop_bot()
    assert world.bot.is_closed()
    second = DemoBot()
    await world.fake.start_bot(second)
    assert world.fake.identifies == 2
    assert {c["name"]: c["id"] for c in world.fake.commands} == ids
    r = await world.fake.slash(world.bob, world.chan, "game join")
    assert r.content == "seat for bob"
    await world.fake.click(world.bob, shown, "demo:ready")  # a persistent view outlives the restart
    assert shown.content == "bob is ready"
    assert world.fake.unknown_requests == []


async def test_gateway_reconnect_resumes_the_session(world: World) -> None:
    await world.fake.reconnect_gateway()
    assert world.fake.resumes == 1 and world.fake.identifies == 1
    assert world.fake.gateway_paths == ["/gateway", "/gateway-resume"]
    r = await world.fake.slash(world.alice, world.chan, "game join")
    assert r.content == "seat for alice"


async def test_unknown_routes_are_recorded_and_answered_404(world: World) -> None:
    with pytest.raises(discord.NotFound):
        await world.bot.fetch_sticker(1234)
    assert [(r.method, r.path) for r in world.fake.unknown_requests] == [("GET", "/api/v10/stickers/1234")]


async def test_second_acknowledgement_is_refused(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "game join")
    url = f"{world.fake.base_url}/api/v10/interactions/{r.interaction_id}/{r.token}/callback"
    async with aiohttp.ClientSession() as session:
        async with session.post(url, json={"type": 4, "data": {"content": "again"}}) as resp:
            assert resp.status == 400
            assert resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["code"] == 40060
        async with session.post(url.replace(r.token, "bad-token"), json={"type": 5}) as resp:
            assert resp.status == 404 and (await resp.json())["code"] == 10062


async def test_guild_commands_synced_in_on_ready(fake: FakeDiscord) -> None:
    guild = fake.add_guild()
    chan = fake.add_channel(guild, "general")
    alice = fake.add_user("alice")
    await fake.start_bot(DemoBot(sync_in="guild"))
    r = await fake.slash(alice, chan, "game join")
    assert r.content == "seat for alice"
    assert fake.global_commands == []
    assert {c["guild_id"] for c in fake.guild_commands[guild.id]} == {guild.id}


async def test_world_changes_reach_the_running_bot(world: World) -> None:
    late_channel = world.fake.add_channel(world.guild, "late")
    carol = world.fake.add_user("carol")
    r = await world.fake.slash(carol, late_channel, "game join")
    assert r.content == "seat for carol"
    cached = world.bot.get_guild(int(world.guild.id))
    assert cached is not None
    assert cached.get_channel(int(late_channel.id)) is not None
    assert cached.get_member(int(carol.id)) is not None


async def test_heartbeats_are_acknowledged() -> None:
    async with FakeDiscord(heartbeat_interval_ms=40) as fake:
        fake.add_channel(fake.add_guild(), "general")
        await fake.start_bot(DemoBot())

        async def three_beats() -> None:
            while len(fake.heartbeats) < 3:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(three_beats(), HANG_LIMIT)
        assert fake.resumes == 0 and fake.identifies == 1
        assert fake.bot is not None and math.isfinite(fake.bot.latency), "the bot saw its heartbeats acked"


async def test_more_than_25_suggestions_are_refused(world: World) -> None:
    with pytest.raises(InteractionTimeout, match="50035"):
        await world.fake.autocomplete(world.alice, world.chan, "pick", focused="item")
    (refused,) = world.fake.rejections
    assert refused.body["errors"]["choices"]["_errors"][0]["message"].startswith("Must be 25 or fewer")


async def test_simultaneous_commands_are_each_answered(world: World) -> None:
    first, second = await asyncio.gather(
        world.fake.slash(world.alice, world.chan, "play", action="pass"),
        world.fake.slash(world.bob, world.chan, "play", action="bolster e1"),
    )
    assert first.content == f"<@{world.alice.id}> played pass"
    assert second.content == f"<@{world.bob.id}> played bolster e1"
    assert len(world.fake.messages_in(world.chan)) == 2


async def test_option_values_reach_options_named_like_harness_parameters(world: World) -> None:
    r = await world.fake.slash(world.alice, world.chan, "game new", option_values={"game": "batailles"})
    assert r.content.startswith("new batailles")


async def test_the_gateway_sends_each_guild_to_the_connection_of_its_shard(fake: FakeDiscord) -> None:
    fake.shard_count, fake.token = 2, "t"
    guilds = [fake.add_guild(f"server {i}") for i in range(8)]
    by_shard = {n: {g.id for g in guilds if (int(g.id) >> 22) % 2 == n} for n in (0, 1)}
    assert by_shard[0] and by_shard[1], "the snowflakes spread the servers over both shards"
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{fake.base_url}/api/v10/gateway/bot", headers={"Authorization": "Bot t"}) as r:
            assert (await r.json())["shards"] == 2, "the shard count asked for"
        sockets = {}
        for shard in (0, 1):
            ws = sockets[shard] = await http.ws_connect(fake.gateway_url)
            assert (await ws.receive_json())["op"] == 10
            identify = {"token": "t", "intents": 0, "properties": {}, "shard": [shard, 2]}
            await ws.send_json({"op": 2, "d": identify})
            ready = await ws.receive_json()
            assert ready["t"] == "READY" and ready["d"]["shard"] == [shard, 2]
            assert {g["id"] for g in ready["d"]["guilds"]} == by_shard[shard]
            created = [await ws.receive_json() for _ in by_shard[shard]]
            assert {f["d"]["id"] for f in created} == by_shard[shard], "only its own servers"
        assert fake.identified_shards == [(0, 2), (1, 2)]
        for shard in (0, 1):
            guild = fake.guilds[min(by_shard[shard])]
            fake.add_channel(guild, "new")  # a guild event: to that guild's shard alone
            await fake.dispatch("INTERACTION_CREATE", {"id": "1", "guild_id": guild.id, "type": 2})
            frames = [await sockets[shard].receive_json() for _ in range(2)]
            assert [f["t"] for f in frames] == ["CHANNEL_CREATE", "INTERACTION_CREATE"]
            assert all(f["d"]["guild_id"] == guild.id for f in frames)
        await sockets[0].close()
        with pytest.raises(RuntimeError, match="no bot is connected"):
            await fake.dispatch("INTERACTION_CREATE", {"guild_id": min(by_shard[0]), "type": 2})
        for ws in sockets.values():
            await ws.close()


async def test_a_bot_in_another_process_is_waited_for_after_deferring_and_given_up_when_killed(
    fake: FakeDiscord,
) -> None:
    """A bot process of its own has no tasks here to wait for: a deferred answer is awaited until it is
    completed, and an interaction its killed process never answers fails at once (``abandon_shard``)."""
    fake.token = "t"
    chan = fake.add_channel(fake.add_guild("G"), "general")
    alice = fake.add_user("alice")
    auth = {"Authorization": "Bot t"}
    api = f"{fake.base_url}/api/v10"
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(fake.gateway_url)
        await ws.receive_json()
        await ws.send_json({"op": 2, "d": {"token": "t", "intents": 0, "properties": {}}})
        command = [{"name": "ping", "description": "Ping.", "type": 1}]
        async with http.put(f"{api}/applications/{fake.application_id}/commands", json=command, headers=auth):
            pass

        async def interaction() -> dict[str, Any]:
            while (frame := await ws.receive_json())["t"] != "INTERACTION_CREATE":
                pass
            data: dict[str, Any] = frame["d"]
            return data

        answer = asyncio.ensure_future(fake.slash(alice, chan, "ping"))
        sent = await interaction()
        callback = f"{api}/interactions/{sent['id']}/{sent['token']}/callback"
        async with http.post(callback, json={"type": 5, "data": {"flags": 64}}, headers=auth) as r:
            assert r.status in (200, 204)
        original = f"{api}/webhooks/{fake.application_id}/{sent['token']}/messages/@original"
        async with http.patch(original, json={"content": "pong"}, headers=auth) as r:
            assert r.status == 200
        result = await asyncio.wait_for(answer, HANG_LIMIT)
        assert result.content == "pong", "the follow-up that completed the deferred answer"

        unanswered = asyncio.ensure_future(fake.slash(alice, chan, "ping"))
        await interaction()
        assert fake.abandon_shard(0) == 1
        with pytest.raises(InteractionLost):
            await asyncio.wait_for(unanswered, HANG_LIMIT)
        await ws.close()


async def test_a_repeated_nonce_returns_the_first_message_within_the_window(world: World) -> None:
    """Discord's rule for ``enforce_nonce`` (which discord.py sends with every nonce): the same author
    posting the same nonce within a few minutes gets the first message back; nothing new is made."""
    now = [1000.0]
    world.fake.nonce_clock = lambda: now[0]
    channel = world.bot.get_channel(int(world.chan.id))
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("the board at version 3", nonce="g1.v3.active")
    now[0] += world.fake.nonce_window - 1
    again = await channel.send("the board at version 3, posted again", nonce="g1.v3.active")
    other = await channel.send("the board at version 4", nonce="g1.v4.active")
    plain = await channel.send("no nonce")
    plain_again = await channel.send("no nonce")
    assert again.id == first.id and again.content == "the board at version 3"
    assert len({first.id, other.id, plain.id, plain_again.id}) == 4
    assert world.fake.nonce_repeats == 1
    now[0] += 2  # past the window: Discord no longer knows the nonce
    late = await channel.send("the board at version 3, much later", nonce="g1.v3.active")
    assert late.id != first.id
    assert [m.content for m in world.fake.messages_in(world.chan)] == [
        "the board at version 3",
        "the board at version 4",
        "no nonce",
        "no nonce",
        "the board at version 3, much later",
    ]
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("too long a nonce", nonce="x" * 26)
    assert refused.value.code == 50035
    assert world.fake.rejections[-1].body["errors"]["nonce"]
