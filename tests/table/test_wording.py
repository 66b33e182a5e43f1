"""The table's messages read right for a newcomer, in English and French: counts agree with their
nouns, lists end with "and"/"or", games go by their display names, and refusals say who is meant."""

from __future__ import annotations

import pytest

import i18n
from cogs.markup import discord_text
from engine.errors import BadInput
from table import Commands
from table.core.errors import TableError
from tests.table.conftest import CtxFactory, last_post, start_nim
from tests.table.test_warchest import open_warchest


async def test_a_table_missing_one_player_says_one_is_seated(commands: Commands, ctx: CtxFactory) -> None:
    await commands.new(ctx("alice"), "warchest")
    with pytest.raises(TableError) as err:
        await commands.start(ctx("alice"))
    assert i18n.t(err.value.msg, "en") == "War Chest needs 2 players to start; 1 is seated."
    assert i18n.t(err.value.msg, "fr") == "Champ d'honneur demande 2 joueurs pour commencer ; 1 est assis."


async def test_player_counts_are_offered_with_or(commands: Commands, ctx: CtxFactory) -> None:
    with pytest.raises(TableError) as err:
        await commands.new(ctx("alice"), "warchest", players=3)
    assert i18n.t(err.value.msg, "en") == "War Chest is played by 2 or 4 players, not 3."
    assert i18n.t(err.value.msg, "fr") == "Champ d'honneur se joue à 2 ou 4 joueurs, pas à 3."


async def test_two_winners_are_winners_joined_with_and(commands: Commands, ctx: CtxFactory) -> None:
    await open_warchest(commands, ctx, ["p1", "p2", "p3", "p4"])
    await commands.resign(ctx("p1", channel_locale="fr"))
    end = await last_post(commands)
    assert discord_text(end.text).startswith("Partie terminée ! Vainqueurs : <@p2> et <@p4>. P1 a abandonné.")
    status = await commands.status(ctx("p3"))
    assert "Game over! Winners: <@p2> and <@p4>. P1 resigned." in discord_text(status[0].text)


async def test_one_winner_is_a_winner(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx)
    await commands.resign(ctx("alice"))
    assert discord_text((await last_post(commands)).text).startswith(
        "Game over! Winner: <@bob>. Alice resigned."
    )


async def test_every_player_to_act_is_listed_with_and(commands: Commands, ctx: CtxFactory) -> None:
    await commands.new(ctx("alice"), "nim")
    posts = await commands.join(ctx("bob", channel_locale="fr"))
    assert "La table est complète, <@alice> et <@bob> : lancez la partie avec /partie commencer." in (
        discord_text(posts[0].text)
    )


async def test_games_are_named_by_their_display_names_not_their_ids(
    commands: Commands, ctx: CtxFactory
) -> None:
    help_text = (await commands.help(ctx("alice", locale="fr")))[-1].text
    assert help_text.endswith("Jeux : nim et Champ d'honneur") and "(warchest)" not in help_text
    with pytest.raises(BadInput) as err:
        await commands.new(ctx("alice"), "chess")
    assert i18n.t(err.value.msg, "fr") == "Aucun jeu ne s'appelle « chess ». Jeux : nim, Champ d'honneur."
    with pytest.raises(TableError) as err:
        await commands.new(ctx("alice"), "warchest", options="speed=fast")
    assert i18n.t(err.value.msg, "en").startswith("War Chest has no option “speed”.")
    assert i18n.t(err.value.msg, "fr").startswith("Champ d'honneur n'a pas d'option « speed ».")


@pytest.mark.parametrize("typed", ["War Chest", "champ d'honneur", "CHAMP D’HONNEUR", " warchest "])
async def test_a_game_may_be_named_by_any_of_its_names(
    commands: Commands, ctx: CtxFactory, typed: str
) -> None:
    await commands.new(ctx("alice"), typed)
    table = await commands.tables.latest("chan")
    assert table is not None and table.record.game == "warchest"
    rules = await commands.rules(ctx("alice"), typed)
    assert rules[0].text.startswith("**War Chest · Overview** (page 1/7)\n")


async def test_a_log_of_one_page_says_page(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx)
    with pytest.raises(TableError) as err:
        await commands.log(ctx("alice"), page=2)
    assert i18n.t(err.value.msg, "en") == "There is no page 2: the log has 1 page."
    assert i18n.t(err.value.msg, "fr") == "Il n'y a pas de page 2 : l'historique compte 1 page."


async def test_a_move_that_told_nothing_is_logged_with_its_text(commands: Commands, ctx: CtxFactory) -> None:
    """Games stored before every action had an event still get a line saying what was played."""
    await start_nim(commands, ctx)
    table = await commands.tables.latest("chan")
    assert table is not None
    await commands.tables.store.apply_action(
        table.record.id,
        version=table.record.version,
        player="alice",
        action="take 1",
        events=[],
        state=table.record.state,
        status="active",
        result=None,
    )
    log = await commands.log(ctx("bob", locale="fr"))
    assert "1. Alice a joué « take 1 »." in log[0].text
    assert "acted" not in (await commands.log(ctx("bob")))[0].text


async def test_no_move_now_says_whose_turn_it_is(commands: Commands, ctx: CtxFactory) -> None:
    await start_nim(commands, ctx)
    table = await commands.tables.latest("chan")
    assert table is not None and table.to_act() == ["bob"]
    (mine,) = await commands.legal_moves(ctx("bob"))
    assert mine.ephemeral and mine.text.startswith("Your legal moves:\n")
    (theirs,) = await commands.legal_moves(ctx("alice", locale="fr"))
    assert theirs.ephemeral and theirs.text == "Ce n'est pas votre tour : on attend Bob."
