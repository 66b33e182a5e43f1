"""``/leaderboard``, ``/history`` and ``/stats`` on the fake Discord, in English and French, over a
SQLite file and over PostgreSQL: two rated games between people end by resignation, and a game
against a computer player changes no rating. The final post of a rated game gives each player's
rating change."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import db
from tests.discord.support import Room, fake_discord, open_room, start
from tests.fakediscord.model import MODERATOR_PERMISSIONS, InteractionResult


@pytest.fixture
async def room(tmp_path: Path, store_target: str | Path) -> AsyncIterator[Room]:
    async with fake_discord(tmp_path, store_target) as bot:
        room = open_room(bot, ("Les Joueurs", "en-US"), "jeux", ("alice", "fr"), ("bob", "en-GB"))
        await bot.start()
        yield room


async def resigned_game(room: Room, loser: str) -> str:
    """A two-player War Chest game that ``loser`` resigns; the channel's last post."""
    fake, chan = room.fake, room.chan
    alice, bob = room.by_name["alice"], room.by_name["bob"]
    await fake.slash(alice, chan, "game new", game="warchest", options="seed=4")
    await fake.slash(bob, chan, "game join")
    await start(room, alice)
    await fake.slash(room.by_name[loser], chan, "game resign")
    return fake.messages_in(chan)[-1].content


def alt_of(answer: InteractionResult) -> str:
    """The description (alt text) of the answer's first file."""
    sent = next(m for m in answer.messages if not m.deleted and m.files)
    return sent.alt(0) or ""


def first_listed(lines: list[str]) -> str:
    """The number of the oldest game a /history page lists."""
    return lines[-1].split()[0].lstrip("#")


async def test_rated_games_make_a_leaderboard_a_history_and_a_record(room: Room) -> None:
    fake, chan = room.fake, room.chan
    alice, bob = room.by_name["alice"], room.by_name["bob"]

    empty = await fake.slash(bob, chan, "leaderboard")
    assert empty.ephemeral and "No rated game" in empty.content

    final = await resigned_game(room, "bob")
    assert "📈 Ratings (War Chest): alice " in final and "(+" in final and "(−" in final
    await resigned_game(room, "bob")
    store = await db.open_store(room.bot.settings.database)
    try:
        (standing_alice, standing_bob) = await store.standings(chan.guild_id, "warchest")
    finally:
        await store.close()
    assert (standing_alice.player, standing_alice.wins, standing_bob.wins) == (alice.id, 2, 0)

    board = await fake.slash(bob, chan, "leaderboard", game="warchest")
    assert not board.ephemeral
    assert "🏆 War Chest, page 1/1" in board.content and "Fewer than 5 rated games" in board.content
    assert board.content.index(f"<@{alice.id}>") < board.content.index(f"<@{bob.id}>")
    assert "2 games, 2 wins" in board.content
    assert [name for name, _ in board.files] == ["leaderboard.png"], "the table as an image too"
    assert alt_of(board).startswith("🏆 War Chest, page 1/1: Fewer than 5 rated games: alice 6"), (
        "named by display name"
    )
    french = await fake.slash(alice, chan, "leaderboard")
    assert "Moins de 5 parties classées" in french.content and "2 parties, 2 victoires" in french.content

    history = await fake.slash(bob, chan, "history", player=alice)
    assert "Finished games of" in history.content
    lines = [line for line in history.content.splitlines() if line.startswith("#")]
    assert len(lines) == 2 and all("1. alice (+" in line and "2. bob (−" in line for line in lines)
    (listed,) = [m for m in history.messages if not m.deleted]
    oldest = next(
        item["custom_id"]
        for row in listed.components
        for item in row["components"]
        if item["custom_id"].endswith(f":replay:{lines[-1].split()[0].lstrip('#')}")
    )
    replayed = await fake.click(alice, listed, oldest)
    assert replayed.ephemeral and [name for name, _ in replayed.files] == ["replay.gif"], (
        "an older game's replay"
    )
    final_board = oldest.replace(":replay:", ":final:")
    labels = [item["label"] for row in listed.components for item in row["components"]]
    assert f"🏁 Board #{first_listed(lines)}" in labels
    shown = await fake.click(alice, listed, final_board)
    assert shown.ephemeral and [name for name, _ in shown.files] == ["board.png"], "the final board"
    assert "le plateau final" in shown.content and "Partie terminée" in shown.content
    assert alt_of(shown), "with its alt text"
    refused = await fake.slash(bob, chan, "history", page=3)
    assert refused.ephemeral and "3" in refused.content

    mine = await fake.slash(alice, chan, "stats")
    assert mine.ephemeral and "Le bilan de" in mine.content
    assert [name for name, _ in mine.files] == ["rating.png"], "the rating chart beside the record"
    assert alt_of(mine).startswith(
        "Courbe, alice : classement par jeu. Champ d'honneur (6,2 · 2 parties : 2 gagnées, 0 nulles,"
    )
    assert "Victoires par unité :" in mine.content and "• Cavalerie légère : " in mine.content
    assert (
        "2 parties : 2 gagnées, 0 nulles, 0 perdues" in mine.content
        and "2 victoires d'affilée" in mine.content
    )
    theirs = await fake.slash(alice, chan, "stats", player=bob, game="warchest", public=True)
    assert not theirs.ephemeral and "2 défaites d'affilée" in theirs.content
    english = await fake.slash(bob, chan, "stats")
    assert "Wins by unit:" in english.content and ": 0 wins in 2 games" in english.content

    first = lines[-1].split()[0].lstrip("#")
    refused = await fake.slash(bob, chan, "game unrate", game=int(first))
    assert refused.ephemeral and "moderators" in refused.content
    mod = fake.add_user("mod", permissions=MODERATOR_PERMISSIONS, locale="en-US")
    unrated = await fake.slash(mod, chan, "game unrate", game=int(first))
    assert (
        not unrated.ephemeral
        and f"Game #{first} no longer counts for the ratings of War Chest" in unrated.content
    )
    board = await fake.slash(bob, chan, "leaderboard", game="warchest")
    assert "1 game, 1 win" in board.content and "1 game, 0 wins" in board.content


async def test_a_game_against_a_computer_player_is_listed_but_not_rated(room: Room) -> None:
    fake, chan = room.fake, room.chan
    alice = room.by_name["alice"]
    await fake.slash(alice, chan, "game new", game="warchest", options="seed=4", bots=1)
    await start(room, alice)
    await fake.slash(alice, chan, "game resign")
    assert "📈" not in fake.messages_in(chan)[-1].content
    board = await fake.slash(alice, chan, "leaderboard")
    assert board.ephemeral and "Aucune partie classée" in board.content
    history = await fake.slash(alice, chan, "history")
    assert "(non classée)" in history.content
