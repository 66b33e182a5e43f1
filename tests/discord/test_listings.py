"""A player's card of all their games (a direct message) and a server's list of open games (in the
channel its managers chose), on the fake Discord, every request counted per channel: each is one
message edited in place, at most once a minute however many moves are made (the minute on a clock
the test moves), within the channel's rate; a card the player deleted is sent anew once, and the
same messages are edited after a restart. On both stores; the server speaks French, bob English."""

from __future__ import annotations

from pathlib import Path

from table.core.clock import ManualTimer
from tests.discord.tables import Table, table, until
from tests.fakediscord.model import ADMIN_PERMISSIONS, FakeChannel, SentMessage

MOVES = 20


def requests(t: Table, channel: str, method: str) -> int:
    """How many requests of ``method`` the bot made to ``channel`` and Discord took."""
    return t.fake.channel_requests.count(channel, methods=(method,), taken=True)


def kept(t: Table, channel: str) -> list[SentMessage]:
    """The messages of ``channel`` the bot sent and nobody deleted."""
    return [m for m in t.fake.messages_in(channel) if not m.deleted and m.interaction_id is None]


async def minute(t: Table, timer: ManualTimer, channel: str, method: str, count: int) -> None:
    """A minute goes by; wait until ``channel`` has had ``count`` requests of ``method``."""
    await timer.advance(60)
    await until(lambda: requests(t, channel, method) >= count, f"{count} {method} in {channel}")


async def test_a_card_and_a_servers_list_are_edited_in_place_once_a_minute(
    tmp_path: Path, store_target: str | Path
) -> None:
    timer = ManualTimer()
    database = store_target if isinstance(store_target, str) else tmp_path / "bot.sqlite3"
    async with table(tmp_path, database=database, listing_timer=timer.timer) as t:
        fake = t.fake
        lists: FakeChannel = fake.add_channel(t.guild, "parties-ouvertes")
        admin = fake.add_user("admin", permissions=ADMIN_PERMISSIONS, locale="fr")
        assert t.bot is not None
        bot = t.bot
        await until(lambda: bot.get_channel(int(lists.id)) is not None, "the bot knows the new channel")
        await t.open()

        shown = await fake.slash(admin, t.chan, "settings", games_channel=lists)
        assert shown.ephemeral and f"<#{lists.id}>" in shown.content
        (listed,) = kept(t, lists.id)
        assert listed.content.startswith("**Parties ouvertes sur ce serveur** (1)"), listed.content
        answer = await fake.slash(t.bob, t.chan, "games", card=True)
        assert "direct messages" in answer.content
        dm = fake.dm_channels[t.bob.id]
        (card,) = kept(t, dm)
        assert card.content.startswith("**Your games, in every server**"), card.content
        assert f"https://discord.com/channels/{t.guild.id}/{t.chan.id}/" in card.content, "its latest post"
        assert "<t:" in card.content and ":R>" in card.content

        for _ in range(MOVES):
            await t.move(settle=False)
        await until(t.shown, "the last move is shown")
        assert (requests(t, dm, "POST"), requests(t, dm, "PATCH")) == (1, 0), "within the card's minute"
        assert (requests(t, lists.id, "POST"), requests(t, lists.id, "PATCH")) == (1, 0)
        await minute(t, timer, dm, "PATCH", 1)
        await until(lambda: requests(t, lists.id, "PATCH") == 1, "the list's one edit")
        record = await t.record()
        names = {s.player: s.name for s in record.seats}
        last = await t.store.announcement(record.id)
        assert last is not None and last.message is not None
        (card,) = kept(t, dm)
        assert card.edits == 1 and last.message in card.content, "the card points at the latest post"
        (waiting,) = last.to_act
        assert ("**your turn**" in card.content) == (waiting == t.bob.id)
        (listed,) = kept(t, lists.id)
        assert listed.edits == 1 and names[waiting] in listed.content
        await timer.advance(60)
        await t.ticks()
        assert requests(t, dm, "PATCH") == 1, "nothing more to show: no edit"

        card.deleted = True  # bob deletes his card
        await t.move()
        await until(t.shown, "the move is shown")
        await minute(t, timer, dm, "POST", 2)
        (anew,) = kept(t, dm)
        assert anew is not card and anew.content.startswith("**Your games")

        async def shown_all() -> bool:
            return not await t.store.listings_behind()

        await until(shown_all, "the new card shows every change")  # else the restart catches it up
        await t.restart()
        await t.move()
        await until(t.shown, "the move is shown")
        await minute(t, timer, dm, "PATCH", 2)  # (the edit of the deleted card was refused)
        assert kept(t, dm) == [anew] and anew.edits == 1, "the same message, edited after the restart"
        assert requests(t, dm, "POST") == 2, "one card sent anew, once"
        assert [r.body.get("code") for r in fake.rejections if r.body] == [10008], "the deleted card's edit"
        assert requests(t, lists.id, "POST") == 1 and kept(t, lists.id) == [listed]
        assert (
            fake.channel_requests.busiest(lists.id, 5.0) <= 5 and fake.channel_requests.busiest(dm, 5.0) <= 5
        )
        assert fake.message_rate is not None and fake.message_rate.rejected == 0
