"""Moving a server's games between stores with ``python -m db export`` and ``python -m db import``.

A SQLite database is filled the way a server fills it: real games of every kind played through the
table layer with the engines (running, resigned, ended by a moderator, drawn by agreement, aborted,
still in the lobby), a standing draw offer and abort vote, moderation notes, a server's settings, a
player's notification choice, players' own times and periods away, and the bot's own facts. It goes
to PostgreSQL and back to a new SQLite file through the real commands; every record of every store
must then be equal, and the three dumps identical to the byte.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import db
import engine
from bench.move_latency import random_move
from db.errors import StoreError
from db.transfer import no_rows, parse_dump
from engine.registry import pools
from engine.rng import Rng
from launch import DISCORD_LIMITS
from table import Commands, Ctx, Tables
from tests.discord.support import tiny_png
from tests.postgres import Server

ROOT = Path(__file__).resolve().parents[2]
GUILD = "g1"


def ctx(user: str, channel: str, **kw: Any) -> Ctx:
    return Ctx(channel, user, user.capitalize(), "fr", "fr", guild_id=GUILD, **kw)


async def play(commands: Commands, channel: str, moves: int, rng: Rng) -> None:
    """Up to ``moves`` random legal moves, each pinned to the version it was chosen at."""
    for _ in range(moves):
        table = await commands.tables.latest(channel)
        assert table is not None
        move = random_move(table, rng)
        if move is None:
            return
        player, action = move
        await commands.play(ctx(player, channel), f"v{table.record.version}:{action}")
        await commands.announcer.drain()


async def open_table(commands: Commands, channel: str, game: str, players: int) -> list[str]:
    seats = [f"{channel}-{n}" for n in range(players)]
    await commands.new(ctx(seats[0], channel), game, players=players)
    for seat in seats[1:]:
        await commands.join(ctx(seat, channel))
    await commands.start(ctx(seats[0], channel))
    await commands.announcer.drain()
    return seats


async def fill(target: Path) -> None:
    """A server's worth of games and settings in the store at ``target``."""
    store = await db.open_store(target)
    seeds = iter(range(100, 200))
    commands = Commands(
        Tables(
            store,
            limits=DISCORD_LIMITS,
            render=tiny_png,
            render_private=tiny_png,
            seed_source=lambda: next(seeds),
        )
    )
    rng = Rng(7)
    try:
        for game, players in (("warchest", 2), ("warchest", 4), ("batailles", 2), ("cryhavoc", 3)):
            running = f"{game}{players}-running"
            await open_table(commands, running, game, players)
            await play(commands, running, 12, rng)
            resigned = f"{game}{players}-over"
            seats = await open_table(commands, resigned, game, players)
            await play(commands, resigned, 6, rng)
            await commands.resign(ctx(seats[0], resigned))
        offers = "warchest2-running"
        await commands.draw(ctx(f"{offers}-0", offers))  # a standing draw offer
        await commands.abort(ctx(f"{offers}-1", offers))  # and one abort vote of two
        drawn = "agreed-draw"
        seats = await open_table(commands, drawn, "warchest", 2)
        await commands.draw(ctx(seats[0], drawn))
        await commands.draw(ctx(seats[1], drawn))
        ended = "moderated"
        seats = await open_table(commands, ended, "batailles", 2)
        await commands.end(ctx("mod", ended, moderator=True), winner=seats[1])
        await commands.new(ctx("lea", "lobby"), "cryhavoc", players=4, options="skills=random")
        await commands.join(ctx("sam", "lobby"))
        await commands.new(ctx("kim", "kicked"), "warchest")
        await commands.join(ctx("zoe", "kicked"))
        await commands.kick(ctx("kim", "kicked"), "zoe")
        await commands.leave(ctx("kim", "kicked"))  # the creator leaves the last seat: aborted
        await commands.settings(ctx("admin", "lobby", admin=True), remind="12h", language="fr")
        await commands.notify(ctx("lea", "lobby"), dm=True)
        await commands.notify(ctx("sam", "lobby"), dm=False, text=True)
        await store.set_meta("commands:global", "0123abcd")
        await store.set_player_settings("lea", {"zone": "Europe/Paris", "quiet": "22:00-07:00"})
        await store.set_player_settings("sam", {"remind": "12h"})
        await store.add_away("sam", GUILD, "2030-01-01T00:00:00+00:00", "2030-01-08T00:00:00+00:00")
        await store.add_away("lea", GUILD, "2030-01-02T00:00:00+00:00", "2030-01-03T00:00:00+00:00")
        await store.end_away("lea", GUILD, "2030-01-02T12:00:00+00:00")  # back early
        # a player's card of their games, shown, and a server's list of games, not shown yet
        await store.put_listing("player:lea", channel=None, locale="fr")
        await store.listing_shown("player:lea", channel=None, message="1234", shown=1)
        await store.put_listing(f"server:{GUILD}", channel="lobby", locale="fr")
        refusing = db.ChannelFault(
            "hidden", "permissions", ("attach_files",), "2030-01-01T00:00:00+00:00", 2, "2030"
        )
        await store.add_fault(refusing)  # a channel that refuses the bot, and who is still to be told
        await store.add_notices(
            ["lea", "sam"], "hidden", {"key": "svc.fault.locked", "params": {"game": "x"}}
        )
        asked = await store.open_game("cryhavoc3-running")  # a standing undo request, agreed by one
        assert asked is not None
        last = (await store.actions(asked.id))[-1]
        await store.request_undo(asked.id, last.player, first=last.seq, version=asked.version)
        other = next(p for p in asked.player_ids if p != last.player)
        await store.accept_undo(asked.id, other, version=asked.version)
        league = await store.create_league(
            channel="league-hall", guild=GUILD, name="Spring", game="warchest", creator="lea", doc={"n": 1}
        )
        assert await store.save_league(replace(league, status="running", doc={"players": ["lea", "sam"]}))
        done = await store.create_league(
            channel="old-hall", guild=GUILD, name="Winter", game="batailles", creator="sam", doc={}
        )
        await store.save_league(replace(done, status="over"))
        await commands.announcer.drain()
    finally:
        await store.close()


def cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "db", *args], cwd=ROOT, env=env, input=stdin, capture_output=True, timeout=300
    )


def export(source: str | Path) -> bytes:
    done = cli("export", "--from", str(source))
    assert done.returncode == 0, done.stderr.decode()
    assert b"exported from" in done.stderr
    return done.stdout


def import_(target: str | Path, dump: bytes) -> subprocess.CompletedProcess[bytes]:
    return cli("import", "--to", str(target), stdin=dump)


async def everything(target: str | Path) -> dict[str, Any]:
    """Every record the store hands out, read through the ``Store`` interface."""
    store = await db.open_store(target)
    try:
        games: dict[int, Any] = {}
        game_id = 1
        while (rec := await store.get_game(game_id)) is not None:
            games[game_id] = (
                rec,
                await store.actions(game_id),
                await store.count_actions(game_id),
                await store.votes(game_id, "draw"),
                await store.votes(game_id, "abort"),
                await store.announcement(game_id),
                await store.notes(game_id),
                await store.undo_request(game_id),
            )
            game_id += 1
        channels = {rec.channel for rec, *_ in games.values()}
        players = {s.player for rec, *_ in games.values() for s in rec.seats}
        return {
            "games": games,
            "open": {c: await store.open_game(c) for c in sorted(channels)},
            "latest": {c: await store.latest_game(c) for c in sorted(channels)},
            "unannounced": await store.unannounced(),
            "due": await store.due("2999-01-01T00:00:00+00:00"),
            "games_of": {p: await store.games_of(p, GUILD) for p in sorted(players)},
            "guild": await store.guild_settings(GUILD),
            "notify": {p: await store.notify(p) for p in ("lea", "sam", "nobody")},
            "text_board": {p: await store.text_board(p) for p in ("lea", "sam", "nobody")},
            "meta": await store.meta("commands:global"),
            "player_settings": await store.player_settings(["lea", "sam", "nobody"]),
            "away": await store.away(GUILD, ["lea", "sam", "nobody"], "2000-01-01T00:00:00+00:00"),
            "listings": await store.listings(["player:lea", "player:sam", f"server:{GUILD}"]),
            "behind": await store.listings_behind(),
            "open_games": {p: await store.open_games(player=p) for p in sorted(players)},
            "server_games": await store.open_games(guild=GUILD),
            "faults": await store.channel_faults(),
            "noticed": await store.noticed_players(),
            "results": await store.results(GUILD),
            "standings": {pool: await store.standings(GUILD, pool) for pool in pools()},
            "leagues": await store.leagues(("signup", "running", "over")),
            "open_league": await store.open_league("league-hall"),
        }
    finally:
        await store.close()


async def test_a_server_moves_to_postgresql_and_back_with_every_record_equal(
    tmp_path: Path, postgres_url: str
) -> None:
    source, back = tmp_path / "source.sqlite3", tmp_path / "back.sqlite3"
    await fill(source)
    first = export(source)

    done = import_(postgres_url, first)
    assert done.returncode == 0, done.stderr.decode()
    assert b"imported into postgresql://postgres@/" in done.stderr
    second = export(postgres_url)
    done = import_(back, second)
    assert done.returncode == 0, done.stderr.decode()
    third = export(back)
    assert first == second == third, "the same dump from each store"

    before = await everything(source)
    assert len(before["games"]) == 12 and before["guild"] and before["meta"] == "0123abcd"
    assert before["faults"] and before["noticed"] == ["lea", "sam"]
    assert [(lg.name, lg.status) for lg in before["leagues"]] == [("Spring", "running"), ("Winter", "over")]
    statuses = sorted(rec.status for rec, *_ in before["games"].values())
    assert statuses.count("over") == 6 and statuses.count("active") == 4 and "aborted" in statuses
    assert any(g[3] for g in before["games"].values()) and any(g[4] for g in before["games"].values())
    assert any(g[6] for g in before["games"].values()), "moderation notes"
    assert any(a.auto for g in before["games"].values() for a in g[1]), "forced moves played for a player"
    assert [listing.owner for listing in before["listings"]] == ["player:lea", f"server:{GUILD}"]
    assert [listing.owner for listing in before["behind"]] == [f"server:{GUILD}"]
    assert sum(g[2] for g in before["games"].values()) > 60
    rated = [r for r in before["results"] if r.rated]
    assert len(rated) == 6 and all(r.changes for r in rated), "every game between people is rated"
    assert len(before["results"]) == 6 and sum(map(len, before["standings"].values())) > 8
    assert all(r.sides and all(r.sides.values()) for r in before["results"]), "what each player played"
    assert await everything(postgres_url) == before
    assert await everything(back) == before

    for target in (postgres_url, back):  # new rows get ids after the imported ones
        store = await db.open_store(target)
        try:
            rec = await store.create_game(
                channel="new", game="warchest", creator=db.Seat("x", "X"), players=2, options={}, seed=1
            )
            assert rec.id == len(before["games"]) + 1
            await store.add_note(rec.id, 0, "x", {"key": "k"})
            result = await store.record_result(
                rec.id, guild=GUILD, pool="warchest", rated=False, places=(), finished_at="2030"
            )
            assert result.id == len(before["results"]) + 1
            assert [n.event["key"] for n in await store.take_notices("lea")] == ["svc.fault.locked"]
            await store.add_notices(["lea"], "new", {"key": "k"})
            (later,) = await store.take_notices("lea")
            assert later.id == 3, "after the imported ones"
        finally:
            await store.close()


async def test_an_import_lands_whole_or_not_at_all(tmp_path: Path, postgres: Server) -> None:
    source = tmp_path / "source.sqlite3"
    await fill(source)
    dump = export(source)
    lines = dump.decode().splitlines(keepends=True)
    for target in (await postgres.create_database(), tmp_path / "target.sqlite3"):
        cut = import_(target, "".join(lines[:-1]).encode())
        assert cut.returncode == 1 and b"cut off" in cut.stderr
        broken = import_(
            target, "".join([*lines[:-3], '{"table": "seats", "row": {"id": 1}}\n', lines[-1]]).encode()
        )
        assert broken.returncode == 1 and b"a seats row of the dump has columns" in broken.stderr
        foreign = import_(target, b'{"hello": "world"}\n')
        assert foreign.returncode == 1 and b"not a dump" in foreign.stderr
        assert (await everything(target))["games"] == {}, "nothing of a refused dump is stored"
        assert import_(target, dump).returncode == 0
        again = import_(target, dump)
        assert again.returncode == 1 and b"already holds" in again.stderr
        assert len((await everything(target))["games"]) == 12


def test_a_dump_from_another_schema_is_refused_before_any_row() -> None:
    rows = parse_dump(['{"format": "tabletop-bot dump", "version": 1, "schema": 99}\n'], 3, no_rows())
    with pytest.raises(StoreError, match="taken at schema 99 and this store is at 3"):
        next(rows)


def test_exporting_a_file_that_does_not_exist_creates_nothing(tmp_path: Path) -> None:
    done = cli("export", "--from", str(tmp_path / "missing.sqlite3"))
    assert done.returncode == 1 and b"there is no database file at" in done.stderr
    assert not (tmp_path / "missing.sqlite3").exists() and done.stdout == b""


def test_every_game_kind_is_in_the_round_trip() -> None:
    assert set(engine.GAMES) == {"warchest", "batailles", "cryhavoc"}
