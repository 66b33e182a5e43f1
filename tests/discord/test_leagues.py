"""A whole Swiss league of six players through the fake Discord, and a league in a forum.

The real bot in this process, its timed loop ticking on a manual clock: the sign-up card's Join button
and ``/league join``, ``/league start``, each game in a thread of the league's channel with its players
pinged once there, round two made once (also across a restart in the middle of it), the standings card
edited in place, the final standings with the winner; in a forum, a post per game tagged with its
state, and a round's server event where the bot may make one and none where it may not.
"""

from __future__ import annotations

from pathlib import Path

import db
from table.leagues.book import Book
from tests.discord.tables import Table, table, until
from tests.fakediscord.model import FakeChannel, FakeUser

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay"]


async def players(t: Table, count: int) -> list[FakeUser]:
    return [t.fake.add_user(name, locale="fr" if i % 2 else "en-US") for i, name in enumerate(NAMES[:count])]


async def the_league(t: Table) -> db.LeagueRecord:
    found = await t.store.leagues(("signup", "running", "over"))
    assert found
    return found[-1]


async def round_games(t: Table, number: int) -> list[db.GameRecord]:
    book = Book.load((await the_league(t)).doc)
    out = []
    for seat in book.in_round(number):
        if seat.game is not None:
            record = await t.store.get_game(seat.game)
            assert record is not None
            out.append(record)
    return out


def threads_of(t: Table, parent: FakeChannel) -> list[FakeChannel]:
    return [c for c in t.fake.channels.values() if c.is_thread and c.parent_id == parent.id]


async def resign_all(t: Table, games: list[db.GameRecord], people: dict[str, FakeUser]) -> None:
    """The second seat of each game resigns in the game's thread."""
    for record in games:
        thread = t.fake.channels[record.channel]
        loser = people[record.player_ids[1]]
        reply = await t.fake.slash(loser, thread, "game resign")
        assert reply.ephemeral, reply.contents


async def test_a_swiss_league_of_six_through_discord_with_a_restart_in_its_second_round(
    tmp_path: Path,
) -> None:
    async with table(tmp_path, message_rate=None) as t:
        six = await players(t, 6)
        people = {u.id: u for u in six}
        hall = t.chan
        created = await t.fake.slash(
            six[0], hall, "league new", game="warchest", rounds=2, options="armies=first seed=5"
        )
        assert created.ephemeral, created.contents
        card = next(m for m in t.posts(hall) if m.components)
        for user in six[1:3]:
            reply = await t.fake.click(user, card, f"l:{(await the_league(t)).id}:join")
            assert "You are in" in reply.content or "Vous êtes inscrit" in reply.content, reply.contents
        for user in six[3:]:
            await t.fake.slash(user, hall, "league join")
        again = await t.fake.slash(six[1], hall, "league join")
        assert again.ephemeral and ("already" in again.content or "déjà" in again.content)
        assert "6" in card.content and card.edits >= 5, "the card is edited in place"
        await t.fake.slash(six[0], hall, "league start")
        await until(lambda: len(threads_of(t, hall)) == 3, "round one's threads")
        first = await round_games(t, 1)
        await until(lambda: all(len(t.posts(t.fake.channels[g.channel])) >= 2 for g in first), "the boards")
        for record in first:
            thread = t.fake.channels[record.channel]
            posts = t.posts(thread)
            assert sorted(posts[0].pinged_ids) == sorted(record.player_ids), "called once, in the thread"
            assert all(m.pinged_ids == [] for m in posts[1:]), "the first board pings nobody again"
            assert posts[1].files
        round_post = next(
            m for m in t.posts(hall) if "1" in m.content and "<t:" in m.content and "<#" in m.content
        )
        assert round_post.pinged_ids == []
        assert len(t.guild.events) == 1
        await resign_all(t, first, people)
        await until(lambda: len(threads_of(t, hall)) == 6, "round two's threads")
        second = await round_games(t, 2)
        assert not {frozenset(g.player_ids) for g in first} & {frozenset(g.player_ids) for g in second}
        # a restart in the middle of round two loses nothing and makes nothing twice
        await resign_all(t, second[:1], people)
        await t.restart()
        await t.later(minutes=5)
        assert len(threads_of(t, hall)) == 6 and len(t.guild.events) == 2
        await resign_all(t, second[1:], people)
        await until(lambda: the_league_over(t), "the league's end")
        final = [m for m in t.posts(hall) if "🏁" in m.content]
        assert len(final) == 1 and final[0].files and final[0].descriptions[0]
        assert len(threads_of(t, hall)) == 6, "no third round"
        standings = await t.fake.slash(six[2], hall, "league standings")
        assert standings.ephemeral and standings.files
        history = await t.fake.slash(six[2], hall, "history")
        assert "🏆" in history.content


async def the_league_over(t: Table) -> bool:
    return (await the_league(t)).status == "over"


async def test_a_league_in_a_forum_posts_each_game_tagged_with_its_state(tmp_path: Path) -> None:
    async with table(tmp_path, message_rate=None) as t:
        four = await players(t, 4)
        people = {u.id: u for u in four}
        forum = t.fake.add_channel(t.guild, "ligues", forum=True, tags=("Annonces",), require_tag=True)
        home = t.fake.add_thread(forum, "Coupe de printemps")
        t.fake.without_events(t.guild)
        await t.fake.slash(four[0], home, "league new", game="warchest", rounds=1, options="armies=first")
        for user in four[1:]:
            await t.fake.slash(user, home, "league join")
        await t.fake.slash(four[0], home, "league start")
        await until(lambda: len(threads_of(t, forum)) == 3, "a post per game in the forum")
        names = {tag["id"]: tag["name"] for tag in forum.tags}
        posts = [c for c in threads_of(t, forum) if c.id != home.id]
        assert all([names[i] for i in p.applied_tags] == ["En cours"] for p in posts), "tagged in play"
        assert t.guild.events == [], "no event where the bot may not make one"
        assert not [r for r in t.fake.rejections if "scheduled-events" in r.path], "nor was one tried"
        games = await round_games(t, 1)
        await resign_all(t, games, people)

        def finished() -> bool:
            named = {tag["id"]: tag["name"] for tag in forum.tags}
            return all([named.get(i) for i in p.applied_tags] == ["Terminée"] for p in posts)

        await until(finished, "each post tagged finished")
        names = {tag["id"]: tag["name"] for tag in forum.tags}
        assert {"En cours", "Terminée", "Annonces"} == set(names.values())
        assert (await the_league(t)).status == "over"


def beats(folder: Path, shard: int) -> int:
    """The ticks a bot process has done, from its heartbeat file."""
    import json

    path = folder / f"beat-{shard}"
    try:
        return int(json.loads(path.read_text(encoding="utf-8"))["ticks"])
    except (OSError, ValueError, KeyError):
        return 0


async def test_two_shard_processes_start_the_next_round_once(tmp_path: Path, postgres_url: str) -> None:
    """Two bot processes, one shard each, over one PostgreSQL database: the league lives on shard 0,
    and both processes' timed loops find its first round over at the same tick (its games ended with
    nobody telling the league). Round two is made once: two threads, one round post."""
    import signal

    from tests.discord.test_shards import bot_env
    from tests.fakediscord.process import BotProcess
    from tests.fakediscord.server import FakeDiscord

    async with FakeDiscord(message_rate=None) as fake:
        fake.shard_count = 2
        guild = fake.add_guild("Serveur 0", locale="fr")
        while fake.shard_of(guild.id) != 0:
            guild = fake.add_guild("Serveur", locale="fr")
        hall = fake.add_channel(guild, "ligue")
        four = [fake.add_user(name) for name in NAMES[:4]]
        store = await db.open_store(postgres_url)
        processes: list[BotProcess] = []
        try:
            for shard in (0, 1):
                processes.append(await BotProcess.start(fake, postgres_url, bot_env(shard, tmp_path)))
            for process in processes:
                await process.ready()
            await fake.slash(four[0], hall, "league new", game="warchest", rounds=2, options="armies=first")
            for user in four[1:]:
                await fake.slash(user, hall, "league join")
            await fake.slash(four[0], hall, "league start")

            def threads() -> list[FakeChannel]:
                return [c for c in fake.channels.values() if c.is_thread and c.parent_id == hall.id]

            await until(lambda: len(threads()) == 2, "round one's threads")
            league = (await store.leagues(("running",)))[0]

            async def made() -> bool:
                book = Book.load((await store.get_league(league.id)).doc)  # type: ignore[union-attr]
                return all(t.game is not None for t in book.in_round(1)) and len(book.in_round(1)) == 2

            await until(made, "round one's games")
            book = Book.load((await store.get_league(league.id)).doc)  # type: ignore[union-attr]
            for seat in book.in_round(1):
                record = await store.get_game(seat.game or 0)
                assert record is not None
                await store.finish_game(record.id, version=record.version, status="aborted", result=None)
            await until(lambda: len(threads()) >= 4, "round two's threads")

            async def second_posted() -> bool:
                book = Book.load((await store.get_league(league.id)).doc)  # type: ignore[union-attr]
                return "round.2" in book.cards

            await until(second_posted, "round two's post")
            ticked = [beats(tmp_path, shard) for shard in (0, 1)]
            await until(
                lambda: all(beats(tmp_path, n) >= ticked[n] + 3 for n in (0, 1)), "three more ticks of each"
            )
            assert len(threads()) == 4, "nothing more is made"
            book = Book.load((await store.get_league(league.id)).doc)  # type: ignore[union-attr]
            assert len(book.in_round(2)) == 2 and book.round == 2
            mine = [
                m
                for m in fake.messages_in(hall)
                if m.author.id == fake.bot_user.id and m.interaction_id is None
            ]
            assert len([m for m in mine if "📅" in m.content and "ronde 2" in m.content]) == 1
            for process in processes:
                assert await process.kill(signal.SIGTERM) == 0
        finally:
            for process in processes:
                if process.proc.returncode is None:
                    await process.kill(signal.SIGTERM)
            await store.close()
