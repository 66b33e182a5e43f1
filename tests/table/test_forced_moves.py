"""Forced moves play themselves: when the rules leave the player to act exactly one legal action, the
table plays it at once, marks it automatic in the posts and the log, and asks (and pings) only whoever
must really decide; ``/game undo`` takes it back with the action before it; ``auto=off`` plays none;
a forced move stored before a crash is announced once; computer players play their own.

Each game is played at random from a seed where a forced move comes early (War Chest: the other player
left with a single pass, the turn coming back to the mover; Batailles and Cry Havoc: the mover's own
turn left with nothing but its end), on both stores, its channel and its players in both languages.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

import engine
from db import ActionRecord
from table import Commands
from table.core.errors import TableError
from table.core.replay import played, replay
from table.posting.announce import Announcer, RecordingOutlet
from tests.table.conftest import CtxFactory, FakeRenderer, channel_posts, current, last_post, make_tables
from tests.table.test_bots import ctx as bot_ctx
from tests.table.test_undo_with_bots import BOT, BotTable

AUTOMATIC = {"en": "(automatic)", "fr": "(automatique)"}
OTHER = {"en": "fr", "fr": "en"}


@dataclass(frozen=True)
class Case:
    """A game, its options and the seed of a random game (deal and choices) with an early forced move."""

    game: str
    options: str
    seed: int
    lang: str

    @property
    def id(self) -> str:
        return f"{self.game}-{self.lang}"


CASES = [
    Case("warchest", "", 6, "fr"),  # bob moves, alice is left a single pass, bob plays on
    Case("batailles", "armies=classic map=open_field", 4, "en"),  # alice's turn left with its end alone
    Case("cryhavoc", "", 20, "fr"),  # alice's build action left with its end alone
]


async def open_case(commands: Commands, ctx: CtxFactory, case: Case, extra: str = "") -> None:
    options = f"seed={case.seed} {case.options} {extra}".strip()
    lang = case.lang
    await commands.new(ctx("alice", locale=lang, channel_locale=lang), case.game, 2, options)
    await commands.join(ctx("bob", locale=OTHER[lang], channel_locale=lang))
    await commands.start(ctx("alice", locale=lang, channel_locale=lang))
    await commands.announcer.drain()


@dataclass
class Forced:
    """Where the first forced move came: the mover's action that led to it and the forced one, the
    confirmation the mover got, and the table before the mover's action."""

    mover: str
    move: ActionRecord
    forced: ActionRecord
    confirmation: str
    before: Any


async def play_until_forced(
    commands: Commands, ctx: CtxFactory, case: Case, *, limit: int = 200
) -> Forced | None:
    """Random legal moves (the case's seed picks who of those to act and what) until the log holds an
    automatic move; None when the game ends first or a player is left with one move to make by hand."""
    rng = random.Random(case.seed)
    for _ in range(limit):
        table = await current(commands)
        if table.record.status != "active":
            return None
        player = rng.choice(table.to_act())
        legal = table.game.legal_actions(table.state, player)
        if len(legal) == 1:
            return None  # nobody played it for them (auto=off)
        lang = case.lang if player == "alice" else OTHER[case.lang]
        posts = await commands.play(
            ctx(player, locale=lang, channel_locale=case.lang),
            f"v{table.record.version}:{rng.choice(legal)}",
        )
        await commands.announcer.drain()
        log = await commands.tables.store.actions(table.record.id)
        auto = [entry for entry in log if entry.auto]
        if auto:
            move = log[table.record.version]
            return Forced(player, move, auto[0], posts[0].text, table)
    raise AssertionError("no forced move came")


def position_before(table: Any, log: list[ActionRecord], seq: int) -> Any:
    record = table.record
    return replay(table.game, record.player_ids, record.seed, record.options, played(log[: seq - 1]))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_a_forced_move_plays_itself_marked_automatic_and_goes_back_with_the_move_before_it(
    commands: Commands, ctx: CtxFactory, case: Case
) -> None:
    await open_case(commands, ctx, case)
    found = await play_until_forced(commands, ctx, case)
    assert found is not None
    game = engine.get_game(case.game)
    after = await current(commands)
    log = await commands.tables.store.actions(after.record.id)
    move, forced = found.move, found.forced
    assert not move.auto and move.player == found.mover and forced.seq == move.seq + 1
    position = position_before(after, log, forced.seq)
    (only,) = game.legal_actions(position, forced.player)
    assert str(only) == forced.action, "the rules left the player exactly this action"

    # the mover's confirmation names the automatic move, in the mover's language
    mover_lang = case.lang if found.mover == "alice" else OTHER[case.lang]
    assert AUTOMATIC[mover_lang] in found.confirmation

    # the channel was never asked for the forced decision: no post shows the position before it, and
    # the latest post names the automatic move and pings whoever must really act now
    posts = await channel_posts(commands)
    assert not any(f".v{move.seq}." in (post.nonce or "") for post in posts), "nobody pinged for it"
    shown = await last_post(commands)
    assert AUTOMATIC[case.lang] in shown.text
    asked = [p.mentions for p in posts if p.mentions][-1]
    assert set(asked) == set(after.to_act()), "the last ping asks whoever must really act"

    # /game log says it too, in the reader's own language
    (page,) = await commands.log(ctx("bob", locale=OTHER[case.lang], channel_locale=case.lang))
    assert AUTOMATIC[OTHER[case.lang]] in page.text

    # the mover takes it back: the forced move goes with the move before it
    mover = ctx(found.mover, locale=mover_lang, channel_locale=case.lang)
    other = "bob" if found.mover == "alice" else "alice"
    asked_undo = await commands.undo(mover)
    assert asked_undo[0].mentions == (other,)
    await commands.accept_undo(ctx(other, channel_locale=case.lang), after.record.version)
    await commands.announcer.drain()
    back = await current(commands)
    assert back.record.state == found.before.record.state, "the position before the mover's action"
    assert back.to_act() == found.before.to_act()
    undone = [e.seq for e in await commands.tables.store.actions(back.record.id) if e.undone]
    assert undone == [move.seq, forced.seq]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_auto_off_asks_the_player_for_the_move_the_rules_leave_them(
    commands: Commands, ctx: CtxFactory, case: Case
) -> None:
    """The same game at a table that said ``auto=off``: the player left with one action is pinged for
    it and plays it themselves; nothing is automatic."""
    await open_case(commands, ctx, case, "auto=off")
    lobby = await channel_posts(commands)
    assert lobby, "the start is posted"
    assert await play_until_forced(commands, ctx, case) is None
    table = await current(commands)
    (waiting,) = [p for p in table.to_act() if len(table.game.legal_actions(table.state, p)) == 1]
    assert waiting in (await last_post(commands)).mentions or (
        waiting in [m for p in await channel_posts(commands) for m in p.mentions]
    )
    (only,) = table.game.legal_actions(table.state, waiting)
    await commands.play(ctx(waiting), f"v{table.record.version}:{only}")
    await commands.announcer.drain()
    log = await commands.tables.store.actions(table.record.id)
    assert not any(entry.auto for entry in log)
    assert AUTOMATIC[case.lang] not in "\n".join(p.text for p in await channel_posts(commands))


async def test_auto_off_is_said_in_the_lobby_and_a_bad_value_is_refused(
    commands: Commands, ctx: CtxFactory
) -> None:
    (post, *_rest) = await commands.new(ctx("alice", channel_locale="fr"), "warchest", 2, "auto=off")
    assert "auto=off" in post.text and "joués automatiquement" in post.text
    with pytest.raises(TableError) as refused:
        await commands.new(ctx("bob", "elsewhere"), "warchest", 2, "auto=sometimes")
    assert refused.value.msg.key == "svc.error.bad_auto"


async def test_a_forced_move_stored_before_a_crash_is_announced_once(
    commands: Commands,
    ctx: CtxFactory,
    monkeypatch: pytest.MonkeyPatch,
    renderers: tuple[FakeRenderer, FakeRenderer],
) -> None:
    """The move and the forced move after it are stored together, then the bot stops before posting
    them: the next start's catch-up posts both in one post, pinging whoever must really act, and a
    second catch-up posts nothing."""
    case = CASES[1]
    await open_case(commands, ctx, case)
    shown = len(await channel_posts(commands))
    with monkeypatch.context() as away:
        away.setattr(commands.announcer, "poke", lambda table: None)  # stored, never posted
        found = await play_until_forced(commands, ctx, case)
    assert found is not None
    store = commands.tables.store
    assert len(await channel_posts(commands)) == shown, "the bot stopped before posting them"
    table = await current(commands)

    outlet = RecordingOutlet()
    tables = make_tables(store, renderers)
    restarted = Commands(tables, Announcer(tables, outlet, coalesce=0))
    assert await restarted.announcer.catch_up() == 1
    assert await restarted.announcer.catch_up() == 0, "announced once"
    assert outlet.sent is not None
    # one post, which may run over several messages (a whole deployment told): the ping with the last
    *before, post = [p for _c, p in outlet.sent]
    assert all(not p.mentions for p in before)
    told = "\n".join(p.text or "" for p in [*before, post])
    assert AUTOMATIC[case.lang] in told and set(post.mentions) == set(table.to_act())
    assert f"v{table.record.version}." in (post.nonce or "")
    assert found.forced.seq == table.record.version


async def test_computer_players_play_their_own_forced_moves_and_people_get_theirs_played(
    store: Any,
) -> None:
    """At a table with a bot, the bot plays every move of its seat itself, one left by the rules or
    not (never marked automatic); the person's forced moves are played for them."""
    t = BotTable(store, _first_legal)
    await t.commands.new(bot_ctx("alice"), "warchest", options="seed=6", bots=1)
    await t.commands.start(bot_ctx("alice"))
    rng = random.Random(6)
    bot_forced = person_forced = 0
    for _ in range(150):
        await t.drain()
        table = await t.game()
        if table.record.status != "active" or (bot_forced and person_forced):
            break
        legal = table.game.legal_actions(table.state, "alice")
        await t.commands.play(bot_ctx("alice"), f"v{table.record.version}:{rng.choice(legal)}")
        await t.drain()
        after = await t.game()
        log = await store.actions(after.record.id)
        for entry in log[table.record.version :]:
            position = position_before(after, log, entry.seq)
            only = len(after.game.legal_actions(position, entry.player)) == 1
            if entry.player == BOT:
                assert not entry.auto, "a bot's seat is never played for"
                bot_forced += only
            elif entry.auto:
                assert only
                person_forced += 1
    assert bot_forced and person_forced, (bot_forced, person_forced)


def _first_legal(decision: Any) -> str:
    rules = engine.get_game(decision.game)
    position = rules.load(decision.state)
    return str(rules.legal_actions(position, position.players[decision.seat])[0])


async def test_a_start_plays_the_forced_moves_of_the_deal_but_never_ends_the_game(
    commands: Commands, ctx: CtxFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deal whose first decisions are forced has them played and stored with the start; one that
    would end the game at once is left to its player, whom the start pings."""
    from tests.table.nim import NIM

    dealt = NIM.new_game
    monkeypatch.setattr(
        NIM,
        "new_game",
        lambda players, seed, options=None: {**dealt(players, seed, options), "heap": 2, "max": 1},
    )
    await commands.new(ctx("alice"), "nim", options="heap=7")
    await commands.join(ctx("bob"))
    await commands.start(ctx("alice"))
    await commands.announcer.drain()
    table = await current(commands)
    log = await commands.tables.store.actions(table.record.id)
    assert [(e.action, e.auto) for e in log] == [("take 1", True)], "the first take, not the last"
    assert table.record.status == "active" and table.state["heap"] == 1
    (start,) = await channel_posts(commands)
    assert AUTOMATIC["en"] in start.text and start.mentions == tuple(table.to_act())
