"""Playing with buttons and menus only, through the fake Discord: component interactions (type 3)
with the bot's own custom ids, persistent across a restart.

After ``/game new``, every step is a click: Join and Start under the lobby post, then "My moves"
under the channel's board and picks in the private menu it opens, group after group, until a move is
played. A player picks among the moves the menu offers (with a bias for moves that end a game), so
what is legal comes from the bot.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import engine
from cogs.components import view_for
from db import GameRecord, Seat
from launch import DISCORD_LIMITS
from table.core.posts import Post
from table.core.tables import Table
from table.posting.menus import board_buttons, lobby_buttons, moves_menu, vote_buttons
from tests.discord.support import Bot, Room, current_board, fake_discord, open_room
from tests.fakediscord.model import FakeUser, InteractionResult, SentMessage

PREFER = ("control", "attack", "capture", "kill", "score", "end", "done", "deploy", "move", "go")
"""Verbs a button player favours, in order: games end sooner than with uniform choices."""


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[Bot]:
    async with fake_discord(tmp_path) as b:
        await b.start()
        yield b


def button_id(message: SentMessage, action: str) -> str:
    for row in message.components:
        for item in row.get("components", []):
            if str(item.get("custom_id", "")).endswith(f":{action}"):
                return str(item["custom_id"])
    raise AssertionError(f"no {action!r} button on {message.content!r}: {message.components}")


def menu_of(message: SentMessage) -> tuple[str, list[str]]:
    for row in message.components:
        for item in row.get("components", []):
            if item.get("type") == 3:
                return str(item["custom_id"]), [str(o["value"]) for o in item["options"]]
    raise AssertionError(f"no menu on {message.content!r}")


def shown(result: InteractionResult, clicked: SentMessage) -> SentMessage:
    """The message a click left in front of the player: the one it updated in place (the lobby, the
    next step of a menu), or its latest private reply."""
    live = [m for m in result.messages if not m.deleted]
    if result.response_type in (6, 7) and not any(m.ephemeral for m in live):
        return clicked
    return live[-1] if live else clicked


def choose(values: Sequence[str], rng: random.Random) -> str:
    for verb in PREFER:
        for kind in ("a", "g"):
            wanted = [v for v in values if v.startswith(f"{kind}:{verb}")]
            if wanted and rng.random() < 0.8:
                return rng.choice(wanted)
    return rng.choice(list(values))


async def play_by_menu(room: Room, user: FakeUser, rng: random.Random) -> str:
    """Open "My moves" under the channel's board and pick until a move is played; its confirmation."""
    fake = room.fake
    board = current_board(fake, room.chan)
    r = await fake.click(user, board, button_id(board, "moves"))
    message = shown(r, board)
    for _ in range(20):
        custom_id, values = menu_of(message)
        assert 1 <= len(values) <= 25
        value = choose(values, rng)
        r = await fake.click(user, message, custom_id, values=[value])
        message = shown(r, message)
        if value.startswith("a:"):
            assert message.ephemeral and message.content.startswith(("Done.", "C'est fait.")), message.content
            return value[2:]
    raise AssertionError("twenty picks and no move")


async def open_by_buttons(room: Room, game: str, options: str) -> None:
    fake, chan = room.fake, room.chan
    first, *others = room.users.values()
    await fake.slash(first, chan, "game new", game=game, players=len(room.users), options=options)
    lobby = fake.messages_in(chan)[-1]
    for user in others:
        r = await fake.click(user, lobby, button_id(lobby, "join"))
        lobby = shown(r, lobby)
        assert lobby.id == fake.messages_in(chan)[0].id, "the lobby post itself shows the seats"
        assert user.name in lobby.content
    await fake.click(first, lobby, button_id(lobby, "start"))
    assert not any(m.components for m in fake.messages_in(chan)[:1]), "a started lobby loses its buttons"


GAMES = [
    ("warchest", 2, "seed=2"),
    ("batailles", 2, "armies=raiders map=open_field max_rounds=2 seed=3"),
    ("cryhavoc", 2, "seed=5"),
]


@pytest.mark.parametrize(("name", "count", "options"), GAMES, ids=[g[0] for g in GAMES])
async def test_a_whole_game_with_buttons_and_menus_only(
    bot: Bot, name: str, count: int, options: str
) -> None:
    room = open_room(bot, ("Guild", "en-US"), "tap", ("alice", "en-US"), ("bob", "fr"))
    await open_by_buttons(room, name, options)
    game = engine.get_game(name)
    rng = random.Random(7)
    old_board: SentMessage | None = None
    moves = 0
    for moves in range(1, 800):
        record = await room.record()
        if record.status != "active":
            break
        state = game.load(record.state or {})
        actor = room.users[rng.choice(game.to_act(state))]
        if moves == 10:
            old_board = current_board(room.fake, room.chan)
            await room.bot.restart()
        await play_by_menu(room, actor, rng)
    record = await room.record()
    assert record.status == "over", f"no end after {moves} moves"
    end = current_board(room.fake, room.chan)
    assert {c["custom_id"].rsplit(":", 1)[-1] for row in end.components for c in row["components"]} == {
        "rematch",
        "replay",
        "details",
        "log",
    }
    assert old_board is not None
    # A button posted before the restart still answers (here: the finished game says so privately).
    r = await room.fake.click(room.users[record.player_ids[0]], old_board, button_id(old_board, "rules"))
    assert shown(r, old_board).ephemeral


async def test_stale_foreign_and_spectator_clicks_answer_privately_and_change_nothing(bot: Bot) -> None:
    room = open_room(bot, ("Guild", "en-US"), "tap", ("alice", "en-US"), ("bob", "en-US"), ("zoe", "en-US"))
    alice, bob, zoe = room.users.values()
    room = Room(room.bot, room.chan, {alice.id: alice, bob.id: bob})
    await open_by_buttons(room, "warchest", "seed=5")
    first_board = current_board(room.fake, room.chan)
    version = (await room.record()).version
    mover = alice if (await room.record()).player_ids and f"<@{alice.id}>" in first_board.content else bob
    other = bob if mover is alice else alice
    r = await room.fake.click(other, first_board, button_id(first_board, "moves"))
    assert shown(r, first_board).ephemeral and "not your turn" in shown(r, first_board).content
    r = await room.fake.click(zoe, first_board, button_id(first_board, "hand"))
    assert shown(r, first_board).ephemeral and "not seated" in shown(r, first_board).content
    r = await room.fake.click(zoe, first_board, button_id(first_board, "details"))
    details = shown(r, first_board)
    assert details.ephemeral and [name for name, _png in details.files] == ["details.png"], "for anyone"
    await play_by_menu(room, mover, random.Random(1))
    r = await room.fake.click(other, first_board, button_id(first_board, "moves"))
    texts = [m.content for m in r.messages if not m.deleted]
    assert any("older position" in t for t in texts), texts
    assert menu_of(shown(r, first_board))[0].endswith(f":v{version + 1}:pick"), (
        "the current moves are offered"
    )
    assert (await room.record()).version == version + 1


async def test_a_draw_is_offered_and_accepted_with_buttons(bot: Bot) -> None:
    room = open_room(bot, ("Guild", "en-US"), "tap", ("alice", "en-US"), ("bob", "en-US"))
    alice, bob = room.users.values()
    await open_by_buttons(room, "warchest", "seed=5")
    r = await room.fake.slash(alice, room.chan, "game draw")
    offer = [m for m in r.messages if not m.ephemeral][-1]
    r = await room.fake.click(alice, offer, button_id(offer, "draw_accept"))
    assert shown(r, offer).ephemeral, "one's own offer cannot be accepted by oneself"
    await room.fake.click(bob, offer, button_id(offer, "draw_accept"))
    record = await room.record()
    assert record.status == "over" and record.result is not None and record.result["draw"]
    end = current_board(room.fake, room.chan)
    r = await room.fake.click(bob, end, button_id(end, "log"))
    assert shown(r, end).ephemeral and "log" in shown(r, end).content.lower()
    await room.fake.click(bob, end, button_id(end, "rematch"))
    again = await room.record()
    assert again.id != record.id and again.status == "active" and again.version == 0
    assert sorted(again.player_ids) == sorted(record.player_ids) and again.seed != record.seed
    assert current_board(room.fake, room.chan).id != end.id, "the rematch's first board is posted"


async def test_the_buttons_of_a_draw_offer_declined_since_only_say_no_offer_stands(bot: Bot) -> None:
    """At three sides an offer is posted again with each acceptance, and a decline under the latest
    leaves the buttons of the first: their Accept used to offer a draw in the presser's name."""
    room = open_room(bot, ("Guild", "en-US"), "tap", ("alice", "en-US"), ("bob", "en-US"), ("carol", "fr"))
    alice, bob, carol = room.users.values()
    await open_by_buttons(room, "cryhavoc", "seed=5")
    r = await room.fake.slash(alice, room.chan, "game draw")
    first = [m for m in r.messages if not m.ephemeral][-1]
    r = await room.fake.slash(bob, room.chan, "game draw")
    latest = [m for m in r.messages if not m.ephemeral][-1]
    await room.fake.click(carol, latest, button_id(latest, "draw_decline"))
    before = await room.record()
    posts = len(room.fake.messages_in(room.chan))
    for user, button, said in (
        (carol, "draw_accept", "Aucune nulle n'est proposée : /partie nulle en propose une."),
        (bob, "draw_accept", "No draw is on offer: /game draw offers one."),
        (carol, "draw_decline", "Aucune nulle n'est proposée : /partie nulle en propose une."),
    ):
        r = await room.fake.click(user, first, button_id(first, button))
        answer = shown(r, first)
        assert answer.ephemeral and answer.content == said, (user.name, button, answer.content)
    assert len(room.fake.messages_in(room.chan)) == posts, "nothing new in the channel"
    assert await room.record() == before


# ---- Discord's limits on components, in both languages ---------------------------------------------------


def _components(post: Post) -> list[dict[str, Any]]:
    view = view_for(post)
    assert view is not None
    return view.to_components()


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_every_kind_of_post_keeps_within_discords_component_limits(locale: str) -> None:
    """Lobbies with teams, boards, votes, endings and the moves menu along random games."""
    checked = 0
    for name in engine.GAMES:
        game = engine.get_game(name)
        for count in game.player_counts:
            players = [str(1000 + i) for i in range(count)]
            state = game.new_game(players, seed=11, options={})
            record = GameRecord(
                id=123456789012, channel="c", game=name, status="active", creator=players[0], players=count,
                options={}, seed=11, version=9999, state=game.dump(state), result=None,
                seats=tuple(Seat(p, f"name {p}") for p in players), created_at="", updated_at="",
            )  # fmt: skip
            table = Table(record, game, state)
            rng = random.Random(count)
            for _ in range(60):
                if game.is_over(table.state):
                    break
                player = game.to_act(table.state)[0]
                labels = {str(a): str(a) for a in game.legal_actions(table.state, player)}
                posts = [
                    Post("x", buttons=board_buttons(table, locale)),
                    Post("x", buttons=vote_buttons("undo", table, locale)),
                    Post("x", menu=moves_menu(table, player, locale, labels, DISCORD_LIMITS)),
                ]
                lobby = Table(dataclasses.replace(record, status="lobby"), game, None)
                posts.append(Post("x", buttons=lobby_buttons(lobby, locale, 2 if count == 4 else None)))
                for post in posts:
                    rows = _components(post)
                    assert len(rows) <= 5
                    for row in rows:
                        items = row["components"]
                        assert len(items) <= 5
                        for item in items:
                            assert 1 <= len(item["custom_id"]) <= 100
                            if item["type"] == 2:
                                assert 1 <= len(item["label"]) <= 80
                            else:
                                assert 1 <= len(item["options"]) <= 25
                                assert all(
                                    1 <= len(o["label"]) <= 100 and 1 <= len(o["value"]) <= 100
                                    for o in item["options"]
                                )
                    checked += 1
                action = rng.choice(game.legal_actions(table.state, player))
                new_state, _events = game.apply(table.state, player, action)
                table = Table(record, game, new_state)
    assert checked > 500


async def test_two_players_deploying_at_once_are_both_applied(bot: Bot) -> None:
    """Batailles deploys both armies at once: a pick made at version 0 is not stale for the other."""
    import asyncio

    room = open_room(bot, ("Guild", "en-US"), "tap", ("alice", "en-US"), ("bob", "en-US"))
    alice, bob = room.users.values()
    await open_by_buttons(room, "batailles", "armies=classic map=open_field seed=5")
    first, second = await asyncio.gather(
        room.fake.slash(alice, room.chan, "play", action="v0:deploy inf1 a1 n"),
        room.fake.slash(bob, room.chan, "play", action="v0:deploy inf1 a9 s"),
    )
    assert first.content.startswith("Done.") and second.content.startswith("Done."), (
        first.content,
        second.content,
    )
    assert (await room.record()).version == 2


async def test_the_join_button_that_fills_a_table_with_bots_asks_the_people_as_game_join_does(
    tmp_path: Path,
) -> None:
    """The last seat of a table with computer players, taken with ``/game join`` in one channel and with
    the lobby's Join button in another: both call on the people seated to start, by mention, and the
    bots not at all (the button once wrote ``<@bot:1:normal>``, a mention of no one, and pinged it)."""
    async with fake_discord(tmp_path) as bot:
        rooms = {
            way: open_room(
                bot, (f"Guild {way}", "en-US"), f"lobby-{way}", ("alice", "en-US"), ("bob", "en-US")
            )
            for way in ("typed", "pressed")
        }
        await bot.start()
        said = {}
        for way, room in rooms.items():
            fake, chan = room.fake, room.chan
            alice, bob = room.users.values()
            opened = await fake.slash(alice, chan, "game new", game="cryhavoc", players=4, bots=2)
            assert "Bot 1 (normal)" in opened.content and "Bot 2 (normal)" in opened.content, opened.contents
            lobby = fake.messages_in(chan)[-1]
            if way == "typed":
                result = await fake.slash(bob, chan, "game join")
            else:
                result = await fake.click(bob, lobby, button_id(lobby, "join"))
            posts = [
                m for m in [*result.messages, *result.channel_posts] if not m.ephemeral and not m.deleted
            ]
            (ready,) = [
                line for m in posts for line in m.content.split("\n") if line.startswith("The table is full")
            ]
            assert (
                ready == f"The table is full, <@{alice.id}> and <@{bob.id}>: start the game with /game start."
            )
            (asking,) = [m for m in posts if ready in m.content]
            assert sorted(asking.pinged_ids) == sorted([alice.id, bob.id]), "the people are pinged, no bot"
            assert not any("<@bot:" in m.content for m in fake.messages_in(chan))
            said[way] = ready.replace(alice.id, "alice").replace(bob.id, "bob")
        assert said["typed"] == said["pressed"]
