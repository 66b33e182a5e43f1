"""PNG encoding of palette images band by band, reusing the bands earlier images already deflated.

From one move to the next a board image changes in a few places (a hex or a zone, the status, a
count), yet deflating the whole picture again is most of what a board costs. Here the rows are
deflated in bands of ``BAND`` rows, each by a fresh compressor ended on a byte boundary whose
dictionary is the row above the band, so a band's bytes depend only on its rows and that row; a band
this process has deflated before after the same row is not deflated again. It only works because
every board of a game is quantised to that game's fixed palette (``render.palettes``): the same
picture gives the same indices from one image to the next.

The result is an ordinary PNG: the same pixels always give the same bytes, whether the bands came
from the cache or not, and decoding gives back exactly the image's indices and palette.

Bands are 16 rows: the decoder has the row above in its window already, so splitting the picture costs almost
no compression (boards 1-2% larger than in bands of 32, which deflated a quarter more rows per move). A band
of the page the same as in the previous page of that size and palette, under an unchanged row, is neither
quantised nor deflated again (``encode_page``), and any band deflated before after the same row is found in a
cache (24 MB per process, by its length, two checksums and the row's checksum). Changed bands are quantised
whole: finding the columns that changed costs more than Pillow's palette lookup of the rest. The page carries
one extra column of paper on the left (``stack(..., lead=True)``), which becomes PNG's filter bytes without
copying the picture. Since the same pixels give the same bytes, the public image stays byte-identical whatever
hidden information the view holds. ``python -m bench.render_bench [runs] [--against REV]`` prints each game's
sizes and times, and their ratios to another revision's renderer; ``python -m bench.move_latency [moves]
[game] [--players N]`` a move's cost against its floor, and how many drawings a move took.
"""

from __future__ import annotations

import struct
import zlib
from collections import OrderedDict
from collections.abc import Hashable, Sequence

from PIL import Image

BAND = 16
"""Rows per band: smaller bands deflate fewer unchanged rows around a change; each band still sees
the row before it (``_deflated``), so splitting costs little compression."""
LEVEL = 6
"""zlib's level, the one Pillow uses by default."""
CACHE_BYTES = 24 * 1024 * 1024
"""Deflated bands kept per process, oldest use dropped first."""

_ADLER_BASE = 65521
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x9c"  # deflate, 32 KiB window, default level
_LAST_BLOCK = zlib.compressobj(LEVEL, zlib.DEFLATED, -15).flush()
"""An empty final deflate block: what ends the stream after the last band."""

Band = tuple[bytes, bytes, int]
"""A band's rows of indices (with their filter bytes), deflated, and their Adler-32."""

_bands: OrderedDict[tuple[int, int, int, int], bytes] = OrderedDict()
_pages: dict[tuple[int, int, bytes], tuple[list[bytes | None], list[Band], Hashable]] = {}
"""The last page of each size and palette: its RGB bytes band by band (None where only its indices
were worked out), its bands, and the name its drawer gave it (``Unchanged``). The next board of a
game mostly repeats it, and comparing bytes is much cheaper than quantising and checksumming them."""
UNCHANGED = "render.png.unchanged"
"""The key of a page's ``info`` under which its drawer may say what is unchanged (``Unchanged``)."""
Unchanged = tuple[Hashable, Hashable, Sequence[tuple[int, int] | tuple[int, int, int, int]]]
"""``(name, since, rows)``: the page is the picture ``name``, and outside the row ranges ``rows``
(top, bottom), or boxes (top, bottom, left, right), it is the same as the picture ``since``. When
the last page of its size is ``since``, its other rows are taken as they were without being
compared, and of a band that only boxes reach, only the columns they span are read and quantised."""
PAGES_KEPT = 8
"""Sizes (and palettes) whose last page is kept: a few per game, a few MB each."""
_held = 0
stats = {"deflated": 0, "reused": 0, "unchanged": 0, "unread": 0}
"""Since the process started (for tests and benchmarks): bands deflated, bands found in the cache,
bands of a page the same as in the previous page of its size, and those of them not even read."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _adler_join(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from the checksum of each.

    Adler-32 is two sums modulo 65521: ``a`` = 1 + every byte, ``b`` = the sum of ``a`` after each
    byte. Appending ``n`` bytes whose own sums are ``a2``, ``b2`` adds ``a2 - 1`` to ``a``, and to ``b``
    adds ``b2`` plus ``n`` times the first part's ``a - 1`` (every later running sum starts from it)."""
    a1, b1 = first & 0xFFFF, first >> 16
    a2, b2 = second & 0xFFFF, second >> 16
    a = (a1 + a2 - 1) % _ADLER_BASE
    b = (b1 + b2 + second_length * (a1 - 1)) % _ADLER_BASE
    return (b << 16) | a


def _deflated(rows: bytes, before: bytes = b"") -> tuple[bytes, int]:
    """``rows`` deflated, ending on a byte boundary (from the cache when seen before), and their
    Adler-32.

    ``before`` is the row that precedes them in the stream (empty for the first band): the
    compressor takes it as its dictionary, so the band's first row may refer back to the row above
    it, as it would in one stream (a band alone loses that, and flat pictures repeat row after
    row). The decoder has that row in its window already, so the stream stays a plain one. The
    cache's key is the rows' length, two checksums of them and a checksum of ``before``."""
    global _held
    adler = zlib.adler32(rows)
    key = (len(rows), zlib.crc32(rows), adler, zlib.crc32(before) if before else -1)
    found = _bands.get(key)
    if found is not None:
        _bands.move_to_end(key)
        stats["reused"] += 1
        return found, adler
    if before:
        compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -15, zdict=before)
    else:
        compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    found = compressor.compress(rows) + compressor.flush(zlib.Z_SYNC_FLUSH)
    stats["deflated"] += 1
    _bands[key] = found
    _held += len(found)
    while _held > CACHE_BYTES and _bands:
        _old, dropped = _bands.popitem(last=False)
        _held -= len(dropped)
    return found, adler


def _band(rows: bytes, width: int, bands: list[Band]) -> Band:
    """``rows`` as the next band after ``bands`` (``width``: bytes per row, filter byte included)."""
    before = bands[-1][0][-width:] if bands else b""
    return (rows, *_deflated(rows, before))


def encode(image: Image.Image, *, lead: bool = False) -> bytes:
    """A palette (mode ``P``) image as PNG bytes, eight bits per pixel, no transparency.

    With ``lead``, the image's first column is not part of the picture: it is all index 0 and
    becomes the rows' filter bytes as it stands (a page drawn one pixel wider for the purpose, see
    ``render.page.stack``), which spares copying the whole picture to make room for them."""
    if image.mode != "P":
        raise ValueError(f"encode takes a palette image, not mode {image.mode}")
    if lead and image.crop((0, 0, 1, image.height)).tobytes().count(0) != image.height:
        image, lead = image.crop((1, 0, image.width, image.height)), False
    colours = image.getpalette() or []
    if not lead:
        # Each PNG row starts with its filter byte (0: none, the right filter for palette images): a
        # column of zeros on the left makes the image's own bytes exactly the rows PNG deflates.
        rows = Image.new("P", (image.width + 1, image.height), 0)
        rows.paste(image, (1, 0))
        image = rows
    raw = image.tobytes()
    step = BAND * image.width
    bands: list[Band] = []
    for at in range(0, len(raw), step):
        bands.append(_band(raw[at : at + step], image.width, bands))
    return _png(image.width - 1, image.height, colours, bands)


def encode_page(page: Image.Image, palette: Image.Image, unchanged: Unchanged | None = None) -> bytes:
    """A page with its lead column (``render.page.stack(..., lead=True)``), quantised to
    ``palette`` and encoded: what ``encode(page.quantize(palette), lead=True)`` gives, byte for byte.

    Only the bands of rows that differ from the last page of the same size and palette are quantised
    and looked up again (quantising whole rows costs less than finding the columns that changed); a
    band keeps its deflated bytes when neither it nor the row above it changed. With ``unchanged``
    (see ``Unchanged``), bands its drawer vouches for are not even read."""
    rgb = page if page.mode == "RGB" else page.convert("RGB")
    width, height = rgb.size
    colours = palette.getpalette() or []
    key = (width, height, bytes(colours))
    last = _pages.pop(key, None)
    step = BAND * width * 3
    count = -(-height // BAND)
    known = [False] * count
    spans: list[tuple[int, int] | None] = [None] * count
    """Of bands only boxes reach, the columns that may have changed; None: the whole rows."""
    if unchanged is not None and last is not None and last[2] == unchanged[1]:
        known = [True] * count
        whole = [False] * count
        for entry in unchanged[2]:
            top, bottom = entry[0], entry[1]
            for n in range(max(0, top // BAND), min(count, -(-bottom // BAND))):
                span = spans[n]
                if len(entry) == 2 or whole[n]:
                    whole[n], spans[n] = True, None
                elif span is None:
                    spans[n] = (max(0, entry[2]), min(width, entry[3]))
                else:
                    spans[n] = (min(span[0], max(0, entry[2])), max(span[1], min(width, entry[3])))
                known[n] = False
    pixels: list[bytes | None] = [None] * count
    """The page's RGB bytes band by band, to compare the next page with; None for a band only boxes
    reached, whose indices were worked out instead (``spliced``)."""
    spliced: list[bytes | None] = [None] * count
    n = 0
    while n < count:
        if known[n]:
            assert last is not None
            pixels[n] = last[0][n]
            stats["unread"] += 1
            n += 1
            continue
        if spans[n] is not None:  # a run of bands only boxes reach: their columns quantised at
            # once, spliced into the last page's indices (a pixel's index does not depend on its
            # neighbours: no dithering)
            assert last is not None
            end, (left, right) = _run(spans, n)
            part = rgb.crop((left, n * BAND, right, min(height, end * BAND)))
            indices = part.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
            for k in range(n, end):
                spliced[k] = _spliced(last[1][k][0], indices, k - n, width, left, right - left)
            n = end
            continue
        end = n
        while end < count and not known[end] and spans[end] is None:
            end += 1
        raw = (
            rgb.crop((0, n * BAND, width, min(height, end * BAND))).tobytes()
            if (n, end) != (0, count)
            else rgb.tobytes()
        )
        for k in range(n, end):
            pixels[k] = raw[(k - n) * step : (k - n + 1) * step]
        n = end
    same = known
    if last is not None:
        same = [
            known[n] or (pixels[n] == last[0][n] if spliced[n] is None else spliced[n] == last[1][n][0])
            for n in range(count)
        ]
    bands: list[Band] = []
    n = 0
    while n < count:
        if same[n]:
            assert last is not None
            kept = last[1][n]
            if n == 0 or bands[-1][0][-width:] == last[1][n - 1][0][-width:]:
                bands.append(kept)
                stats["unchanged"] += 1
            else:  # the row above changed: its bytes start from another dictionary
                bands.append(_band(kept[0], width, bands))
            n += 1
            continue
        rows = spliced[n]
        if rows is not None:
            if rows[::width].count(0) != len(rows) // width:  # the lead column must be index 0
                return encode(rgb.quantize(palette=palette, dither=Image.Dither.NONE), lead=True)
            bands.append(_band(rows, width, bands))
            n += 1
            continue
        end = n
        while end < count and not same[end] and spans[end] is None:
            end += 1
        # one lookup for each run of changed bands: the indices a pixel gets do not depend on its
        # neighbours (no dithering), so a run quantised apart is the whole page's run
        part = rgb.crop((0, n * BAND, width, min(height, end * BAND)))
        indices = part.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
        for k in range(n, end):
            rows = indices[(k - n) * BAND * width : (k - n + 1) * BAND * width]
            if rows[::width].count(0) != len(rows) // width:  # the lead column must be index 0
                return encode(rgb.quantize(palette=palette, dither=Image.Dither.NONE), lead=True)
            bands.append(_band(rows, width, bands))
        n = end
    _pages[key] = (pixels, bands, None if unchanged is None else unchanged[0])
    while len(_pages) > PAGES_KEPT:
        del _pages[next(iter(_pages))]
    return _png(width - 1, height, colours, bands)


def _run(spans: list[tuple[int, int] | None], n: int) -> tuple[int, tuple[int, int]]:
    """The end of the run of bands from ``n`` that have spans, and the columns they all cover."""
    end, left, right = n, 1 << 30, 0
    while end < len(spans):
        span = spans[end]
        if span is None:
            break
        left, right = min(left, span[0]), max(right, span[1])
        end += 1
    return end, (left, max(left, right))


def _spliced(rows: bytes, part: bytes, band: int, stride: int, start: int, step: int) -> bytes:
    """``rows`` (a band, ``stride`` bytes a row) with ``step`` bytes of each row from ``start`` on
    replaced by the rows of band ``band`` of ``part`` (``step`` bytes a row); ``rows`` itself when
    nothing changes, so that an unchanged band is neither copied nor compared again in full."""
    count = len(rows) // stride
    first = band * BAND * step
    if step == 0:
        return rows
    for row in range(count):
        at = row * stride + start
        if rows[at : at + step] != part[first + row * step : first + (row + 1) * step]:
            break
    else:
        return rows
    out = bytearray(rows)
    for row in range(count):
        at = row * stride + start
        out[at : at + step] = part[first + row * step : first + (row + 1) * step]
    return bytes(out)


def _png(width: int, height: int, palette: list[int], bands: list[Band]) -> bytes:
    """The PNG of ``bands`` (rows with their filter bytes, deflated, Adler-32) in ``palette``."""
    checksum = 1
    for rows, _deflated_rows, adler in bands:
        checksum = _adler_join(checksum, adler, len(rows))
    stream = _ZLIB_HEADER + b"".join(d for _r, d, _a in bands) + _LAST_BLOCK + struct.pack(">I", checksum)
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return (
        _SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"PLTE", bytes(palette[: 3 * 256]))
        + _chunk(b"IDAT", stream)
        + _chunk(b"IEND", b"")
    )


def forget() -> None:
    """Empty the cache of deflated bands (tests, and benchmarks of a cold encoder)."""
    global _held
    _bands.clear()
    _pages.clear()
    _held = 0
