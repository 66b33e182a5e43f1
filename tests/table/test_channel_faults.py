"""Channels that refuse the bot, in the table layer, on both stores: a front end's outlet refuses a
channel (``Refused``) or finds it deleted (``ChannelGone``); the announcer keeps every move, records the
fault, leaves the channel alone but for tries further and further apart (a new announcer over the same
store, as after a restart, remembers), tells the players once, and catches up once the channel works.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import db
from cogs.markup import discord_text
from table import Commands, Ctx, Post
from table.core.clock import ManualClock
from table.posting.announce import Announcer, RecordingOutlet
from table.posting.faults import backoff
from table.posting.outlet import ChannelGone, ChannelRate, OutletError, Refused
from tests.table.conftest import FakeRenderer, make_tables

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@dataclass
class RefusingOutlet(RecordingOutlet):
    """A front end whose channels may refuse the bot: ``refusing`` by channel (a ``Refused`` or a
    ``ChannelGone`` to raise); it has a rate (none), which is what marks a front end whose channels
    can refuse."""

    refusing: dict[str, Exception] = field(default_factory=dict)
    tries: int = 0
    rate: ChannelRate | None = None

    async def send(self, channel: str, post: Post) -> str:
        self._refuse(channel)
        return await super().send(channel, post)

    async def edit(self, channel: str, message: str, post: Post) -> bool:
        self._refuse(channel)
        return await super().edit(channel, message, post)

    def _refuse(self, channel: str) -> None:
        self.tries += 1
        if channel in self.refusing:
            raise self.refusing[channel]


def ctx(user: str, channel: str = "chan") -> Ctx:
    return Ctx(channel, user, user.capitalize(), "en", "fr", guild_id="g1")


@dataclass
class Service:
    store: db.Store
    renderers: tuple[FakeRenderer, FakeRenderer]
    clock: ManualClock = field(default_factory=lambda: ManualClock(START))
    outlet: RefusingOutlet = field(default_factory=RefusingOutlet)
    commands: Commands = field(init=False)

    def __post_init__(self) -> None:
        self.restart()

    def restart(self) -> None:
        """A new announcer over the same store and outlet, as a restart makes."""
        tables = make_tables(self.store, self.renderers)
        self.commands = Commands(tables, Announcer(tables, self.outlet, clock=self.clock, coalesce=0))

    async def move(self) -> None:
        table = await self.commands.tables.latest("chan")
        assert table is not None
        await self.commands.play(ctx(table.to_act()[0]), f"v{table.record.version}:take 1")
        await self.commands.announcer.drain()

    async def catch_up(self) -> None:
        await self.commands.announcer.catch_up()

    async def shown(self) -> bool:
        record = await self.store.latest_game("chan")
        assert record is not None
        shown = await self.store.announcement(record.id)
        return shown is not None and (shown.version, shown.status) == (record.version, record.status)


@pytest.fixture
async def service(db_path: Any, renderers: tuple[FakeRenderer, FakeRenderer]) -> AsyncIterator[Service]:
    store = await db.open_store(db_path)
    svc = Service(store, renderers)
    yield svc
    await svc.commands.announcer.drain()
    await store.close()


async def open_nim(svc: Service) -> None:
    await svc.commands.notify(ctx("alice"), True)
    await svc.commands.new(ctx("alice"), "nim", options="heap=40")
    await svc.commands.join(ctx("bob"))
    await svc.commands.start(ctx("alice"))
    await svc.commands.announcer.drain()


async def test_a_refusing_channel_is_left_alone_remembered_tried_further_apart_then_caught_up(
    service: Service,
) -> None:
    await open_nim(service)
    service.outlet.refusing["chan"] = Refused("permissions", ("attach_files",))
    await service.move()
    (fault,) = await service.store.channel_faults()
    assert (fault.kind, fault.missing, fault.tries) == ("permissions", ("attach_files",), 1)
    assert service.outlet.dms is not None
    told = [
        discord_text(post.text) for user, post in service.outlet.dms if "Joindre des fichiers" in post.text
    ]
    assert len(told) == 1 and "<#chan>" in told[0], "alice, who reads her direct messages, in French"
    (notice,) = await service.commands.notices(ctx("bob"))
    assert notice.ephemeral and "I need Attach Files there" in notice.text, "bob in his own language"
    assert (
        await service.commands.notices(ctx("bob")) == []
        and await service.commands.notices(ctx("alice")) == []
    )
    tries = service.outlet.tries
    for _ in range(3):
        await service.move()
        await service.catch_up()
    assert service.outlet.tries == tries, "left alone: nothing sent"
    service.restart()
    await service.catch_up()
    assert service.outlet.tries == tries, "remembered across a restart"
    service.clock.advance(backoff(1))
    await service.catch_up()
    assert service.outlet.tries == tries + 1, "one try when it is due"
    (fault,) = await service.store.channel_faults()
    assert fault.tries == 2 and fault.next_try == (START + backoff(1) + backoff(2)).isoformat(
        timespec="seconds"
    )
    del service.outlet.refusing["chan"]
    service.clock.advance(backoff(2))
    await service.catch_up()
    assert await service.shown() and await service.store.channel_faults() == []
    assert len([u for u, post in service.outlet.dms or [] if "Joindre" in post.text]) == 1, "told once"


async def test_a_front_end_saying_the_channel_changed_makes_it_due_at_once(service: Service) -> None:
    await open_nim(service)
    service.outlet.refusing["chan"] = Refused("locked")
    await service.move()
    del service.outlet.refusing["chan"]
    await service.commands.channel_changed("chan")
    await service.commands.announcer.drain()
    assert await service.shown() and await service.store.channel_faults() == []


async def test_permissions_an_interaction_shows_make_it_due_only_when_they_cover_the_fault(
    service: Service,
) -> None:
    await open_nim(service)
    service.outlet.refusing["chan"] = Refused("permissions", ("attach_files", "view_channel"))
    await service.move()
    del service.outlet.refusing["chan"]
    await service.commands.bot_may(ctx("bob"), {"view_channel"})
    await service.commands.announcer.drain()
    assert not await service.shown(), "still lacking Attach Files, as far as the bot knows"
    everything = {"view_channel", "attach_files", "send_messages"}
    await service.commands.bot_may(ctx("bob"), everything)
    await service.commands.announcer.drain()
    assert await service.shown()
    service.outlet.refusing["chan"] = Refused("permissions", ("attach_files",))
    await service.move()
    tries = service.outlet.tries
    await service.commands.bot_may(ctx("bob"), everything)  # Discord refuses, whatever the
    await service.commands.announcer.drain()  # interaction says: one try...
    await service.commands.bot_may(ctx("alice"), everything)
    await service.commands.announcer.drain()
    assert service.outlet.tries == tries + 1, "...and no other for a minute, however many moves say so"


async def test_a_deleted_channel_closes_its_game_unrated_with_its_log(service: Service) -> None:
    await open_nim(service)
    await service.move()
    service.outlet.refusing["chan"] = ChannelGone("10003")
    await service.move()
    record = await service.store.latest_game("chan")
    assert record is not None and record.status == "aborted" and record.version == 2
    assert record.result is not None and record.result["reason"]["key"] == "svc.reason.channel_gone"
    result = await service.store.result_of(record.id)
    assert result is not None and not result.rated
    assert await service.store.unannounced() == []
    assert len(await service.store.actions(record.id)) == 2
    (notice,) = await service.commands.notices(ctx("bob"))
    assert "was deleted" in notice.text and "closed, unrated" in notice.text


async def test_a_game_that_ended_before_its_channel_was_deleted_is_kept_and_not_posted_forever(
    service: Service,
) -> None:
    await open_nim(service)
    service.outlet.refusing["chan"] = ChannelGone("10003")
    table = await service.commands.tables.latest("chan")
    assert table is not None
    await service.commands.resign(ctx(table.to_act()[0]))  # its end cannot be posted
    await service.commands.announcer.drain()
    record = await service.store.latest_game("chan")
    assert record is not None and record.status == "over"
    assert await service.store.unannounced() == []
    result = await service.store.result_of(record.id)
    assert result is not None and result.rated, "it ended by play: its result counts"
    (notice,) = await service.commands.notices(ctx("bob"))
    assert "before I could post the end" in notice.text


async def test_every_game_of_a_deleted_channel_left_unshown_is_dealt_with(service: Service) -> None:
    """An outage kept a finished game's end unposted while a new table opened there; then the
    channel is deleted: the new table is closed, and the old end is not posted forever after."""
    await open_nim(service)
    service.outlet.refusing["chan"] = OutletError("503")
    table = await service.commands.tables.latest("chan")
    assert table is not None
    await service.commands.resign(ctx(table.to_act()[0]))
    await service.commands.announcer.drain()
    await service.commands.new(ctx("alice"), "nim")
    assert len(await service.store.unannounced()) == 1
    await service.commands.channel_gone("chan")
    assert await service.store.unannounced() == []
    latest = await service.store.latest_game("chan")
    assert latest is not None and latest.status == "aborted"


async def test_a_lobby_in_a_deleted_channel_is_closed_too(service: Service) -> None:
    await service.commands.new(ctx("alice"), "nim")
    await service.commands.channel_gone("chan")
    record = await service.store.latest_game("chan")
    assert record is not None and record.status == "aborted"
    await service.commands.channel_gone("chan")  # heard twice: nothing more to do


def test_tries_come_further_apart_up_to_an_hour() -> None:
    assert [backoff(n) for n in (1, 2, 3, 6, 7, 500)] == [timedelta(minutes=m) for m in (1, 2, 4, 32, 60, 60)]
