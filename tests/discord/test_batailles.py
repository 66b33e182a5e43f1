"""Batailles played through the bot: the table's commands, then a whole game on the fake Discord.

Batailles has phases where both players act at once (building armies, deployment), custom troop
names that autocomplete cannot list, and dice whose every face must reach the players. The first
tests drive ``table.play.commands.Commands`` directly (a stand-in renderer keeps them fast); the last one
plays a whole seeded game through slash commands, with the real renderer, choosing every move among
the bot's own autocomplete answers.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

import db
import engine
from engine import GameError
from table.play.commands import Commands, Ctx, Post
from tests.discord.support import (
    Bot,
    Complete,
    Room,
    action_text,
    board_image,
    channel_figures,
    check_handover,
    completer,
    fake_discord,
    mentioned,
    narrowed,
    open_room,
    pinged,
    play,
    public_move,
    refused_plays,
    stand_in_commands,
    start,
    started,
)
from tests.engine.batailles.helpers import documented_maps

# ---- a player that picks among the bot's autocomplete answers --------------------------------------

TYPED = ("attack", "reroll", "lose", "hold", "morale", "deploy", "activate", "move", "end")
"""Typed words tried in order; each gives the candidate moves the bot completes for it."""
STOP_EARLY = 0.05
"""How often the player ends an activation with points left, when one is running."""
FORWARD = ("n", "s")
"""Where the enemy is for each seat: seat 0 deploys in the southern rows."""


def score(text: str, seat: int) -> int:
    """Fight first with every point, reroll and test morale with every die, face and march on the enemy.

    Zero means "rather not" (a step sideways, turning away): the player then ends the activation.
    """
    words = text.split()
    verb, forward = words[0], FORWARD[seat]
    if verb == "attack":
        return 100 + int(words[2])
    if verb == "reroll":
        return 90 + int(words[1])
    if verb == "hold":
        return 80 + int(words[2])
    if verb == "coordinate":
        return 51
    if verb == "face":
        return 45 if words[1] == forward else 0
    if verb == "move":
        return (40 if words[1] == forward else 0) + (words[2] == forward)
    if verb == "done":
        return 10
    if verb == "end":
        return 5
    return 50


async def choose(complete: Complete, seat: int, rng: random.Random) -> str | None:
    """A choice's value (``v<version>:<action>``) among the first typed word's useful completions."""
    fallback: list[str] = []
    if rng.random() < STOP_EARLY:
        stop = [str(v) for _label, v in await complete("done") if action_text(str(v)) == "done"]
        if stop:
            return stop[0]
    for typed in TYPED:
        values = [str(value) for _label, value in await complete(typed)]
        if not values:
            continue
        best = max(score(action_text(v), seat) for v in values)
        chosen = [v for v in values if score(action_text(v), seat) == best]
        if best > 0:
            return rng.choice(chosen)
        fallback = fallback or chosen
    return rng.choice(fallback) if fallback else None


# ---- what a reply must show of the dice --------------------------------------------------------------

_ROLLS = (
    # (pattern, group of the faces, group of the count of successes)
    (re.compile(r"with \d+ dic?e(?: \+ \d+ for the hill)?: ([1-6 ]+), (\d+) hits?\."), 1, 2),
    (re.compile(r"rerolls \d+ failed dic?e: [1-6 ]+; now ([1-6 ]+) \((\d+) success(?:es)?\)"), 1, 2),
    (re.compile(r"\d+ dic?e(?: \+ \d+ for the terrain the shot crosses)?: ([1-6 ]+), (\d+) success"), 1, 2),
)


def check_dice(text: str) -> int:
    """Every roll in ``text`` lists its faces and counts its 4+ right; returns how many rolls."""
    rolls = 0
    for pattern, faces_group, count_group in _ROLLS:
        for m in pattern.finditer(text):
            faces = [int(f) for f in m[faces_group].split()]
            assert faces, text
            assert int(m[count_group]) == sum(1 for f in faces if f >= 4), f"miscounted roll in {text!r}"
            rolls += 1
    return rolls


# ---- the table's commands, with a stand-in renderer ----------------------------------------------------


def ctx(user: str, locale: str = "en") -> Ctx:
    return Ctx("field", user, user.capitalize(), locale, locale)


@pytest.fixture
async def commands(tmp_path: Path) -> AsyncIterator[Commands]:
    async with stand_in_commands(tmp_path / "bt.sqlite3") as commands:
        yield commands


async def opened(commands: Commands, options: str) -> list[Post]:
    """Alice opens, Bob joins, Alice starts; the channel's first post (the start's handover)."""
    await commands.new(ctx("alice"), "batailles", options=options)
    await commands.join(ctx("bob"))
    return [await started(commands, ctx("alice"))]


async def version(commands: Commands) -> int:
    table = await commands.tables.latest("field")
    assert table is not None
    return table.record.version


async def test_armies_built_at_once_with_names_the_players_make_up(commands: Commands) -> None:
    start = (await opened(commands, "armies=build map=open_field seed=5"))[0]
    assert set(start.mentions) == {"alice", "bob"} and set(mentioned(start)) == {"alice", "bob"}

    typed = "recruit cannon1 1 2 0 2 0 0"
    offered = await commands.autocomplete(ctx("alice"), typed)
    assert offered[0] == ("Recruit cannon1 (M A D R C L = 1 2 0 2 0 0)", "v0:recruit cannon1 1 2 0 2 0 0")
    french = await commands.autocomplete(ctx("alice", "fr"), typed)
    assert french[0][1] == offered[0][1] and french[0][0] != offered[0][0]
    defaults = await commands.autocomplete(ctx("alice"), "recruit")
    assert defaults and all(" t1 " in value for _label, value in defaults), "default names only"

    post = await public_move(commands, ctx("alice"), offered[0][1])
    assert "cannon1" in post.text and set(mentioned(post)) == {"alice", "bob"}
    assert post.mentions == (), "both still build: the start post is updated, nobody pinged again"
    # Bob builds at the same time, without waiting for Alice.
    post = await public_move(commands, ctx("bob"), "recruit scout 3 1 1 0 0 0")
    assert "scout" in post.text and post.mentions == ()

    before = await version(commands)
    assert await commands.autocomplete(ctx("alice"), typed) == [], "the name is taken now"
    assert await commands.autocomplete(ctx("alice"), "recruit brute 1 1 1 1 1 1") == []
    with pytest.raises(GameError) as refused:
        await commands.play(ctx("alice"), "recruit brute 1 1 1 1 1 1")
    assert refused.value.msg.key == "bt.err.profile_sum" and refused.value.msg.params["total"] == 6
    with pytest.raises(GameError):
        await commands.play(ctx("alice"), "recruit cannon1 1 2 0 2 0 0")
    assert await version(commands) == before, "refused actions change nothing"

    await commands.play(ctx("alice"), "recruit spare 5 0 0 0 0 0")
    assert ("Dismiss spare", f"v{before + 1}:dismiss spare") in await commands.autocomplete(
        ctx("alice"), "dismiss"
    )
    await commands.play(ctx("alice"), "dismiss spare")
    post = await public_move(commands, ctx("alice"), "ready")
    assert post.mentions == ("bob",), "only Bob is still building"
    with pytest.raises(GameError):
        await commands.play(ctx("alice"), "recruit late 1 1 1 1 1 0")
    post = await public_move(commands, ctx("bob"), "ready")
    assert "deploy" in post.text.lower() and set(post.mentions) == {"alice", "bob"}

    hand = (await commands.hand(ctx("bob")))[0]
    assert hand.ephemeral and hand.image is not None, "Bob's own deployment, unseen by Alice"
    assert "only you see them until both armies are deployed" in hand.text


TABLE_SEED = 73
"""A deal under which the chooser meets every kind of step but losses (rare: see the next test)."""


async def test_a_whole_game_at_the_table(commands: Commands) -> None:
    """Every kind of step is played from autocomplete, every roll shows its dice, the game ends (nothing
    is played for anyone: the end of a turn left with nothing else is typed too)."""
    start = (await opened(commands, f"map=default seed={TABLE_SEED} auto=off"))[0]
    assert set(start.mentions) == {"alice", "bob"}, "both players deploy at once"
    seats = {"alice": 0, "bob": 1}
    rng = random.Random(TABLE_SEED)
    played: Counter[str] = Counter()
    both_acted_at_once = False
    rolls = 0
    acting = ["alice", "bob"]
    post = start
    for _ in range(1000):
        player = rng.choice(acting)
        if len(acting) == 2 and player == "bob" and played["deploy"] and not both_acted_at_once:
            both_acted_at_once = True

        async def complete(typed: str, who: str = player) -> list[tuple[str, Any]]:
            return await narrowed(lambda text: commands.autocomplete(ctx(who), text), typed, who)

        value = await choose(complete, seats[player], rng)
        assert value is not None, f"{player} must act but is offered nothing"
        post = await public_move(commands, ctx(player), value)
        played[action_text(value).split()[0]] += 1
        rolls += check_dice(post.text)
        assert not post.ephemeral and post.image is not None
        table = await commands.tables.latest("field")
        assert table is not None
        if table.record.status == "over":
            assert table.record.result is not None
            break
        acting = table.to_act()
        assert acting and set(mentioned(post)) >= set(acting), "the post names whoever must act"
        assert not post.mentions or set(post.mentions) == set(acting), "a new post pings them, an edit nobody"
    else:
        pytest.fail(f"no result after 1000 moves: {played}")
    assert "Winner" in post.text or "draw" in post.text.lower(), post.text
    assert both_acted_at_once
    steps = (
        "deploy",
        "activate",
        "coordinate",
        "move",
        "face",
        "attack",
        "reroll",
        "done",
        "end",
        "morale",
        "hold",
    )
    for verb in steps:
        assert played[verb], f"never played {verb}: {played}"
    assert rolls >= played["attack"]
    with pytest.raises(GameError):
        await commands.play(ctx("alice"), "end")


NARROW = "custom_map=" + "/".join([".,."] * 7)
"""Two zones wide, seven rows deep: the armies cannot miss each other."""
LOSS_SEED = 4


async def best(commands: Commands, player: str, typed: str, key: Callable[[str], int]) -> str | None:
    """The autocomplete choice for ``typed`` with the highest ``key`` of its action text."""
    values = [value for _label, value in await commands.autocomplete(ctx(player), typed)]
    return max(values, key=lambda v: key(action_text(v))) if values else None


async def test_losses_are_chosen_by_their_owner(commands: Commands) -> None:
    """Four coordinated brutes charge a zone: 5 kept hits cost the defender a troop of their choice."""
    await opened(commands, f"armies=build {NARROW} max_rounds=5 seed={LOSS_SEED}")
    for k in range(1, 5):
        await commands.play(ctx("alice"), f"recruit brute{k} 2 3 0 0 0 0")
        await commands.play(ctx("bob"), f"recruit pawn{k} 1 1 1 1 1 0")
    for player in ("alice", "bob"):
        await commands.play(ctx(player), "ready")
    for k in range(1, 5):
        await commands.play(ctx("alice"), f"deploy brute{k} a1 n")
        await commands.play(ctx("bob"), f"deploy pawn{k} a7 w")
    losses: list[str] = []
    for _ in range(200):
        table = await commands.tables.latest("field")
        assert table is not None
        if table.record.status == "over" or losses:
            break
        (player,) = table.to_act()
        if player == "alice":
            value = (
                await best(commands, player, "attack", lambda t: int(t.split()[2]))
                or await best(commands, player, "reroll", lambda t: int(t.split()[1]))
                or await best(commands, player, "coordinate", lambda t: len(t.split()[1]))
                or await best(commands, player, "move n n", lambda t: t == "move n n")
                or await best(commands, player, "end", lambda t: t == "end")
            )
        else:
            value = (
                await best(commands, player, "lose", lambda t: 0)
                or await best(commands, player, "hold", lambda t: int(t.split()[2]))
                or await best(commands, player, "reroll", lambda t: int(t.split()[1]))
                or await best(commands, player, "end", lambda t: t == "end")
            )
        assert value is not None, f"{player} is offered nothing"
        post = await public_move(commands, ctx(player), value)
        if action_text(value).startswith("lose"):
            losses.append(post.text)
        elif "must remove" in post.text:
            assert post.mentions == ("bob",), "the owner of the troops chooses the loss"
    assert losses, "no loss was ever chosen"
    assert re.search(r"Bob loses pawn\d in a\d \(1 loss; defeat at 4\)", losses[0]), losses[0]


async def test_hardcore_retraining_is_done_by_both_players_at_once(commands: Commands) -> None:
    await opened(commands, f"armies=raiders hardcore=on {NARROW} seed=8")
    zones = ("a1", "a1", "a1", "b1", "b1", "b1")
    for name, zone in zip(("horse1", "horse2", "horse3", "bow1", "bow2", "chief"), zones, strict=True):
        await commands.play(ctx("alice"), f"deploy {name} {zone} n")
        await commands.play(ctx("bob"), f"deploy {name} {zone.replace('1', '7')} s")
    for _ in range(2):
        table = await commands.tables.latest("field")
        assert table is not None
        (player,) = table.to_act()
        post = await public_move(commands, ctx(player), "end")
    assert "change the characteristics" in post.text and set(post.mentions) == {"alice", "bob"}

    picks = await commands.autocomplete(ctx("bob"), "horse1")
    assert picks and action_text(picks[0][1]) == "retrain horse1"
    await commands.play(ctx("bob"), picks[0][1])
    offered = await commands.autocomplete(ctx("bob"), "profile 5 0 0 0 0 0")
    assert offered and action_text(offered[0][1]) == "profile 5 0 0 0 0 0"
    post = await public_move(commands, ctx("bob"), offered[0][1])
    assert "horse1 now has M A D R C L = 5 0 0 0 0 0" in post.text
    post = await public_move(commands, ctx("alice"), "ready")
    assert post.mentions == ("bob",)
    post = await public_move(commands, ctx("bob"), "ready")
    assert "Initiative" in post.text and mentioned(post)[-1:] == ["bob"], "Bob, still to act, plays first"


async def test_wrong_turn_and_illegal_moves_change_nothing(commands: Commands) -> None:
    await opened(commands, "armies=raiders map=open_field seed=3")
    for name, zone in (("horse1", "a1"), ("horse2", "b1"), ("horse3", "c1")):
        await commands.play(ctx("alice"), f"deploy {name} {zone} n")
    for name, zone in (("bow1", "d1"), ("bow2", "e1"), ("chief", "f1")):
        await commands.play(ctx("alice"), f"deploy {name} {zone} n")
    before = await version(commands)
    with pytest.raises(GameError) as wrong_turn:
        await commands.play(ctx("alice"), "deploy horse1 a2 n")
    assert wrong_turn.value.msg.key == "error.not_your_turn"
    assert await commands.autocomplete(ctx("alice"), "") == []
    with pytest.raises(GameError) as illegal:
        await commands.play(ctx("bob"), "deploy horse1 a1 n")
    assert illegal.value.msg.key.startswith("bt.err.")
    with pytest.raises(GameError):
        await commands.play(ctx("bob"), "charge with trumpets")
    assert await version(commands) == before


# ---- a whole game on the fake Discord ------------------------------------------------------------------

E2E_OPTIONS = "map=default max_rounds=4 seed=25"
BATAILLES = engine.get_game("batailles")


@pytest.fixture
async def discord_game(tmp_path: Path) -> AsyncIterator[Bot]:
    async with fake_discord(tmp_path) as bot:
        await bot.start()
        yield bot


async def test_a_whole_batailles_game_through_slash_commands(discord_game: Bot) -> None:
    room = open_room(discord_game, ("Les Joueurs", "en-US"), "plaine", ("alice", "en-GB"), ("bob", "fr"))
    fake, chan, users = room.fake, room.chan, room.users
    alice, bob = users.values()
    seats = {alice.id: 0, bob.id: 1}

    r = await fake.slash(alice, chan, "game new", game="batailles", options=E2E_OPTIONS)
    assert not r.ephemeral and "at most 4 rounds" in r.content
    await fake.slash(bob, chan, "game join")
    r = await start(room, alice)
    assert set(pinged(r)) == set(users), "both players deploy at once"

    hand = await fake.slash(bob, chan, "hand")
    assert hand.ephemeral and hand.content and hand.files, "Bob's own deployment, unseen by Alice"

    rng = random.Random(25)
    acting = list(users)
    moves = 0
    checked_refusals = False
    while moves < 400:
        actor = users[rng.choice(acting)]
        value = await choose(completer(room, actor), seats[actor.id], rng)
        assert value is not None, f"{actor.name} must act but is offered nothing"

        if not checked_refusals and len(acting) == 1 and moves > 25:
            checked_refusals = True
            other = next(u for u in users.values() if u is not actor)
            await refused_plays(room, (other, action_text(value)), (actor, "attack a9 6"))

        r = await play(room, actor, value)
        check_dice(r.reply.content)
        moves += 1
        acting = await check_handover(room, r, acting, BATAILLES)
        record = await room.record()
        if record.status == "over":
            break

    figures = channel_figures(fake, chan)
    assert figures["images"] < moves / 2, "one new board per handover, not one per move"
    print(f"Batailles through slash commands: {moves} moves; channel: {figures}; last post: {r.content}")
    assert checked_refusals
    assert record.status == "over" and record.result is not None, f"no end after {moves} moves"
    assert record.result["draw"] or set(record.result["winners"]) <= set(users)
    late = await fake.slash(alice, chan, "play", action="end")
    assert late.ephemeral


async def test_a_custom_troop_name_offered_by_discord_autocomplete(discord_game: Bot) -> None:
    room = open_room(discord_game, ("Guild", "en-US"), "armoury", ("alice", "fr"), ("bob", "en-US"))
    fake, chan = room.fake, room.chan
    alice, bob = room.users.values()
    await fake.slash(alice, chan, "game new", game="batailles", options="armies=build seed=2")
    await fake.slash(bob, chan, "game join")
    r = await start(room, bob)
    assert set(pinged(r)) == {alice.id, bob.id}
    typed = "recruit canon1 1 2 0 2 0 0"
    choices = await fake.autocomplete(alice, chan, "play", focused="action", action=typed)
    assert choices and choices[0] == ("Recruter canon1 (M A D P C L = 1 2 0 2 0 0)", f"v0:{typed}")
    r = await play(room, alice, choices[0][1])
    assert "canon1" in r.reply.content and "canon1" in r.content
    assert r.edited and pinged(r) == [], "both still build: the start post is updated, nobody pinged"


# ---- custom battlefields -----------------------------------------------------------------------------


@pytest.mark.parametrize("example", documented_maps(), ids=lambda m: f"{len(m)}-chars")
async def test_every_map_example_of_the_rules_document_opens_a_game(commands: Commands, example: str) -> None:
    """Each example of docs/rules/batailles.md, typed as the ``custom_map`` option (spaces, commas
    and line breaks kept), deals a game on that map."""
    posts = await opened(commands, f"custom_map={example} seed=2")
    assert posts[0].image is not None
    table = await commands.tables.latest("field")
    assert table is not None and table.record.options["custom_map"] == example.strip()
    rows = [r for r in re.split(r"[/\n]", example) if r.strip()]
    board = table.state.board
    assert (board.width, board.height) == (len(re.split(r"[,\s]+", rows[0].strip())), len(rows))


async def test_a_typed_map_keeps_its_place_among_the_other_options(commands: Commands) -> None:
    await opened(commands, "armies=raiders custom_map=. . ./. . ./. . ./. f ./. . ./. . ./. . . max_rounds=3")
    table = await commands.tables.latest("field")
    assert table is not None
    assert table.record.options["armies"] == "raiders" and table.record.options["max_rounds"] == "3"
    assert table.state.board.at((1, 3)).forest == 1 and table.state.max_rounds == 3


# ---- a custom battlefield attached as a text file ------------------------------------------------------

BIG_MAP = "\r\n".join(
    ["\ufeff" + " ".join(["."] * 16)]
    + [" ".join(["."] * 16)] * 5
    + [", ".join(["f", "ff", "rr", "b", "h", "hbb3", "."] + ["."] * 9)]
    + ["/".join([" ".join(["."] * 16)] * 2)]  # two rows on one line
    + [" ".join(["."] * 16)] * 7
).encode("utf-8")
"""Sixteen zones by sixteen rows, far beyond the 200 characters of ``options``: a Windows text file
with a byte-order mark, spaces and commas between zones, one line holding two rows."""


async def test_a_sixteen_by_sixteen_map_comes_as_an_attached_file(discord_game: Bot) -> None:
    room = open_room(discord_game, ("Guilde", "fr"), "carte", ("alice", "fr"), ("bob", "en-US"))
    fake, chan = room.fake, room.chan
    alice, bob = room.users.values()
    assert len(BIG_MAP) > 200
    r = await fake.slash(
        alice,
        chan,
        "game new",
        game="batailles",
        options="armies=raiders seed=3",
        map_file=("map.txt", BIG_MAP),
    )
    assert not r.ephemeral, r.content
    await fake.slash(bob, chan, "game join")
    r = await start(room, alice)
    assert board_image(r) is not None
    record = await room.record()
    assert record.options["armies"] == "raiders"
    state = BATAILLES.load(record.state or {})
    assert (state.board.width, state.board.height) == (16, 16)
    village = state.board.at((5, 9))
    assert village.hill and village.building == 2 and village.advantage == 3
    assert state.board.at((2, 9)).river == 2 and state.board.at((0, 9)).forest == 1


@pytest.mark.parametrize(
    ("blob", "shown"),
    [
        ("é".encode("latin-1") * 10, "n'est pas du texte UTF-8"),
        (b" \n\n", "est vide"),
        (b". " * 3000, "au plus 4096 octets"),
    ],
)
async def test_a_map_file_that_is_no_map_text_is_refused_at_once(
    discord_game: Bot, blob: bytes, shown: str
) -> None:
    room = open_room(discord_game, ("Guilde", "fr"), "carte", ("alice", "fr"))
    fake, chan = room.fake, room.chan
    (alice,) = room.users.values()
    r = await fake.slash(alice, chan, "game new", game="batailles", map_file=("carte.txt", blob))
    assert r.ephemeral and "carte.txt" in r.content and shown in r.content, r.content
    r = await fake.slash(alice, chan, "game new", game="batailles", options="map=open_field")
    assert not r.ephemeral, "no table was opened by the refused file"


@pytest.mark.parametrize(
    ("blob", "shown"),
    [
        (
            b". . x .\n" + b". . . .\n" * 6,
            "La zone c7 de la carte (ligne 1, zone 3) indique « x » : utilisez . pour un terrain dégagé, "
            "ou les lettres f (forêt), b (bâtiment), r (cours d'eau), h (colline)",
        ),
        (
            b". . .\n" + b". . . .\n" * 6,
            "La ligne 2 de la carte (rangée 6) a 4 zones, et non 3 comme la première",
        ),
        (b". . . .\n" * 5 + b". r . .\n. . . .", "Zone b2 : un cours d'eau occupe toujours au moins deux"),
    ],
)
async def test_a_refused_map_file_names_the_line_and_zone_at_fault(
    discord_game: Bot, blob: bytes, shown: str
) -> None:
    room = open_room(discord_game, ("Guilde", "fr"), "carte", ("alice", "fr"), ("bob", "fr"))
    fake, chan = room.fake, room.chan
    alice, _bob = room.users.values()
    # The map is checked when the table opens: nobody joins a table that could never start.
    r = await fake.slash(alice, chan, "game new", game="batailles", map_file=("carte.txt", blob))
    assert r.ephemeral and shown in r.content, r.content
    assert fake.messages_in(chan) == [], "no table was opened"


async def test_a_map_file_opens_its_game_in_a_new_thread(discord_game: Bot) -> None:
    room = open_room(discord_game, ("Guild", "en-US"), "field", ("alice", "en-US"), ("bob", "en-US"))
    fake, chan = room.fake, room.chan
    alice, bob = room.users.values()
    narrow = b"\n".join([b". f ."] + [b". . ."] * 5 + [b". b ."])
    r = await fake.slash(
        alice,
        chan,
        "game new",
        game="batailles",
        options="armies=raiders",
        thread=True,
        map_file=("m.txt", narrow),
    )
    assert not r.ephemeral, r.content
    thread = next(c for c in fake.channels.values() if c.is_thread)
    await fake.slash(bob, thread, "game join")
    await start(Room(discord_game, thread, room.users), alice)
    store = await db.open_store(discord_game.settings.database_path)
    try:
        record = await store.latest_game(thread.id)
    finally:
        await store.close()
    assert record is not None and record.options["custom_map"] == narrow.decode()
    state = BATAILLES.load(record.state or {})
    assert (state.board.width, state.board.height) == (3, 7) and state.board.at((1, 6)).forest == 1
    refused = await fake.slash(
        alice, chan, "game new", game="batailles", thread=True, map_file=("m.txt", b"\xff\xfe" * 4)
    )
    shown = [m for m in refused.messages if not m.deleted]
    assert shown and all(m.ephemeral for m in shown) and "not UTF-8 text" in refused.content
    assert sum(1 for c in fake.channels.values() if c.is_thread) == 1, "no thread for a refused file"
