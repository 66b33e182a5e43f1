"""Board image cost per game: PNG size, render time and how it splits between drawing and encoding.

Usage: python -m bench.render_bench [runs] [--against REV] | --phone FOLDER

Each game's view comes from a seeded random game stopped where the board is busy (units, stacks,
control, a last action; for Cry Havoc four players with a battle under way when one comes up): what
players see after a typical move. For every game the bench prints

- the PNG's size and dimensions, the first (cold) render and the median of ``runs`` warm renders
  (the same view again: every band of the PNG is reused, the best case of ``render.png``);
- the drawing time and the encoding time from scratch (quantising to the game's palette and
  deflating every band), and the palette PNG against an RGB PNG of the same picture (bytes and
  encoding time, as ratios);
- the text measurements' cache: a render whose caches of widths are emptied before every run
  against a warm one (time ratio; the images are the same).

With ``--against REV`` the renderer of git revision ``REV`` (its ``render/`` folder, unpacked into
a temporary folder) draws the same views in a subprocess, and each figure is printed as a ratio
new/old: size, width x height, warm render time. Only ``render/`` is taken from ``REV``; the
catalogs and engines are the current ones.

``--phone FOLDER`` writes each view's board scaled to a phone's chat width instead (the README's
pictures, ``docs/images/phone/``).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from PIL import Image

import engine
import render
from bench import take_option
from engine.rng import Rng
from render import palettes, png, text
from render.common import to_png

NAMES = {"111": "Alice", "222": "Bérénice", "333": "Chloé", "444": "Dmitri"}
ROOT = Path(__file__).resolve().parents[1]

View = dict[str, Any]


def _play(
    game_name: str, players: int, seed: int, stop: Callable[[View, int], bool], limit: int = 3000
) -> View:
    """A seeded random game of ``game_name`` until ``stop(view, step)`` holds; that view (seen by
    the first player)."""
    game = engine.get_game(game_name)
    ids = list(NAMES)[:players]
    state = game.new_game(ids, seed=seed, options={})
    chooser = Rng(seed)
    for step in range(limit):
        view = game.view(state, None)
        if stop(view, step) or game.is_over(state):
            break
        player = game.to_act(state)[0]
        legal = game.legal_actions(state, player)
        state, _events = game.apply(state, player, legal[chooser.below(len(legal))])
    return game.view(state, ids[0])


def typical_view(actions: int = 60, seed: int = 7) -> View:
    """A War Chest view after ``actions`` random moves, seen by the first player."""
    return _play("warchest", 2, seed, lambda _v, step: step >= actions)


def views() -> dict[str, View]:
    """One busy view per game (and Cry Havoc's two map sides)."""
    return {
        "warchest": typical_view(),
        "batailles": _play("batailles", 2, 3, lambda v, step: step >= 120 and v["phase"] == "play"),
        "cryhavoc 2p": _play("cryhavoc", 2, 4, lambda _v, step: step >= 40),
        "cryhavoc 4p": _play("cryhavoc", 4, 5, lambda v, step: step >= 40 and v["battle"] is not None),
    }


def _median(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(all_views: dict[str, View], runs: int) -> dict[str, dict[str, float]]:
    """Size, dimensions, cold and warm render times of each view with the ``render`` imported here."""
    out: dict[str, dict[str, float]] = {}
    for name, view in all_views.items():
        start = time.perf_counter()
        png = render.render(view, names=NAMES, locale="fr")
        cold = time.perf_counter() - start
        image = Image.open(io.BytesIO(png))
        warm = _median(partial(render.render, view, names=NAMES, locale="fr"), runs)
        out[name] = {
            "bytes": len(png),
            "width": image.width,
            "height": image.height,
            "cold": cold,
            "warm": warm,
        }
    return out


def _rgb_png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


def _compose(view: View, lead: bool = False) -> Image.Image:
    module = {"warchest": "warchest", "batailles": "batailles", "cryhavoc": "cryhavoc"}[view["game"]]
    images = sys.modules[f"render.{module}.images"]
    page: Image.Image = images.compose(view, names=NAMES, locale="fr", lead=lead)
    return page


def _clear_text_caches() -> None:
    for cached in (text.text_width, text._run_width, text.fit, text._plan, text.clusters):
        cached.cache_clear()


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def report(all_views: dict[str, View], runs: int) -> dict[str, dict[str, float]]:
    figures = measure(all_views, runs)
    for name, view in all_views.items():
        f = figures[name]
        page = _compose(view, lead=True)
        picture = page.crop((1, 0, page.width, page.height))
        palette = palettes.load(view["game"])
        draw = _median(partial(_compose, view, lead=True), runs)

        def from_scratch(p: Image.Image = page, pal: Image.Image = palette) -> bytes:
            png.forget()  # every band deflated, as for a board unlike any before it
            return to_png(p, pal, lead=True)

        palette_time = _median(from_scratch, runs)
        rgb_time = _median(partial(_rgb_png, picture), runs)
        palette_bytes, rgb_bytes = len(from_scratch()), len(_rgb_png(picture))

        def uncached(v: View = view) -> None:
            _clear_text_caches()
            render.render(v, names=NAMES, locale="fr")

        cold_text = _median(uncached, max(3, runs // 4))
        warm = _median(partial(render.render, view, names=NAMES, locale="fr"), max(3, runs // 4))
        print(
            f"render {name}: {int(f['width'])}x{int(f['height'])}, PNG {f['bytes'] / 1024:.0f} KiB; "
            f"first {_ms(f['cold'])}, median of {runs} warm {_ms(f['warm'])} "
            f"(drawing {_ms(draw)}, encoding from scratch {_ms(palette_time)})"
        )
        print(
            f"  palette PNG / RGB PNG: bytes {palette_bytes / rgb_bytes:.2f}, encoding time "
            f"{palette_time / rgb_time:.2f}; text widths cached / measured anew: time {warm / cold_text:.2f}"
        )
    return figures


_OLD = """
import json, statistics, sys, time, io
from PIL import Image
import render
views, runs = json.load(open(sys.argv[1])), int(sys.argv[2])
names = {"111": "Alice", "222": "Bérénice", "333": "Chloé", "444": "Dmitri"}
out = {}
for name, view in views.items():
    png = render.render(view, names=names, locale="fr")
    image = Image.open(io.BytesIO(png))
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        render.render(view, names=names, locale="fr")
        times.append(time.perf_counter() - start)
    warm = statistics.median(times)
    out[name] = {"bytes": len(png), "width": image.width, "height": image.height, "warm": warm}
print(json.dumps(out))
"""


@contextlib.contextmanager
def renderer_of(revision: str) -> Iterator[tuple[str, dict[str, str]]]:
    """A temporary folder holding revision ``revision``'s ``render/``, and an environment whose
    Python finds that renderer before the current one (everything else is the current tree's)."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", revision, "render"], check=True, capture_output=True
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        yield tmp, dict(os.environ, PYTHONPATH=os.pathsep.join([tmp, str(ROOT)]))


def against(revision: str, all_views: dict[str, View], runs: int) -> dict[str, dict[str, float]]:
    """The figures of revision ``revision``'s renderer on the same views, from a subprocess."""
    with renderer_of(revision) as (tmp, env):
        views_file = Path(tmp) / "views.json"
        views_file.write_text(json.dumps(all_views), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-c", _OLD, str(views_file), str(runs)],
            check=True,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp,
        )
    figures: dict[str, dict[str, float]] = json.loads(done.stdout)
    return figures


PHONE_WIDTH = 400
"""About the width at which Discord shows an image in a phone's chat."""


def phone_pictures(all_views: dict[str, View], folder: Path) -> None:
    """Each view's board as a phone shows it in the chat (``PHONE_WIDTH`` pixels wide), one PNG per
    view in ``folder``: what a player sees before opening the image."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, view in all_views.items():
        with Image.open(io.BytesIO(render.render(view, names=NAMES, locale="en"))) as board:
            height = round(board.height * PHONE_WIDTH / board.width)
            small = board.convert("RGB").resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS)
        target = folder / f"{name.replace(' ', '-')}.png"
        small.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(target)
        print(f"{target}: {PHONE_WIDTH}x{height}", flush=True)


def main(argv: list[str]) -> None:
    args = list(argv)
    if "--phone" in args:
        at = args.index("--phone")
        phone_pictures(views(), Path(args[at + 1]))
        return
    revision = take_option(args, "--against")
    runs = int(args[0]) if args else 20
    all_views = views()
    new = report(all_views, runs)
    if revision is None:
        return
    old = against(revision, all_views, runs)
    print(f"against {revision} (new / old):")
    for name in all_views:
        n, o = new[name], old[name]
        print(
            f"  {name}: bytes {n['bytes'] / o['bytes']:.2f} "
            f"({o['bytes'] / 1024:.0f} -> {n['bytes'] / 1024:.0f} KiB), "
            f"height {n['height'] / o['height']:.2f} ({int(o['width'])}x{int(o['height'])} -> "
            f"{int(n['width'])}x{int(n['height'])}), warm render time {n['warm'] / o['warm']:.2f} "
            f"({_ms(o['warm'])} -> {_ms(n['warm'])})"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
