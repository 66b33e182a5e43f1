"""A player's card of all their games and a server's list of open games, kept as one message each and
edited in place: what they show and in which order, in both languages, on both stores; at most one
edit a minute (on a clock the test moves) however many moves are made; a deleted message sent anew,
once; a channel that refuses the bot named when the list is asked for; the same message edited
after a restart, and a listing left behind by a stop brought up to date by the next start."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import db
from cogs.markup import discord_text
from table import Commands, Ctx, Post
from table.core.clock import ManualClock, ManualTimer
from table.core.errors import TableError
from table.posting.announce import Announcer, RecordingOutlet
from table.posting.listings import player_owner, server_owner
from table.posting.outlet import Refused
from table.posting.schedule import Scheduler
from tests.discord.tables import until
from tests.table.conftest import FakeRenderer, make_tables

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@dataclass
class Outlet(RecordingOutlet):
    """A front end where some players take no direct messages and some channels refuse the bot."""

    unreachable: set[str] = field(default_factory=set)
    refusing: dict[str, Exception] = field(default_factory=dict)

    async def send_direct(self, user: str, post: Post) -> str | None:
        return None if user in self.unreachable else await super().send_direct(user, post)

    async def send(self, channel: str, post: Post) -> str:
        if channel in self.refusing:
            raise self.refusing[channel]
        return await super().send(channel, post)

    def cards(self, user: str) -> list[tuple[str, str]]:
        """Every text of ``user``'s card, sent or edited, with its message id, oldest first."""
        assert self.dms is not None
        sent = [(f"d{n}", p.text) for n, (u, p) in enumerate(self.dms, start=1) if u == user]
        return sent + [(m, p.text) for u, m, p in self.dm_edits if u == user]

    def in_channel(self, channel: str) -> list[tuple[str, str]]:
        """Every text posted in ``channel`` (``m<n>``) or edited there, oldest first."""
        assert self.sent is not None and self.edits is not None
        sent = [(f"m{n}", p.text) for n, (c, p) in enumerate(self.sent, start=1) if c == channel]
        return sent + [(m, p.text) for c, m, p in self.edits if c == channel]


class Service:
    """The commands over one store, a clock, the cards' and lists' timer, and what was sent."""

    def __init__(
        self, store: db.Store, renderers: tuple[FakeRenderer, FakeRenderer], timer: ManualTimer
    ) -> None:
        self.timer = timer
        self.clock = ManualClock(START)
        self.outlet = Outlet()
        tables = make_tables(store, renderers)
        self.announcer = Announcer(
            tables, self.outlet, clock=self.clock, coalesce=0, listing_timer=timer.timer
        )
        self.commands = Commands(tables, self.announcer)

    @property
    def store(self) -> db.Store:
        return self.commands.tables.store

    async def settle(self) -> None:
        """Every post made, every change counted and every refresh due now made."""
        for channel in ("c1", "c2", "c3", "c4"):
            await self.announcer.drain(channel)
        await until(self.announcer.listings.quiet, "the listings are quiet")

    async def minute(self) -> None:
        await self.timer.advance(60)
        await self.settle()


def ctx(user: str, channel: str, guild: str = "g1", locale: str = "en", **kw: Any) -> Ctx:
    """``user`` in ``channel`` of ``guild``, reading ``locale``; the server speaks English."""
    return Ctx(channel, user, user.capitalize(), locale, "en", guild_id=guild, **kw)


@pytest.fixture
async def service(db_path: Path, renderers: tuple[FakeRenderer, FakeRenderer]) -> AsyncIterator[Service]:
    store = await db.open_store(db_path)
    svc = Service(store, renderers, ManualTimer())
    yield svc
    svc.announcer.stop()
    await store.close()


async def nim(
    svc: Service, channel: str, first: str, second: str | None, guild: str, options: str = ""
) -> None:
    """A table of Nim in ``channel``: started when ``second`` joins, a lobby otherwise."""
    await svc.commands.new(ctx(first, channel, guild), "nim", options=f"heap=40 {options}".strip())
    if second is not None:
        await svc.commands.join(ctx(second, channel, guild))
        await svc.commands.start(ctx(first, channel, guild))
    await svc.settle()


async def take(svc: Service, channel: str, guild: str = "g1") -> None:
    """Whoever must act in ``channel`` takes a stone."""
    table = await svc.commands.tables.latest(channel)
    assert table is not None
    (player,) = table.to_act()
    await svc.commands.play(ctx(player, channel, guild), f"v{table.record.version}:take 1")


async def tables_of(svc: Service) -> None:
    """alice plays in two servers (her turn or not), waits in a lobby, and is not in a fourth game."""
    await nim(svc, "c1", "alice", "bob", "g1")
    await nim(svc, "c2", "carol", "alice", "g2", "deadline=3d")
    await nim(svc, "c3", "alice", None, "g1")
    await nim(svc, "c4", "bob", "carol", "g2")


async def test_a_card_lists_every_game_of_the_player_in_every_server_those_awaiting_them_first(
    service: Service,
) -> None:
    await tables_of(service)
    (answer,) = await service.commands.games(ctx("alice", "c1", locale="fr"), card=True)
    assert "messages privés" in answer.text and "/parties carte:non" in answer.text
    ((message, card),) = service.outlet.cards("alice")
    card = discord_text(card)
    head, *lines = card.split("\n")
    assert head.startswith("**Vos parties, sur tous les serveurs**")
    assert len(lines) == 3, "the three open games she sits in, none other"
    running = [await service.commands.tables.latest(c) for c in ("c1", "c2")]
    mine = [t.record.channel for t in running if t is not None and "alice" in t.to_act()]
    assert f"(en attente de vous : {len(mine)})" in head
    assert [f"<#{c}>" in line for line, c in zip(lines, mine, strict=False)] == [True] * len(mine)
    assert all("à vous de jouer" in line for line in lines[: len(mine)])
    assert "<#c3>" in lines[-1] and "(1/2 assis)" in lines[-1], "the lobby last"
    (c2,) = [line for line in lines if "<#c2>" in line]
    assert "(échéance <t:" in c2 and ":R>)" in c2, "the deadline, in each reader's own time"
    assert "<#c4>" not in card
    listing = (await service.store.listings([player_owner("alice")]))[0]
    assert (listing.message, listing.locale, listing.behind) == (message, "fr", False)


async def test_a_storm_of_moves_edits_the_card_in_place_once_a_minute_showing_the_last(
    service: Service,
) -> None:
    await nim(service, "c1", "alice", "bob", "g1")
    await service.commands.games(ctx("bob", "c1"), card=True)
    await service.commands.games(ctx("alice", "c1"), card=True)
    for _ in range(12):
        await take(service, "c1")
        await service.settle()
    assert [m for m, _ in service.outlet.cards("bob")] == ["d1"], "nothing within the minute of its sending"
    await service.minute()
    await service.minute()
    cards = service.outlet.cards("bob")
    assert [m for m, _ in cards] == ["d1", "d1"], "one edit in place, none more once it shows the last"
    table = await service.commands.tables.latest("c1")
    assert table is not None
    bob_to_act = table.to_act() == ["bob"]
    assert ("**your turn**" in cards[-1][1]) == bob_to_act and "(waiting for you: " in cards[-1][1]
    for _ in range(3):  # a minute after the last edit: the first move's edit goes at once
        await take(service, "c1")
        await service.settle()
    assert len(service.outlet.cards("bob")) == 3
    await service.minute()
    assert len(service.outlet.cards("bob")) == 4, "and the next two a minute later, in one edit"
    assert [m for m, _ in service.outlet.cards("alice")] == ["d2"] * 4


async def test_a_refresh_counts_in_the_minute_it_was_decided_in_however_slow_the_store(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a loaded machine the store may answer a refresh's read after the minute is over: the
    refresh still belongs to the minute of the change that asked for it, so the next change is shown
    as soon as that minute ends, whether the store answered before or after."""
    await nim(service, "c1", "alice", "bob", "g1")
    await service.commands.games(ctx("bob", "c1"), card=True)
    await service.minute()
    store = service.store
    read, asked, answer = store.listings, asyncio.Event(), asyncio.Event()

    async def slow(owners: Sequence[str]) -> list[db.Listing]:
        if len(owners) == 1:  # a refresh's read (a change's read names every listing it concerns)
            asked.set()
            await answer.wait()
        return await read(owners)

    monkeypatch.setattr(store, "listings", slow)
    await take(service, "c1")
    await asyncio.wait_for(asked.wait(), 10)  # the refresh is decided, its read under way
    await service.timer.advance(60)  # the minute goes by while the store is slow to answer
    answer.set()
    await service.settle()
    assert len(service.outlet.cards("bob")) == 2
    await take(service, "c1")
    await service.settle()
    assert len(service.outlet.cards("bob")) == 3, "the edit's minute is over: this one goes at once"


async def test_a_deleted_card_is_sent_anew_once_and_that_one_is_edited_from_then_on(service: Service) -> None:
    await nim(service, "c1", "alice", "bob", "g1")
    await service.commands.games(ctx("bob", "c1"), card=True)
    service.outlet.deleted.add("d1")  # bob deleted his card
    await take(service, "c1")
    await service.minute()
    await take(service, "c1")
    await service.minute()
    assert [m for m, _ in service.outlet.cards("bob")] == ["d1", "d2", "d2"]
    listing = (await service.store.listings([player_owner("bob")]))[0]
    assert listing.message == "d2" and not listing.behind


async def test_a_card_stops_and_a_player_without_direct_messages_gets_none(service: Service) -> None:
    await nim(service, "c1", "alice", "bob", "g1")
    service.outlet.unreachable.add("alice")
    (answer,) = await service.commands.games(ctx("alice", "c1"), card=True)
    assert "can't send you direct messages" in answer.text
    assert await service.store.listings([player_owner("alice")]) == []
    await service.commands.games(ctx("bob", "c1"), card=True)
    (answer,) = await service.commands.games(ctx("bob", "c1", locale="fr"), card=False)
    assert "n'est plus tenue à jour" in answer.text and "/parties carte:oui" in answer.text
    await take(service, "c1")
    await service.minute()
    assert len(service.outlet.cards("bob")) == 1, "no longer kept"


async def test_a_servers_list_of_games_is_kept_in_its_channel_for_managers_only(service: Service) -> None:
    await tables_of(service)
    with pytest.raises(TableError) as refused:
        await service.commands.settings(ctx("bob", "c1"), games_channel="lists")
    assert refused.value.msg.key == "svc.error.admin_only"
    (shown,) = await service.commands.settings(
        ctx("mod", "c1", locale="fr", admin=True), games_channel="lists"
    )
    assert "tenue dans <#lists>" in discord_text(shown.text)
    ((message, text),) = service.outlet.in_channel("lists")
    text = discord_text(text)
    head, *lines = text.split("\n")
    assert head.startswith("**Open games on this server** (2)"), "the server's language, not the manager's"
    assert any("<#c1>" in line and "waiting for" in line for line in lines)
    assert "<#c3>" in lines[-1] and "(1/2 seated)" in lines[-1]
    assert "<#c2>" not in text and "<#c4>" not in text, "another server's games"

    await service.commands.join(ctx("dan", "c3"))  # a lobby's seats are shown too
    await service.minute()
    edited, text = service.outlet.in_channel("lists")[-1]
    assert edited == message and "(2/2 seated)" in text
    listing = (await service.store.listings([server_owner("g1")]))[0]
    assert listing.message == message and not listing.behind

    await service.commands.settings(ctx("mod", "c1", admin=True), games_list=False)
    await take(service, "c1")
    await service.minute()
    assert len(service.outlet.in_channel("lists")) == 2, "stopped"
    with pytest.raises(TableError) as no_channel:
        await service.commands.settings(ctx("mod", "c1", admin=True), games_list=True)
    assert no_channel.value.msg.key == "svc.error.games_list_channel"


async def test_a_channel_that_refuses_the_bot_is_named_and_no_list_is_kept(service: Service) -> None:
    await nim(service, "c1", "alice", "bob", "g1")
    service.outlet.refusing["hidden"] = Refused("permissions", ("send_messages",))
    with pytest.raises(TableError) as refused:
        await service.commands.settings(ctx("mod", "c1", locale="fr", admin=True), games_channel="hidden")
    assert refused.value.msg.key == "svc.error.games_list_refused"
    assert await service.store.listings([server_owner("g1")]) == []


async def test_after_a_restart_the_same_messages_are_edited_and_those_left_behind_caught_up(
    service: Service, renderers: tuple[FakeRenderer, FakeRenderer]
) -> None:
    await nim(service, "c1", "alice", "bob", "g1")
    await service.commands.games(ctx("bob", "c1"), card=True)
    await service.commands.settings(ctx("mod", "c1", admin=True), games_channel="lists")
    kept = {listing.owner: listing.message for listing in await service.store.listings_behind()}
    assert kept == {}, "both shown"
    await take(service, "c1")  # its refresh waits for its minute: the bot stops before it
    await service.settle()
    service.announcer.stop()
    (listed,) = await service.store.listings([server_owner("g1")])
    behind = await service.store.listings_behind()
    assert {listing.owner for listing in behind} == {player_owner("bob"), server_owner("g1")}

    again = Service(service.store, renderers, ManualTimer())  # a new process on the same store
    await Scheduler(again.announcer).tick()
    await again.settle()
    assert again.outlet.cards("bob")[0][0] == "d1" and again.outlet.dms == [], "the same card, edited"
    assert [m for m, _ in again.outlet.in_channel("lists")] == [listed.message]
    assert again.outlet.sent == [], "no new list"
    assert await service.store.listings_behind() == []
    again.announcer.stop()
