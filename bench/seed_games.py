"""Fill a SQLite store with many stored games, as a server that has played for months holds them.

Usage: python -m bench.seed_games PATH [games] (default 10,000)

A handful of template games are played through the table layer (a game of every game and table
size, some moves in, each announced; the same ones resigned, so finished with their result; a
lobby), then their rows are copied, in every table that holds a game's rows, under new game ids, each
in a channel and server of its own: every copy is a whole game as the bot stored it, announced, and
nothing is left for the start-up catch-up to post. Copying keeps a 10,000-game store quick to make.

The module uses only the table layer's long-standing calls (``Commands.new``, ``join``, ``start``,
``play``, ``resign``) and reads the schema from the file, so it also fills a store for an older
revision of the bot: run it as a script with that revision first on ``PYTHONPATH``
(``bench.startup`` does so for ``--against``).
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import random
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

FORMATS = (
    ("warchest", 2),
    ("warchest", 4),
    ("batailles", 2),
    ("cryhavoc", 2),
    ("cryhavoc", 3),
    ("cryhavoc", 4),
)
GUILDS = 50
"""Servers the copies are spread over."""
FIRST_CHANNEL = 4_000_000_000_000_000_000
"""Channel ids of the copies count up from here (Discord-sized snowflakes); server ids too."""


class _NoOutlet:
    """Posts go nowhere: the templates are announced, nothing is shown. (Written out rather than taken
    from the table layer, whose revision under test may lack some of these.) ``message_id`` names
    the message a post would have been."""

    def __init__(self, message_id: Callable[[str], str]) -> None:
        self.message_id = message_id

    async def send(self, channel: str, post: Any) -> str:
        return self.message_id(channel)

    async def edit(self, channel: str, message: str, post: Any) -> bool:
        return True

    async def direct(self, user: str, post: Any) -> bool:
        return True

    async def send_direct(self, user: str, post: Any) -> str | None:
        return None

    async def edit_direct(self, user: str, message: str, post: Any) -> bool:
        return True

    async def edit_kept(self, channel: str, message: str, post: Any) -> bool:
        return True


class _NoDrawer:
    """No image: the templates are stored as they would be, without drawing their boards."""

    async def draw(
        self, kind: str, view: dict[str, Any], *, names: dict[str, str], locale: str, outdated: Any = None
    ) -> bytes:
        return b""

    def idle(self) -> bool:
        return True


def _no_image(*_args: Any, **_kwargs: Any) -> bytes:
    return b""


def table_module(*paths: str) -> Any:
    """The first of ``paths`` the imported revision has: the table layer's modules were one flat
    package (``table.tables``) before they were grouped (``table.core.tables``)."""
    for path in paths:
        try:
            return importlib.import_module(path)
        except ModuleNotFoundError as missing:
            if missing.name is None or not path.startswith(missing.name):
                raise
    raise ModuleNotFoundError(f"none of {', '.join(paths)}")


async def commands_over(
    store: Any, seed_source: Callable[[], int] = lambda: 5, message_id: Callable[[str], str] = "m{}".format
) -> Any:
    """The command handlers over ``store``, built for whichever revision of the table layer is
    imported (a drawer and an announcer today; a renderer and no announcer long ago)."""
    Tables = table_module("table.core.tables", "table.tables").Tables
    Commands = table_module("table.play.commands", "table.commands").Commands

    wanted = inspect.signature(Tables).parameters
    # the front end's limits, which the table layer was handed from a revision on
    given = {"limits": importlib.import_module("launch").DISCORD_LIMITS} if "limits" in wanted else {}
    if "drawer" in wanted:
        tables = Tables(store, **given, drawer=_NoDrawer(), seed_source=seed_source)
    else:
        tables = Tables(store, **given, render=_no_image, render_private=_no_image)
    if len(inspect.signature(Commands).parameters) > 1:
        Announcer = table_module("table.posting.announce", "table.announce").Announcer
        return Commands(tables, Announcer(tables, _NoOutlet(message_id), coalesce=0))
    return Commands(tables)


async def drain(commands: Any) -> None:
    announcer = getattr(commands, "announcer", None)
    if announcer is not None:
        await announcer.drain()


def _ctx(channel: str, player: str) -> Any:
    Ctx = table_module("table.core.posts", "table.posts").Ctx
    return Ctx(channel, player, f"Player {player}", "en", "en")


async def play_templates(path: Path, rng: random.Random) -> None:
    """Store the template games: every format some moves in, the same ones resigned, one lobby."""
    import db
    import engine

    store = await db.open_store(path)
    try:
        commands = await commands_over(store)
        for n, (name, seats) in enumerate(FORMATS * 2):
            channel = f"template{n}"
            players = [f"{100 + seat}" for seat in range(seats)]
            await commands.new(_ctx(channel, players[0]), name, seats)
            for player in players[1:]:
                await commands.join(_ctx(channel, player))
            await commands.start(_ctx(channel, players[0]))
            game = engine.get_game(name)
            for _ in range(rng.randrange(4, 24)):
                table = await commands.tables.open(channel)
                if table is None or table.state is None or game.is_over(table.state):
                    break
                actor = game.to_act(table.state)[0]
                action = rng.choice(game.legal_actions(table.state, actor))
                await commands.play(_ctx(channel, actor), str(action))
            await drain(commands)
            if n >= len(FORMATS):
                table = await commands.tables.open(channel)
                if table is not None:
                    await commands.resign(_ctx(channel, players[0]))
                    await drain(commands)
        await commands.new(_ctx("template-lobby", "100"), "warchest", 2)
        await drain(commands)
    finally:
        await store.close()


def copy_games(path: Path, games: int) -> int:
    """Copy the template games (every row of theirs) until the store holds ``games`` games; how many
    games it holds."""
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        columns = {t: [r[1] for r in conn.execute(f"PRAGMA table_info({t})")] for t in names}
        own = {t: cols for t, cols in columns.items() if "game_id" in cols}
        templates = [r[0] for r in conn.execute("SELECT id FROM games ORDER BY id")]
        rows: dict[str, dict[int, list[tuple[Any, ...]]]] = {}
        for table, cols in {"games": columns["games"], **own}.items():
            key = "id" if table == "games" else "game_id"
            kept = [c for c in cols if not (c == "id" and table != "games")]
            rows[table] = {}
            for row in conn.execute(f"SELECT {', '.join(kept)} FROM {table}"):
                record = dict(zip(kept, row, strict=True))
                rows[table].setdefault(record[key], []).append(row)
            columns[table] = kept
        next_id = int(conn.execute("SELECT max(id) FROM games").fetchone()[0]) + 1
        with conn:
            for n in range(games - len(templates)):
                template = templates[n % len(templates)]
                game_id = next_id + n
                for table, by_game in rows.items():
                    cols = columns[table]
                    fresh = []
                    for row in by_game.get(template, []):
                        record = dict(zip(cols, row, strict=True))
                        if table == "games":
                            record["id"] = game_id
                            record["channel"] = str(FIRST_CHANNEL + game_id)
                            if "guild" in record:
                                record["guild"] = str(FIRST_CHANNEL - 1 - game_id % GUILDS)
                        else:
                            record["game_id"] = game_id
                        fresh.append(tuple(record[c] for c in cols))
                    if fresh:
                        marks = ", ".join("?" for _ in cols)
                        conn.executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})", fresh)
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
    finally:
        conn.close()


def seed(path: Path, games: int = 10_000, *, seed: int = 1) -> int:
    """Fill a new store at ``path`` with ``games`` stored games; how many it holds."""
    asyncio.run(play_templates(path, random.Random(seed)))
    return copy_games(path, games)


def main(argv: list[str]) -> None:
    if not argv or any(not a.isdigit() for a in argv[1:]):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        raise SystemExit(2)
    games = int(argv[1]) if len(argv) > 1 else 10_000
    print(f"{seed(Path(argv[0]), games)} games stored in {argv[0]}")


if __name__ == "__main__":
    main(sys.argv[1:])
