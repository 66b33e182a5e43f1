"""Leagues through the table layer: sign-up, rounds of games in threads, results, standings, people
who come and go, the round's end, and what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import GameError
from table.leagues.book import Book
from tests.table.leagues import HALL, hall

SIX = ["ann", "bob", "cat", "dan", "eve", "fay"]


async def signed_up(h: object, players: list[str], **new: object) -> None:
    from tests.table.leagues import Hall

    assert isinstance(h, Hall)
    options = dict({"game": "warchest", "options": "armies=first seed=3"}, **new)
    await h.leagues.new(h.ctx(players[0]), **options)  # type: ignore[arg-type]
    for player in players[1:]:
        await h.leagues.join(h.ctx(player))


async def test_a_swiss_league_makes_each_round_in_threads_and_pairs_the_next_once_all_have_ended(
    tmp_path: Path,
) -> None:
    async with hall(tmp_path) as h:
        await signed_up(h, SIX, rounds=2)
        card = h.posts_in(HALL)[0]
        assert h.outlet.edits, "the card is edited in place as players join"
        assert "6 players: Ann, Bob, Cat, Dan, Eve and Fay" in h.outlet.edits[-1][2].text
        assert [b.custom_id for b in card.buttons] == ["l:1:join", "l:1:leave"]
        await h.leagues.start(h.ctx("ann"))
        await h.settle()
        league = await h.league()
        assert league.status == "running"
        games = await h.games(1)
        assert len(games) == 3 and all(g.status == "active" for g in games)
        assert {p for g in games for p in g.player_ids} == set(SIX)
        assert len(h.places.threads) == 3 and h.places.events
        for thread, (name, first) in h.places.threads.items():
            assert name.startswith("R1 ·")
            assert sorted(first.mentions) == sorted(next(g for g in games if g.channel == thread).player_ids)
            board = h.posts_in(thread)[1]
            assert board.image is not None and board.mentions == (), "called once, in the thread's first post"
        rounds = [p for p in h.posts_in(HALL) if "round 1 of 2" in p.text]
        assert len(rounds) == 1 and "<t:" in rounds[0].text and rounds[0].mentions == ()
        # the games end: two wins for the first seat, one draw
        for record in games[:2]:
            await h.finish(record, record.player_ids[1])
        assert len(await h.games(2)) == 0, "round two waits for the last game"
        await h.finish(games[2], None)
        second = await h.games(2)
        assert len(second) == 3, "round two is made once round one has ended"
        met = {frozenset(g.player_ids) for g in games}
        assert not met & {frozenset(g.player_ids) for g in second}, "no rematch"
        # nothing more is made by a tick
        await h.later(minutes=1)
        assert len(await h.games(2)) == 3 and len(h.places.threads) == 6
        for record in second:
            await h.finish(record, record.player_ids[0])
        league = await h.league()
        assert league.status == "over"
        final = h.posts_in(HALL)[-1]
        assert "is over" in final.text and final.image is not None and final.alt
        book = Book.load(league.doc)
        assert book.winner
        standings = await h.leagues.standings(h.ctx("bob"))
        assert "standings after round 2 of 2" in standings[0].text
        history = await h.leagues.history(h.ctx("bob"))
        assert league.name in history[0].text
        # the games are in /history with the league's name
        listed = await h.commands.history(h.ctx("bob"))
        assert league.name in listed[0].text


async def test_bad_requests_are_refused_and_change_nothing(tmp_path: Path) -> None:
    async with hall(tmp_path) as h:
        with pytest.raises(GameError) as refused:
            await h.leagues.new(h.ctx("ann"), "warchest", rounds=0)
        assert (
            "at least one round" in str(refused.value.msg.key)
            or refused.value.msg.key == "league.error.bad_rounds"
        )
        with pytest.raises(GameError) as refused:
            await h.leagues.new(h.ctx("ann"), "cryhavoc", format="groups", players=4)
        assert refused.value.msg.key == "league.error.format_needs_two"
        with pytest.raises(GameError):
            await h.leagues.new(h.ctx("ann"), "warchest", format="ladder")
        assert await h.store.leagues(("signup", "running", "over")) == []
        await h.leagues.new(h.ctx("ann"), "warchest")
        with pytest.raises(GameError) as refused:
            await h.leagues.join(h.ctx("ann"))
        assert refused.value.msg.key == "league.error.already_in"
        with pytest.raises(GameError) as refused:
            await h.leagues.new(h.ctx("bob"), "batailles")
        assert refused.value.msg.key == "league.error.busy"
        with pytest.raises(GameError) as refused:
            await h.leagues.start(h.ctx("ann"))
        assert refused.value.msg.key == "league.error.too_few" and refused.value.msg.params["needed"] == 2
        with pytest.raises(GameError) as refused:
            await h.leagues.start(h.ctx("bob"))
        assert refused.value.msg.key == "league.error.creator_only"
        league = await h.league()
        assert league.status == "signup" and len(Book.load(league.doc).players) == 1
