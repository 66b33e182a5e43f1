"""What a channel receives over a whole game: new messages, in-place edits, pings, image bytes.

Plays one seeded random game per game and table size through the real table layer and announcer
(real SQLite file, real renderer), counting what the announcer sends to its outlet, as a front end
would after every command. Usage: ``python -m bench.posts [seed] [max_moves]``.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import db
import engine
from bench.ai_levels import TABLES
from launch import DISCORD_LIMITS
from table.core.posts import Ctx, Post
from table.core.tables import Tables
from table.play.commands import Commands
from table.posting.announce import Announcer


@dataclass
class CountingOutlet:
    messages: int = 0
    edits: int = 0
    pings: int = 0
    image_bytes: int = 0
    images: int = 0

    async def send(self, channel: str, post: Post) -> str:
        self.messages += 1
        self.pings += len(post.mentions)
        if post.image:
            self.images += 1
            self.image_bytes += len(post.image)
        return f"m{self.messages}"

    async def edit(self, channel: str, message: str, post: Post) -> bool:
        self.edits += 1
        if post.image:
            self.image_bytes += len(post.image)
        return True

    async def direct(self, user: str, post: Post) -> bool:
        return True

    async def send_direct(self, user: str, post: Post) -> str | None:
        return None

    async def edit_direct(self, user: str, message: str, post: Post) -> bool:
        return True

    async def edit_kept(self, channel: str, message: str, post: Post) -> bool:
        return True


async def one_game(name: str, count: int, seed: int, cap: int) -> tuple[int, CountingOutlet]:
    folder = Path(tempfile.mkdtemp())
    store = await db.open_store(folder / "bench.sqlite3")
    outlet = CountingOutlet()
    tables = Tables(store, limits=DISCORD_LIMITS)
    commands = Commands(tables, Announcer(tables, outlet, coalesce=0))
    players = ["alice", "bob", "carol", "dave"][:count]

    def ctx(player: str) -> Ctx:
        return Ctx("chan", player, player, "en", "en")

    await commands.new(ctx(players[0]), name, count, f"seed={seed}")
    for player in players[1:]:
        await commands.join(ctx(player))
    await commands.start(ctx(players[0]))
    await commands.announcer.drain()
    game = engine.get_game(name)
    rng = random.Random(seed)
    moves = 0
    while moves < cap:
        table = await tables.open("chan")
        if table is None or table.record.status != "active" or table.state is None:
            break
        player = rng.choice(table.to_act())
        await commands.play(ctx(player), str(rng.choice(game.legal_actions(table.state, player))))
        await commands.announcer.drain()
        moves += 1
    await store.close()
    return moves, outlet


async def main(seed: int, cap: int) -> None:
    print("| game | players | moves | new messages | edits | pings | images | MB |")
    print("|---|---|---|---|---|---|---|---|")
    for name, count in TABLES:
        moves, out = await one_game(name, count, seed, cap)
        print(
            f"| {name} | {count} | {moves} | {out.messages} | {out.edits} | {out.pings} | {out.images} |"
            f" {out.image_bytes / 1e6:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    asyncio.run(
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 7, int(sys.argv[2]) if len(sys.argv) > 2 else 600)
    )
