"""``/game why`` at the table layer: hidden Batailles places, the same explanation for the same seed,
and a log that keeps to the game's story."""

from __future__ import annotations

import db
import i18n
from table.bots.explain import WHY, is_explanation, latest
from table.bots.thinkers import ThreadThinker
from table.core.events import decode_msg
from tests.table.test_bots import Table, ctx


async def _explanations(store: db.Store, t: Table, channel: str = "chan") -> list[dict[str, object]]:
    table = await t.game(channel)
    return [n.event for n in await store.notes(table.record.id) if is_explanation(n.event)]


async def test_a_batailles_deployment_is_explained_without_its_places_while_they_are_hidden(
    store: db.Store,
) -> None:
    t = Table(store, ThreadThinker())
    await t.commands.new(ctx("alice"), "batailles", options="seed=3", bots=1, level="easy")
    await t.commands.start(ctx("alice"))
    await t.drain()
    table = await t.game()
    assert table.state.phase == "deploy" and table.to_act() == ["alice"]
    notes = await _explanations(store, t)
    assert notes, "each deployment of the bot's is explained"
    last = notes[-1]
    assert isinstance(last["weighed"], list)
    assert all(entry["secret"] == "place" for entry in last["weighed"])
    for locale, kept, note in (
        ("en", "a troop placed where the other army cannot see it yet", "once both armies are deployed"),
        (
            "fr",
            "une troupe placée là où l'autre armée ne la voit pas encore",
            "une fois les deux armées déployées",
        ),
    ):
        [post] = await t.commands.why(ctx("alice", locale=locale))
        assert post.ephemeral
        assert kept in post.text and note in post.text, post.text
        for entry in last["weighed"]:
            assert i18n.t(decode_msg(entry["label"]), locale) not in post.text, "no place is named"


async def test_the_same_seed_gives_the_same_explanation_and_the_log_leaves_it_out(store: db.Store) -> None:
    t = Table(store, ThreadThinker())
    said = []
    for channel in ("first", "second"):
        await t.commands.new(ctx("alice", channel), "warchest", options="seed=8", bots=1, level="easy")
        await t.commands.start(ctx("alice", channel))
        await t.drain()
        for _ in range(2):
            table = await t.game(channel)
            assert table.to_act() == ["alice"]
            first = str(table.game.legal_actions(table.state, "alice")[0])
            await t.commands.play(ctx("alice", channel), first)
            await t.drain()
        [post] = await t.commands.why(ctx("alice", channel))
        said.append((await _explanations(store, t, channel), post.text))
        log = "\n".join(p.text for p in await t.commands.log(ctx("alice", channel)))
        assert "why." not in log and "Also weighed" not in log, log
    assert said[0] == said[1] and said[0][0], "the same seed and moves: the same explanations, word for word"


def test_a_move_taken_back_takes_its_explanation_with_it() -> None:
    def note(version: int, n: int) -> db.Note:
        return db.Note(1, version, None, {"key": WHY, "player": "bot:1:easy", "iterations": n}, "")

    notes = [note(2, 10), note(4, 20), db.Note(1, 5, "alice", {"key": "svc.bot.returned"}, ""), note(6, 30)]
    assert latest(notes) == notes[3].event
    assert latest(notes, live={1, 2, 3, 4}) == notes[1].event, "moves 5 and 6 were taken back"
    assert latest(notes, live={1}) is None


async def test_moves_told_alike_without_their_hidden_coin_are_one_line(store: db.Store) -> None:
    """The bot recruits, having weighed paying for it with other coins of its hand: told without the
    coin, those read alike, and the answer says each thing once."""
    t = Table(store, ThreadThinker())
    await t.commands.new(ctx("alice"), "warchest", options="seed=5", bots=1, level="normal")
    await t.commands.start(ctx("alice"))
    await t.drain()
    await t.commands.play(ctx("alice"), "pass lancer")
    await t.drain()
    [post] = await t.commands.why(ctx("alice"))
    said = [line for line in post.text.splitlines() if line.startswith("• ")]
    assert "Recruit Crossbowman (a coin of its hand discarded face down)" in said[0], post.text
    actions = [line.split(" — ")[0].split(": ", 1)[1] for line in said]
    assert len(actions) == len(set(actions)), post.text
