"""Shared drawing helpers: colours, smooth shapes, PNG encoding.

Pillow draws polygons and ellipses without anti-aliasing. Shapes that matter (tokens, rings,
hexes) are therefore drawn as small sprites at ``SS`` times the size and shrunk once; the sprites are
cached, so a new board image only pastes them.

Sprites, empty boards, text measurements and text masks are cached (``functools.lru_cache``, keyed by
everything that changes the result: widths by text, face and size; a label's rasterised mask by text, face,
size and position to the 64th of a pixel FreeType works in), with the same output as without the caches.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Generic, TypedDict, TypeVar, cast

from PIL import Image, ImageDraw

from render import grounds, png
from render.text import scaled

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

SS = 4
"""Supersampling factor of cached sprites."""

INK: RGB = (27, 27, 31)
MUTED: RGB = (92, 88, 80)
PAPER: RGB = (250, 247, 240)
PANEL: RGB = (255, 255, 255)
RULE: RGB = (205, 198, 182)
WHITE: RGB = (255, 255, 255)
HIGHLIGHT: RGB = (255, 185, 0)
"""Amber, always drawn over a dark edge; it stays 20 or more apart (CIEDE2000) from the paper, the
panels and the battlefield's ground under every simulated colour-vision deficiency, which the
Okabe-Ito yellow did not for a tritanope, and ``MIN_HIGHLIGHT_DIFFERENCE`` from every seat colour
(the vermilion is the nearest, for a deuteranope: 15.4, where (230, 180, 0) was 12.3)."""


def luminance(color: RGB) -> float:
    """WCAG's relative luminance of an sRGB colour."""

    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG's contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def ink_on(fill: RGB) -> RGB:
    """The text colour for a label on ``fill``: white or ink, whichever contrasts more."""
    return WHITE if contrast(WHITE, fill) >= contrast(INK, fill) else INK


def rgba(color: RGB, alpha: int = 255) -> RGBA:
    return (color[0], color[1], color[2], alpha)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def star(
    center: tuple[float, float], outer: float, inner: float, tips: int, start: float = 0.0
) -> list[tuple[float, float]]:
    """The corners of a star (or a burst) with ``tips`` points, the first at ``start`` degrees
    clockwise from east (-90 points it up)."""
    cx, cy = center
    corners = []
    for i in range(2 * tips):
        r = outer if i % 2 == 0 else inner
        angle = math.radians(start + 180 / tips * i)
        corners.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    return corners


def sprite(width: int, height: int, paint: Callable[[ImageDraw.ImageDraw, int], None]) -> Image.Image:
    """An RGBA sprite of ``width`` x ``height`` pixels painted at ``SS`` times the size then reduced.

    ``paint`` receives the drawing context and the scale factor to multiply its coordinates by.
    """
    big = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    with scaled(SS):
        paint(ImageDraw.Draw(big), SS)
    return grounds.resized(big, shrink(big, SS))


SHRINK_ROWS = 16
"""Rows of the reduced sprite ``shrink`` resizes at a time, each over the columns that need it."""
SHRINK_REACH = 4
"""Result pixels each way within which a drawn pixel can tint a result pixel: Lanczos reaches 3
result pixels (12 source pixels at four times the size), one more for the rounding of its window."""


def shrink(big: Image.Image, k: int) -> Image.Image:
    """``big`` (RGBA, ``k`` times the size wanted) reduced by ``k`` with Lanczos: exactly what
    ``big.resize(..., LANCZOS)`` gives, in a fraction of the time for a sparse sprite.

    A long arrow's sprite is mostly transparent, yet a resize filters every pixel of it (several ms
    for a diagonal arrow across two hexes, most of the arrow's cost). A result pixel is transparent
    black when every source pixel within the filter's reach is transparent, so only the columns of
    each band of rows that reach the drawing are resized, each from a crop of the source wide enough
    for the filter's whole window. Pillow filters rows first, then columns, unless the result is
    much taller than wide (then columns first, and the intermediate rounding differs): such sprites,
    and bands that would be, are resized whole."""
    width, height = big.width // k, big.height // k
    if 2 * height > 3 * width or width < SHRINK_ROWS:
        return big.resize((width, height), Image.Resampling.LANCZOS)
    # which k x k blocks of the source hold any drawn pixel: one pixel of the map each
    drawn = big.getchannel("A").point(lambda v: 255 if v else 0).reduce(k)
    out = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    margin = SHRINK_REACH * k
    for top in range(0, height, SHRINK_ROWS):
        bottom = min(height, top + SHRINK_ROWS)
        rows = (0, max(0, top - SHRINK_REACH), width, min(height, bottom + SHRINK_REACH))
        found = drawn.crop(rows).getbbox()
        if found is None:
            continue
        left, right = max(0, found[0] - SHRINK_REACH), min(width, found[2] + SHRINK_REACH)
        tall = bottom - top
        if right - left < tall:  # a narrow band: widened, never taller than wide
            left = max(0, min(left, width - tall))
            right = min(width, max(right, left + tall))
        cut = (
            max(0, left * k - margin),
            max(0, top * k - margin),
            min(big.width, right * k + margin),
            min(big.height, bottom * k + margin),
        )
        box = (left * k - cut[0], top * k - cut[1], right * k - cut[0], bottom * k - cut[1])
        part = big.crop(cut).resize((right - left, bottom - top), Image.Resampling.LANCZOS, box)
        out.paste(part, (left, top))
    return out


def paste_centered(canvas: Image.Image, item: Image.Image, center: tuple[float, float]) -> None:
    """Alpha-composite ``item`` onto ``canvas`` with its middle on ``center``, clipped at the edges."""
    x = round(center[0] - item.width / 2)
    y = round(center[1] - item.height / 2)
    left, top = max(0, -x), max(0, -y)
    right = min(item.width, canvas.width - x)
    bottom = min(item.height, canvas.height - y)
    if right <= left or bottom <= top:
        return
    part = None
    if (left, top, right, bottom) != (0, 0, item.width, item.height):
        part = item.crop((left, top, right, bottom))
    grounds.paste(canvas, item, (x + left, y + top), part=part, cut=(left, top))


PALETTE_COLORS = 256
DRAWING_COLORS = 65536
"""Images with at most this many colours are drawings (flat fills and the anti-aliased edges between
them), which a 256-colour palette shows without visible change; beyond it the image is kept in RGB."""


def rgb_colours(image: Image.Image, most: int) -> list[tuple[int, RGB]] | None:
    """The (count, colour) pairs of an RGB ``image``, or None when it has more than ``most`` colours:
    ``getcolors`` typed for that mode (Pillow's type covers every mode, single-band counts too)."""
    return cast("list[tuple[int, RGB]] | None", image.getcolors(most))


def to_png(image: Image.Image, palette: Image.Image | None = None, *, lead: bool = False) -> bytes:
    """Encode as an opaque PNG: the same pixels always give the same bytes.

    Board images are flat colours with anti-aliased edges: a palette PNG of 256 colours takes about a
    third of the bytes of an RGB one and less time to encode. A board comes with its game's fixed
    ``palette`` (``render.palettes``): each pixel takes its nearest entry, without dithering
    (dithering would add noise to flat fills), and ``render.png`` reuses the bands earlier boards
    already deflated (``lead``: the page's first column is paper kept for PNG's filter bytes, and
    paper is entry 0 of every board palette). Without one, an image of at most 256 colours keeps
    them exactly, a drawing with more is reduced by Pillow's fast octree, and anything richer
    stays RGB.
    """
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    if palette is not None:
        if lead:
            return png.encode_page(rgb, palette, image.info.get(png.UNCHANGED))
        return png.encode(rgb.quantize(palette=palette, dither=Image.Dither.NONE))
    exact = rgb_colours(rgb, PALETTE_COLORS)
    if exact is not None:
        palette = Image.new("P", (1, 1))
        palette.putpalette([channel for _count, color in exact for channel in color])
        encoded = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    elif rgb.getcolors(DRAWING_COLORS) is not None:
        encoded = rgb.quantize(PALETTE_COLORS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    else:
        encoded = rgb
    out = io.BytesIO()
    encoded.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def path_arrow(
    canvas: Image.Image, start: tuple[float, float], end: tuple[float, float], width: float = 6
) -> None:
    """An arrow from ``start`` to ``end`` on ``canvas``: the path of the last move. Dark with a white
    edge, so that it shows on any ground, highlighted or not."""
    drawn = arrow(start, end, width)
    if drawn is not None:
        item, x, y = drawn
        paste_centered(canvas, item, (x + item.width / 2, y + item.height / 2))


@lru_cache(maxsize=64)
def arrow(
    start: tuple[float, float], end: tuple[float, float], width: float = 6
) -> tuple[Image.Image, int, int] | None:
    """The sprite of ``path_arrow`` and where its top left corner goes (None for no arrow), kept:
    a board drawn again, or a move between the same places, draws no arrow twice."""
    (sx, sy), (ex, ey) = start, end
    length = math.hypot(ex - sx, ey - sy)
    if length < 1:
        return None
    ux, uy = (ex - sx) / length, (ey - sy) / length
    head = 3.2 * width
    pad = head + width
    left, top = math.floor(min(sx, ex) - pad), math.floor(min(sy, ey) - pad)
    w, h = math.ceil(max(sx, ex) + pad) - left, math.ceil(max(sy, ey) + pad) - top

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        a = ((sx - left) * k, (sy - top) * k)
        b = ((ex - left) * k, (ey - top) * k)
        neck = (b[0] - ux * head * k, b[1] - uy * head * k)
        wing = (-uy * head * 0.6 * k, ux * head * 0.6 * k)
        tip = [b, (neck[0] + wing[0], neck[1] + wing[1]), (neck[0] - wing[0], neck[1] - wing[1])]
        for color, grow in ((WHITE, 2.5 * k), (INK, 0)):
            draw.line([a, neck], fill=(*color, 255), width=round(width * k + 2 * grow))
            if grow:
                draw.polygon(tip, fill=(*color, 255), outline=(*color, 255), width=round(2 * grow))
            else:
                draw.polygon(tip, fill=(*color, 255))

    return sprite(w, h, paint), left, top


M = TypeVar("M", bound=Mapping[str, object])
"""What a game's view marks of one action (its ``MarksView``)."""

if TYPE_CHECKING:
    from typing_extensions import ReadOnly

    class Marking(TypedDict, Generic[M]):
        """The part of every game's view that its board marks from: the actions since the players to
        act last changed, and the last action (a ``MarksView`` with more, read only as one)."""

        since: list[M]
        last: ReadOnly[M | None]


def marked_actions(view: Marking[M], places: str) -> list[M]:
    """The actions a board marks: every one that changed it since the players to act last changed
    (the view's ``since``), and the last action (``last``) when it is not one of them (a save from
    before the moves were kept); ``places`` names where an action's places are (``hexes``,
    ``zones``, ``regions``)."""
    since = list(view.get("since") or [])
    last = view.get("last")
    if last and not any(
        m.get("text") == last.get("text") and m.get(places) == last.get(places) for m in since
    ):
        since.append(last)
    return since
