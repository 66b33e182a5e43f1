"""The lobby's Leave, a seated player's My hand, the abort and draw votes answered by buttons, and the
fixed seed shown to everyone: each button does exactly what its command does."""

from __future__ import annotations

import pytest

from table import Commands
from table.core.errors import TableError
from tests.table.conftest import CtxFactory, current, start_nim


async def test_leave_frees_the_seat_and_the_lobby_shows_who_is_left(
    commands: Commands, ctx: CtxFactory
) -> None:
    await commands.new(ctx("alice"), "nim")
    game = (await current(commands)).record.id
    await commands.press(ctx("bob"), game, 0, "join")
    assert [s.player for s in (await current(commands)).record.seats] == ["alice", "bob"]
    (left, *_rest) = await commands.press(ctx("bob"), game, 0, "leave")
    assert left.update and "Bob" not in left.text.split("Seats:")[-1]
    assert [s.player for s in (await current(commands)).record.seats] == ["alice"]
    with pytest.raises(TableError):
        await commands.press(ctx("bob"), game, 0, "leave")  # no longer seated


async def test_my_hand_shows_a_seated_player_their_own_hand_only(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx)
    table = await current(commands)
    (mine,) = await commands.press(ctx("alice"), table.record.id, table.record.version, "hand")
    assert mine.ephemeral and mine.image is not None
    hand = table.game.view(table.state, "alice")["private"]["hand"]
    assert hand and all(colour in mine.text.lower() for colour in hand)
    (typed,) = await commands.hand(ctx("alice"))
    assert (mine.text, mine.image) == (typed.text, typed.image), "the button is the command"
    (theirs,) = await commands.press(ctx("bob"), table.record.id, table.record.version, "hand")
    assert theirs.text == (await commands.hand(ctx("bob")))[0].text and theirs.ephemeral


@pytest.mark.parametrize("kind", ["abort", "draw"])
async def test_a_vote_is_accepted_or_declined_by_its_buttons(
    commands: Commands, ctx: CtxFactory, kind: str
) -> None:
    await start_nim(commands, ctx)
    table = await current(commands)
    game, version = table.record.id, table.record.version
    (asked, *_r) = await (commands.abort(ctx("alice")) if kind == "abort" else commands.draw(ctx("alice")))
    assert [b.action for b in asked.buttons] == [f"{kind}_accept", f"{kind}_decline"]
    (declined, *_r) = await commands.press(ctx("bob"), game, version, f"{kind}_decline")
    assert not declined.ephemeral and (await current(commands)).record.status == "active"
    assert await commands.tables.store.votes(game, kind) == {}, "the offer is withdrawn"
    await (commands.abort(ctx("alice")) if kind == "abort" else commands.draw(ctx("alice")))
    await commands.press(ctx("bob"), game, version, f"{kind}_accept")
    await commands.announcer.drain()
    record = (await current(commands)).record
    assert record.status == ("aborted" if kind == "abort" else "over")
    if kind == "draw":
        assert record.result is not None and record.result["draw"]


async def test_a_fixed_seed_is_shown_in_the_lobby_and_the_status(commands: Commands, ctx: CtxFactory) -> None:
    (lobby,) = await commands.new(ctx("alice"), "nim", options="seed=4242")
    assert "Fixed seed: 4242" in lobby.text
    await commands.join(ctx("bob"))
    await commands.start(ctx("alice"))
    (status,) = await commands.status(ctx("carol"))
    assert "4242" in status.text
    (unseeded,) = await commands.new(ctx("dave", "other"), "nim")
    assert "Fixed seed" not in unseeded.text, "a secret seed is never shown"
