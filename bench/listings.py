"""What players' cards and servers' lists of games cost in Discord requests, and what forced moves
spare the players.

Plays ``tables`` tables (the games and sizes of ``bench.ai_levels.TABLES`` in turn) of random legal
moves through the real table layer and announcer (a SQLite file, a stand-in board image), seated from
a pool of players spread over three servers, so that each player sits at several tables. One move is
played every ``--every`` seconds of a clock the bench moves (a table picked at random, then whoever
of its players must act), as a busy evening of play-by-post would bring them, until ``--moves``
moves or every table has ended. The same seeds are played twice: with every player's card on
(``/games card:true``) and a list of games in each server (``/settings games_channel:``), and with
neither. A recording outlet counts what reaches Discord: every post, edit and direct message is one
request. The cards and lists are refreshed at most once a minute of that clock, as the bot does.

Then, from the logs: how many of the players' decisions the rules left without a choice (forced
moves, played for them and marked automatic), per game.

Usage: ``python -m bench.listings [tables] [--moves N] [--every SECONDS] [--seed N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from PIL import Image

import db
from bench.ai_levels import TABLES
from launch import DISCORD_LIMITS
from table.core.clock import ManualClock, ManualTimer
from table.core.posts import Ctx
from table.core.tables import Tables
from table.play.commands import Commands
from table.posting.announce import Announcer, RecordingOutlet

SERVERS = 3
PLAYERS = 12
START = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def board(view: dict[str, Any], *, names: dict[str, str], locale: str) -> bytes:
    """A stand-in board: drawing is not what is counted here."""
    out = io.BytesIO()
    Image.new("P", (4, 4)).save(out, format="PNG")
    return out.getvalue()


@dataclass
class Requests:
    """What reached Discord while the moves were played, by kind."""

    moves: int = 0
    handovers: int = 0
    """Posts and edits in the games' channels."""
    cards: int = 0
    """Direct messages sent or edited as players' cards."""
    lists: int = 0
    """Posts and edits of the servers' lists of games."""
    forced: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    tables: Counter[str] = field(default_factory=Counter)

    @property
    def total(self) -> int:
        return self.handovers + self.cards + self.lists


def count(outlet: RecordingOutlet) -> tuple[int, int, int]:
    """(posts and edits in games' channels, card requests, list requests) so far."""
    assert outlet.sent is not None and outlet.edits is not None and outlet.dms is not None
    posted = [c for c, _ in outlet.sent] + [c for c, _, _ in outlet.edits]
    lists = sum(1 for c in posted if c.startswith("list-"))
    return len(posted) - lists, len(outlet.dms) + len(outlet.dm_edits), lists


async def run(tables: int, moves: int, every: float, seed: int, *, cards: bool) -> Requests:
    folder = Path(tempfile.mkdtemp())
    store = await db.open_store(folder / "bench.sqlite3")
    seeds = iter(range(seed * 1000, seed * 1000 + 10_000))
    timer, clock = ManualTimer(), ManualClock(START)
    outlet = RecordingOutlet()
    layer = Tables(
        store, limits=DISCORD_LIMITS, render=board, render_private=board, seed_source=lambda: next(seeds)
    )
    announcer = Announcer(layer, outlet, clock=clock, coalesce=0, listing_timer=timer.timer)
    commands = Commands(layer, announcer)
    rng = random.Random(seed)
    pool = [f"p{n}" for n in range(PLAYERS)]

    def ctx(player: str, channel: str, *, admin: bool = False) -> Ctx:
        guild = f"g{int(channel[1:]) % SERVERS}" if channel.startswith("c") else channel
        return Ctx(channel, player, player, "en", "en", guild_id=guild, admin=admin)

    async def settle(channel: str | None = None) -> None:
        await announcer.drain(channel or "")
        while not announcer.listings.quiet():
            await asyncio.sleep(0)

    channels = [f"c{n}" for n in range(tables)]
    games: dict[str, str] = {}
    for n, channel in enumerate(channels):
        name, players = TABLES[n % len(TABLES)]
        seated = rng.sample(pool, players)
        games[channel] = name
        await commands.new(ctx(seated[0], channel), name, players)
        for player in seated[1:]:
            await commands.join(ctx(player, channel))
        await commands.start(ctx(seated[0], channel))
        await settle(channel)
    if cards:
        for player in pool:
            await commands.games(ctx(player, "c0"), card=True)
        for server in range(SERVERS):
            await commands.settings(ctx("admin", f"c{server}", admin=True), games_channel=f"list-g{server}")
    await timer.advance(60)
    await settle()
    before = count(outlet)
    result = Requests()
    while result.moves < moves:
        opened = [(c, await layer.open(c)) for c in channels]
        running = [c for c, t in opened if t is not None and t.record.status == "active"]
        if not running:
            break
        channel = rng.choice(running)
        table = await layer.open(channel)
        assert table is not None and table.state is not None
        player = rng.choice(table.to_act())
        action = rng.choice(table.game.legal_actions(table.state, player))
        await commands.play(ctx(player, channel), f"v{table.record.version}:{action}")
        result.moves += 1
        await settle(channel)
        clock.advance(timedelta(seconds=every))
        await timer.advance(every)
        await settle()
    await timer.advance(60)  # the refreshes still waiting for their minute
    await settle()
    after = count(outlet)
    result.handovers, result.cards, result.lists = (a - b for a, b in zip(after, before, strict=True))
    for channel in channels:
        table = await layer.latest(channel)
        assert table is not None
        label = f"{games[channel]} {len(table.record.seats)}p"
        result.tables[label] += 1
        for entry in await store.actions(table.record.id):
            (result.forced if entry.auto else result.decisions)[label] += 1
    announcer.stop()
    await store.close()
    return result


def report(on: Requests, off: Requests, every: float) -> None:
    print(f"one move every {every:g} s of play; cards and lists refreshed at most once a minute")
    print("| run | moves | requests | per move | handover posts and edits | cards | lists |")
    print("|---|---|---|---|---|---|---|")
    for name, r in (("cards and lists on", on), ("off", off)):
        print(
            f"| {name} | {r.moves} | {r.total} | {r.total / max(1, r.moves):.2f} | {r.handovers} |"
            f" {r.cards} | {r.lists} |"
        )
    print()
    print("| game | tables | decisions made by hand | forced, played for the player | forced share |")
    print("|---|---|---|---|---|")
    for label in sorted(on.tables):
        forced, hand = on.forced[label], on.decisions[label]
        share = forced / max(1, forced + hand)
        print(f"| {label} | {on.tables[label]} | {hand} | {forced} | {share:.1%} |")
    forced, hand = sum(on.forced.values()), sum(on.decisions.values())
    print(f"| all | {sum(on.tables.values())} | {hand} | {forced} | {forced / max(1, forced + hand):.1%} |")


async def main_async(tables: int, moves: int, every: float, seed: int) -> None:
    on = await run(tables, moves, every, seed, cards=True)
    off = await run(tables, moves, every, seed, cards=False)
    assert on.moves == off.moves and on.decisions == off.decisions, "the same games both times"
    report(on, off, every)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tables", nargs="?", type=int, default=20)
    parser.add_argument("--moves", type=int, default=1500, help="moves in all (default 1500)")
    parser.add_argument("--every", type=float, default=5.0, help="seconds of play between two moves")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    asyncio.run(main_async(args.tables, args.moves, args.every, args.seed))


if __name__ == "__main__":
    main()
