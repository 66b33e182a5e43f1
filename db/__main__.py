"""Move a server's games between stores, SQLite and PostgreSQL, in either direction.

    python -m db export --from data/bot.sqlite3 > dump.jsonl
    python -m db import --to postgresql://bot:secret@db/bot < dump.jsonl
    python -m db recompute-ratings --db data/bot.sqlite3

Stop the bot first (or export a copy): an export is one consistent snapshot, but moves made after
it are not in it. Both commands bring the schema of the database they open up to date, as the bot
does at start-up. An import needs an empty database (a new file, or a new PostgreSQL database) and
lands completely or not at all. ``recompute-ratings`` rebuilds every rating from the stored results
of the finished games (the same numbers, as ratings are a function of them), and gives results recorded
before schema 8 what each player played, from their games' states. What was done, or why not, goes
to standard error.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO, cast

import db
from db.errors import StoreError
from db.transfer import Dumpable, dump_lines, no_rows, parse_dump


def _describe(target: str) -> str:
    if db.is_postgres_url(target):
        from db.postgres import describe

        return describe(target)
    return target


async def _open(target: str) -> Dumpable:
    return cast(Dumpable, await db.open_store(target))


async def export(source: str, out: BinaryIO) -> dict[str, int]:
    """Write the dump of ``source`` to ``out``; the rows written per table."""
    if not db.is_postgres_url(source) and not Path(source).is_file():
        raise StoreError(f"there is no database file at {source}")
    store = await _open(source)
    counts = no_rows()
    try:
        async for text in dump_lines(await store.schema(), store.export_rows(), counts):
            out.write(text.encode("utf-8"))
        out.flush()
    finally:
        await store.close()
    return counts


async def import_(target: str, lines: Iterable[str]) -> dict[str, int]:
    """Load a dump into the empty database ``target``; the rows stored per table."""
    store = await _open(target)
    counts = no_rows()
    try:
        await store.import_rows(parse_dump(lines, await store.schema(), counts))
    finally:
        await store.close()
    return counts


async def recompute(target: str) -> int:
    """Rebuild every rating of ``target`` from its stored results; the number of rated results."""
    if not db.is_postgres_url(target) and not Path(target).is_file():
        raise StoreError(f"there is no database file at {target}")
    from table.core.ratings import use_engine_sides  # the command line wires the rules to the store

    use_engine_sides()
    store = await db.open_store(target)
    try:
        return await store.recompute_ratings()
    finally:
        await store.close()


def _summary(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {name}" for name, n in counts.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m db", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    out = commands.add_parser("export", help="write every table of a store as JSON lines to standard output")
    out.add_argument("--from", dest="source", required=True, help="a SQLite file or a postgresql:// URL")
    into = commands.add_parser("import", help="load a dump from standard input into an empty store")
    into.add_argument("--to", dest="target", required=True, help="a SQLite file or a postgresql:// URL")
    again = commands.add_parser("recompute-ratings", help="rebuild every rating from the stored results")
    again.add_argument("--db", dest="target", required=True, help="a SQLite file or a postgresql:// URL")
    args = parser.parse_args(argv)
    try:
        if args.command == "export":
            counts = asyncio.run(export(args.source, sys.stdout.buffer))
            print(f"exported from {_describe(args.source)}: {_summary(counts)}", file=sys.stderr)
        elif args.command == "recompute-ratings":
            rated = asyncio.run(recompute(args.target))
            where = _describe(args.target)
            print(f"recomputed the ratings of {where} from {rated} rated games", file=sys.stderr)
        else:
            lines = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
            counts = asyncio.run(import_(args.target, lines))
            print(f"imported into {_describe(args.target)}: {_summary(counts)}", file=sys.stderr)
    except (StoreError, OSError) as exc:
        print(f"{args.command} refused: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
