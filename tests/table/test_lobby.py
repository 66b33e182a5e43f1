"""Opening, joining, leaving, starting and closing tables."""

from __future__ import annotations

import asyncio

import pytest

import i18n
from cogs.markup import discord_text
from engine.errors import BadInput, GameError
from table import Commands
from table.core.errors import BadOptions, NoGame, NotSeated, TableError
from tests.table.conftest import CtxFactory, channel_posts, current, png_size, start_nim


async def test_new_opens_a_lobby_with_the_creator_seated(commands: Commands, ctx: CtxFactory) -> None:
    posts = await commands.new(ctx("alice"), "nim", options="heap=7")
    assert len(posts) == 1 and not posts[0].ephemeral
    assert "Alice" in posts[0].text and "heap=7" in posts[0].text
    table = await current(commands)
    assert table.record.status == "lobby"
    assert table.record.player_ids == ["alice"]
    assert table.record.options == {"heap": "7", "max": "3"}  # defaults filled in
    assert table.record.seed == 1234


async def test_public_posts_use_the_channel_language(commands: Commands, ctx: CtxFactory) -> None:
    posts = await commands.new(ctx("alice", locale="en", channel_locale="fr"), "warchest")
    assert "Champ d'honneur" in posts[0].text and "a ouvert" in posts[0].text


async def test_one_open_game_per_channel(commands: Commands, ctx: CtxFactory) -> None:
    await commands.new(ctx("alice"), "warchest")
    with pytest.raises(TableError) as err:
        await commands.new(ctx("bob"), "nim")
    # A lobby is an open table, not a game in progress; its creator alone can close it.
    assert err.value.msg.key == "table.error.channel_busy_lobby"
    assert i18n.t(err.value.msg, "en") == (
        "This channel already has an open table for War Chest. Join it with /game join or use another"
        " channel or thread; only Alice, who opened it, can close it (/game abort)."
    )
    assert "en cours" not in i18n.t(err.value.msg, "fr") and "Champ d'honneur" in i18n.t(err.value.msg, "fr")
    await commands.join(ctx("bob"))
    await commands.start(ctx("alice"))
    with pytest.raises(TableError) as err:
        await commands.new(ctx("carol"), "nim")
    assert err.value.msg.key == "table.error.channel_busy"
    assert i18n.t(err.value.msg, "en").startswith("This channel already has a game of War Chest in progress.")
    await commands.new(ctx("bob", channel="other"), "nim")  # another channel is free


async def test_unknown_game_lists_the_games(commands: Commands, ctx: CtxFactory) -> None:
    with pytest.raises(BadInput) as err:
        await commands.new(ctx("alice"), "chess")
    assert err.value.msg.params["game"] == "chess"
    assert await commands.tables.latest("chan") is None


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ("heap", "table.error.bad_option_syntax"),
        ("colour=red", "table.error.unknown_option"),
        ("heap=8", "table.error.bad_option_value"),
        ("heap=7 heap=10", "table.error.duplicate_option"),
    ],
)
async def test_bad_options_are_refused_with_a_clear_message(
    commands: Commands, ctx: CtxFactory, options: str, key: str
) -> None:
    with pytest.raises(BadOptions) as err:
        await commands.new(ctx("alice"), "nim", options=options)
    assert err.value.msg.key == key
    text = i18n.t(err.value.msg, "en")
    assert "{" not in text  # every placeholder filled
    assert await commands.tables.latest("chan") is None


async def test_player_count_must_be_one_the_game_allows(commands: Commands, ctx: CtxFactory) -> None:
    with pytest.raises(TableError) as err:
        await commands.new(ctx("alice"), "nim", players=3)
    assert err.value.msg.key == "table.error.bad_player_count"
    assert "2" in i18n.t(err.value.msg, "en")


async def test_join_rules(commands: Commands, ctx: CtxFactory) -> None:
    with pytest.raises(NoGame):
        await commands.join(ctx("bob"))
    await commands.new(ctx("alice"), "nim")
    with pytest.raises(TableError) as err:
        await commands.join(ctx("alice"))
    assert err.value.msg.key == "table.error.already_seated"
    with pytest.raises(TableError) as err:
        await commands.join(ctx("bob"), team=3)
    assert err.value.msg.key == "table.error.bad_team"
    posts = await commands.join(ctx("bob"))
    assert "Bob" in posts[0].text and "(2/2)" in posts[0].text
    assert set(posts[0].mentions) == {"alice", "bob"}  # the table is full: both are told to start
    with pytest.raises(TableError) as err:
        await commands.join(ctx("carol"))
    assert err.value.msg.key == "table.error.table_full"


async def test_leave_hands_the_table_on_and_the_last_one_closes_it(
    commands: Commands, ctx: CtxFactory
) -> None:
    await commands.new(ctx("alice"), "nim")
    await commands.join(ctx("bob"))
    with pytest.raises(NotSeated):
        await commands.leave(ctx("carol"))
    posts = await commands.leave(ctx("alice"))
    assert "Bob" in posts[0].text
    table = await current(commands)
    assert table.record.creator == "bob" and table.record.player_ids == ["bob"]
    await commands.leave(ctx("bob"))
    assert (await current(commands)).record.status == "aborted"
    await commands.new(ctx("carol"), "nim")  # the channel is free again


async def test_start_needs_the_right_seat_count_and_a_seated_caller(
    commands: Commands, ctx: CtxFactory
) -> None:
    await commands.new(ctx("alice"), "nim")
    with pytest.raises(TableError) as err:
        await commands.start(ctx("alice"))
    assert err.value.msg.key == "table.error.wrong_seat_count"
    await commands.join(ctx("bob"))
    with pytest.raises(NotSeated):
        await commands.start(ctx("carol"))
    (ack,) = await commands.start(ctx("bob"))  # any seated player may start
    assert ack.ephemeral and ack.image is None
    table = await current(commands)
    assert table.record.status == "active" and table.record.version == 0
    (first,) = await channel_posts(commands)  # the first handover post, from the announcer
    assert png_size(first.image) == (8, 6)
    assert first.mentions == tuple(table.to_act())
    assert f"<@{table.to_act()[0]}>" in discord_text(first.text) and "begins" in first.text
    with pytest.raises(TableError) as err:
        await commands.join(ctx("carol"))
    assert err.value.msg.key == "table.error.already_started"
    with pytest.raises(TableError) as err:
        await commands.leave(ctx("bob"))
    assert err.value.msg.key == "table.error.leave_running"


async def test_teams_alternate_in_seat_order(commands: Commands, ctx: CtxFactory) -> None:
    await commands.new(ctx("alice"), "nim")
    await commands.join(ctx("bob"), team=1)
    await commands.start(ctx("alice"))
    table = await current(commands)
    assert table.record.player_ids == ["bob", "alice"]  # team 1 takes the first seat
    assert table.state["players"] == ["bob", "alice"]


async def test_abort_in_the_lobby_is_for_the_creator(commands: Commands, ctx: CtxFactory) -> None:
    await commands.new(ctx("alice"), "nim")
    await commands.join(ctx("bob"))
    with pytest.raises(TableError) as err:
        await commands.abort(ctx("bob"))
    assert err.value.msg.key == "table.error.abort_creator_only"
    assert "Alice" in i18n.t(err.value.msg, "en")
    posts = await commands.abort(ctx("alice"))
    assert "Alice" in posts[0].text
    assert (await current(commands)).record.status == "aborted"
    with pytest.raises(NoGame):
        await commands.status(ctx("alice"))  # a table closed before it started leaves nothing to show
    await commands.new(ctx("bob"), "nim")


async def test_status_follows_the_game(commands: Commands, ctx: CtxFactory) -> None:
    with pytest.raises(NoGame):
        await commands.status(ctx("alice"))
    await commands.new(ctx("alice"), "nim")
    posts = await commands.status(ctx("alice", locale="fr"))
    assert posts[0].ephemeral and "on attend des joueurs" in posts[0].text and "1/2" in posts[0].text
    await commands.join(ctx("bob"))
    await commands.start(ctx("alice"))
    text = (await commands.status(ctx("carol")))[0].text
    table = await current(commands)
    assert text.startswith("nim.\nSeats: Alice, Bob") and table.name(table.to_act()[0]) in text


async def test_board_before_the_start_is_refused(commands: Commands, ctx: CtxFactory) -> None:
    await commands.new(ctx("alice"), "nim")
    with pytest.raises(TableError) as err:
        await commands.board(ctx("alice"))
    assert err.value.msg.key == "table.error.not_started"


async def test_rules_and_help(commands: Commands, ctx: CtxFactory) -> None:
    posts = await commands.rules(ctx("alice"), "warchest")
    assert posts[0].ephemeral and posts[0].text.startswith("**War Chest · Overview** (page 1/7)")
    fr = await commands.rules(ctx("alice", locale="fr"), "warchest")
    assert fr[0].text.startswith("**Champ d'honneur · Présentation** (page 1/7)")
    every = await commands.rules(ctx("alice"))  # no table here: every known game, in short
    assert "\nnim: no summary yet." in every[0].text and "\nWar Chest: two players" in every[0].text
    await start_nim(commands, ctx)
    here = await commands.rules(ctx("alice"))
    assert here[0].text == "nim: no summary yet."
    with pytest.raises(GameError):
        await commands.rules(ctx("alice"), "chess")
    help_posts = await commands.help(ctx("alice", locale="fr"))
    assert (
        help_posts[0].ephemeral
        and "/partie nouvelle" in help_posts[0].text
        and "Comment jouer" in help_posts[0].text
    )
    assert len(help_posts[0].text) < 2000


async def test_simultaneous_joins_for_the_last_seat(commands: Commands, ctx: CtxFactory) -> None:
    await commands.new(ctx("alice"), "nim")
    outcomes = await asyncio.gather(
        commands.join(ctx("bob")), commands.join(ctx("carol")), return_exceptions=True
    )
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(refused) == 1 and isinstance(refused[0], TableError)
    assert refused[0].msg.key == "table.error.table_full"
    assert len((await current(commands)).record.seats) == 2


async def test_an_unknown_option_is_refused_naming_every_option_a_table_takes(
    commands: Commands, ctx: CtxFactory
) -> None:
    with pytest.raises(TableError) as refused:
        await commands.new(ctx("alice"), "warchest", options="foo=1")
    told = i18n.t(refused.value.msg, "en")
    assert told == (
        "War Chest has no option “foo”. Options: armies, seed, remind, deadline, on_deadline, rated, away, "
        "away_max, auto."
    ), told
