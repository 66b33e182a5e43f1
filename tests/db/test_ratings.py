"""Ratings from finished games, in both stores: the numbers openskill gives for the same results,
the same numbers again from a recomputation, and nothing changed by the games that are not rated.

The games are stored the way the table layer stores them (lobby, seats, start, an ending with its
result) and their results recorded by ``table.core.ratings.settle``, which the final post calls. The
expected ratings come from openskill's Plackett-Luce model fed the same results directly.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

import db
import engine
from engine.contract import Result
from engine.registry import pools
from engine.text import PlayerRef, msg
from launch import DISCORD_LIMITS
from table import Commands, Ctx, Tables
from table.core.errors import TableError
from table.core.events import encode_msg, encode_result
from table.core.ratings import places_of, settle, use_engine_sides
from table.play.standings import average_length
from tests.discord.support import tiny_png

GUILD = "g1"
_channels = itertools.count(1)


async def finish(
    store: db.Store,
    game: str,
    seats: Sequence[str | tuple[str, int]],
    *,
    winners: Sequence[str] = (),
    draw: bool = False,
    scores: dict[str, int] | None = None,
    reason: str = "table.reason.resigned",
    status: db.Status = "over",
    settings: dict[str, str] | None = None,
    guild: str = GUILD,
    note_by: str | None = None,
) -> db.ResultRecord | None:
    """One game of ``game`` between ``seats`` (a player, or a player and a team), ended with the given
    result, and its result recorded; what ``settle`` recorded."""
    players = [s if isinstance(s, str) else s[0] for s in seats]
    teams = [None if isinstance(s, str) else s[1] for s in seats]
    first = db.Seat(players[0], players[0].capitalize(), teams[0])
    rec = await store.create_game(
        channel=f"c{next(_channels)}",
        game=game,
        creator=first,
        players=len(players),
        options={},
        seed=1,
        guild=guild,
        settings=settings,
    )
    for player, team in zip(players[1:], teams[1:], strict=True):
        await store.add_seat(rec.id, db.Seat(player, player.capitalize(), team))
    rec = await store.start_game(rec.id, state={"players": players})
    if note_by is not None:
        await store.add_note(
            rec.id, 0, note_by, encode_msg(msg("svc.takeover", player=PlayerRef(players[0])))
        )
    result = Result(
        winners=tuple(winners),
        reason=msg(reason, player=PlayerRef(players[0])),
        draw=draw,
        scores=scores or {},
    )
    rec = await store.finish_game(rec.id, version=0, status=status, result=encode_result(result))
    return await settle(store, rec)


class Direct:
    """openskill's Plackett-Luce model fed the results directly, one rating per pool and player."""

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.ratings: dict[tuple[str, str], Any] = {}

    def rate(self, pool: str, teams: list[list[str]], ranks: list[int]) -> None:
        current = [[self.ratings.get((pool, p), self.model.rating()) for p in team] for team in teams]
        new = self.model.rate(current, ranks=ranks)
        for team, rated in zip(teams, new, strict=True):
            for p, r in zip(team, rated, strict=True):
                self.ratings[(pool, p)] = r

    def expected(self, pool: str) -> dict[str, tuple[float, float]]:
        return {p: (r.mu, r.sigma) for (q, p), r in self.ratings.items() if q == pool}


async def stored(
    store: db.Store, guild: str = GUILD
) -> dict[str, dict[str, tuple[float, float, int, int, int]]]:
    return {
        pool: {
            s.player: (s.rating.mu, s.rating.sigma, s.games, s.wins, s.draws)
            for s in await store.standings(guild, pool)
        }
        for pool in pools()
    }


def mu_sigma(table: dict[str, tuple[float, float, int, int, int]]) -> dict[str, tuple[float, float]]:
    return {p: v[:2] for p, v in table.items()}


async def series(store: db.Store) -> Direct:
    """Rated games of every format, each fed to openskill directly as well."""
    direct = Direct()
    # War Chest for two: Ann beats Bob, then Bob beats Ann by a forfeit at a deadline (Ann was absent)
    await finish(store, "warchest", ["ann", "bob"], winners=["ann"])
    direct.rate("warchest", [["ann"], ["bob"]], [1, 2])
    await finish(store, "warchest", ["ann", "bob"], winners=["bob"], reason="svc.reason.forfeit")
    direct.rate("warchest", [["ann"], ["bob"]], [2, 1])
    # War Chest in teams: Bob and Dan beat Ann and Cat
    await finish(store, "warchest", [("ann", 0), ("bob", 1), ("cat", 0), ("dan", 1)], winners=["bob", "dan"])
    direct.rate("warchest-teams", [["ann", "cat"], ["bob", "dan"]], [2, 1])
    # Cry Havoc for three, ranked by score: Cat first, Bob second, Ann third
    await finish(
        store, "cryhavoc", ["ann", "bob", "cat"], winners=["cat"], scores={"ann": 5, "bob": 9, "cat": 12}
    )
    direct.rate("cryhavoc", [["ann"], ["bob"], ["cat"]], [3, 2, 1])
    # Cry Havoc for four without scores: Dan first, the others share second place
    await finish(store, "cryhavoc", ["ann", "bob", "cat", "dan"], winners=["dan"])
    direct.rate("cryhavoc", [["ann"], ["bob"], ["cat"], ["dan"]], [2, 2, 2, 1])
    # Batailles: a draw, then Cat beats Ann
    await finish(store, "batailles", ["ann", "cat"], draw=True, reason="table.reason.draw_agreed")
    direct.rate("batailles", [["ann"], ["cat"]], [1, 1])
    await finish(store, "batailles", ["cat", "ann"], winners=["cat"])
    direct.rate("batailles", [["cat"], ["ann"]], [1, 2])
    return direct


async def test_ratings_are_those_openskill_gives_and_a_recomputation_gives_them_again(
    store_target: str | Path,
) -> None:
    store = await db.open_store(store_target)
    try:
        direct = await series(store)
        ratings = await stored(store)
        for pool in pools():
            assert mu_sigma(ratings[pool]) == direct.expected(pool), pool
        assert ratings["warchest"]["ann"][2:] == (2, 1, 0) and ratings["warchest"]["bob"][2:] == (2, 1, 0)
        assert ratings["batailles"]["ann"][2:] == (2, 0, 1) and ratings["batailles"]["cat"][2:] == (2, 1, 1)
        assert ratings["cryhavoc"]["dan"][2:] == (1, 1, 0)
        history = await store.results(GUILD)
        assert len(history) == 7 and all(r.rated and r.changes for r in history)
        assert [r.pool for r in history][:2] == ["batailles", "batailles"], "newest first"

        assert await store.recompute_ratings() == 7
        assert await stored(store) == ratings
        assert await store.results(GUILD) == history, "the same changes, bit for bit"
    finally:
        await store.close()


async def test_games_that_are_not_rated_change_nothing(store_target: str | Path) -> None:
    store = await db.open_store(store_target)
    try:
        await finish(store, "warchest", ["ann", "bob"], winners=["ann"])
        before = await stored(store)
        unrated = [
            await finish(store, "warchest", ["ann", "bot:1:easy"], winners=["ann"]),
            await finish(store, "warchest", ["ann", "bob"], status="aborted"),
            await finish(store, "warchest", ["ann", "bob"], winners=["bob"], settings={"rated": "no"}),
            await finish(store, "warchest", ["ann", "bob"], winners=["bob"], note_by="bot:stand-in:normal"),
        ]
        assert all(r is not None and not r.rated and not r.changes for r in unrated)
        assert await stored(store) == before
        assert await store.recompute_ratings() == 1
        assert await stored(store) == before
        assert len(await store.results(GUILD)) == 5, "the history keeps them all"
        assert len(await store.results(GUILD, player="bob", pool="warchest")) == 4
    finally:
        await store.close()


async def test_each_server_has_its_own_ratings_and_a_result_is_recorded_once(
    store_target: str | Path,
) -> None:
    store = await db.open_store(store_target)
    try:
        first = await finish(store, "batailles", ["ann", "bob"], winners=["ann"])
        await finish(store, "batailles", ["ann", "bob"], winners=["bob"], guild="g2")
        mine, theirs = await stored(store), await stored(store, "g2")
        assert mine["batailles"]["ann"][3] == 1 and theirs["batailles"]["bob"][3] == 1
        assert first is not None
        game = await store.get_game(first.game_id)
        assert game is not None
        assert await settle(store, game) == first, "settling again keeps the recorded result"
        assert await stored(store) == mine
    finally:
        await store.close()


def test_places_rank_sides_with_a_winner_first_and_then_by_score() -> None:
    rec = db.GameRecord(
        1,
        "c",
        "cryhavoc",
        "over",
        "a",
        4,
        {},
        1,
        3,
        {"factions": ["humans", "trogs", "machines", "pilgrims"]},
        encode_result(Result(("c",), msg("x"), scores={"a": 3, "b": 7, "c": 9, "d": 7})),
        tuple(db.Seat(p, p) for p in "abcd"),
        "t",
        "t",
    )
    assert [(p.player, p.rank) for p in places_of(rec)] == [("a", 4), ("b", 2), ("c", 1), ("d", 2)]


def ctx(user: str, channel: str, **kw: Any) -> Ctx:
    return Ctx(channel, user, user.capitalize(), "en", "en", guild_id=GUILD, **kw)


async def test_a_moderator_takes_a_game_out_of_the_ratings_and_they_follow(store_target: str | Path) -> None:
    store = await db.open_store(store_target)
    seeds = iter(range(10, 20))
    commands = Commands(
        Tables(
            store,
            limits=DISCORD_LIMITS,
            render=tiny_png,
            render_private=tiny_png,
            seed_source=lambda: next(seeds),
        )
    )
    try:
        for channel, loser in (("one", "ann"), ("two", "bob")):
            await commands.new(ctx("ann", channel), "batailles")
            await commands.join(ctx("bob", channel))
            await commands.start(ctx("ann", channel))
            await commands.resign(ctx(loser, channel))
            await commands.announcer.drain()
        first = await store.latest_game("one")
        assert first is not None
        with pytest.raises(TableError) as refused:
            await commands.unrate(ctx("bob", "two"), first.id)
        assert refused.value.msg.key == "svc.error.moderator_only"

        (post,) = await commands.unrate(ctx("mod", "two", moderator=True), first.id)
        said = (
            f"Game #{first.id} no longer counts for the ratings of Batailles: they are recomputed without it."
        )
        assert post.text == said
        direct = Direct()
        direct.rate("batailles", [["ann"], ["bob"]], [1, 2])
        assert mu_sigma((await stored(store))["batailles"]) == direct.expected("batailles")
        result = await store.result_of(first.id)
        assert result is not None and not result.rated and not result.changes
        notes = await store.notes(first.id)
        assert notes[-1].actor == "mod" and notes[-1].event["key"] == "rating.note.unrated", (
            "the log keeps it"
        )

        for game_id, key in ((first.id, "rating.error.not_rated"), (999, "rating.error.no_result")):
            with pytest.raises(TableError) as refused:
                await commands.unrate(ctx("mod", "two", moderator=True), game_id)
            assert refused.value.msg.key == key
        assert await store.recompute_ratings() == 1
        assert mu_sigma((await stored(store))["batailles"]) == direct.expected("batailles")
    finally:
        await store.close()


async def test_games_that_ended_before_results_were_kept_get_them_at_the_catch_up(
    store_target: str | Path,
) -> None:
    """A game that ended and was announced by a version of the bot without ratings has no result: the
    next catch-up records it, games in the order they ended, as if they had been rated then."""
    store = await db.open_store(store_target)
    tables = Tables(store, limits=DISCORD_LIMITS, render=tiny_png, render_private=tiny_png)
    try:
        ended = []
        for winner in ("ann", "bob"):
            rec = await store.create_game(
                channel=f"old-{winner}", game="batailles", creator=db.Seat("ann", "Ann"), players=2,
                options={}, seed=1, guild=GUILD,
            )  # fmt: skip
            await store.add_seat(rec.id, db.Seat("bob", "Bob"))
            await store.start_game(rec.id, state={})
            reason = msg("table.reason.resigned", player=PlayerRef("ann"))
            rec = await store.finish_game(
                rec.id, version=0, status="over", result=encode_result(Result((winner,), reason))
            )
            await store.save_announcement(db.Announcement(rec.id, 0, "over", 0, 0))
            ended.append(rec.id)
        assert [r.id for r in await store.unrecorded()] == ended
        # and one recorded by a version of the bot that did not keep what each player played
        rules = engine.get_game("cryhavoc")
        state = rules.new_game(["ann", "bob"], seed=2)
        rec = await store.create_game(
            channel="older", game="cryhavoc", creator=db.Seat("ann", "Ann"), players=2, options={}, seed=2,
        )  # fmt: skip
        await store.add_seat(rec.id, db.Seat("bob", "Bob"))
        await store.start_game(rec.id, state=rules.dump(state))
        rec = await store.finish_game(rec.id, version=0, status="aborted", result=None)
        await store.save_announcement(db.Announcement(rec.id, 0, "aborted", 0, 0))
        await store.record_result(rec.id, guild="", pool="cryhavoc", rated=False, places=[], finished_at="t")
        assert await Commands(tables).announcer.catch_up() == 0, "nothing to post"
        assert await store.unrecorded() == []
        older = await store.result_of(rec.id)
        (ann, bob) = rules.sides(state)
        assert older is not None and older.sides == {"ann": tuple(ann), "bob": tuple(bob)}
        direct = Direct()
        direct.rate("batailles", [["ann"], ["bob"]], [1, 2])
        direct.rate("batailles", [["ann"], ["bob"]], [2, 1])
        assert mu_sigma((await stored(store))["batailles"]) == direct.expected("batailles")
    finally:
        await store.close()


async def test_a_result_keeps_what_each_player_played_and_older_results_get_it_filled(
    store_target: str | Path,
) -> None:
    """The engine's ``sides`` of the final state are recorded with the result (a Cry Havoc faction, War
    Chest's units); a result recorded before sides were kept gets them from its game's stored state,
    by ``fill_sides`` and by a recomputation alike (the rules' reading handed to the stores, as the
    tables and ``python -m db`` hand it)."""
    use_engine_sides()
    store = await db.open_store(store_target)
    try:
        ids = []
        for game, players in (("cryhavoc", ["ann", "bob", "cat"]), ("warchest", ["ann", "bob"])):
            rules = engine.get_game(game)
            state = rules.new_game(players, seed=4)
            rec = await store.create_game(
                channel=f"c{next(_channels)}",
                game=game,
                creator=db.Seat(players[0], players[0]),
                players=len(players),
                options={},
                seed=4,
                guild=GUILD,
            )
            for player in players[1:]:
                await store.add_seat(rec.id, db.Seat(player, player))
            rec = await store.start_game(rec.id, state=rules.dump(state))
            won = encode_result(Result(("ann",), msg("table.reason.resigned", player=PlayerRef("bob"))))
            rec = await store.finish_game(rec.id, version=0, status="over", result=won)
            ids.append(rec.id)
            expected = dict(zip(players, map(tuple, rules.sides(state)), strict=True))
            if game == "cryhavoc":
                settled = await settle(store, rec)
                assert settled is not None and settled.sides == expected
                assert settled.side_of("bob") == expected["bob"] and len(expected["bob"]) == 1
            else:  # recorded the way results were before sides were kept
                old = await store.record_result(
                    rec.id, guild=GUILD, pool="warchest", rated=True, places=places_of(rec), finished_at="t"
                )
                assert old.sides is None and old.side_of("ann") == ()
                assert await store.fill_sides() == 1
                filled = await store.result_of(rec.id)
                assert filled is not None and filled.sides == expected and len(expected["ann"]) == 4
                assert await store.fill_sides() == 0, "filled once"
        assert await store.recompute_ratings() == 2
        for game_id in ids:
            kept = await store.result_of(game_id)
            assert kept is not None and kept.sides, "a recomputation keeps them"
    finally:
        await store.close()


async def test_game_lengths_count_the_moves_of_the_log_and_their_times(store_target: str | Path) -> None:
    store = await db.open_store(store_target)
    try:
        played = await store.create_game(
            channel="long", game="warchest", creator=db.Seat("ann", "Ann"), players=2, options={}, seed=1
        )
        await store.add_seat(played.id, db.Seat("bob", "Bob"))
        await store.start_game(played.id, state={"n": 0})
        for version, player in enumerate(["ann", "bob", "ann"]):
            await store.apply_action(
                played.id,
                version=version,
                player=player,
                action="pass",
                events=[],
                state={"n": version + 1},
                status="active",
            )
        idle = await store.create_game(
            channel="idle", game="warchest", creator=db.Seat("ann", "Ann"), players=2, options={}, seed=1
        )
        lengths = await store.game_lengths([played.id, idle.id])
        assert list(lengths) == [played.id], "a game without moves has no length"
        length = lengths[played.id]
        assert length.moves == 3 and length.first <= length.last
        assert await store.game_lengths([]) == {}
    finally:
        await store.close()


def test_the_average_game_reads_in_days_hours_or_under_half_an_hour() -> None:
    def game(hours: float, moves: int) -> db.GameLength:
        start = datetime(2026, 1, 1, tzinfo=UTC)
        return db.GameLength(moves, start.isoformat(), (start + timedelta(hours=hours)).isoformat())

    assert average_length([], "en") is None
    assert average_length([game(30, 40), game(114, 61)], "en") == "Average game: 50 moves over 3 days"
    assert average_length([game(23.8, 2)], "fr") == "Partie moyenne : 2 coups en 1 jour"
    assert average_length([game(5.2, 12)], "en") == "Average game: 12 moves over 5 hours"
    assert average_length([game(0.2, 2)], "fr") == "Partie moyenne : 2 coups en moins d'une demi-heure"
    assert average_length([game(0, 1)], "en") == "Average game: 1 move", "one move takes no time to tell"


async def test_player_names_are_the_last_ones_seated_with_in_the_server(store_target: str | Path) -> None:
    store = await db.open_store(store_target)
    try:
        for channel, name, guild in (("a", "Ann", GUILD), ("b", "Annie", GUILD), ("c", "Anna", "other")):
            rec = await store.create_game(
                channel=channel, game="warchest", creator=db.Seat("ann", name), players=2, options={},
                seed=1, guild=guild,
            )  # fmt: skip
            await store.add_seat(rec.id, db.Seat("bob", "Bob"))
        assert await store.player_names(GUILD, ["ann", "bob", "cat"]) == {"ann": "Annie", "bob": "Bob"}
        assert await store.player_names("other", ["ann"]) == {"ann": "Anna"}
        assert await store.player_names(GUILD, []) == {}
    finally:
        await store.close()
