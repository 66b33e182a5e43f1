"""Golden-image comparison and catalog checks shared by the image tests of every game.

Golden images live in tests/render/golden/. After a deliberate change of the drawing, regenerate
them with ``REGEN_GOLDEN=1`` (or ``make regen-golden``) and look at every changed picture.
"""

from __future__ import annotations

import copy
import io
import json
import os
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageStat

import i18n
from render.glyphs import code_points
from render.page import PHONE_LABEL_PX, PHONE_WIDTH
from render.text import Drawn, placeholders, recording
from render.text import _plan as plan

GOLDEN = Path(__file__).parent / "golden"
LOCALES = Path(__file__).resolve().parents[2] / "i18n" / "locales"
REGEN = os.environ.get("REGEN_GOLDEN") == "1"
MAX_MEAN_DIFF = 1.0
"""Mean absolute difference per channel (0-255) allowed against a golden image."""
STRONG_DIFF = 40
MAX_STRONG_FRACTION = 0.00005
"""Share of pixels allowed to differ strongly (more than ``STRONG_DIFF``): small enough that a moved
token or a changed counter fails, large enough for anti-aliasing noise from another FreeType build."""

View = dict[str, Any]


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def check_golden(
    name: str, png: bytes, *, regen: bool = REGEN, max_strong_fraction: float = MAX_STRONG_FRACTION
) -> None:
    """Assert that ``png`` matches ``golden/<name>.png`` within the tolerance (or rewrite it on regen)."""
    path = GOLDEN / f"{name}.png"
    if regen:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(png)
        return
    assert path.exists(), f"missing golden image {path}; run with REGEN_GOLDEN=1 and review it"
    expected = Image.open(path).convert("RGB")
    actual = decode(png).convert("RGB")
    assert actual.size == expected.size, f"{name}: size {actual.size}, golden {expected.size}"
    difference = ImageChops.difference(actual, expected)
    mean = ImageStat.Stat(difference).mean
    assert max(mean) < MAX_MEAN_DIFF, f"{name}: mean difference {mean} against the golden image"
    strong = difference.convert("L").point(lambda p: 255 if p > STRONG_DIFF else 0).histogram()[255]
    share = strong / (actual.width * actual.height)
    assert share < max_strong_fraction, f"{name}: {strong} pixels differ strongly from the golden image"


def fresh(make: Callable[[], View]) -> Callable[[], View]:
    """A view maker that hands out a deep copy of ``make``'s (cached) view, so tests may change it."""

    def copied() -> View:
        return copy.deepcopy(make())

    copied.__name__ = make.__name__.lstrip("_")
    copied.__doc__ = make.__doc__
    return copied


def case_ids(cases: Iterable[tuple[str, Any, str]]) -> list[str]:
    """Test ids ``<scenario>-<locale>`` for golden cases ``(scenario, make, locale)``."""
    return [f"{name}-{locale}" for name, _make, locale in cases]


def catalog(lang: str, area: str) -> dict[str, i18n.Entry]:
    """The message catalog file ``i18n/locales/<lang>/<area>.json``."""
    path = LOCALES / lang / f"{area}.json"
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def check_catalog_pair(area: str, prefix: str) -> tuple[dict[str, i18n.Entry], dict[str, i18n.Entry]]:
    """Assert that English and French of ``area`` have the same keys, all under ``prefix``, with the
    same placeholders; return both catalogs for further checks."""
    en, fr = catalog("en", area), catalog("fr", area)
    assert en.keys() == fr.keys()
    for key in en:
        assert key.startswith(prefix), key
        assert i18n.fields(en[key]) == i18n.fields(fr[key]), key
    return en, fr


def keys_named_in(files: Iterable[Path], prefix: str) -> set[str]:
    """Catalog keys under ``prefix`` written literally in the source ``files``."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in files)
    return set(re.findall(r'"(' + re.escape(prefix) + r'[a-z_]+(?:\.[a-z_]+)*)"', source))


def check_leaves_view_alone(renderer: Any, view: View, names: dict[str, str]) -> None:
    """Drawing both images of ``view`` with ``renderer`` (the ``render`` package) must not change it."""
    before = copy.deepcopy(view)
    renderer.render(view, names=names, locale="fr")
    renderer.render_private(view, names=names, locale="fr")
    assert view == before


def check_second_draw_uses_caches(caches: list[Any], draw: Callable[[], object]) -> None:
    """``draw`` once, then again: the second time every ``functools`` cache in ``caches`` must hit
    and none may miss (nothing is drawn twice)."""
    draw()
    before = [c.cache_info() for c in caches]
    draw()
    after = [c.cache_info() for c in caches]
    for cache_fn, old, new in zip(caches, before, after, strict=True):
        assert new.misses == old.misses, f"{cache_fn.__name__} drew again"
        assert new.hits > old.hits, f"{cache_fn.__name__} was not used"


def listen_to_pillow(monkeypatch: Any) -> list[tuple[str, str, int]]:
    """Record every string Pillow draws from now on, with the font file (and face of a collection)
    it draws it in: the drawing itself still happens, this only listens (``monkeypatch`` is
    pytest's, which puts it back). The renderer's caches are emptied first: a label whose mask is
    kept is not drawn again."""
    clear_render_caches()
    heard: list[tuple[str, str, int]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        font = kwargs.get("font")
        heard.append((str(text), str(getattr(font, "path", "")), int(getattr(font, "index", 0))))
        original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return heard


WORLD_NAMES = {"111": "Дмитрий", "222": "Αλέξανδρος", "333": "Łukasz Żółć", "444": "🐉 Drake"}
"""Display names in Cyrillic, Greek and Polish, and one with an emoji."""

SCRIPT_NAMES = {"111": "王小明", "222": "محمد علي", "333": "สมชาย 👍🏽", "444": "さくら 🇯🇵"}
"""Display names in Chinese, Arabic, Thai and Japanese, with emoji: a skin tone and a flag."""

MORE_SCRIPT_NAMES = {"111": "김민준 👩🏽‍💻", "222": "דוד כהן", "333": "राहुल शर्मा", "444": "Ana 🏳️‍🌈"}
"""Display names in Korean, Hebrew and Devanagari, and with joined emoji sequences."""


def invisible(ch: str) -> bool:
    """Joiners, selectors and direction marks: shaped with the characters around them (a font
    need not map them), never drawn on their own."""
    return unicodedata.category(ch) in ("Cf", "Cc") or 0xFE00 <= ord(ch) <= 0xFE0F


def check_names_drawn(heard: list[tuple[str, str, int]], names: Iterable[str]) -> None:
    """Every character of ``names`` (spaces aside) reached Pillow, none is left to a placeholder
    box, no string drawn with a name holds a "?", and Pillow never got a character its font lacks."""
    drawn = "".join(s for s, _path, _index in heard)
    for name in names:
        assert not placeholders(name), (name, placeholders(name))
        shown = [ch for ch in unicodedata.normalize("NFC", name) if not invisible(ch) and not ch.isspace()]
        missing = [ch for ch in shown if ch not in drawn]
        assert not missing, f"{name!r} was not drawn: {missing}"
        pieces = [run.text.strip() for run in plan(name) if len(run.text.strip()) > 1]
        with_name = [s for s, _path, _index in heard if any(piece in s for piece in pieces)]
        assert all("?" not in s for s in with_name), with_name
    for s, path, index in heard:
        assert all(invisible(ch) or ord(ch) in code_points(Path(path), index) for ch in s), (s, path)


def clear_render_caches() -> None:
    """Empty every ``functools`` cache of the renderer, so that the next image draws all its sprites
    (and their texts) again."""
    for name, module in list(sys.modules.items()):
        if name == "render" or name.startswith("render."):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def texts_of(draw: Callable[[], bytes]) -> tuple[list[Drawn], Image.Image]:
    """Every text drawn by ``draw`` (caches emptied first, so that none is missed) and its image."""
    clear_render_caches()
    with recording() as found:
        png = draw()
    return found, decode(png)


def check_legible(found: Iterable[Drawn], width: int, roles: Iterable[str]) -> None:
    """Every label of one of ``roles`` is at least ``PHONE_LABEL_PX`` tall once the image, ``width``
    pixels wide, is shown ``PHONE_WIDTH`` wide; and each role was drawn at least once."""
    wanted = set(roles)
    seen = {d.role for d in found if d.role in wanted}
    assert seen == wanted, f"never drawn: {sorted(wanted - seen)}"
    small = sorted(
        {
            (d.role, d.shown, round(d.size, 1))
            for d in found
            if d.role in wanted and d.size * PHONE_WIDTH / width < PHONE_LABEL_PX
        }
    )
    assert not small, f"labels under {PHONE_LABEL_PX} px on a phone: {small[:10]}"
