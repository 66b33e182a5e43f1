"""Leagues through the table layer: sign-up, rounds of games in threads, results, standings, people
who come and go, the round's end, and what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.markup import discord_text
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
        assert len(rounds) == 1 and "<t:" in discord_text(rounds[0].text) and rounds[0].mentions == ()
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
        assert h.leagues.words is h.commands.words  # a league speaks as the table's commands do
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


async def test_a_drop_out_loses_the_unfinished_game_by_forfeit_and_is_paired_no_more(tmp_path: Path) -> None:
    async with hall(tmp_path) as h:
        await signed_up(h, SIX[:4], rounds=3)
        await h.leagues.start(h.ctx("ann"))
        await h.settle()
        first = await h.games(1)
        (mine,) = [g for g in first if "dan" in g.player_ids]
        posts = await h.leagues.leave(h.ctx("dan"))
        await h.settle()
        assert any("lost by forfeit" in p.text for p in posts)
        ended = await h.store.get_game(mine.id)
        assert ended is not None and ended.status == "over"
        other = next(p for p in mine.player_ids if p != "dan")
        assert ended.result is not None and ended.result["winners"] == [other]
        for record in first:
            if record.id != mine.id:
                await h.finish(record, record.player_ids[1])
        second = await h.games(2)
        assert second and all("dan" not in g.player_ids for g in second), "paired no more"
        book = Book.load((await h.league()).doc)
        assert [t.players for t in book.in_round(2) if t.bye], "three players: one has the bye"
        rows = h.leagues.standings_text(await h.league(), book, "en")
        assert "Dan **0**" in rows and "(left)" in rows, "their results stand"


async def test_a_kick_is_for_the_creator_or_a_moderator(tmp_path: Path) -> None:
    async with hall(tmp_path) as h:
        await signed_up(h, SIX[:4])
        with pytest.raises(GameError):
            await h.leagues.kick(h.ctx("bob"), "cat")
        await h.leagues.kick(h.ctx("mod", moderator=True), "cat")
        book = Book.load((await h.league()).doc)
        assert [e.player for e in book.players] == ["ann", "bob", "dan"]
        with pytest.raises(GameError) as refused:
            await h.leagues.kick(h.ctx("ann"), "cat")
        assert refused.value.msg.key == "league.error.not_in_player"


@pytest.mark.parametrize(("late", "points"), [("bye", 1.0), ("zero", 0.0)])
async def test_a_late_join_before_the_second_round_counts_the_missed_round_as_the_league_says(
    tmp_path: Path, late: str, points: float
) -> None:
    async with hall(tmp_path) as h:
        await signed_up(h, SIX[:4], rounds=2, options=f"armies=first late={late}")
        await h.leagues.start(h.ctx("ann"))
        await h.settle()
        posts = await h.leagues.join(h.ctx("eve"))
        assert "from the next round on" in posts[0].text
        book = Book.load((await h.league()).doc)
        (missed,) = [t for t in book.in_round(1) if t.players == ("eve",)]
        assert missed.points == {"eve": points} and missed.how == "missed"
        for record in await h.games(1):
            await h.finish(record, record.player_ids[1])
        second = {p for g in await h.games(2) for p in g.player_ids}
        byes = [t.players for t in Book.load((await h.league()).doc).in_round(2) if t.bye]
        assert "eve" in second | {p for b in byes for p in b}, "eve is paired from round two"
        with pytest.raises(GameError) as refused:
            await h.leagues.join(h.ctx("fay"))
        assert refused.value.msg.key == "league.error.closed"


@pytest.mark.parametrize(("rule", "points"), [("draw", 0.5), ("both_lose", 0.0)])
async def test_a_game_unfinished_at_the_rounds_end_is_closed_and_counted_as_the_league_says(
    tmp_path: Path, rule: str, points: float
) -> None:
    async with hall(tmp_path) as h:
        await signed_up(h, SIX[:2], rounds=2, round_length="2d", options=f"armies=first unfinished={rule}")
        await h.leagues.start(h.ctx("ann"))
        await h.settle()
        (game,) = await h.games(1)
        await h.later(days=1)
        assert (await h.store.get_game(game.id)).status == "active"  # type: ignore[union-attr]
        await h.later(days=1, minutes=1)
        closed = await h.store.get_game(game.id)
        assert closed is not None and closed.status == "aborted"
        book = Book.load((await h.league()).doc)
        (table,) = book.in_round(1)
        assert table.how == "unfinished" and table.points == {"ann": points, "bob": points}
        assert len(await h.games(2)) == 1, "the next round starts when the time is up"


async def test_at_the_rounds_end_a_forfeit_table_makes_the_waiting_player_lose(tmp_path: Path) -> None:
    async with hall(tmp_path) as h:
        await signed_up(h, SIX[:2], rounds=1, round_length="1d", options="armies=first on_deadline=forfeit")
        await h.leagues.start(h.ctx("ann"))
        await h.settle()
        (game,) = await h.games(1)
        waiting = h.commands.tables.table(game).to_act()
        await h.later(days=1, minutes=1)
        book = Book.load((await h.league()).doc)
        (table,) = book.in_round(1)
        assert table.how == "forfeit" and table.points is not None
        assert all(table.points[p] == 0.0 for p in waiting)
        assert (await h.league()).status == "over"


async def test_a_double_round_robin_of_five_plays_ten_rounds(tmp_path: Path) -> None:
    async with hall(tmp_path) as h:
        await signed_up(h, SIX[:5], format="round_robin", rounds=2)
        await h.leagues.start(h.ctx("ann"))
        await h.settle()
        met: list[frozenset[str]] = []
        for number in range(1, 11):
            games = await h.games(number)
            assert len(games) == 2, number
            met += [frozenset(g.player_ids) for g in games]
            for record in games:
                await h.finish(record, record.player_ids[1])
        assert (await h.league()).status == "over"
        assert all(met.count(pair) == 2 for pair in met) and len(set(met)) == 10


async def test_groups_then_a_best_of_three_knockout_crowns_one_winner(tmp_path: Path) -> None:
    async with hall(tmp_path) as h:
        players = [f"p{i}" for i in range(1, 9)]
        await signed_up(h, players, format="groups", options="armies=first group=4 advance=2 best_of=3")
        await h.leagues.start(h.ctx("p1"))
        await h.settle()
        for number in range(1, 4):  # the groups: the lower seat always wins
            for record in await h.games(number):
                await h.finish(record, record.player_ids[0])
        book = Book.load((await h.league()).doc)
        assert book.round == 4 and all(t.stage == "knockout" for t in book.current())
        semis = await h.games(4)
        assert len(semis) == 2
        # the first match: the first seat wins two games running; the second goes to three
        first, second = semis
        await h.finish(first, first.player_ids[1])
        await h.finish(second, second.player_ids[1])
        games = await h.games(4)
        assert len(games) == 4, "each match has its second game, in the same thread"
        assert {g.channel for g in games} == {first.channel, second.channel}
        again = [g for g in games if g.status == "active"]
        await h.finish(again[0], again[0].player_ids[0])  # the seats are swapped: the same player wins
        await h.finish(again[1], again[1].player_ids[1])
        third = [g for g in await h.games(4) if g.status == "active"]
        assert len(third) == 1, "one match needs its third game"
        await h.finish(third[0], third[0].player_ids[1])
        final = await h.games(5)
        assert len(final) == 1
        await h.finish(final[0], final[0].player_ids[1])
        while (league := await h.league()).status != "over":
            (live,) = [g for g in await h.games(5) if g.status == "active"]
            await h.finish(live, live.player_ids[1])
        assert len(Book.load(league.doc).winner) == 1


async def test_tables_of_three_play_cry_havoc(tmp_path: Path) -> None:
    async with hall(tmp_path) as h:
        await h.leagues.new(h.ctx("ann"), "cryhavoc", players=3, rounds=1, options="seed=2")
        for player in SIX[1:]:
            await h.leagues.join(h.ctx(player))
        await h.leagues.start(h.ctx("ann"))
        await h.settle()
        games = await h.games(1)
        assert [len(g.player_ids) for g in games] == [3, 3]


async def test_in_a_forum_each_game_is_a_post_tagged_with_its_state(tmp_path: Path) -> None:
    async with hall(tmp_path, forum=True, events=False) as h:
        await signed_up(h, SIX[:4], rounds=1)
        await h.leagues.start(h.ctx("ann"))
        await h.settle()
        assert len(h.places.tags) == 2 and all(t == ["In play"] for t in h.places.tags.values())
        assert not h.places.events, "no event where the bot may not make one; nothing failed"
        first = (await h.games(1))[0]
        await h.finish(first, first.player_ids[0])
        assert h.places.tags[first.channel] == ["Finished"]


async def test_a_restart_mid_round_loses_nothing_and_makes_nothing_twice(tmp_path: Path) -> None:
    from tests.table.leagues import Hall

    async with hall(tmp_path) as h:
        await signed_up(h, SIX, rounds=2)
        await h.leagues.start(h.ctx("ann"))
        await h.settle()
        first = await h.games(1)
        await h.finish(first[0], first[0].player_ids[0])
        clock = h.clock
    async with hall(tmp_path) as again:
        assert isinstance(again, Hall)
        again.clock.advance(clock() - again.clock())
        await again.later(minutes=1)
        assert len(await again.games(1)) == 3 and await again.games(2) == []
        for record in (await again.games(1))[1:]:
            await again.finish(record, record.player_ids[0])
        assert len(await again.games(2)) == 3


async def test_two_processes_on_one_store_start_the_next_round_once(tmp_path: Path) -> None:
    import asyncio

    async with hall(tmp_path) as h, hall(tmp_path) as other:
        await signed_up(h, SIX[:4], rounds=2)
        await h.leagues.start(h.ctx("ann"))
        await h.settle()
        for record in await h.games(1):
            # the games end with nobody telling the league: both processes' ticks find it
            await h.store.finish_game(record.id, version=record.version, status="aborted", result=None)
        await asyncio.gather(h.later(minutes=1), other.later(minutes=1))
        league = await h.league()
        assert len(Book.load(league.doc).in_round(2)) == 2
        assert len(await h.games(2)) == 2
        rounds = [p for p in h.posts_in(HALL) + other.posts_in(HALL) if "round 2 of 2" in p.text]
        assert len(rounds) == 1
