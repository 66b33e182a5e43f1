"""The replay of a whole game (``render.animation``): one GIF frame per handover, small enough to post.

The games are the whole scripted games of ``docs/examples``, played through the console's table layer
(``bench.replay_bench.script_frames``); their frames are the public views at each handover, as
``/game replay`` gathers them, drawn by the real renderer.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageSequence, ImageStat

import render
from bench.replay_bench import EXAMPLES, script_frames
from render.animation import FINAL_MS, FRAME_MS, TRANSPARENT, WIDTHS, animate

LIMIT = 2 * 1024 * 1024
TOLERANCE = 3.0
"""Mean difference per channel (of 255) between a decoded frame and its board made as narrow: the
frames are looked up in the game's palette, so edges may take a neighbouring colour."""

View = dict[str, Any]


class Recorder:
    """The real renderer, keeping each board it draws."""

    def __init__(self) -> None:
        self.boards: list[bytes] = []

    def __call__(self, view: View, *, names: dict[str, str], locale: str) -> bytes:
        png = render.render(view, names=names, locale=locale)
        self.boards.append(png)
        return png


def narrowed(png: bytes, width: int) -> Image.Image:
    """A board ``width`` pixels wide, each pixel the average of those it covers."""
    with Image.open(io.BytesIO(png)) as board:
        height = math.ceil(board.height * width / board.width)
        return board.convert("RGB").resize((width, height), Image.Resampling.BOX)


def difference(frame: Image.Image, board: Image.Image) -> float:
    """How far ``frame`` is from ``board`` where the board lies (its top left part; the frame is as
    big as the biggest board of the game)."""
    assert board.width <= frame.width and board.height <= frame.height
    part = frame.crop((0, 0, board.width, board.height))
    return max(ImageStat.Stat(ImageChops.difference(part, board)).mean)


def frames_of(gif: bytes) -> list[tuple[Image.Image, int]]:
    """Each frame of ``gif`` as the screen shows it (RGB), and its delay."""
    with Image.open(io.BytesIO(gif)) as image:
        assert image.format == "GIF" and getattr(image, "is_animated", False)
        return [(f.convert("RGB"), int(f.info["duration"])) for f in ImageSequence.Iterator(image)]


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.name.removesuffix("-console.txt") for p in EXAMPLES])
def test_a_whole_games_replay_has_every_handover_and_stays_under_2_mb(script: Path) -> None:
    views, names = script_frames(script)
    assert len(views) > 10, "a whole game hands over many times"
    recorder = Recorder()
    gif = animate(views, names=names, locale="en", draw=recorder)
    assert len(gif) < LIMIT
    frames = frames_of(gif)
    assert len(frames) == len(views) == len(recorder.boards), "one frame per handover, none merged or dropped"
    assert [delay for _frame, delay in frames] == [FRAME_MS] * (len(views) - 1) + [FINAL_MS]
    heights = [narrowed(png, WIDTHS[0]).height for png in recorder.boards]
    assert frames[0][0].size == (WIDTHS[0], max(heights)), "the tallest board fits whole"
    for n in sorted({0, 1, len(views) // 2, heights.index(max(heights)), len(views) - 1}):
        frame = frames[n][0]
        board = narrowed(recorder.boards[n], WIDTHS[0])
        assert difference(frame, board) < TOLERANCE, f"frame {n} shows its board"
        if n and heights[n - 1] == heights[n]:
            other = narrowed(recorder.boards[n - 1], WIDTHS[0])
            assert difference(frame, other) > difference(frame, board), f"frame {n} is not the one before"


def _warchest_views(count: int) -> list[View]:
    import engine
    from engine.rng import Rng

    game = engine.get_game("warchest")
    state = game.new_game(["a", "b"], 5, {})
    chooser, views = Rng(5), [game.view(state, None)]
    while len(views) < count:
        player = game.to_act(state)[0]
        legal = game.legal_actions(state, player)
        state, _events = game.apply(state, player, legal[chooser.below(len(legal))])
        views.append(game.view(state, None))
    return views


def test_a_position_repeated_keeps_its_frame_as_one_transparent_pixel() -> None:
    """Two handovers may show the same board: the second is still a frame of its own (its delay
    held), stored as a single transparent pixel over the picture already shown."""
    first, second = _warchest_views(2)
    views = [first, second, second, first]
    recorder = Recorder()
    gif = animate(views, names={"a": "Ann", "b": "Bo"}, locale="en", draw=recorder)
    frames = frames_of(gif)
    assert len(frames) == 4
    assert ImageChops.difference(frames[1][0], frames[2][0]).getbbox() is None
    assert _stored(gif, 2) == ((1, 1), TRANSPARENT)
    assert _stored(gif, 1)[0][0] > 1 and _stored(gif, 0)[1] is None, "the first frame is whole"
    assert difference(frames[3][0], narrowed(recorder.boards[3], frames[3][0].width)) < TOLERANCE


def _stored(gif: bytes, index: int) -> tuple[tuple[int, int], int | None]:
    """The size of the ``index``-th image stored in ``gif`` (its image descriptor, not the screen's)
    and its transparent index (from the graphic control before it), read from the GIF's blocks."""
    at, found, transparent = 13 + 3 * 256, -1, None
    while at < len(gif):
        if gif[at] == 0x21:  # an extension: its label, then sub-blocks until an empty one
            if gif[at + 1] == 0xF9:
                transparent = gif[at + 6] if gif[at + 3] & 1 else None
            at += 2
            while gif[at]:
                at += gif[at] + 1
            at += 1
        elif gif[at] == 0x2C:
            found += 1
            if found == index:
                size = gif[at + 5 : at + 9]
                return (int.from_bytes(size[:2], "little"), int.from_bytes(size[2:], "little")), transparent
            at += 10 + 1  # the descriptor, then the LZW code size
            while gif[at]:
                at += gif[at] + 1
            at += 1
        else:
            break
    raise AssertionError(f"no image {index} in the GIF")


def test_a_replay_too_big_for_its_limit_gets_narrower_then_fewer_frames_keeping_first_and_last() -> None:
    views = _warchest_views(8)
    recorder = Recorder()
    whole = animate(views, names={}, locale="en", draw=recorder)
    narrower = animate(views, names={}, locale="en", limit=len(whole) - 1)
    assert len(narrower) <= len(whole) - 1
    frames = frames_of(narrower)
    assert len(frames) == len(views) and frames[0][0].width < WIDTHS[0]
    fewer = animate(views, names={}, locale="en", limit=len(whole) // 3)
    kept = frames_of(fewer)
    assert 2 <= len(kept) < len(views)
    for frame, board in ((kept[0][0], recorder.boards[0]), (kept[-1][0], recorder.boards[-1])):
        assert difference(frame, narrowed(board, frame.width)) < TOLERANCE
