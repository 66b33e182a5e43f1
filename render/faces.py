"""The fonts text is drawn in, in the order they are tried, and where each one comes from.

DejaVu Sans ships in ``render/fonts`` and comes first: Latin, Greek and Cyrillic are drawn with it,
as they always were. What it lacks is looked for, in order, in the Noto fonts of two PyPI packages
pinned in ``pyproject.toml`` (so ``make run``, ``make test`` and the Docker image install them from
the lock files): ``manimgx-fonts`` (Noto Sans, one Noto Sans per script: Arabic, Hebrew, Thai,
Devanagari and the other Indic scripts, Khmer, Lao, Myanmar, Georgian, Armenian, Ethiopic; Noto Sans
Symbols; Noto Emoji) and ``manimgx-fonts-cjk`` (Noto Sans CJK, Chinese, Japanese and Korean). They
are variable fonts: the bold text of the images is drawn at weight 700 of the same file. Noto Emoji
is monochrome: the boards are drawn in fixed palettes, so an emoji is drawn in the text's colour
like any other character, its skin-tone, flag and joined sequences shaped into one glyph.

Nothing is read before a text needs it: a Latin-only image never opens a Noto file. Without the
packages (a checkout whose virtual environment predates them) the chain is DejaVu alone and the
characters it lacks are drawn as placeholder boxes, as before.

``manimgx-fonts`` is 3.5 MB and ``manimgx-fonts-cjk`` 20 MB; the CJK one was chosen over the static,
regular-only ``noto-cjk-sans-otc`` (15.5 MB) for its bold, at the same drawing speed. No font file ships in
the repository but DejaVu, and no system font is used. ``python -m bench.name_coverage [--against REV]``
counts the boxes drawn in the 200 display names of ``tests/render/data/display_names.txt``.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from PIL import ImageFont

from render.glyphs import code_points

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

CJK_FACES = {"ja": 0, "ko": 1, "zh-Hans": 2, "zh-Hant": 3}
"""Face of the CJK collection per writing: Han characters take the shapes each one teaches."""
CJK_DEFAULT = CJK_FACES["zh-Hans"]


class Face(NamedTuple):
    """One font of the chain: its file, and the separate bold file when it has one (DejaVu);
    without one, bold is weight 700 of the file's weight axis."""

    name: str
    path: Path
    bold_path: Path | None = None


DEJAVU = Face("DejaVu Sans", REGULAR, BOLD)


def _package_dir(package: str) -> Path | None:
    """Where an installed font package keeps its files, without importing it; None if absent."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


@lru_cache(maxsize=1)
def chain() -> tuple[Face, ...]:
    """DejaVu, then Noto Sans and the Noto Sans of each script, then CJK, symbols and emoji."""
    noto = _package_dir("manimgx_fonts")
    cjk = _package_dir("manimgx_fonts_cjk")
    files = sorted(p for p in noto.glob("NotoSans*.ttf") if "Italic" not in p.name) if noto else []
    symbols = [p for p in files if p.name.startswith("NotoSansSymbols")]
    latin = [p for p in files if p.name == "NotoSans[wght].ttf"]
    scripts = [p for p in files if p not in symbols and p not in latin]
    collections = sorted(cjk.glob("NotoSansCJK*.ttc")) if cjk else []
    emoji = sorted(noto.glob("NotoEmoji*.ttf")) if noto else []
    faces = [DEJAVU]
    faces += [Face(p.stem, p) for p in [*latin, *scripts]]
    faces += [Face("NotoSansCJK", p) for p in collections]
    faces += [Face(p.stem, p) for p in symbols]
    faces += [Face("NotoEmoji", p) for p in emoji]
    return tuple(faces)


def emoji_face() -> int | None:
    """Position in ``chain()`` of the emoji font, None when it is not installed."""
    found = [i for i, f in enumerate(chain()) if f.name == "NotoEmoji"]
    return found[0] if found else None


def is_collection(face: int) -> bool:
    """Whether font ``face`` holds several faces (the CJK collection, one face per writing)."""
    return _face(face).path.suffix == ".ttc"


def _face(face: int) -> Face:
    """Font ``face`` of the chain; DejaVu (0) without looking for the packages."""
    return DEJAVU if face == 0 else chain()[face]


def covered(face: int, bold: bool) -> frozenset[int]:
    """The code points font ``face`` of the chain draws (in bold when ``bold``); a collection's
    faces share one character map, read from its Simplified Chinese face."""
    f = _face(face)
    path = f.bold_path if bold and f.bold_path is not None else f.path
    return code_points(path, CJK_DEFAULT if path.suffix == ".ttc" else 0)


@lru_cache(maxsize=256)
def load(face: int, size: int, bold: bool, index: int = 0) -> ImageFont.FreeTypeFont:
    """Font ``face`` of the chain at ``size`` pixels, in bold or not, face ``index`` of a collection,
    with the complex layout: it shapes (joined letters, vowel signs, emoji sequences) and lays out
    right-to-left runs."""
    f = _face(face)
    path = f.bold_path if bold and f.bold_path is not None else f.path
    loaded = ImageFont.truetype(str(path), size, index=index, layout_engine=ImageFont.Layout.RAQM)
    if f.bold_path is None:
        axes = loaded.get_variation_axes()
        weight = 700 if bold else 400  # the variable fonts' default may be another weight (CJK: thin)
        loaded.set_variation_by_axes([_axis_value(a, weight) for a in axes])
    return loaded


def _axis_value(axis: ImageFont.Axis, weight: int) -> float:
    """What one axis of a variable font is set to: ``weight`` on the weight axis, within the axis'
    range, the font's own default on any other. FreeType reports every bound; Pillow's type allows
    None for one it could not read, which then bounds nothing (a missing default: the minimum)."""
    low, default, high = axis["minimum"], axis["default"], axis["maximum"]
    if axis.get("name") == b"Weight":
        value = weight if low is None else max(weight, low)
        return value if high is None else min(value, high)
    if default is not None:
        return default
    return 0 if low is None else low
