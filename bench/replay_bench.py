"""A whole game's replay (``/game replay``): its size and how long it takes to make, before and after.

Usage: python -m bench.replay_bench [script ...]

Each script (default: every whole game in ``docs/examples/``) is played through the console's table
layer on a SQLite file, with a stand-in board so that playing costs nothing; its replay's frames are
then the public views at each handover, exactly as ``/game replay`` gathers them. For each game the
bench prints the frames, then for each way of making the GIF its size, the time to make it from the
views (drawing every board included), the frames it kept and their size:

- ``before``: each board quantised to a palette of its own (median cut, 128 colours) at 560 px wide,
  narrower then fewer frames until under 8 MB (the replay as it was first written), in a new process
  that drew one board of the game first;
- ``now``: ``render.animation.animate``, the same way;
- ``now, pool``: ``/game replay``'s own path, a drawing job in the bot's worker pool (one worker,
  warmed up as at start-up), the views sent down its pipe and the GIF back.

Figures depend on the machine's load; give them with the load (``uptime``) they were taken at.
"""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PIL import Image

from launch import DISCORD_LIMITS

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("warchest", "batailles", "cryhavoc")
EXAMPLES = sorted(
    p for p in (ROOT / "docs" / "examples").glob("*-console.txt") if p.name.split("-")[0] in GAMES
)
"""The README's whole games in the console (not the records example, eight games in one script)."""

View = dict[str, Any]


def _stand_in(view: View, *, names: dict[str, str], locale: str) -> bytes:
    out = io.BytesIO()
    Image.new("P", (2, 2)).save(out, format="PNG")
    return out.getvalue()


async def _play_script(script: Path, folder: Path) -> tuple[list[View], dict[str, str]]:
    import db
    from console.app import Console
    from table.core.replay import handovers, played
    from table.core.tables import Tables
    from table.play.commands import Commands
    from table.posting.announce import Announcer

    store = await db.open_store(folder / "replay.sqlite3")
    try:
        console = Console(None, io.StringIO(), folder / "images")
        tables = Tables(store, limits=DISCORD_LIMITS, render=_stand_in, render_private=_stand_in)
        commands = Commands(tables, Announcer(tables, console, coalesce=0))
        console.table = commands
        for line in script.read_text(encoding="utf-8").splitlines():
            await console.run_line(line)
        await commands.announcer.drain()
        record = await store.latest_game("console")
        assert record is not None and record.status != "lobby", f"{script.name} started no game"
        table = tables.table(record)
        log = await store.actions(record.id)
        frames = handovers(table.game, record.player_ids, record.seed, record.options, played(log))
        return frames, dict(table.names)
    finally:
        await store.close()


def script_frames(script: Path) -> tuple[list[View], dict[str, str]]:
    """The replay frames of the game ``script`` (console lines) plays, and its players' names."""
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(_play_script(script, Path(tmp)))


# ---- the replay as first written, for comparison -------------------------------------------------

_BEFORE_WIDTHS = (560, 440, 360)
_BEFORE_LIMIT = 8 * 1024 * 1024


def _before_frame(png: bytes, width: int) -> Image.Image:
    with Image.open(io.BytesIO(png)) as board:
        img = board.convert("RGB")
        height = max(1, round(img.height * width / img.width))
        small = img.resize((width, height), Image.Resampling.LANCZOS)
    return small.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _before_encode(frames: list[Image.Image]) -> bytes:
    out = io.BytesIO()
    durations = [900] * (len(frames) - 1) + [4000]
    frames[0].save(
        out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False
    )
    return out.getvalue()


def before(views: Sequence[View], *, names: dict[str, str], locale: str) -> bytes:
    """The replay as the bot first made it: a palette of its own per frame, fewer frames if too big."""
    from render import render

    boards = [render(view, names=names, locale=locale) for view in views]
    count = len(boards)
    while True:
        for width in _BEFORE_WIDTHS:
            step = (len(boards) - 1) / max(1, count - 1)
            kept = boards if count >= len(boards) else [boards[round(i * step)] for i in range(count)]
            data = _before_encode([_before_frame(png, width) for png in kept])
            if len(data) <= _BEFORE_LIMIT:
                return data
        if count <= 2:
            return data
        count = max(2, count * 2 // 3)


def measure(
    make: Callable[..., bytes], views: Sequence[View], names: dict[str, str], locale: str = "en"
) -> dict[str, float]:
    """One replay made by ``make`` in this process: its bytes, seconds and frames."""
    start = time.perf_counter()
    data = make(views, names=names, locale=locale)
    return _figures(data, time.perf_counter() - start)


def _figures(data: bytes, seconds: float) -> dict[str, float]:
    with Image.open(io.BytesIO(data)) as gif:
        frames = getattr(gif, "n_frames", 1)
        width, height = gif.size
    return {"bytes": len(data), "seconds": seconds, "frames": frames, "width": width, "height": height}


def _fresh(label: str, views: Sequence[View], names: dict[str, str]) -> dict[str, float]:
    """``measure`` in a new process that has drawn the game's first board (its static layers built)."""
    from render import render
    from render.animation import animate

    render(views[0], names=names, locale="en")
    return measure(before if label == "before" else animate, views, names)


async def _in_pool(views: Sequence[View], names: dict[str, str]) -> dict[str, float]:
    from table.core.drawing import ProcessDrawer

    drawer = ProcessDrawer(workers=1)
    try:
        drawer.warm(["en"])
        await drawer.until_warm()
        start = time.perf_counter()
        data = await drawer.draw("replay", {"frames": list(views)}, names=names, locale="en")
        return _figures(data, time.perf_counter() - start)
    finally:
        drawer.close()


def main(argv: list[str]) -> None:
    scripts = [Path(a) for a in argv] or EXAMPLES
    context = multiprocessing.get_context("spawn")
    for script in scripts:
        views, names = script_frames(script)
        print(f"{script.name}: {len(views)} handovers", flush=True)
        rows = []
        for label in ("before", "now"):
            with context.Pool(1) as pool:
                rows.append((label, pool.apply(_fresh, (label, views, names))))
        rows.append(("now, pool", asyncio.run(_in_pool(views, names))))
        for label, m in rows:
            print(
                f"  {label:10} {m['bytes'] / 1024 / 1024:5.2f} MB  {m['seconds']:5.1f} s  "
                f"{int(m['frames'])} frames  {int(m['width'])}x{int(m['height'])}",
                flush=True,
            )
        (_, old), (_, new) = rows[:2]
        size, seconds = new["bytes"] / old["bytes"], new["seconds"] / old["seconds"]
        print(f"  now / before: size {size:.2f}, time {seconds:.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
