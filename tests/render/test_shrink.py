"""``common.shrink`` reduces a supersampled sprite exactly as one Lanczos resize of it does."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from render import common


def _sprite(rng: random.Random, width: int, height: int) -> Image.Image:
    big = Image.new("RGBA", (width * 4, height * 4), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    for _ in range(rng.randint(0, 4)):
        points = [(rng.uniform(-40, width * 4 + 40), rng.uniform(-40, height * 4 + 40)) for _ in range(3)]
        colour = (*(rng.randrange(256) for _ in range(3)), rng.choice([255, rng.randrange(1, 256)]))
        if rng.random() < 0.5:
            draw.line(points[:2], fill=colour, width=rng.randint(1, 50))
        else:
            draw.polygon(points, fill=colour)
    if rng.random() < 0.3:  # a lone faint pixel still reaches its neighbours
        big.putpixel((rng.randrange(width * 4), rng.randrange(height * 4)), (200, 10, 10, 1))
    return big


@pytest.mark.parametrize("seed", range(4))
def test_shrink_is_the_whole_resize(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        width, height = rng.randint(1, 300), rng.randint(1, 220)
        big = _sprite(rng, width, height)
        expected = big.resize((width, height), Image.Resampling.LANCZOS)
        assert common.shrink(big, 4).tobytes() == expected.tobytes(), (width, height)


def test_arrows_are_the_whole_resize(monkeypatch: pytest.MonkeyPatch) -> None:
    """Long diagonal, flat and steep arrows: the sprites the boards draw most."""
    captured: list[Image.Image] = []
    original = common.shrink

    def keep(big: Image.Image, k: int) -> Image.Image:
        captured.append(big.copy())
        return original(big, k)

    monkeypatch.setattr(common, "shrink", keep)
    for end in ((455.1, 310.2), (300.0, 90.5), (620.7, 402.3), (310.2, 700.9), (40.4, 380.0)):
        captured.clear()
        drawn = common.arrow.__wrapped__((300.3, 400.7), end)
        assert drawn is not None and len(captured) == 1
        whole = captured[0].resize(drawn[0].size, Image.Resampling.LANCZOS)
        assert drawn[0].tobytes() == whole.tobytes()
