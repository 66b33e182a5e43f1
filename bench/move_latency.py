"""A move's cost, end to end below the front ends, against its floor.

Usage: python -m bench.move_latency [moves] [game] [--players N] [--against REV]

``N`` players (two unless told; War Chest and Cry Havoc also take four) play a seeded random game
through ``table.play.commands.Commands.play`` on a real SQLite file (WAL, one transaction per move) with
the real renderer in the worker pool, and each move is timed until its board is drawn and handed to
the channel (the announcer's post or edit): what a player waits for after a Discord ``/play``. The
announcer's bookkeeping after the handover (recording the post, releasing its claim) is timed too,
as "settled", and the next move waits for it.

The floor of a move is what no bot can avoid: encoding that same finished image as PNG once (the
palette image as the bot sends it, decoded and encoded again from scratch by Pillow at the
renderer's zlib level) plus one SQLite commit. The bot's own encoder reuses the bands that did not
change since earlier boards (``render.png``), so its encoding costs less than the floor's. Prints
the move's median and 99th percentile, the floor's median, their ratio and the settled median.

With ``--against REV`` the same game is also played, in a subprocess, with the renderer of git
revision ``REV`` (its ``render/`` only), and both are printed.
"""

from __future__ import annotations

import asyncio
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from PIL import Image

import db
from bench import take_option
from engine.rng import Rng
from launch import DISCORD_LIMITS
from table.core.drawing import ProcessDrawer
from table.core.posts import Post
from table.core.tables import Table, Tables
from table.play.commands import Commands, Ctx
from table.posting.announce import Announcer, RecordingOutlet

ROOT = Path(__file__).resolve().parents[1]


class TimedOutlet(RecordingOutlet):
    """A recording outlet that notes when the last post or edit was handed to it."""

    handed = 0.0

    async def send(self, channel: str, post: Post) -> str:
        self.handed = time.perf_counter()
        return await super().send(channel, post)

    async def edit(self, channel: str, message: str, post: Post) -> bool:
        self.handed = time.perf_counter()
        return await super().edit(channel, message, post)


def random_move(table: Table, chooser: Rng) -> tuple[str, str] | None:
    """A player to act and one of their legal moves, drawn by ``chooser``; None once the game is over."""
    acting = table.to_act()
    if not acting:
        return None
    player = acting[chooser.below(len(acting))]
    legal = table.game.legal_actions(table.state, player)
    return player, str(legal[chooser.below(len(legal))])


def _ctx(user: str) -> Ctx:
    return Ctx(channel_id="bench", user_id=user, user_name=user.title(), locale="en", channel_locale="en")


def encode_time(png: bytes) -> float:
    """How long encoding this finished image takes (the renderer's PNG settings)."""
    with Image.open(io.BytesIO(png)) as decoded:
        image = decoded.copy()
    start = time.perf_counter()
    image.save(io.BytesIO(), format="PNG", optimize=False, compress_level=6)
    return time.perf_counter() - start


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


SEATS = ("alice", "bob", "carol", "dave")


async def run(moves: int, game_name: str, players: int = 2) -> dict[str, Any]:
    drawer = ProcessDrawer(workers=1)
    with tempfile.TemporaryDirectory() as tmp:
        store = await db.open_store(Path(tmp) / "bench.sqlite3")
        try:
            outlet = TimedOutlet()
            tables = Tables(store, limits=DISCORD_LIMITS, drawer=drawer, seed_source=lambda: 7)
            commands = Commands(tables, Announcer(tables, outlet, coalesce=0))
            seated = [_ctx(name) for name in SEATS[:players]]
            await commands.new(seated[0], game_name, players)
            for ctx in seated[1:]:
                await commands.join(ctx)
            await commands.start(seated[0])
            await commands.announcer.drain()
            chooser = Rng(1)
            timings: list[float] = []
            settled: list[float] = []
            floors: list[float] = []
            sizes: list[int] = []
            for _ in range(moves):
                table = await tables.latest("bench")
                assert table is not None
                move = random_move(table, chooser)
                if move is None:
                    break
                player, action = move
                sent, edited = len(outlet.sent or []), len(outlet.edits or [])
                start = time.perf_counter()
                await commands.play(_ctx(player), action)
                await commands.announcer.drain("bench")
                settled.append(time.perf_counter() - start)
                timings.append(outlet.handed - start)
                new = [p for _c, p in (outlet.sent or [])[sent:]]
                new += [p for *_w, p in (outlet.edits or [])[edited:]]
                shown = [p.image for p in new if p.image is not None]
                assert shown, "every move's board is shown"
                png = shown[-1]
                sizes.append(len(png))
                start = time.perf_counter()
                await store.set_meta("bench", str(len(timings)))  # one commit
                commit = time.perf_counter() - start
                floors.append(encode_time(png) + commit)
        finally:
            await store.close()
            drawer.close()
    return {
        "moves": len(timings),
        "p50": statistics.median(timings),
        "p99": percentile(timings, 0.99),
        "settled": statistics.median(settled),
        "floor": statistics.median(floors),
        "bytes": statistics.median(sizes),
        "drawings": drawer.calls / max(1, len(timings)),
    }


def show(label: str, r: dict[str, Any]) -> None:
    print(
        f"{label}: {r['moves']} moves; move p50 {r['p50'] * 1000:.0f} ms, p99 {r['p99'] * 1000:.0f} ms; "
        f"floor p50 {r['floor'] * 1000:.0f} ms; p50 / floor {r['p50'] / r['floor']:.2f}; "
        f"settled p50 {r.get('settled', r['p50']) * 1000:.0f} ms; "
        f"PNG median {r['bytes'] / 1024:.0f} KiB; {r.get('drawings', 1):.2f} drawings a move",
        flush=True,
    )


def against(revision: str, moves: int, game_name: str, players: int = 2) -> dict[str, Any]:
    from bench.render_bench import renderer_of

    with renderer_of(revision) as (tmp, env):
        done = subprocess.run(
            [sys.executable, "-m", "bench.move_latency", str(moves), game_name, "--json"]
            + (["--players", str(players)] if players != 2 else []),
            check=True,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp,  # first on the path, for the workers too: the old ``render`` package
        )
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main(argv: list[str]) -> None:
    args = list(argv)
    revision = take_option(args, "--against")
    players = int(take_option(args, "--players") or 2)
    numbers = [a for a in args if not a.startswith("--")]
    moves = int(numbers[0]) if numbers else 100
    game_name = numbers[1] if len(numbers) > 1 else "warchest"
    if "--json" in args:
        print(json.dumps(asyncio.run(run(moves, game_name, players))))
        return
    label = f"{game_name} {players}p"
    if revision is not None:
        show(f"{label}, the renderer of {revision}", against(revision, moves, game_name, players))
    show(label, asyncio.run(run(moves, game_name, players)))


if __name__ == "__main__":
    main(sys.argv[1:])
