"""``/game why`` and ``/game hint`` through slash commands on a fake Discord, in English and French.

The bot is the real one: its computer player searches with ``ai.decide`` in its worker processes, and
the explanation of each of its moves is kept as a note of the game, so it is told after a restart too.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import engine
import i18n
from engine.warchest.units import ROYAL, UNIT_TYPES
from table.bots.explain import is_explanation
from table.core.events import decode_msg
from tests.discord.support import (
    WARCHEST_FAVOURITES,
    Room,
    choose_favourite,
    current_board,
    fake_discord,
    open_room,
    refused,
    start,
)

WAR_CHEST = engine.get_game("warchest")
PERCENT = re.compile(r"\d+\u00a0?%")

_UNITS = (*UNIT_TYPES, ROYAL)
"""Every coin a War Chest hand may hold."""


WORDS = {
    "en-US": {
        "head": "Last decision of Bot 1 (easy), after ",
        "played": "• Played: ",
        "weighed": "• Also weighed: ",
        "chance": "% chance of winning",
        "kept": "A move that would name a coin or a card in its hand is told only once the game is over.",
        "hint": "What a computer player of level easy would play in your place:",
        "play": "• Play: ",
        "where": "Hints are given only at a table where every other seat is a computer player",
        "none": "No computer player has decided anything in this game yet",
    },
    "fr": {
        "head": "Dernière décision de Robot 1 (facile), après ",
        "played": "• Joué : ",
        "weighed": "• Aussi envisagé : ",
        "chance": "\u00a0% de chances de gagner",
        "kept": "Un coup qui nommerait une pièce ou une carte de sa main n'est dit qu'une fois la partie "
        "finie.",
        "hint": "Ce que jouerait un robot de niveau facile à votre place :",
        "play": "• Jouer : ",
        "where": "Les indices ne sont donnés qu'à une table où tous les autres sièges sont des robots",
        "none": "Aucun robot n'a encore rien décidé dans cette partie",
    },
}


def _locale(lang: str) -> str:
    return "fr" if lang == "fr" else "en"


@pytest.fixture(params=["en-US", "fr"])
async def solo(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[Room, str]]:
    """alice alone with the bot, in her own language (the server's too)."""
    lang: str = request.param
    async with fake_discord(tmp_path) as bot:
        room = open_room(bot, ("Solo", lang), "practice", ("alice", lang))
        await bot.start()
        yield room, lang


async def _against_the_bot(room: Room, moves: int) -> None:
    """alice opens a War Chest table with one easy bot (seed 8), starts, and plays ``moves`` moves."""
    fake, chan = room.fake, room.chan
    (alice,) = room.users.values()
    await fake.slash(alice, chan, "game new", game="warchest", bots=1, level="easy", options="seed=8")
    await start(room, alice)
    rng = random.Random(8)
    for _ in range(moves):
        value = await choose_favourite(room, alice, WARCHEST_FAVOURITES, rng)
        await fake.slash(alice, chan, "play", action=value)


async def _last_explanation(room: Room) -> dict[str, Any]:
    found = [n.event for n in await room.bot.notes(room.chan.id) if is_explanation(n.event)]
    assert found, "each move of the bot's is explained in a note of the game"
    return found[-1]


def _label(entry: dict[str, Any], locale: str) -> str:
    return i18n.t(decode_msg(entry["label"]), locale)


async def test_why_names_the_move_played_and_the_ones_weighed_with_percentages(
    solo: tuple[Room, str],
) -> None:
    room, lang = solo
    words, locale = WORDS[lang], _locale(lang)
    fake, chan = room.fake, room.chan
    (alice,) = room.users.values()
    await fake.slash(alice, chan, "game new", game="warchest", bots=1, level="easy", options="seed=8")
    assert words["none"] in refused(await fake.slash(alice, chan, "game why")), "no decision before the start"
    await start(room, alice)
    rng = random.Random(8)
    await fake.slash(
        alice, chan, "play", action=await choose_favourite(room, alice, WARCHEST_FAVOURITES, rng)
    )
    why = await fake.slash(alice, chan, "game why")
    assert why.ephemeral and not why.files, why.contents
    text = why.content
    lines = text.split("\n")
    assert lines[0].startswith(words["head"]), text
    assert lines[1].startswith(words["played"]) and words["chance"] in lines[1], text
    weighed = [line for line in lines if line.startswith(words["weighed"])]
    assert 1 <= len(weighed) <= 3, text
    assert all(len(PERCENT.findall(line)) == 2 for line in [lines[1], *weighed]), "a chance and a share each"
    note = await _last_explanation(room)
    record = await room.record()
    assert note["player"] == "bot:1:easy"
    assert len(note["weighed"]) == 1 + len(weighed)
    played = [e for e in note["weighed"] if not e["secret"]]
    for entry in played:
        assert _label(entry, locale) in text, "what tells no secret is named in the game's own words"
    assert record.status == "active"


async def test_while_the_game_runs_no_coin_of_the_bots_hand_is_named_and_after_it_ends_it_may_be(
    solo: tuple[Room, str],
) -> None:
    room, lang = solo
    words, locale = WORDS[lang], _locale(lang)
    fake, chan = room.fake, room.chan
    (alice,) = room.users.values()
    await _against_the_bot(room, 1)
    note = await _last_explanation(room)
    secrets = [e for e in note["weighed"] if e["secret"] == "hand"]
    assert secrets, "seed 8: the bot weighed moves that name a coin of its hand"
    text = (await fake.slash(alice, chan, "game why")).content
    for entry in secrets:
        assert _label(entry, locale) not in text, f"a coin of the bot's hand is named: {text}"
    coins = [i18n.t(f"wc.unit.{kind}", locale) for kind in _UNITS]
    face_down = "face down" if locale == "en" else "défaussée face cachée"
    for coin in coins:
        assert f"discard {coin} {face_down}" not in text and f"pièce {coin} {face_down}" not in text, text
    assert words["kept"] in text, "the reader is told that some moves are kept back"
    assert (await room.record()).status == "active"

    await room.bot.restart()  # the explanation is kept with the game
    await fake.slash(alice, chan, "game resign")
    assert (await room.record()).status == "over"
    after = (await fake.slash(alice, chan, "game why")).content
    for entry in secrets:
        assert _label(entry, locale) in after, f"once the game is over its secrets may be told: {after}"
    assert words["kept"] not in after


def _custom_ids(message: Any) -> list[str]:
    return [
        str(item.get("custom_id", "")) for row in message.components for item in row.get("components", [])
    ]


async def test_a_post_after_the_bots_move_has_a_why_button_that_tells_that_move(
    solo: tuple[Room, str],
) -> None:
    room, lang = solo
    words = WORDS[lang]
    fake, chan = room.fake, room.chan
    (alice,) = room.users.values()
    await _against_the_bot(room, 1)
    board = current_board(fake, chan)
    why = [c for c in _custom_ids(board) if c.endswith(":why")]
    assert len(why) == 1, f"the bot moved last: its post offers Why? {_custom_ids(board)}"
    label = next(
        item["label"]
        for row in board.components
        for item in row["components"]
        if item.get("custom_id") in why
    )
    assert label == ("Pourquoi ?" if lang == "fr" else "Why?")
    pressed = await fake.click(alice, board, why[0])
    answer = [m for m in pressed.messages if m.ephemeral and not m.deleted]
    assert answer, "Why? answers privately"
    typed = await fake.slash(alice, chan, "game why")
    assert answer[-1].content == typed.content, "the button tells what /game why tells of that move"
    assert answer[-1].content.startswith(words["head"]) and words["kept"] in answer[-1].content

    record = await room.record()
    await fake.slash(
        alice, chan, "play", action=await choose_favourite(room, alice, WARCHEST_FAVOURITES, random.Random(3))
    )
    assert (await room.record()).version > record.version
    again = await fake.click(alice, board, why[0])
    older = [m for m in again.messages if m.ephemeral and not m.deleted][-1]
    assert older.content == answer[-1].content, "an older post's Why? tells the move that post showed"


async def test_a_hint_at_a_table_of_bots_and_the_same_hint_asked_again(solo: tuple[Room, str]) -> None:
    room, lang = solo
    words = WORDS[lang]
    fake, chan = room.fake, room.chan
    (alice,) = room.users.values()
    await _against_the_bot(room, 0)
    record = await room.record()
    assert WAR_CHEST.to_act(WAR_CHEST.load(record.state or {})) == [alice.id]
    hint = await fake.slash(alice, chan, "game hint")
    assert hint.ephemeral, hint.contents
    lines = hint.content.split("\n")
    assert lines[0] == words["hint"], hint.content
    assert lines[1].startswith(words["play"]) and len(PERCENT.findall(lines[1])) == 2, hint.content
    again = await fake.slash(alice, chan, "game hint")
    assert again.content == hint.content, "the same position, the same seed: the same hint"
    assert (await room.record()).version == record.version, "a hint plays nothing"


async def test_a_hint_is_refused_at_a_table_of_two_people_whose_posts_offer_no_why(tmp_path: Path) -> None:
    async with fake_discord(tmp_path) as bot:
        room = open_room(bot, ("Club", "en-US"), "games", ("alice", "en-US"), ("bob", "fr"))
        await bot.start()
        fake, chan = room.fake, room.chan
        alice, bob = room.by_name["alice"], room.by_name["bob"]
        await fake.slash(alice, chan, "game new", game="warchest", options="seed=8")
        await fake.slash(bob, chan, "game join")
        await start(room, alice)
        ids = _custom_ids(current_board(fake, chan))
        assert any(c.endswith(":moves") for c in ids) and not any(c.endswith(":why") for c in ids), ids
        for user, lang in ((alice, "en-US"), (bob, "fr")):
            text = refused(await fake.slash(user, chan, "game hint"))
            assert WORDS[lang]["where"] in text, text
        assert WORDS["fr"]["where"] in text and "/partie nouvelle" in text, "French names the French command"
        text = refused(await fake.slash(alice, chan, "game why"))
        assert WORDS["en-US"]["none"] in text, "no computer player decided anything here"
