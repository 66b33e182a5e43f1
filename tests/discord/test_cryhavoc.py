"""Cry Havoc played through the bot: the table's commands, then a whole game on the fake Discord.

Cry Havoc has many kinds of decisions (actions paid with several cards, moves of one unit at a time,
draw two and keep one, battles with placements, tactics cards, folding, captures and retreats,
prisoner ransoms, hand-limit discards), hidden hands, and three or four players. The first tests drive
``table.play.commands.Commands`` directly with a stand-in renderer, so they stay fast; the last ones play
through slash commands on the fake Discord with the real renderer. Until the renderer draws Cry
Havoc (``render.games.drawn()`` lacks it), posts go out without an image and the failure to draw
is logged; once it does, every board and hand image must decode.
"""

from __future__ import annotations

import io
import random
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
from PIL import Image

import engine
import i18n
import render
from cogs.markup import discord_text
from engine import GameError
from engine.cryhavoc.actions import VERBS
from table.core.tables import Table
from table.play.commands import Commands, Ctx, Post
from tests.discord.support import (
    Bot,
    Complete,
    action_text,
    channel_figures,
    check_handover,
    completer,
    fake_discord,
    mentioned,
    open_room,
    pinged,
    play,
    public_move,
    refused_plays,
    restart_keeps_the_game,
    stand_in_commands,
    start,
    started,
)

CRY_HAVOC = engine.get_game("cryhavoc")
DRAWN = "cryhavoc" in render.games.drawn()
"""Whether the renderer draws Cry Havoc yet: posts then carry a decodable PNG."""

# ---- a player biased towards progress -------------------------------------------------------------

WEIGHTS = {
    "score": 60,
    "capture": 40,
    "kill": 40,
    "place": 30,
    "retreat": 30,
    "ransom": 20,
    "construct": 14,
    "recruit": 12,
    "move": 12,
    "go": 10,
    "done": 10,
    "build": 8,
    "play": 6,
    "end": 5,
    "fold": 5,
    "skill": 4,
    "activate": 4,
    "draw": 3,
    "pay": 2,
}
"""How much the player likes each verb: score, fight and march rather than hoard cards or pass."""

DECISIONS = VERBS
"""Every kind of Cry Havoc decision."""


def pick(texts: Sequence[str], rng: random.Random) -> str:
    """One of ``texts`` (action texts or ``v<n>:`` values), drawn with the verbs' weights."""
    weights = [WEIGHTS.get(action_text(t).split()[0], 1) for t in texts]
    return rng.choices(list(texts), weights=weights)[0]


# ---- the table's commands, with a stand-in renderer ---------------------------------------------------


NAMES = ("alice", "bob", "carol", "dave")


def ctx(user: str, locale: str = "en") -> Ctx:
    return Ctx("havoc", user, user.capitalize(), locale, "en")


@pytest.fixture
async def commands(tmp_path: Path) -> AsyncIterator[Commands]:
    async with stand_in_commands(tmp_path / "ch.sqlite3") as commands:
        yield commands


async def opened(commands: Commands, players: int, options: str) -> Post:
    await commands.new(ctx("alice"), "cryhavoc", players, options)
    for name in NAMES[1:players]:
        await commands.join(ctx(name))
    return await started(commands, ctx("alice"))


async def current(commands: Commands) -> Table:
    table = await commands.tables.latest("havoc")
    assert table is not None
    return table


def card_name(kind: str, locale: str = "en") -> str:
    return i18n.t(f"ch.card.{kind}", locale)


@pytest.mark.parametrize(
    ("players", "factions"),
    [
        (2, {"humans", "machines", "pilgrims"}),
        (3, {"humans", "machines", "pilgrims"}),
        (4, {"humans", "machines", "pilgrims", "trogs"}),
    ],
)
async def test_the_lobby_deals_a_faction_to_each_player(
    commands: Commands, players: int, factions: set[str]
) -> None:
    new = (await commands.new(ctx("alice"), "cryhavoc", players, "seed=7"))[0]
    assert "Cry Havoc" in new.text and f"1/{players}" in new.text
    for name in NAMES[1:players]:
        await commands.join(ctx(name))
    start = await started(commands, ctx("bob"))
    table = await current(commands)
    view = CRY_HAVOC.view(table.state, None)
    dealt = [s["faction"] for s in view["seats"]]
    assert len(set(dealt)) == players and set(dealt) <= factions
    assert [s["id"] for s in view["seats"]] == list(NAMES[:players]), "join order is seat order"
    assert start.image is not None and not start.ephemeral
    assert list(start.mentions) == table.to_act() and mentioned(start) == table.to_act()


async def test_a_table_for_five_is_refused(commands: Commands) -> None:
    with pytest.raises(GameError) as refused:
        await commands.new(ctx("alice"), "cryhavoc", 5)
    assert refused.value.msg.key == "table.error.bad_player_count"
    assert await commands.tables.latest("havoc") is None


COVERAGE_SEEDS = (2, 46)
"""Three-player deals under which the weighted player meets, between them, every kind of decision."""


async def test_every_decision_is_reached_by_typing_its_label(tmp_path: Path) -> None:
    """Whole games where every move is found by typing the words of its French label.

    The move is drawn from the game's legal actions (what autocomplete enumerates); typing its
    label must offer it, and the offered value is what gets played. Every post names exactly
    the players who must act next; draws stay secret in public and show in the drawer's /hand.
    """
    played: Counter[str] = Counter()
    for seed in COVERAGE_SEEDS:
        async with stand_in_commands(tmp_path / f"coverage-{seed}.sqlite3") as commands:
            played += await _play_by_labels(commands, seed)
    missing = [verb for verb in DECISIONS if not played[verb]]
    assert not missing, f"never played {missing}: {played}"


async def _play_by_labels(commands: Commands, seed: int) -> Counter[str]:
    """One seeded three-player game played to its result by label; the verbs played."""
    post = await opened(commands, 3, f"seed={seed} auto=off")  # every decision typed, none played for anyone
    rng = random.Random(seed)
    played: Counter[str] = Counter()
    hands_checked = 0
    waiting: list[str] = []
    for _ in range(400):
        table = await current(commands)
        if table.record.status == "over":
            break
        acting = table.to_act()
        assert acting and mentioned(post)[-len(acting) :] == acting, "the post names who must act"
        assert list(post.mentions) == ([] if acting == waiting else acting), "pinged once per handover"
        waiting = acting
        (player,) = acting
        state = table.state
        legal = [str(a) for a in CRY_HAVOC.legal_actions(state, player)]
        for idle in set(NAMES[:3]) - {player}:
            assert await commands.autocomplete(ctx(idle), "") == [], "only those who must act get moves"
        text = pick(legal, rng)
        action = CRY_HAVOC.parse_action(state, player, text)
        label = i18n.t(CRY_HAVOC.label(state, action), "fr", names=table.names)
        offered = await commands.autocomplete(ctx(player, "fr"), label)
        wanted = f"v{table.record.version}:{text}"
        assert (label, wanted) in offered, f"typing {label!r} does not offer {text!r}: {offered}"
        post = await public_move(commands, ctx(player), wanted)
        assert not post.ephemeral and post.image is not None
        verb = text.split()[0]
        played[verb] += 1
        if verb == "draw":
            hands_checked += await _draw_is_secret(commands, player, post)
        if verb == "keep":
            kept = text.split()[1]
            assert card_name(kept) not in without_regions(last_move_line(post)), (
                f"the kept card shows in {post.text!r}"
            )
    else:
        pytest.fail(f"no result after 400 moves: {played}")
    assert hands_checked == played["draw"]
    table = await current(commands)
    assert table.record.result is not None and len(table.record.result["winners"]) == 1
    assert "Winner" in post.text and "VP" in post.text, post.text
    assert set(post.mentions) == set(NAMES[:3]), "the end is told to every player"
    assert all(f"<@{w}>" in discord_text(post.text) for w in table.record.result["winners"])
    return played


@pytest.mark.parametrize("players", [2, 4])
async def test_two_and_four_players_play_to_a_result_from_autocomplete(
    commands: Commands, players: int
) -> None:
    """Games of two and of four (the Trogs as a player, tunnels open) end through the table alone."""
    post = await opened(commands, players, f"seed={players}")
    rng = random.Random(players)
    waiting: list[str] = []
    for _ in range(600):
        table = await current(commands)
        if table.record.status == "over":
            break
        (player,) = acting = table.to_act()
        assert list(post.mentions) == ([] if acting == waiting else acting), "pinged once per handover"
        waiting = acting
        offered = [str(v) for _label, v in await commands.autocomplete(ctx(player), "")]
        post = await public_move(commands, ctx(player), pick(offered, rng))
    else:
        pytest.fail("no result after 600 moves")
    assert table.record.result is not None
    (winner,) = table.record.result["winners"]
    assert winner in NAMES[:players] and f"Winner: <@{winner}>" in discord_text(post.text)
    assert set(post.mentions) == set(NAMES[:players])
    if players == 4:
        factions = CRY_HAVOC.view(table.state, None)["seats"]
        assert {s["faction"] for s in factions} == {"humans", "machines", "pilgrims", "trogs"}


def without_regions(line: str) -> str:
    """``line`` with the map's region names taken out: a card may share a word with one ("Pearl",
    "Pearl Cove"), and a region named is no card shown."""
    for key, name in i18n.catalog("en").items():
        if key.startswith("ch.region."):
            line = line.replace(str(name), "")
    return line


def last_move_line(post: Post) -> str:
    """The summary line of the latest move in a channel post (earlier lines are earlier moves)."""
    lines = [line for line in post.text.splitlines() if line.startswith("• ")]
    assert lines, post.text
    return lines[-1]


async def _draw_is_secret(commands: Commands, player: str, post: Post) -> int:
    """After ``draw``: the post names no drawn card, the drawer's /hand (French) lists both."""
    table = await current(commands)
    drawn = CRY_HAVOC.view(table.state, player)["private"]["drawn"]
    # With a single card left in deck and discard pile, it goes straight to the hand: nothing to choose.
    assert len(drawn) == 2 or (not drawn and table.state["pending"] is None), drawn
    this_move = last_move_line(post)
    for kind in drawn:
        assert card_name(kind) not in this_move, this_move
    hand = (await commands.hand(ctx(player, "fr")))[0]
    assert hand.ephemeral and hand.image is not None and hand.filename == "hand.png"
    assert "Cartes piochées" in hand.text
    for kind in drawn:
        assert card_name(kind, "fr") in hand.text
    others = [p for p in table.record.player_ids if p != player]
    for other in others:
        theirs = (await commands.hand(ctx(other)))[0]
        assert theirs.ephemeral
        assert CRY_HAVOC.view(table.state, other)["private"]["drawn"] == []
        assert "Just drawn: empty" in theirs.text
    return 1


async def test_hand_lists_the_callers_cards_privately(commands: Commands) -> None:
    await opened(commands, 3, "seed=11")
    table = await current(commands)
    for player in NAMES[:3]:
        post = (await commands.hand(ctx(player, "fr")))[0]
        assert post.ephemeral and post.image is not None
        mine = CRY_HAVOC.view(table.state, player)["private"]["hand"]
        assert mine and post.text.startswith("Vos informations cachées dans Cry Havoc")
        listed = post.text.splitlines()[1]
        assert listed == "Main : " + ", ".join(card_name(k, "fr") for k in mine)
    public = CRY_HAVOC.view(table.state, None)
    assert public["private"] is None and all(isinstance(s["hand"], int) for s in public["seats"])
    with pytest.raises(GameError):
        await commands.hand(ctx("mallory"))


async def test_wrong_turn_and_illegal_moves_change_nothing(commands: Commands) -> None:
    start = await opened(commands, 3, "seed=5")
    (first,) = start.mentions
    other = next(p for p in NAMES[:3] if p != first)
    table = await current(commands)
    legal = [str(a) for a in CRY_HAVOC.legal_actions(table.state, first)]
    before = table.record.version
    with pytest.raises(GameError) as wrong_turn:
        await commands.play(ctx(other), legal[0])
    assert wrong_turn.value.msg.key.endswith("not_your_turn")
    assert i18n.t(wrong_turn.value.msg, "en").count(first.capitalize()) == 1, "names, not raw ids"
    with pytest.raises(GameError) as illegal:
        await commands.play(ctx(first), "go dawnkeep nowhere")
    assert illegal.value.msg.key.startswith("ch.error.")
    with pytest.raises(GameError):
        await commands.play(ctx(first), "juggle three torches")
    with pytest.raises(GameError):
        await commands.play(ctx("mallory"), legal[0])
    with pytest.raises(GameError):
        await commands.play(ctx(first), f"v{before + 3}:{legal[0]}")
    assert (await current(commands)).record.version == before
    post = await public_move(commands, ctx(first), f"v{before}:{legal[0]}")
    assert not post.ephemeral
    with pytest.raises(GameError):
        await commands.play(ctx(first), f"v{before}:{legal[0]}")  # the same pinned move twice


async def test_the_log_never_shows_a_kept_card(commands: Commands) -> None:
    await opened(commands, 2, "seed=3")
    kept: list[str] = []
    for _ in range(60):
        table = await current(commands)
        (player,) = table.to_act()
        legal = [str(a) for a in CRY_HAVOC.legal_actions(table.state, player)]
        draws = [t for t in legal if t.startswith(("draw", "keep"))]
        text = draws[0] if draws else legal[-1]
        if text.startswith("keep"):
            kept.append(text.split()[1])
        await commands.play(ctx(player), text)
        if len(kept) >= 3:
            break
    assert len(kept) >= 3
    table = await current(commands)
    count = await commands.tables.store.count_actions(table.record.id)
    pages = [(await commands.log(ctx("alice"), page))[0] for page in range(1, (count + 9) // 10 + 1)]
    lines = "\n".join(p.text for p in pages)
    assert all(p.ephemeral for p in pages) and "keeps one card" in lines
    for kind in kept:
        assert card_name(kind) not in lines


# ---- a whole game on the fake Discord ------------------------------------------------------------------

E2E_SEED = 4
RESTART_AT = 20
MOVE_CAP = 500


@pytest.fixture
async def discord_game(tmp_path: Path) -> AsyncIterator[Bot]:
    async with fake_discord(tmp_path) as bot:
        await bot.start()
        yield bot


async def choose(complete: Complete, rng: random.Random) -> str:
    """A value among the bot's completions of nothing typed (and of "end" when the list is full)."""
    values = [str(v) for _label, v in await complete("")]
    assert values, "the player to act is offered nothing"
    if len(values) == 25:
        values += [str(v) for _label, v in await complete("end") if str(v) not in values]
    return pick(values, rng)


async def test_a_whole_cry_havoc_game_through_slash_commands(discord_game: Bot) -> None:
    room = open_room(
        discord_game, ("Les Joueurs", "fr"), "havoc", ("alice", "fr"), ("bob", "en-US"), ("carol", "en-US")
    )
    fake, chan, users = room.fake, room.chan, room.users
    alice, bob, carol = users.values()

    r = await fake.slash(alice, chan, "game new", game="cryhavoc", players=3, options=f"seed={E2E_SEED}")
    assert not r.ephemeral and "1/3" in r.content
    await fake.slash(bob, chan, "game join")
    await fake.slash(carol, chan, "game join")
    r = await start(room, carol, drawn=DRAWN)

    hand = await fake.slash(bob, chan, "hand")
    assert hand.ephemeral and all(m.ephemeral for m in hand.messages if not m.deleted)
    record = await room.record()
    bob_cards = CRY_HAVOC.view(CRY_HAVOC.load(record.state or {}), bob.id)["private"]["hand"]
    assert all(card_name(k) in hand.content for k in bob_cards), hand.content
    if "cryhavoc" in render.games.drawn():
        (name, data), *_ = hand.files
        assert name.endswith(".png")
        Image.open(io.BytesIO(data)).load()
    else:
        assert not hand.files
    assert not any(card_name(k) in m.content for m in fake.messages_in(chan) for k in bob_cards)

    rng = random.Random(E2E_SEED)
    moves = 0
    checked_refusals = restarted = False
    acting = pinged(r)
    while moves < MOVE_CAP:
        assert len(acting) == 1
        actor = users[acting[0]]
        value = await choose(completer(room, actor), rng)

        if not checked_refusals and moves >= 5:
            checked_refusals = True
            other = next(u for u in users.values() if u is not actor)
            await refused_plays(room, (other, value), (actor, "retreat nowhere"))

        if not restarted and moves == RESTART_AT:
            restarted = True
            await restart_keeps_the_game(room, alice, drawn=DRAWN)

        r = await play(room, actor, value, drawn=DRAWN)
        moves += 1
        acting = await check_handover(room, r, acting, CRY_HAVOC)
        record = await room.record()
        if record.status == "over":
            break

    figures = channel_figures(fake, chan)
    assert figures["images"] < moves, "a player's steps update one post"
    print(f"Cry Havoc through slash commands: {moves} moves; channel: {figures}; last post: {r.content}")
    assert restarted and checked_refusals
    assert record.status == "over" and record.result is not None, f"no end after {moves} moves"
    assert set(record.result["winners"]) <= set(users) and len(record.result["winners"]) == 1
    assert sorted(pinged(r)) == sorted(users), "the end is told to every player"
    late = await fake.slash(bob, chan, "play", action="pass")
    assert late.ephemeral
