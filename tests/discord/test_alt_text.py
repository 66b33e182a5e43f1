"""Every image the bot posts carries alt text (the attachment's description, read aloud by screen
readers), in the post's language, and a public image's alt text never tells hidden information.

A short game of each title is played through the fake Discord in an English and in a French server:
the boards posted in the channel, a player's hand, the details and the replay. Each is checked as
Discord stores it: the description sent with the file.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import engine
import i18n
from tests.discord.support import Bot, completer, fake_discord, open_room
from tests.fakediscord.model import SentMessage

MOVES = 10
LIMIT = 1024

LAST = {
    "en": ("Last action: ", "No action yet"),
    "fr": ("Dernière action : ", "Aucune action pour l'instant"),
}
"""How every board's alt text tells the last action, by language."""
OTHER_WORDS = {
    "en": ("Dernière action", "Manche", "détails", "rejeu", " : "),
    "fr": ("Last action", "Round ", "details", "replay", "To play"),
}
"""Words of the other language that an alt text in this one never holds."""
PRIVATE_MARKS = {"en": ("your coins", "hand of", "Hand: "), "fr": ("vos pièces", "main de", "Main : ")}
"""How a hand's alt text lists what is hidden: never in a public image's."""


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[Bot]:
    async with fake_discord(tmp_path) as bot:
        await bot.start()
        yield bot


def described(messages: list[SentMessage]) -> list[tuple[SentMessage, str, str]]:
    """(message, file name, description) of every file in ``messages``; each file must have one."""
    found = []
    for message in messages:
        for index, (name, _data) in enumerate(message.files):
            alt = message.alt(index)
            assert alt, f"{name} on {message.content!r} has no alt text"
            assert len(alt) <= LIMIT
            found.append((message, name, alt))
    return found


def hidden_names(game: Any, state: Any, players: list[str], locale: str) -> set[str]:
    """The names of every card held in a hand (Cry Havoc): what no public alt text may name."""
    if game.name != "cryhavoc":
        return set()
    held = set()
    for player in players:
        for kind in (game.view(state, player).get("private") or {}).get("hand") or []:
            held.add(i18n.t(f"ch.card.{kind}", locale))
    return held


def without_last_action(alt: str, locale: str) -> str:
    """``alt`` less its last-action sentence: a card played or discarded is public once it is told
    (the engine's public view says so), and may well have a twin still in a hand."""
    mark = LAST[locale][0]
    if mark not in alt:
        return alt
    head, tail = alt.split(mark, 1)
    seats = tail.split(". ", 1)
    return head + (seats[1] if len(seats) > 1 else "")


@pytest.mark.parametrize("locale", ["en", "fr"])
@pytest.mark.parametrize("name", list(engine.GAMES))
async def test_every_image_of_a_game_has_alt_text_in_the_posts_language(
    bot: Bot, name: str, locale: str
) -> None:
    discord_locale = "en-US" if locale == "en" else "fr"
    people = (("alice", discord_locale), ("bob", discord_locale))
    room = open_room(bot, ("Guild", discord_locale), "table", *people)
    fake, chan = room.fake, room.chan
    alice, bob = room.users.values()
    game = engine.get_game(name)
    await fake.slash(alice, chan, "game new", game=name, players=2, options="seed=3")
    await fake.slash(bob, chan, "game join")
    await fake.slash(alice, chan, "game start")
    rng = random.Random(3)
    for _ in range(MOVES):
        record = await room.record()
        if record.status != "active":
            break
        actor = room.users[game.to_act(game.load(record.state or {}))[0]]
        values = [str(v) for _label, v in await completer(room, actor)("")]
        await fake.slash(actor, chan, "play", action=rng.choice(values))
    deploying = getattr(game.load((await room.record()).state or {}), "phase", None) == "deploy"
    hand = await fake.slash(alice, chan, "hand")
    board = await fake.slash(bob, chan, "game board", details=True)
    replay = await fake.slash(bob, chan, "game replay")
    text = await fake.slash(bob, chan, "game board", text=True)
    assert text.ephemeral and not text.files, "the text board is for the asker alone, with no image"
    walk = {"warchest": "render.tb.units", "batailles": "render.tb.troops", "cryhavoc": "render.tb.regions"}
    assert i18n.t(walk[name], locale) in text.content.splitlines(), text.content

    channel = [m for m in fake.messages_in(chan) if m.author.id == fake.bot_user.id and not m.ephemeral]
    public = described(channel + [m for m in board.messages if not m.ephemeral])
    assert len(public) >= 2, "the start and the moves were posted with their boards"
    private = described([m for m in hand.messages + board.messages + replay.messages if m.ephemeral])
    kinds = {file_name.split(".")[0] for _m, file_name, _alt in private}
    assert {"details", "replay"} <= kinds, kinds
    # Batailles hides only a deployment under way: each army unseen by the other until both are done
    assert ("hand" in kinds) == (name != "batailles" or deploying), "a hand image for hidden information"

    record = await room.record()
    state = game.load(record.state or {})
    held = hidden_names(game, state, record.player_ids, locale)
    for message, file_name, alt in public + private:
        assert not any(word in alt for word in OTHER_WORDS[locale]), f"{file_name}: {alt}"
        if file_name.startswith(("board", "replay")):
            assert any(mark in alt for mark in LAST[locale]), f"{file_name}: {alt}"
        if file_name.startswith("hand"):
            assert message.ephemeral and message in hand.messages
            continue
        assert not any(mark in alt for mark in PRIVATE_MARKS[locale]), f"hidden information in {alt}"
        told = without_last_action(alt, locale)
        assert not any(card in told for card in held), f"a card in hand named in {alt}"
    for _message, file_name, alt in private:
        if file_name.startswith("hand") and name != "batailles":
            assert any(mark in alt for mark in PRIVATE_MARKS[locale]), alt
