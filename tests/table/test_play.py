"""Playing: moves, refusals that change nothing, autocomplete, hand, log, endings."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

import i18n
from cogs.markup import discord_text
from engine.errors import BadInput, GameError, GameOver, IllegalAction, NotYourTurn, StaleAction
from table import Commands, split_version
from table.core.errors import NoGame, NotSeated, TableError
from table.play.commands import log_pages
from tests.table.conftest import (
    CtxFactory,
    FakeRenderer,
    channel_posts,
    current,
    last_post,
    make_tables,
    png_size,
    start_nim,
)


async def whose_turn(commands: Commands) -> tuple[str, str]:
    """(player to act, the other player)."""
    table = await current(commands)
    first = table.to_act()[0]
    return first, next(p for p in table.record.player_ids if p != first)


async def snapshot(commands: Commands) -> tuple[int, object, int]:
    table = await current(commands)
    return (
        table.record.version,
        table.record.state,
        await commands.tables.store.count_actions(table.record.id),
    )


def test_split_version() -> None:
    assert split_version("v12:move archer c3 d4") == (12, "move archer c3 d4")
    assert split_version(" V3 : take 1 ") == (3, "take 1")
    assert split_version("take 2") == (None, "take 2")


async def test_a_move_posts_the_board_and_pings_the_next_player(
    commands: Commands, ctx: CtxFactory, renderers: tuple[FakeRenderer, FakeRenderer]
) -> None:
    await start_nim(commands, ctx)
    first, second = await whose_turn(commands)
    (ack,) = await commands.play(ctx(first, locale="en", channel_locale="fr"), "take 2")
    assert ack.ephemeral and ack.image is None and not ack.mentions
    assert f"{first.capitalize()} takes 2, 8 left." in ack.text  # the player's own language
    post = await last_post(commands)
    assert not post.ephemeral and png_size(post.image) == (8, 6)
    assert post.mentions == (second,)
    assert f"<@{second}>" in discord_text(post.text)
    assert f"{first.capitalize()} prend 2, il en reste 8." in post.text  # events in the channel's language
    table = await current(commands)
    assert table.record.version == 1 and table.state["heap"] == 8
    # the renderer drew the spectator view, in a worker thread, with display names
    call = renderers[0].calls[-1]
    assert call["view"]["private"] is None and call["locale"] == "fr"
    assert call["names"] == {"alice": "Alice", "bob": "Bob"}
    assert call["thread"] != threading.get_ident()


async def test_a_whole_game_ends_with_the_winner_mentioned(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx, options="heap=7 auto=off")  # the last stone is taken by hand
    while (table := await current(commands)).record.status == "active":
        player = table.to_act()[0]
        await commands.play(ctx(player), f"v{table.record.version}:take 1")
        await commands.announcer.drain()  # as the front ends do after each command
    winner = table.record.result["winners"][0]
    assert table.record.version == 7 and table.state["heap"] == 0
    posts = await channel_posts(commands)
    assert len(posts) == 1 + 7, "the start, then one post per handover (each move passes the turn)"
    end = posts[-1]
    assert end.mentions == ("alice", "bob"), "the end pings every player, once"
    assert "Game over" in end.text and f"<@{winner}>" in discord_text(end.text)
    assert f"{winner.capitalize()} emptied the heap." in end.text
    with pytest.raises(GameOver):
        await commands.play(ctx(winner), "take 1")
    status = (await commands.status(ctx("alice")))[0].text
    assert "finished" in status and "Game over" in status
    board = await commands.board(ctx("carol"))  # the final board stays viewable
    assert png_size(board[0].image) == (8, 6)
    await commands.new(ctx("carol"), "nim")  # the channel is free for a new game


@pytest.mark.parametrize(
    ("who", "action", "error"),
    [
        ("second", "take 1", NotYourTurn),
        ("first", "take 4", IllegalAction),
        ("first", "grab 1", BadInput),
        ("first", "v1:take 1", StaleAction),
        ("first", "   ", BadInput),
        ("carol", "take 1", NotSeated),
    ],
)
async def test_refused_actions_change_nothing(
    commands: Commands, ctx: CtxFactory, who: str, action: str, error: type[GameError]
) -> None:
    await start_nim(commands, ctx)
    first, second = await whose_turn(commands)
    player = {"first": first, "second": second}.get(who, who)
    before = await snapshot(commands)
    with pytest.raises(error):
        await commands.play(ctx(player), action)
    assert await snapshot(commands) == before


async def test_not_your_turn_names_the_waiting_player(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx)
    first, second = await whose_turn(commands)
    with pytest.raises(NotYourTurn) as err:
        await commands.play(ctx(second), "take 1")
    text = i18n.t(err.value.msg, "en")
    assert first.capitalize() in text and first not in text


async def test_play_without_a_running_game(commands: Commands, ctx: CtxFactory) -> None:
    with pytest.raises(NoGame):
        await commands.play(ctx("alice"), "take 1")
    await commands.new(ctx("alice"), "nim")
    with pytest.raises(TableError) as err:
        await commands.play(ctx("alice"), "take 1")
    assert err.value.msg.key == "table.error.not_started"


async def test_a_stale_version_is_refused_after_a_move(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx)
    first, second = await whose_turn(commands)
    await commands.play(ctx(first), "v0:take 1")
    with pytest.raises(StaleAction) as err:
        await commands.play(ctx(second), "v0:take 1")
    assert err.value.msg.params == {"given": 0, "current": 1}
    await commands.play(ctx(second), "v1:take 1")
    assert (await current(commands)).record.version == 2


async def test_a_version_the_game_never_reached_is_named_so(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx)
    first, _ = await whose_turn(commands)
    for pinned in ("v1", "v" + "9" * 5000):  # Python refuses to read an int of that many digits
        with pytest.raises(StaleAction) as err:
            await commands.play(ctx(first), f"{pinned}:take 1")
        assert err.value.msg.key == "error.version_ahead" and err.value.msg.params == {"current": 0}
    assert split_version("v" + "0" * 40 + "7:take 1") == (7, "take 1")
    assert (await current(commands)).record.version == 0


async def test_simultaneous_moves_are_applied_once(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx)
    first, _ = await whose_turn(commands)
    outcomes = await asyncio.gather(
        commands.play(ctx(first), "v0:take 1"), commands.play(ctx(first), "v0:take 2"), return_exceptions=True
    )
    errors = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], (StaleAction, NotYourTurn))
    table = await current(commands)
    assert table.record.version == 1
    assert await commands.tables.store.count_actions(table.record.id) == 1


async def test_autocomplete_offers_legal_actions_with_the_version(
    commands: Commands, ctx: CtxFactory
) -> None:
    await start_nim(commands, ctx)
    first, second = await whose_turn(commands)
    choices = await commands.autocomplete(ctx(first), "")
    assert choices == [(f"Take {n} stone(s)", f"v0:take {n}") for n in (1, 2, 3)]
    assert await commands.autocomplete(ctx(first), "2") == [("Take 2 stone(s)", "v0:take 2")]
    assert await commands.autocomplete(ctx(first), "TAKE 3") == [("Take 3 stone(s)", "v0:take 3")]
    assert await commands.autocomplete(ctx(first, locale="fr"), "pierre 1") == [
        ("Prendre 1 pierre(s)", "v0:take 1")
    ]
    assert await commands.autocomplete(ctx(first), "stone 9") == []
    assert await commands.autocomplete(ctx(second), "") == []  # not their turn
    assert await commands.autocomplete(ctx("carol"), "") == []  # not seated
    assert await commands.autocomplete(ctx("alice", channel="empty"), "") == []
    # a chosen value plays as is
    await commands.play(ctx(first), choices[0][1])
    assert (await commands.autocomplete(ctx(second), ""))[0][1] == "v1:take 1"


async def test_autocomplete_is_capped_at_25(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx, options="heap=40 max=30")
    first, _ = await whose_turn(commands)
    choices = await commands.autocomplete(ctx(first), "")
    assert len(choices) == 25
    assert all(len(name) <= 100 and len(value) <= 100 for name, value in choices)
    assert len(await commands.autocomplete(ctx(first), "2")) == 12  # 2, 12, 20..29


async def test_hand_is_private_and_lists_the_callers_hidden_items(
    commands: Commands, ctx: CtxFactory, renderers: tuple[FakeRenderer, FakeRenderer]
) -> None:
    await start_nim(commands, ctx)
    posts = await commands.hand(ctx("bob", locale="fr"))
    post = posts[0]
    table = await current(commands)
    seat = table.state["players"].index("bob")
    assert post.ephemeral and post.filename == "hand.png" and png_size(post.image) == (8, 6)
    assert "Main" in post.text
    for colour in table.state["hands"][seat]:
        assert colour in post.text
    assert renderers[1].calls[-1]["view"]["private"]["seat"] == seat
    with pytest.raises(NotSeated):
        await commands.hand(ctx("carol"))


async def test_log_shows_rendered_events_newest_page_first(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx, options="heap=40 max=2")
    assert "No moves yet" in (await commands.log(ctx("alice")))[0].text
    for _ in range(12):
        table = await current(commands)
        await commands.play(ctx(table.to_act()[0]), "take 1")
    page1 = (await commands.log(ctx("alice")))[0]
    assert page1.ephemeral and "page 1 of 1" in page1.text, "twelve short entries fit one message"
    lines = page1.text.splitlines()[1:]
    assert [line.split(".")[0] for line in lines] == [str(n) for n in range(1, 13)]
    assert lines[-1].endswith("takes 1, 28 left.")
    assert "take 1" not in page1.text  # events only, never the raw action texts
    french = (await commands.log(ctx("alice", locale="fr")))[0]
    assert "il en reste 39" in french.text
    with pytest.raises(TableError) as err:
        await commands.log(ctx("alice"), page=2)
    assert err.value.msg.key == "table.error.bad_page"


def test_log_pages_are_sized_by_characters_and_keep_every_entry_whole() -> None:
    """Pages fill a message: many short entries on one page, a few long ones on another, the newest
    page first, each in the order things happened, no entry cut."""
    short = [f"{n}. Alice moves." for n in range(1, 31)]
    long = [f"{n}. " + " ".join(["Bob attacks with every die he has"] * 12) for n in range(31, 36)]
    pages = log_pages(short + long, 1000)
    assert [line for page in reversed(pages) for line in page] == short + long
    assert all(sum(len(line) + 1 for line in page) <= 1000 for page in pages)
    assert len(pages[0]) == 2 and pages[-1][:2] == short[:2], "long entries take pages of their own"
    assert log_pages([], 1000) == [[]]
    (alone,) = log_pages(["word " * 400], 1000)
    assert len(alone[0]) <= 1000, "only an entry longer than a page is shortened"


async def test_resign_gives_the_game_to_the_other_side(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx)
    with pytest.raises(NotSeated):
        await commands.resign(ctx("carol"))
    (ack,) = await commands.resign(ctx("alice"))
    assert ack.ephemeral
    end = await last_post(commands)
    assert end.mentions == ("alice", "bob")
    assert "<@bob>" in discord_text(end.text) and "Alice resigned." in end.text
    table = await current(commands)
    assert table.record.status == "over" and table.record.result["winners"] == ["bob"]
    with pytest.raises(GameOver):
        await commands.resign(ctx("bob"))


async def test_draw_offer_accept_and_withdrawal_by_a_move(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx)
    first, second = await whose_turn(commands)
    offer = await commands.draw(ctx(second))
    assert offer[0].mentions == (first,) and "/game draw" in offer[0].text
    with pytest.raises(TableError) as err:
        await commands.draw(ctx(second))
    assert err.value.msg.key == "table.error.draw_already_offered"
    assert "Draw offered by" in (await commands.status(ctx(first)))[0].text
    await commands.play(ctx(first), "take 1")  # a move withdraws the offer
    again = await commands.draw(ctx(first))
    assert again[0].mentions == (second,)  # an offer, not an acceptance
    done = await commands.draw(ctx(second))
    assert done[0].ephemeral
    assert "a draw" in (await last_post(commands)).text
    table = await current(commands)
    assert table.record.status == "over" and table.record.result["draw"] is True


async def test_abort_of_a_running_game_needs_every_vote(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx)
    vote = await commands.abort(ctx("bob"))
    assert vote[0].mentions == ("alice",) and "1/2" in vote[0].text
    with pytest.raises(TableError) as err:
        await commands.abort(ctx("bob"))
    assert err.value.msg.key == "table.error.already_voted_abort"
    with pytest.raises(NotSeated):
        await commands.abort(ctx("carol"))
    table = await current(commands)
    await commands.play(ctx(table.to_act()[0]), "take 1")  # abort votes survive moves
    done = await commands.abort(ctx("alice"))
    assert done[0].ephemeral
    closing = await last_post(commands)
    assert "aborted" in closing.text and "Every player voted" in closing.text
    assert (await current(commands)).record.status == "aborted"


async def test_a_drawing_failure_does_not_hide_a_stored_move(
    commands: Commands,
    ctx: CtxFactory,
    renderers: tuple[FakeRenderer, FakeRenderer],
    caplog: pytest.LogCaptureFixture,
) -> None:
    await start_nim(commands, ctx)
    first, second = await whose_turn(commands)

    def broken(view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
        raise ValueError("no font")

    await commands.announcer.drain()
    commands = Commands(make_tables(commands.tables.store, (broken, renderers[1])))
    await commands.play(ctx(first), "take 1")
    post = await last_post(commands)
    assert post.image is None and post.mentions == (second,)
    assert "takes 1, 9 left." in post.text
    assert (await current(commands)).record.version == 1
    assert "drawing the board" in caplog.text
