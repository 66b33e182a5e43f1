"""What a server's settings and a player's choices change beyond the text of a post: the board's
language, the default deadline policy, reminders by direct message, and games opened before servers
were stored finding their server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import db
from cogs.markup import discord_text
from table.core.clock import ManualClock
from tests.table.conftest import FakeRenderer
from tests.table.test_play_by_post import START, Service, ctx, open_nim, to_act


@pytest.fixture
async def service(db_path: Path, renderers: tuple[FakeRenderer, FakeRenderer]) -> AsyncIterator[Service]:
    store = await db.open_store(db_path)
    svc = Service(store, renderers, ManualClock(START))
    yield svc
    await svc.commands.announcer.drain()
    await store.close()


async def test_the_servers_language_is_the_boards_language_too(
    service: Service, renderers: tuple[FakeRenderer, FakeRenderer]
) -> None:
    board = renderers[0]
    await open_nim(service)
    assert {call["locale"] for call in board.calls} == {"en"}
    await service.commands.settings(ctx("admin", admin=True), language="fr")
    board.calls.clear()
    player = (await to_act(service))[0]
    await service.commands.play(ctx(player), "take 1")
    await service.commands.announcer.drain()
    assert board.calls and {call["locale"] for call in board.calls} == {"fr"}, "drawn in French"


async def test_the_servers_deadline_policy_applies_to_new_tables(service: Service) -> None:
    await service.commands.settings(ctx("admin", admin=True), deadline="1d", on_deadline="forfeit")
    await open_nim(service)
    table = await service.commands.tables.latest("chan")
    assert table is not None
    assert (table.record.settings["deadline"], table.record.settings["on_deadline"]) == ("24h", "forfeit")
    absent = (await to_act(service))[0]
    await service.later(hours=25)
    table = await service.commands.tables.latest("chan")
    assert table is not None and table.record.status == "over"
    assert table.record.result is not None and absent not in table.record.result["winners"]


async def test_a_player_who_asked_gets_reminders_by_direct_message_too(service: Service) -> None:
    await open_nim(service, "remind=12h")
    waiting = (await to_act(service))[0]
    await service.commands.notify(ctx(waiting), True)
    assert service.outlet.dms is not None
    before = len(service.outlet.dms)
    await service.later(hours=13)
    reminders = [post for user, post in service.outlet.dms[before:] if user == waiting]
    assert len(reminders) == 1 and reminders[0].text.startswith("Reminder: it is still your turn")
    other = "bob" if waiting == "alice" else "alice"
    assert all(user == waiting for user, _post in service.outlet.dms[before:]), other


async def test_a_game_opened_before_servers_were_stored_finds_its_server(service: Service) -> None:
    cmds = service.commands
    await cmds.new(ctx("alice", guild=None), "nim")
    await cmds.join(ctx("bob", guild=None))
    await cmds.start(ctx("alice", guild=None))
    await cmds.announcer.drain()
    table = await cmds.tables.latest("chan")
    assert table is not None and table.record.guild is None
    assert (await cmds.games(ctx("bob", guild="g7")))[0].text == (await cmds.games(ctx("carol")))[0].text
    player = (await to_act(service))[0]
    await cmds.play(ctx(player, guild="g7"), "take 1")  # the next command says where the game is
    await cmds.announcer.drain()
    table = await cmds.tables.latest("chan")
    assert table is not None and table.record.guild == "g7"
    (listed,) = await cmds.games(ctx("bob", guild="g7"))
    assert "<#chan>" in discord_text(listed.text)
