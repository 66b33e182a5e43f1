"""A whole game as one animated image: one frame per handover, a hold on the final position.

Each frame is the public board as ``render.render`` draws it, scaled to a phone's width and reduced
to a palette of its own; the result is a GIF, the animated format every Discord client plays. The
file must stay under Discord's upload limit: frames are made narrower, then fewer (evenly, keeping
the first and the last), until it fits.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

FRAME_MS = 900
FINAL_MS = 4000
WIDTHS = (560, 440, 360)
LIMIT = 8 * 1024 * 1024


def _frame(png: bytes, width: int) -> Image.Image:
    with Image.open(io.BytesIO(png)) as img:
        img = img.convert("RGB")
        height = max(1, round(img.height * width / img.width))
        small = img.resize((width, height), Image.Resampling.LANCZOS)
    return small.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _encode(frames: list[Image.Image]) -> bytes:
    out = io.BytesIO()
    durations = [FRAME_MS] * (len(frames) - 1) + [FINAL_MS]
    frames[0].save(
        out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False
    )
    return out.getvalue()


def _thin(items: Sequence[Any], count: int) -> list[Any]:
    """``count`` items spread evenly over ``items``, the first and the last always kept."""
    if count >= len(items):
        return list(items)
    if count < 2:
        return [items[-1]]
    step = (len(items) - 1) / (count - 1)
    return [items[round(i * step)] for i in range(count)]


def animate(
    views: Sequence[dict[str, Any]],
    *,
    names: dict[str, str],
    locale: str,
    draw: Callable[..., bytes] | None = None,
    limit: int = LIMIT,
) -> bytes:
    """The GIF of ``views`` (in order; the last is held), at most ``limit`` bytes."""
    if not views:
        raise ValueError("a replay needs at least one position")
    if draw is None:
        from render import render as draw
    boards = [draw(view, names=names, locale=locale) for view in views]
    count = len(boards)
    while True:
        for width in WIDTHS:
            data = _encode([_frame(png, width) for png in _thin(boards, count)])
            if len(data) <= limit:
                return data
        if count <= 2:
            return data
        count = max(2, count * 2 // 3)
