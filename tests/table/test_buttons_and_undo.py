"""Buttons, menus and undo at the table: what a press does, the moves menu, simultaneous picks,
undo by consent in every game, options checked when the table opens."""

from __future__ import annotations

import asyncio
import io
import random
from typing import Any

import pytest
from PIL import Image

import engine
import i18n
from engine.errors import GameError, StaleAction
from launch import DISCORD_LIMITS
from table import Commands, Post, Tables
from table.core.errors import TableError
from table.core.replay import replay_game
from tests.table.conftest import CtxFactory, FakeRenderer, current, last_post, png_size, start_nim
from tests.table.nim import lookup


async def open_game(commands: Commands, ctx: CtxFactory, name: str, options: str, players: int = 2) -> None:
    await commands.new(ctx("alice"), name, players, options)
    for p in ("bob", "carol", "dave")[: players - 1]:
        await commands.join(ctx(p))
    await commands.start(ctx("alice"))
    await commands.announcer.drain()


# ---- the moves menu ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["warchest", "batailles", "cryhavoc"])
async def test_the_moves_menu_reaches_every_legal_move_within_discords_limits(
    commands: Commands, ctx: CtxFactory, name: str
) -> None:
    await open_game(commands, ctx, name, "seed=2")
    table = await current(commands)
    player = table.to_act()[0]
    legal = {str(a) for a in table.game.legal_actions(table.state, player)}
    reached: set[str] = set()
    todo = [""]
    seen_prefixes: set[tuple[str, int]] = set()
    pages = [(p, 0) for p in todo]
    while pages:
        prefix, page = pages.pop()
        if (prefix, page) in seen_prefixes:
            continue
        seen_prefixes.add((prefix, page))
        post = await commands.moves(ctx(player, locale="fr"), prefix, page)
        menu = post.menu
        assert post.ephemeral and menu is not None and 1 <= len(menu.options) <= 25
        assert all(1 <= len(label) <= 100 and 1 <= len(value) <= 100 for label, value in menu.options)
        for _label, value in menu.options:
            kind, _sep, rest = value.partition(":")
            if kind == "a":
                reached.add(rest)
            elif kind == "g":
                pages.append((rest, 0))
            else:
                number, _sep, again = rest.partition(":")
                pages.append((again, int(number)))
    assert reached == {t for t in legal if len(t) <= 98}, "every move is one or more picks away"


async def test_a_pick_plays_the_move_and_a_stale_pick_offers_the_moves_now(
    commands: Commands, ctx: CtxFactory
) -> None:
    await start_nim(commands, ctx)
    table = await current(commands)
    first = table.to_act()[0]
    second = "bob" if first == "alice" else "alice"
    (done,) = await commands.pick(ctx(first), table.record.id, 0, "a:take 2")
    assert done.ephemeral and done.update and "takes 2" in done.text
    with pytest.raises(TableError) as err:
        await commands.moves(ctx(first))
    assert "not your turn" in i18n_en(err.value)
    stale = await commands.pick(ctx(second), table.record.id, 0, "a:take 1")
    assert "older position" in stale[0].text and stale[1].menu is not None
    assert (await current(commands)).record.version == 1, "the stale pick changed nothing"


def i18n_en(err: GameError) -> str:
    import i18n

    return i18n.t(err.msg, "en")


async def test_a_button_of_another_channel_or_a_finished_game_is_refused(
    commands: Commands, ctx: CtxFactory
) -> None:
    await start_nim(commands, ctx)
    table = await current(commands)
    with pytest.raises(GameError):
        await commands.press(ctx("alice", channel="elsewhere"), table.record.id, 0, "moves")
    await commands.resign(ctx("alice"))
    with pytest.raises(TableError) as err:
        await commands.press(ctx("bob"), table.record.id, 0, "hand")
    assert err.value.msg.key == "svc.error.button_over"


async def test_lobby_buttons_seat_and_start(commands: Commands, ctx: CtxFactory) -> None:
    (lobby,) = await commands.new(ctx("alice"), "warchest", 4)
    assert [b.action for b in lobby.buttons] == ["join:1", "join:2", "leave", "start"], "a team each"
    game = (await current(commands)).record.id
    (seated, *_rest) = await commands.press(ctx("bob"), game, 0, "join:2")
    assert seated.update and "Seats:" in seated.text and "Bob (team 2)" in seated.text
    for user in ("carol", "dave"):
        await commands.press(ctx(user), game, 0, "join")
    posts = await commands.press(ctx("alice"), game, 0, "start")
    assert posts[0].update and "has started" in posts[0].text
    table = await current(commands)
    assert table.record.status == "active"
    assert [s.team for s in table.record.seats if s.player == "bob"] == [1]


@pytest.mark.parametrize("name", ["warchest", "batailles", "cryhavoc"])
async def test_the_details_go_to_whoever_asks_by_button_or_command(
    store: Any, ctx: CtxFactory, name: str
) -> None:
    """The board post offers "Details" (the tables, rosters or tracks a phone's board leaves out):
    the real details image, to the one who asked, from the command or the button, during the game
    and after it; the board itself stays in the channel."""
    commands = Commands(
        Tables(store, limits=DISCORD_LIMITS, render=FakeRenderer((9, 9, 9)), seed_source=lambda: 11)
    )
    await open_game(commands, ctx, name, "")
    table = await current(commands)
    assert "details" in [b.action for b in (await last_post(commands)).buttons]
    board, details = await commands.board(ctx("carol"), details=True)
    assert not board.ephemeral and board.image is not None
    assert details.ephemeral and details.filename == "details.png" and details.image is not None
    width, height = png_size(details.image)
    assert width >= 600 and height >= 300 and details.image != board.image
    assert [p.ephemeral for p in await commands.board(ctx("carol"))] == [False], "no details unasked"
    (pressed,) = await commands.press(ctx("carol"), table.record.id, table.record.version, "details")
    assert pressed.ephemeral and pressed.image == details.image
    await commands.resign(ctx("alice"))
    await commands.announcer.drain()
    assert "details" in [b.action for b in (await last_post(commands)).buttons]
    (after,) = await commands.press(ctx("bob"), table.record.id, 0, "details")
    assert after.ephemeral and after.image is not None


# ---- two players deciding at once -----------------------------------------------------------------------


async def test_simultaneous_picks_of_two_players_are_both_applied(
    commands: Commands, ctx: CtxFactory
) -> None:
    """Batailles' deployment: both players pick from a menu shown at version 0; neither is stale."""
    await open_game(commands, ctx, "batailles", "armies=classic map=open_field seed=5")
    game = (await current(commands)).record.id
    results = await asyncio.gather(
        commands.pick(ctx("alice"), game, 0, "a:deploy inf1 a1 n"),
        commands.pick(ctx("bob"), game, 0, "a:deploy inf1 a9 s"),
    )
    assert all(r[0].text.startswith("Done.") for r in results), results
    table = await current(commands)
    assert table.record.version == 2
    # The same pick twice by one player is still refused: their own first pick came in between.
    with pytest.raises(StaleAction):
        await commands.play(ctx("alice"), "v0:deploy inf2 b1 n")


# ---- undo by consent ------------------------------------------------------------------------------------


async def _first_move_of(commands: Commands, ctx: CtxFactory, player: str, wanted: str) -> None:
    table = await current(commands)
    action = next(str(a) for a in table.game.legal_actions(table.state, player) if str(a).startswith(wanted))
    await commands.play(ctx(player), action)
    await commands.announcer.drain()


async def test_undo_steps_back_one_action_at_a_time_each_accepted_by_the_opponent(
    commands: Commands, ctx: CtxFactory
) -> None:
    await open_game(commands, ctx, "batailles", "armies=classic map=open_field seed=5")
    before = (await current(commands)).record.state
    await _first_move_of(commands, ctx, "alice", "deploy inf1")
    after_first = (await current(commands)).record.state
    await _first_move_of(commands, ctx, "alice", "deploy inf2")
    (asked,) = await commands.undo(ctx("alice"))
    assert "take back their last action: “Alice deploys inf2:" in asked.text and asked.mentions == ("bob",)
    assert " in " not in asked.text.split("“", 1)[1], "a deployment under way is told without its place"
    assert [b.action for b in asked.buttons] == ["undo_accept", "undo_decline"]
    with pytest.raises(TableError):
        await commands.accept_undo(ctx("alice"), 2)  # not one's own request
    with pytest.raises(TableError):
        await commands.accept_undo(ctx("carol"), 2)  # not seated
    with pytest.raises(TableError) as waiting:
        await commands.undo(ctx("alice"))  # asked twice: the request is not posted again
    assert i18n.t(waiting.value.msg, "en").startswith(
        "Your request to take back your last action still waits for Bob"
    )
    (done,) = await commands.accept_undo(ctx("bob"), 2)
    assert done.text.startswith(
        "Taken back, the game is as it was before this action: “Alice deploys inf2: its place stays hidden"
    ), "told in public: the place of a deployment under way is not"
    await commands.announcer.drain()
    table = await current(commands)
    assert table.record.version == 3 and table.record.state == after_first, "only the last deployment"
    (again,) = await commands.undo(ctx("alice"))
    assert "“Alice deploys inf1:" in again.text, "asking again steps one action further back"
    await commands.accept_undo(ctx("bob"), 3)
    await commands.announcer.drain()
    table = await current(commands)
    assert table.record.version == 4 and table.record.state == before, "back to before both deployments"
    replayed = await replay_game(commands.tables.store, commands.tables.game, table.record.id)
    assert table.game.dump(replayed) == table.record.state, "replay skips what was taken back"
    log = (await commands.log(ctx("bob")))[0].text
    assert log.count("(taken back)") == 2
    assert "Alice took back their last action: “Alice deploys inf2:" in log
    assert "Alice took back their last action: “Alice deploys inf1:" in log
    assert "took back" in (await last_post(commands)).text
    with pytest.raises(TableError) as err:
        await commands.undo(ctx("alice"))
    assert err.value.msg.key == "svc.error.nothing_to_undo"


async def test_an_action_answered_by_another_person_is_not_taken_back(
    commands: Commands, ctx: CtxFactory
) -> None:
    await open_game(commands, ctx, "batailles", "armies=classic map=open_field seed=5")
    await _first_move_of(commands, ctx, "alice", "deploy inf1")
    await _first_move_of(commands, ctx, "bob", "deploy inf1")
    with pytest.raises(TableError) as err:
        await commands.undo(ctx("alice"))
    assert err.value.msg.key == "svc.error.undo_answered" and err.value.msg.params["player"] == "Bob"
    (asked,) = await commands.undo(ctx("bob"))
    assert asked.mentions == ("alice",)


async def test_a_declined_undo_or_a_move_leaves_the_actions(commands: Commands, ctx: CtxFactory) -> None:
    await open_game(commands, ctx, "batailles", "armies=classic map=open_field seed=5")
    await _first_move_of(commands, ctx, "alice", "deploy inf1")
    await commands.undo(ctx("alice"))
    with pytest.raises(TableError):
        await commands.decline_undo(ctx("carol"), 1)  # not seated
    (no,) = await commands.decline_undo(ctx("bob"), 1)
    assert "declines" in no.text
    with pytest.raises(TableError):
        await commands.accept_undo(ctx("bob"), 1)
    await commands.undo(ctx("alice"))
    await _first_move_of(commands, ctx, "bob", "deploy inf1")  # a move withdraws the request
    with pytest.raises(TableError) as err:
        await commands.accept_undo(ctx("bob"), 1)
    assert err.value.msg.key == "svc.error.no_undo_request"
    assert (await current(commands)).record.version == 2


def expected_refusal(game: Any, before: Any, after: Any) -> str | None:
    """What the rule says of taking back one own action from ``before`` to ``after``, read from the
    two positions in each game's own terms (``engine.undo``): the generator, decks, event stacks and
    face-down tokens. An own action never shows another player's coin or card."""
    was, now = game.dump(before), game.dump(after)
    if was["rng"] != now["rng"]:
        return "svc.undo.random"
    if game.name != "cryhavoc":
        return None
    seats = zip(was["seats"], now["seats"], strict=True)
    if any(len(a["deck"]) < len(b["deck"]) for b, a in seats):
        return "svc.undo.random"
    if any(len(now["terrain"][t]) < len(cards) for t, cards in was["terrain"].items()):
        return "svc.undo.random"
    if len(now["revealed"]) > len(was["revealed"]):
        return "svc.undo.random"
    for rid, region in was["regions"].items():
        token = region["token"]
        if region["explore"] is not None and now["regions"][rid]["explore"] is None:
            return "svc.undo.shown"
        if token and token["kind"] == "war_party" and now["regions"][rid]["token"] != token:
            return "svc.undo.shown"
    return None


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("warchest", "svc.undo.random"),  # the coins drawn at the end of a round
        ("batailles", "svc.undo.random"),  # dice rolled
        ("cryhavoc", "svc.undo.random"),  # cards drawn
        ("cryhavoc", "svc.undo.shown"),  # an exploration or War Party token turned over
    ],
)
async def test_each_own_action_is_refused_exactly_when_the_rule_says(
    commands: Commands, ctx: CtxFactory, name: str, why: str
) -> None:
    """Each game, played at random, the player asking to take back each action they play: the answer
    is a request exactly when the rule allows it (their own coins and cards shown never block), else
    the refusal says why and nothing changes; ``why`` is met on the way. Forced moves are not played
    for anyone here, so each undo takes back exactly the one action."""
    await open_game(commands, ctx, name, "seed=9 auto=off")
    rng = random.Random(9)
    met, allowed = False, 0
    for _ in range(300):
        table = await current(commands)
        if table.record.status != "active" or (met and allowed > 10):
            break
        player = rng.choice(table.to_act())
        legal = table.game.legal_actions(table.state, player)
        await commands.play(ctx(player), str(rng.choice(legal)))
        await commands.announcer.drain()
        after = await current(commands)
        expected = expected_refusal(table.game, table.state, after.state)
        try:
            await commands.undo(ctx(player))
        except TableError as err:
            assert err.msg.key == expected, err.msg.key
            assert (await current(commands)).record.version == table.record.version + 1
            met = met or err.msg.key == why
            continue
        assert expected is None
        allowed += 1
        await commands.tables.store.clear_undo(table.record.id)
    assert met, f"{name}: never refused with {why}"
    assert allowed > 10, f"{name}: only {allowed} actions could be taken back"


async def test_a_war_chest_coin_played_face_up_is_taken_back_by_consent(
    commands: Commands, ctx: CtxFactory
) -> None:
    """The player's own coin came out of their hand face up: the opponent saw it, consents, and the
    position is the one before it (the coin back in the hand)."""
    await open_game(commands, ctx, "warchest", "seed=9")
    rng = random.Random(4)
    for _ in range(200):
        table = await current(commands)
        player = table.to_act()[0]
        legal = table.game.legal_actions(table.state, player)
        face_up = [
            a for a in legal if str(a).split()[0] in ("deploy", "bolster", "move", "control", "attack")
        ]
        await commands.play(ctx(player), str(rng.choice(face_up or legal)))
        await commands.announcer.drain()
        after = await current(commands)
        if not face_up or after.state.rng != table.state.rng or after.to_act() == [player]:
            continue
        seat = table.state.seat_of(player)
        assert len(after.state.seats[seat].hand) == len(table.state.seats[seat].hand) - 1
        (asked,) = await commands.undo(ctx(player))
        (other,) = asked.mentions
        await commands.accept_undo(ctx(other), after.record.version)
        back = await current(commands)
        assert back.record.state == table.record.state and back.to_act() == [player]
        return
    raise AssertionError("no coin was played face up")


async def ask_to_undo_a_quiet_move(commands: Commands, ctx: CtxFactory, name: str) -> tuple[Any, str, Post]:
    """Play at random, preferring moves that show and draw nothing, until the player who just moved
    may ask to take it back; the table before that move, the player and their request."""
    rng = random.Random(4)
    for _ in range(400):
        table = await current(commands)
        assert table.record.status == "active"
        player = rng.choice(table.to_act())
        legal = table.game.legal_actions(table.state, player)
        quiet = [a for a in legal if str(a).split()[0] in ("pass", "go", "initiative")]
        await commands.play(ctx(player), str(rng.choice(quiet or legal)))
        await commands.announcer.drain()
        if not quiet:
            continue
        try:
            (asked,) = await commands.undo(ctx(player))
        except TableError:
            continue
        return table, player, asked
    raise AssertionError(f"{name}: no action could be taken back")


# ---- options, checked when the table opens ----------------------------------------------------------------


def _bad_values() -> list[tuple[str, str, str]]:
    cases = []
    for name in engine.GAMES:
        for spec in engine.get_game(name).option_specs:
            bad = (
                "nonsense" if spec.choices else {"custom_map": "x", "max_rounds": "lots"}.get(spec.name, "?")
            )
            cases.append((name, spec.name, bad))
    return cases


@pytest.mark.parametrize(("name", "option", "bad"), _bad_values())
async def test_every_option_of_every_game_is_checked_at_new(
    commands: Commands, ctx: CtxFactory, name: str, option: str, bad: str
) -> None:
    with pytest.raises(GameError) as err:
        await commands.new(ctx("alice"), name, options=f"{option}={bad}")
    text = i18n_en(err.value)
    spec = next(s for s in engine.get_game(name).option_specs if s.name == option)
    if spec.choices:
        assert all(choice in text for choice in spec.choices), text
    assert await commands.tables.latest("chan") is None, "no table was opened"


async def test_options_autocomplete_offers_names_then_values(commands: Commands, ctx: CtxFactory) -> None:
    offered = commands.options_autocomplete(ctx("alice"), "warchest", "arm")
    assert ("armies=", "armies=") in offered
    assert commands.options_autocomplete(ctx("alice"), "warchest", "armies=dr") == [
        ("armies=draft", "armies=draft")
    ]
    kept = commands.options_autocomplete(ctx("alice"), "batailles", "map=open_field ha")
    assert kept == [("map=open_field hardcore=", "map=open_field hardcore=")]
    assert commands.options_autocomplete(ctx("alice"), "", "arm") == []


# ---- replays --------------------------------------------------------------------------------------------


def heap_picture(view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
    """A stand-in board whose colour shows the heap, so that every position differs."""
    buf = io.BytesIO()
    Image.new("RGB", (40, 30), (20 * view["heap"], 100, 200)).save(buf, format="PNG")
    return buf.getvalue()


async def test_a_replay_is_an_animation_with_a_frame_per_handover(store: Any, ctx: CtxFactory) -> None:
    tables = Tables(
        store,
        limits=DISCORD_LIMITS,
        render=heap_picture,
        games=lookup,
        known_games=("nim",),
        seed_source=lambda: 3,
    )
    commands = Commands(tables)
    await start_nim(commands, ctx, options="heap=7")
    while (table := await current(commands)).record.status == "active":
        await commands.play(ctx(table.to_act()[0]), "take 1")
    (post,) = await commands.replay(ctx("carol"))
    assert post.ephemeral and post.filename == "replay.gif" and post.image is not None
    with Image.open(io.BytesIO(post.image)) as gif:
        assert gif.format == "GIF" and gif.n_frames == 1 + 7, "the start and each of the 7 handovers"
        gif.seek(gif.n_frames - 1)
        assert gif.info["duration"] > 1000, "the final position is held"
    assert len(post.image) <= 8 * 1024 * 1024 and "8 frames" in post.text
    await commands.announcer.drain()


@pytest.mark.parametrize(("name", "players"), [("cryhavoc", 3), ("warchest", 4)])
async def test_at_a_bigger_table_every_other_side_must_accept_an_undo(
    commands: Commands, ctx: CtxFactory, name: str, players: int
) -> None:
    """Three Cry Havoc players: both others must agree; four War Chest players: one player of the
    other team is enough, and the requester's teammate cannot agree for it."""
    await open_game(commands, ctx, name, "seed=9", players)
    table, player, asked = await ask_to_undo_a_quiet_move(commands, ctx, name)
    others = [p for p in table.record.player_ids if table.side_of(p) != table.side_of(player)]
    mates = [p for p in table.record.player_ids if p != player and p not in others]
    version = (await current(commands)).record.version
    assert set(asked.mentions) == set(others)
    for mate in mates:
        with pytest.raises(TableError):
            await commands.accept_undo(ctx(mate), version)
    sides = {table.side_of(p) for p in others}
    for other in others[: len(sides) - 1]:
        await commands.accept_undo(ctx(other), version)
        assert (await current(commands)).record.version == version, "not everyone agreed yet"
    await commands.accept_undo(ctx(others[-1]), version)
    after = await current(commands)
    assert after.record.version == version + 1 and after.to_act() == table.to_act()
