"""The fake Discord refuses as Discord does: injected faults, the bot's permissions per channel, archived,
locked and deleted channels, the rate of messages per channel, and gateway connections that close.

Each is checked through discord.py's own code (the demo bot's client), which is what the real bot meets.
"""

from __future__ import annotations

import io

import aiohttp
import discord
import pytest

from tests.fakediscord.conftest import World
from tests.fakediscord.demo_bot import png_bytes
from tests.fakediscord.faults import MESSAGE, ChannelRate
from tests.fakediscord.rest import API_PREFIX
from tests.fakediscord.server import InteractionLost


def cached(world: World, channel_id: str) -> discord.TextChannel | discord.Thread:
    found = world.bot.get_channel(int(channel_id))
    assert isinstance(found, discord.TextChannel | discord.Thread), found
    return found


async def heard(world: World) -> None:
    """Until the bot has read the gateway events sent so far: a command's answer comes after them."""
    await world.fake.slash(world.alice, world.chan, "perms")


def board() -> discord.File:
    return discord.File(io.BytesIO(png_bytes()), filename="board.png")


@pytest.mark.parametrize(
    ("kind", "refusal", "status", "code"),
    [
        ("missing_access", discord.Forbidden, 403, 50001),
        ("missing_permissions", discord.Forbidden, 403, 50013),
        ("thread_locked", discord.Forbidden, 403, 160005),
        ("unknown_channel", discord.NotFound, 404, 10003),
        ("thread_archived", discord.HTTPException, 400, 50083),
        ("unavailable", discord.DiscordServerError, 503, 0),
    ],
)
async def test_an_injected_refusal_reaches_discord_py_as_discord_sends_it(
    world: World, kind: str, refusal: type[discord.HTTPException], status: int, code: int
) -> None:
    fault = world.fake.inject(kind, channel=world.chan, times=1)
    channel = cached(world, world.chan.id)
    with pytest.raises(refusal) as raised:
        await channel.send("refused")
    assert (raised.value.status, raised.value.code) == (status, code)
    assert fault.hits == 1 and not fault.active
    await channel.send("then accepted")  # only ``times`` requests were refused
    assert [m.content for m in world.fake.messages_in(world.chan)] == ["then accepted"]
    assert [r.status for r in world.fake.rejections] == [status]


async def test_a_fault_lasts_until_lifted_and_touches_only_its_channel_and_route(world: World) -> None:
    other = world.fake.add_channel(world.guild, "other")
    fault = world.fake.inject("missing_permissions", channel=world.chan)
    channel = cached(world, world.chan.id)
    for _ in range(3):
        with pytest.raises(discord.Forbidden):
            await channel.send("refused")
    await cached(world, other.id).send("elsewhere")
    kept = await world.fake.slash(world.alice, world.chan, "post")  # the interaction's answer is no post
    assert kept.content == "posting"
    fault.lift()
    await channel.send("accepted")
    assert fault.hits == 4  # the three sends and the command's own post
    assert [m.content for m in world.fake.messages_in(world.chan)][-1] == "accepted"


async def test_an_edit_of_a_deleted_message_is_unknown(world: World) -> None:
    channel = cached(world, world.chan.id)
    sent = await channel.send("board")
    world.fake.inject("unknown_message", route=MESSAGE, method="PATCH", channel=world.chan, times=1)
    with pytest.raises(discord.NotFound) as raised:
        await sent.edit(content="moved on")
    assert raised.value.code == 10008
    await sent.edit(content="moved on")
    assert world.fake.messages_in(world.chan)[0].content == "moved on"


@pytest.mark.parametrize("is_global", [False, True])
async def test_a_429_is_waited_out_by_discord_py_and_the_post_made_once(
    world: World, is_global: bool
) -> None:
    fault = world.fake.inject(
        "rate_limited", channel=world.chan, times=1, retry_after=0.05, is_global=is_global
    )
    await cached(world, world.chan.id).send("after the wait")
    assert fault.hits == 1
    assert [m.content for m in world.fake.messages_in(world.chan)] == ["after the wait"]
    (refused,) = world.fake.rejections
    assert refused.status == 429 and refused.body["global"] is is_global
    assert refused.body["retry_after"] == 0.05


async def test_server_errors_discord_py_retries_itself(world: World) -> None:
    """500, 502, 504: discord.py tries again (after 1 s, then longer), five times at most."""
    fault = world.fake.inject("server_error", channel=world.chan, times=1)
    await cached(world, world.chan.id).send("second try")
    assert fault.hits == 1
    assert [m.content for m in world.fake.messages_in(world.chan)] == ["second try"]


async def test_the_channel_rate_answers_a_real_429_on_its_own_clock(world: World) -> None:
    now = [100.0]
    world.fake.message_rate = ChannelRate(limit=2, per=5.0, clock=lambda: now[0])
    world.fake.channel_requests.clock = lambda: now[0]
    url = f"{world.fake.base_url}{API_PREFIX}/channels/{world.chan.id}/messages"
    headers = {"Authorization": f"Bot {world.fake.token}"}
    async with aiohttp.ClientSession() as session:

        async def post(text: str) -> aiohttp.ClientResponse:
            async with session.post(url, json={"content": text}, headers=headers) as response:
                await response.read()
                return response

        first, second, third = [await post(f"post {n}") for n in range(3)]
        assert [r.status for r in (first, second, third)] == [200, 200, 429]
        assert first.headers["X-RateLimit-Limit"] == "2" and first.headers["X-RateLimit-Remaining"] == "1"
        assert third.headers["X-RateLimit-Remaining"] == "0" and third.headers["Via"]
        assert float(third.headers["X-RateLimit-Reset-After"]) == 5.0
        body = world.fake.rejections[-1].body
        assert body == {"message": "You are being rate limited.", "retry_after": 5.0, "global": False}
        now[0] += 5.0  # the window has passed
        assert (await post("post 3")).status == 200
    assert world.fake.message_rate.rejected == 1
    assert world.fake.channel_requests.count(world.chan.id, methods=("POST",)) == 4
    assert world.fake.channel_requests.busiest(world.chan.id, 5.0) == 3


async def test_discord_py_paces_its_posts_by_the_rate_headers(world: World) -> None:
    world.fake.message_rate = ChannelRate(limit=2, per=0.2)
    channel = cached(world, world.chan.id)
    for n in range(5):
        await channel.send(f"post {n}")
    assert len(world.fake.messages_in(world.chan)) == 5
    assert world.fake.message_rate.rejected == 0, "discord.py waited for the window instead"


async def test_the_bots_permissions_per_channel_reach_discord_py_and_interactions(world: World) -> None:
    channel = cached(world, world.chan.id)
    me = channel.guild.me
    assert channel.permissions_for(me).attach_files
    assert (await world.fake.slash(world.alice, world.chan, "perms")).content == (
        "view_channel send_messages attach_files"
    )
    world.fake.deny_bot(world.chan, "attach_files")
    assert (await world.fake.slash(world.alice, world.chan, "perms")).content == "view_channel send_messages"
    assert not channel.permissions_for(me).attach_files, "CHANNEL_UPDATE carried the overwrite, before it"
    with pytest.raises(discord.Forbidden) as raised:
        await channel.send("a board", file=board())
    assert raised.value.code == 50013
    await channel.send("words only")
    world.fake.deny_bot(world.chan, "view_channel")
    with pytest.raises(discord.Forbidden) as hidden:
        await channel.send("words only")
    assert hidden.value.code == 50001
    world.fake.allow_bot(world.chan)
    await channel.send("a board", file=board())
    assert channel.permissions_for(me).attach_files
    assert [m.content for m in world.fake.messages_in(world.chan)] == ["words only", "a board"]


async def test_a_thread_takes_its_parents_permissions(world: World) -> None:
    thread = world.fake.add_thread(world.chan, "game")
    await heard(world)
    with pytest.raises(ValueError, match="parent"):
        world.fake.deny_bot(thread, "send_messages_in_threads")
    world.fake.deny_bot(world.chan, "send_messages_in_threads")
    with pytest.raises(discord.Forbidden) as raised:
        await cached(world, thread.id).send("refused")
    assert raised.value.code == 50013
    await cached(world, world.chan.id).send("the channel itself still takes posts")


async def test_a_locked_thread_refuses_a_bot_that_may_not_manage_threads(world: World) -> None:
    thread = world.fake.add_thread(world.chan, "game")
    await heard(world)
    world.fake.set_locked(thread)
    await cached(world, thread.id).send("a moderator's bot may")  # the bot's role manages threads
    world.fake.deny_bot(world.chan, "manage_threads")
    with pytest.raises(discord.Forbidden) as raised:
        await cached(world, thread.id).send("refused")
    assert raised.value.code == 160005
    world.fake.set_locked(thread, False)
    await cached(world, thread.id).send("open again")


async def test_an_archived_thread_is_reopened_by_hand_with_manage_threads(world: World) -> None:
    thread = world.fake.add_thread(world.chan, "game")
    world.fake.set_archived(thread, reopen_by_post=False)
    known = await world.bot.fetch_channel(int(thread.id))  # discord.py keeps no archived thread
    assert isinstance(known, discord.Thread) and known.archived
    with pytest.raises(discord.HTTPException) as refused:
        await known.send("refused")
    assert refused.value.code == 50083
    world.fake.deny_bot(world.chan, "manage_threads")
    with pytest.raises(discord.Forbidden):
        await known.edit(archived=False)
    world.fake.allow_bot(world.chan, "manage_threads")
    await known.edit(archived=False)
    await known.send("reopened")
    assert not thread.archived
    assert any(r.method == "PATCH" and r.path.endswith(thread.id) for r in world.fake.requests)
    assert world.fake.channel_requests.count(thread.id, methods=("PATCH",)) == 2


async def test_a_deleted_channel_or_thread_is_unknown_and_the_bot_hears_of_it(world: World) -> None:
    thread = world.fake.add_thread(world.chan, "game")
    known = cached(world, world.chan.id)
    await heard(world)
    assert world.bot.get_channel(int(thread.id)) is not None
    world.fake.delete_channel(thread)
    await heard(world)
    assert world.bot.get_channel(int(thread.id)) is None
    world.fake.delete_channel(world.chan)
    await world.fake.slash(world.alice, world.fake.add_channel(world.guild, "lobby"), "perms")
    assert world.bot.get_channel(int(world.chan.id)) is None
    with pytest.raises(discord.NotFound) as raised:
        await known.send("too late")
    assert raised.value.code == 10003


async def test_a_resumable_close_is_resumed_and_what_came_meanwhile_replayed(world: World) -> None:
    await world.fake.close_gateway(4000, wait=False)
    answer = await world.fake.slash(world.alice, world.chan, "perms")  # sent while the bot is away
    assert answer.content.startswith("view_channel")
    assert world.fake.resumes == 1 and world.fake.identifies == 1
    assert world.fake.gateway_paths == ["/gateway", "/gateway-resume"]
    await world.fake.close_gateway(4000)
    assert world.fake.resumes == 2 and world.fake.identifies == 1


async def test_an_invalidated_session_is_identified_again_and_what_came_meanwhile_lost(world: World) -> None:
    await world.fake.invalidate_session(wait=False)
    with pytest.raises(InteractionLost):
        await world.fake.slash(world.alice, world.chan, "perms")
    await world.fake.connected()  # discord.py identifies again, 5 s later
    assert world.fake.identifies == 2 and world.fake.invalidations == 1
    assert (await world.fake.slash(world.alice, world.chan, "perms")).content.startswith("view_channel")
    assert world.fake.resumes == 0
