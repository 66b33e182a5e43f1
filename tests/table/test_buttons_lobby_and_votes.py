"""The lobby's Leave, a seated player's My hand, the abort and draw votes answered by buttons, and the
fixed seed shown to everyone: each button does exactly what its command does."""

from __future__ import annotations

import pytest

import i18n
from table import Commands, Ctx
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


REFUSED = {"draw": "svc.error.no_draw_offer", "abort": "svc.error.no_abort_vote"}


@pytest.mark.parametrize("kind", ["abort", "draw"])
async def test_the_buttons_of_a_vote_declined_since_refuse_and_change_nothing(
    commands: Commands, ctx: CtxFactory, kind: str
) -> None:
    """Accept pressed after the offer was declined once made a new offer in the presser's name; now
    Accept and Decline both say no offer stands, as a typed command refuses, and the store is left
    as it was (no vote, the game running)."""
    await start_nim(commands, ctx)
    table = await current(commands)
    game, version = table.record.id, table.record.version
    await (commands.abort(ctx("alice")) if kind == "abort" else commands.draw(ctx("alice")))
    await commands.press(ctx("bob"), game, version, f"{kind}_decline")
    await commands.announcer.drain()
    before = await commands.tables.store.get_game(game)
    presses = [("bob", "accept"), ("alice", "accept"), ("bob", "decline"), ("alice", "decline")]
    for user, answer in presses:
        with pytest.raises(TableError) as refused:
            await commands.press(ctx(user), game, version, f"{kind}_{answer}")
        assert refused.value.msg.key == REFUSED[kind], (user, answer)
    moderator = Ctx("chan", "mod", "Mod", "en", "en", moderator=True)  # who may end a game alone
    with pytest.raises(TableError) as refused:
        await commands.press(moderator, game, version, f"{kind}_accept")
    assert refused.value.msg.key == (REFUSED[kind] if kind == "abort" else "table.error.not_seated")
    assert await commands.tables.store.votes(game, kind) == {}
    assert await commands.tables.store.get_game(game) == before


def test_the_refusals_name_the_command_that_makes_an_offer_in_the_readers_language() -> None:
    assert i18n.t(REFUSED["draw"], "en") == "No draw is on offer: /game draw offers one."
    assert i18n.t(REFUSED["draw"], "fr") == "Aucune nulle n'est proposée : /partie nulle en propose une."
    assert "/game abort" in i18n.t(REFUSED["abort"], "en")
    assert "/partie annuler" in i18n.t(REFUSED["abort"], "fr")


async def test_a_standing_offer_is_still_accepted_by_its_button_and_a_stranger_is_still_refused(
    commands: Commands, ctx: CtxFactory
) -> None:
    await start_nim(commands, ctx)
    table = await current(commands)
    game, version = table.record.id, table.record.version
    with pytest.raises(TableError) as refused:
        await commands.press(ctx("carol"), game, version, "draw_accept")
    assert refused.value.msg.key == "table.error.not_seated", "the command's own refusals come first"
    await commands.draw(ctx("alice"))
    await commands.press(ctx("bob"), game, version, "draw_accept")
    assert (await commands.tables.store.get_game(game)).status == "over"  # type: ignore[union-attr]


async def test_a_fixed_seed_is_shown_in_the_lobby_and_the_status(commands: Commands, ctx: CtxFactory) -> None:
    (lobby,) = await commands.new(ctx("alice"), "nim", options="seed=4242")
    assert "Fixed seed: 4242" in lobby.text
    await commands.join(ctx("bob"))
    await commands.start(ctx("alice"))
    (status,) = await commands.status(ctx("carol"))
    assert "4242" in status.text
    (unseeded,) = await commands.new(ctx("dave", "other"), "nim")
    assert "Fixed seed" not in unseeded.text, "a secret seed is never shown"


async def test_a_full_table_offers_no_join(commands: Commands, ctx: CtxFactory) -> None:
    (opened,) = await commands.new(ctx("alice"), "nim")
    assert [b.action for b in opened.buttons] == ["join", "leave", "start"]
    (full,) = await commands.join(ctx("bob"))
    assert [b.action for b in full.buttons] == ["leave", "start"], "every seat is taken"
    (left,) = await commands.leave(ctx("bob"))
    assert [b.action for b in left.buttons] == ["join", "leave", "start"], "a seat is free again"


async def test_a_team_whose_seats_are_taken_offers_no_join(commands: Commands, ctx: CtxFactory) -> None:
    await commands.new(ctx("alice"), "warchest", players=4)
    (post,) = await commands.join(ctx("bob"), team=2)
    assert [b.action for b in post.buttons][:2] == ["join:1", "join:2"]
    (post,) = await commands.join(ctx("carol"), team=2)
    assert [b.action for b in post.buttons] == ["join:1", "leave", "start"]
