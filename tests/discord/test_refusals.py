"""Discord's refusals, survived: through the fake Discord, with the store checked afterwards.

A moderator takes a permission away, locks or archives a thread, deletes a channel; Discord has an
outage. Every stored move is kept, none is doubled; what can succeed later is tried again (discord.py
itself, then the next tick's catch-up); a channel that refuses the bot is left alone but for a try now
and then, remembered across a restart, and its players are told once, in their language, by direct
message when they chose it, else with their next answer anywhere; once it works again, what it missed
is posted, once. A deleted channel's game is closed as abandoned, unrated.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

import db
from table.posting.faults import backoff
from tests.discord.tables import T0, Table, table, until
from tests.fakediscord.faults import MESSAGE, MESSAGES
from tests.fakediscord.model import FakeChannel

ATTACH_EN, ATTACH_FR = "I need Attach Files there", "il m'y faut la permission Joindre des fichiers"


async def faults(t: Table) -> list[db.ChannelFault]:
    return await t.store.channel_faults()


async def has_fault(t: Table) -> bool:
    return bool(await faults(t))


async def to_be_told(t: Table) -> bool:
    """Whether bob (who reads no direct message) has a notice waiting for his next answer."""
    return t.bob.id in await t.store.noticed_players()


def dms(t: Table, user_index: int, about: str) -> list[str]:
    """The direct messages to a player that say ``about`` (not those saying it is their turn)."""
    user = list(t.players.values())[user_index]
    return [m.content for m in t.fake.dms_to(user) if about in m.content]


def channel_posts(t: Table) -> int:
    return t.fake.channel_requests.count(t.chan.id, methods=("POST", "PATCH"))


async def check_kept(t: Table) -> None:
    """Every acknowledged move stored once, every stored move named in the channel, no post twice."""
    assert await t.stored_moves() == list(range(1, len(t.acked) + 1)) == t.acked
    assert await t.unnamed_moves() == []
    nonces = [m.nonce for m in t.posts()]
    assert len(nonces) == len(set(nonces)), nonces


async def test_a_permission_taken_away_keeps_the_game_tells_each_player_once_and_is_caught_up_after(
    tmp_path: Path,
) -> None:
    async with table(tmp_path) as t:
        await t.fake.slash(t.alice, t.chan, "notify", dm=True)  # alice reads her direct messages
        await t.open()
        await t.move()
        t.fake.deny_bot(t.chan, "attach_files")
        await t.move()  # stored and confirmed; its board is refused
        await until(lambda: to_be_told(t), "the refusal recorded, bob to be told")
        (fault,) = await faults(t)
        assert (fault.kind, fault.missing, fault.tries) == ("permissions", ("attach_files",), 1)
        assert fault.next_try == (T0 + timedelta(minutes=1)).isoformat(timespec="seconds")
        (told,) = dms(t, 0, ATTACH_FR)
        assert "Champ d'honneur" in told and t.chan.mention in told
        status = await t.fake.slash(t.bob, t.chan, "game status")
        assert any(ATTACH_EN in c for c in status.contents), "bob learns it with his next answer, in English"
        tried = channel_posts(t)
        for _ in range(3):
            reply = await t.move()  # left alone: no board drawn, nothing sent
            assert not any("Attach Files" in c or "Joindre" in c for c in reply.contents), "told once"
        assert channel_posts(t) == tried
        assert len(dms(t, 0, ATTACH_FR)) == 1, "alice was told by direct message, once"
        t.fake.allow_bot(t.chan)  # a moderator gives it back: CHANNEL_UPDATE
        await until(t.shown, "the catch-up of what the channel missed")
        assert await faults(t) == []
        await check_kept(t)


async def test_a_refusal_is_remembered_across_a_restart_and_tried_again_further_apart(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.open()
        hidden = [
            t.fake.inject("missing_access", route=MESSAGES, channel=t.chan),
            t.fake.inject("missing_access", route=MESSAGE, method="PATCH", channel=t.chan),
        ]
        await t.move()
        await until(lambda: sum(f.hits for f in hidden) == 1, "the refused post")
        (fault,) = await faults(t)
        assert fault.missing == ("view_channel",) and fault.tries == 1
        await t.restart()
        await t.ticks(3)
        assert sum(f.hits for f in hidden) == 1, "a restart remembers the channel is left alone"
        for tries in (2, 3, 4):
            t.clock.advance(backoff(tries - 1))
            await until(lambda tries=tries: sum(f.hits for f in hidden) == tries, f"try {tries}")
            await t.ticks(3)
            (fault,) = await faults(t)
            assert fault.tries == tries and sum(f.hits for f in hidden) == tries, "one try each time"
        assert [backoff(n) for n in (1, 2, 3, 7, 40)] == [
            timedelta(minutes=1),
            timedelta(minutes=2),
            timedelta(minutes=4),
            timedelta(hours=1),
            timedelta(hours=1),
        ]
        for fault_ in hidden:
            fault_.lift()
        t.clock.advance(backoff(4))
        await until(t.shown, "the next try goes through and catches up")
        assert await faults(t) == []
        await check_kept(t)


async def test_an_interaction_showing_the_permission_back_ends_the_fault(tmp_path: Path) -> None:
    """The permission comes back while the bot heard nothing of it (an event lost to a reconnection):
    the next command in the channel says what the bot may do there, and that is enough."""
    async with table(tmp_path) as t:
        await t.open()
        t.fake.deny_bot(t.chan, "attach_files")
        await t.move()
        await until(lambda: has_fault(t), "the refusal recorded")
        t.chan.bot_denied = 0  # given back, unheard
        await t.fake.slash(t.bob, t.chan, "game status")
        await until(t.shown, "the catch-up")
        assert await faults(t) == []
        await check_kept(t)


@pytest.mark.parametrize("heard", [True, False], ids=["deleted, heard", "deleted, found at the next post"])
async def test_a_deleted_channel_closes_its_game_unrated_and_tells_its_players(
    tmp_path: Path, heard: bool
) -> None:
    async with table(tmp_path) as t:
        await t.fake.slash(t.alice, t.chan, "notify", dm=True)
        await t.open()
        await t.move()
        elsewhere = t.fake.add_channel(t.guild, "ailleurs")
        if heard:
            t.fake.delete_channel(t.chan)  # CHANNEL_DELETE
            await until(lambda: to_be_told(t), "the game closed, bob to be told")
        else:
            for route, method in ((MESSAGES, "POST"), (MESSAGE, "PATCH")):
                t.fake.inject("unknown_channel", route=route, method=method, channel=t.chan)
            await t.move()
        record = await t.record()
        assert record.status == "aborted" and record.result is not None
        assert record.result["reason"]["key"] == "svc.reason.channel_gone"
        result = await t.store.result_of(record.id)
        assert result is not None and not result.rated, "an abandoned game counts for no rating"
        assert await t.store.unannounced() == [], "nothing left to post where nothing can be posted"
        assert await t.stored_moves() == t.acked, "its log is kept"
        (told,) = dms(t, 0, "supprimé")
        assert "Champ d'honneur" in told
        reply = await t.fake.slash(t.bob, elsewhere, "games")
        assert any("was deleted" in c and "closed, unrated" in c for c in reply.contents), reply.contents
        assert not any("was deleted" in c for c in (await t.fake.slash(t.bob, elsewhere, "games")).contents)


async def test_an_outage_is_tried_again_by_the_next_tick_and_posted_once(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.open()
        outage = t.fake.inject("unavailable", channel=t.chan, times=2)  # 503: discord.py does not retry
        await t.move()
        await until(t.shown, "the next ticks' catch-up")
        assert outage.hits == 2
        assert await faults(t) == [] and await t.store.noticed_players() == []
        await check_kept(t)
        bad_gateway = t.fake.inject("bad_gateway", channel=t.chan, times=1)  # 502: discord.py retries
        await t.move()
        await until(t.shown, "discord.py's second try")
        assert bad_gateway.hits == 1
        await check_kept(t)


async def test_an_edit_of_a_deleted_post_posts_anew(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await t.open()
        gone = t.fake.inject("unknown_message", route=MESSAGE, method="PATCH", channel=t.chan, times=1)
        for _ in range(7):  # the sixth move keeps the same player acting: an edit of the turn's post
            await t.move()
        await until(t.shown, "every move shown")
        assert gone.hits == 1
        assert any(m.nonce == "g1.v6.active" for m in t.posts()), "posted anew where the edit failed"
        await check_kept(t)


async def test_game_new_says_what_the_bot_lacks_here_and_makes_nothing(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        t.fake.deny_bot(t.chan, "attach_files", "send_messages")
        refused = await t.fake.slash(t.alice, t.chan, "game new", game="warchest")
        assert refused.ephemeral
        assert "Envoyer des messages et Joindre des fichiers" in refused.content, refused.content
        english = await t.fake.slash(t.bob, t.chan, "game new", game="warchest")
        assert "I need Send Messages and Attach Files here" in english.content
        t.fake.allow_bot(t.chan)
        t.fake.deny_bot(t.chan, "create_public_threads")
        threaded = await t.fake.slash(t.bob, t.chan, "game new", game="warchest", thread=True)
        assert "I need Create Public Threads here" in threaded.content
        assert await t.store.latest_game(t.chan.id) is None
        assert [c for c in t.fake.channels.values() if c.is_thread] == [], "no thread was opened"
        await t.fake.slash(t.alice, t.chan, "game new", game="warchest")  # a table where it may post
        assert await t.store.latest_game(t.chan.id) is not None


# ---- games in threads ---------------------------------------------------------------------------


async def thread_table(t: Table) -> FakeChannel:
    """A started game in a thread the bot opened; the table now plays there."""
    await t.fake.slash(t.alice, t.chan, "game new", game="warchest", options="seed=4", thread=True)
    (thread,) = [c for c in t.fake.channels.values() if c.parent_id == t.chan.id]
    t.chan = thread
    await t.fake.slash(t.bob, thread, "game join")
    await t.fake.slash(t.alice, thread, "game start")
    await until(t.shown, "the start is shown")
    return thread


async def test_a_post_reopens_an_archived_thread_or_the_bot_does_with_manage_threads(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        thread = await thread_table(t)
        for reopen_by_post in (True, False):
            t.fake.hold_posts(thread.id)
            await t.move(settle=False)  # its post waits while a week of silence archives the thread
            t.fake.set_archived(thread, reopen_by_post=reopen_by_post)
            t.fake.release_posts(thread.id)
            await until(t.shown, "the board, in the thread reopened")
            assert not thread.archived
        assert await faults(t) == []
        reopened = [
            r for r in t.fake.requests if r.method == "PATCH" and r.path.endswith(f"/channels/{thread.id}")
        ]
        assert len(reopened) == 1, "reopened by hand once: the other time, the post reopened it"
        await check_kept(t)


@pytest.mark.parametrize("how", ["archived", "locked"])
async def test_a_thread_the_bot_may_not_reopen_or_a_locked_one_is_left_alone_until_a_moderator_acts(
    tmp_path: Path, how: str
) -> None:
    async with table(tmp_path) as t:
        thread = await thread_table(t)
        t.fake.deny_bot(t.fake.channels[thread.parent_id or ""], "manage_threads")
        held = t.fake.hold_posts(thread.id)
        await t.move(settle=False)
        if how == "archived":
            t.fake.set_archived(thread, reopen_by_post=False)
        else:
            t.fake.set_locked(thread)
        held.set()
        await until(lambda: to_be_told(t), "the refusal recorded, bob to be told")
        (fault,) = await faults(t)
        assert fault.kind == how
        reply = await t.fake.slash(t.bob, t.fake.channels[thread.parent_id or ""], "games")
        words = "reopening it takes Manage Threads" if how == "archived" else "the thread is locked"
        assert any(words in c for c in reply.contents), reply.contents
        if how == "archived":
            t.fake.set_archived(thread, False)  # a moderator reopens it: THREAD_UPDATE
        else:
            t.fake.set_locked(thread, False)
        await until(t.shown, "the catch-up")
        assert await faults(t) == []
        await check_kept(t)


async def test_a_deleted_thread_closes_its_game(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        thread = await thread_table(t)
        await t.move()
        parent = t.fake.channels[thread.parent_id or ""]
        t.fake.delete_channel(thread)  # THREAD_DELETE
        await t.fake.slash(t.alice, parent, "games")
        record = await t.record()
        assert record.status == "aborted" and await t.store.unannounced() == []
