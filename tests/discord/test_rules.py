"""``/game rules`` on the fake Discord: the slash command with a topic, its autocomplete, refusals, and
every summary page within Discord's message limit, in the reader's own language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import i18n
from table.rules.rule_topics import PAGES, rulebook
from tests.discord.support import Room, fake_discord, open_room, refused

GAMES = ("warchest", "batailles", "cryhavoc")


@pytest.fixture
async def room(tmp_path: Path) -> AsyncIterator[Room]:
    async with fake_discord(tmp_path) as bot:
        await bot.start()
        yield open_room(bot, ("Les Joueurs", "fr"), "regles", ("anne", "fr"), ("bill", "en-US"))


def readers(room: Room) -> tuple[Any, Any]:
    anne, bill = room.users.values()
    return anne, bill


def answer(result: Any) -> str:
    """The private reply's text: one message, ephemeral, no image."""
    assert result.ephemeral and len(result.messages) == 1, result.contents
    assert not result.files
    return str(result.content)


async def test_a_topic_in_each_readers_language(room: Room) -> None:
    anne, bill = readers(room)
    fake, chan = room.fake, room.chan
    english = answer(await fake.slash(bill, chan, "game rules", game="warchest", topic="archer"))
    assert english.startswith("**War Chest · Archer** (unit)\n4 coins")
    french = answer(await fake.slash(anne, chan, "game rules", game="warchest", topic="archer"))
    assert french.startswith("**Champ d'honneur · Archer** (unité)\n4 pièces")
    card = answer(await fake.slash(anne, chan, "game rules", game="cryhavoc", topic="Salve"))
    assert "`jouer Salve <objectif>`" in card, "the card by its name, as /jouer writes it"
    assert [m for m in fake.messages_in(chan) if not m.ephemeral] == [], "nothing is posted publicly"


async def test_topics_autocomplete_in_the_readers_language_and_open_the_chosen_one(room: Room) -> None:
    anne, bill = readers(room)
    fake, chan = room.fake, room.chan
    french = await fake.autocomplete(anne, chan, "game rules", focused="topic", topic="cav", game="warchest")
    assert french == [
        ("Cavalerie · unité", "warchest:cavalry"),
        ("Cavalerie légère · unité", "warchest:light_cavalry"),
    ]
    english = await fake.autocomplete(
        bill, chan, "game rules", focused="topic", topic="light", game="warchest"
    )
    assert english == [("Light Cavalry · unit", "warchest:light_cavalry")]
    anywhere = await fake.autocomplete(bill, chan, "game rules", focused="topic", topic="morale")
    assert anywhere == [("Morale test · rule · Batailles", "batailles:morale")]
    every = await fake.autocomplete(anne, chan, "game rules", focused="topic", topic="", game="cryhavoc")
    assert len(every) == 25 and all(1 <= len(n) <= 100 and 1 <= len(v) <= 100 for n, v in every)
    chosen = answer(await fake.slash(anne, chan, "game rules", topic=french[1][1]))
    assert chosen.startswith("**Champ d'honneur · Cavalerie légère** (unité)")


async def test_an_unknown_topic_is_refused_privately_with_suggestions(room: Room) -> None:
    anne, bill = readers(room)
    fake, chan = room.fake, room.chan
    text = answer(await fake.slash(bill, chan, "game rules", game="batailles", topic="moral"))
    assert text.startswith("**Batailles · Morale test**"), "the start of a name is enough"
    text = refused(await fake.slash(bill, chan, "game rules", game="batailles", topic="forrest"))
    assert text == "Batailles has no rules topic “forrest”. Did you mean Forest?"
    text = refused(await fake.slash(anne, chan, "game rules", game="cryhavoc", topic="zzz"))
    assert text.startswith("Cry Havoc n'a pas de sujet de règles « zzz ». Ses pages : Présentation,")


@pytest.mark.parametrize("game", GAMES)
async def test_every_page_fits_one_message_and_leads_to_the_next(room: Room, game: str) -> None:
    anne, bill = readers(room)
    fake, chan = room.fake, room.chan
    book = rulebook(game)
    assert book is not None
    for user, lang in ((anne, "fr"), (bill, "en")):
        first = answer(await fake.slash(user, chan, "game rules", game=game))
        assert first.startswith(f"**{i18n.t(f'table.game.{game}', lang)} · ") and "(page 1/7)" in first
        for number, page in enumerate(PAGES, start=1):
            text = answer(await fake.slash(user, chan, "game rules", game=game, topic=page))
            assert len(text) <= 2000 and f"(page {number}/{len(PAGES)})" in text
            if number < len(PAGES):
                following = i18n.t(book.by_id[PAGES[number]].title, lang)
                assert text.endswith(f":{following}")
                shown = answer(await fake.slash(user, chan, "game rules", game=game, topic=following))
                assert f"(page {number + 1}/{len(PAGES)})" in shown.splitlines()[0]


async def test_the_topic_option_is_declared_for_discord(room: Room) -> None:
    anne, _bill = readers(room)
    answer(await room.fake.slash(anne, room.chan, "game rules"))  # the commands are synced by now
    game = next(c for c in room.fake.global_commands if c["name"] == "game")
    rules = next(o for o in game["options"] if o["name"] == "rules")
    topic = next(o for o in rules["options"] if o["name"] == "topic")
    assert topic["autocomplete"] is True and not topic.get("required")
    assert topic["name_localizations"] == {"fr": "sujet"} and topic["max_length"] == 100


async def test_the_options_of_a_new_game_autocomplete_names_then_values(room: Room) -> None:
    """``/game new`` offers the chosen game's options as they are typed, through discord.py's own
    autocomplete path, and what it offers is accepted when sent."""
    anne, _bill = readers(room)
    fake, chan = room.fake, room.chan
    names = await fake.autocomplete(anne, chan, "game new", focused="options", options="arm", game="warchest")
    assert ("armies=", "armies=") in names
    values = await fake.autocomplete(
        anne, chan, "game new", focused="options", options="armies=dr", game="warchest"
    )
    assert values == [("armies=draft", "armies=draft")]
    assert await fake.autocomplete(anne, chan, "game new", focused="options", options="arm") == []
    opened = await fake.slash(anne, chan, "game new", game="warchest", options=values[0][1])
    assert not opened.ephemeral and "unités choisies à tour de rôle" in opened.content, opened.content
