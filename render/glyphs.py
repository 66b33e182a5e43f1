"""Which characters a TrueType font has a glyph for, read from the font's own character map.

Pillow draws a character the font lacks as the font's "missing glyph" box and does not say so, nor
does it expose the font's ``cmap`` table. The text helpers need the answer before drawing, to draw
their own placeholder instead (see ``render.text``), so this module reads the table itself: the
header's table directory, then the best Unicode subtable, in format 12 (every plane) or format 4
(the Basic Multilingual Plane), the two formats fonts use for Unicode. A font collection (``.ttc``,
the Chinese, Japanese and Korean faces in one file) is read through its header to the face asked.
"""

from __future__ import annotations

import mmap
import struct
from functools import lru_cache
from pathlib import Path

Buffer = bytes | mmap.mmap

_PREFERRED = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0))
"""(platform, encoding) of the Unicode subtables, full repertoire first, then BMP-only ones."""


@lru_cache(maxsize=64)
def code_points(path: Path, index: int = 0) -> frozenset[int]:
    """Every code point the font at ``path`` (face ``index`` of a collection) maps to a real glyph
    (not glyph 0, the missing glyph). The file is mapped, not read: of the CJK collection's 33 MB
    only the header and the character map are touched."""
    with path.open("rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
        return read_cmap(data, index)


def read_cmap(data: Buffer, index: int = 0) -> frozenset[int]:
    """The mapped code points of the font file ``data`` (face ``index`` when it is a collection);
    ``ValueError`` if it has no Unicode map."""
    for platform, encoding in _PREFERRED:
        found = read_subtable(data, platform, encoding, index)
        if found is not None:
            return found
    raise ValueError("the font has no Unicode cmap subtable in format 4 or 12")


def read_subtable(data: Buffer, platform: int, encoding: int, index: int = 0) -> frozenset[int] | None:
    """The code points mapped by the font's (``platform``, ``encoding``) subtable, or None when the
    font has no such subtable in format 4 or 12."""
    cmap = _tables(data, index).get(b"cmap")
    if cmap is None:
        raise ValueError("the font has no cmap table")
    _version, count = struct.unpack_from(">HH", data, cmap)
    for i in range(count):
        found_platform, found_encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if (found_platform, found_encoding) != (platform, encoding):
            continue
        (fmt,) = struct.unpack_from(">H", data, cmap + offset)
        if fmt == 12:
            return _format_12(data, cmap + offset)
        if fmt == 4:
            return _format_4(data, cmap + offset)
    return None


def _tables(data: Buffer, index: int = 0) -> dict[bytes, int]:
    """The offset of each table of the font, by tag, from the directory after the 12-byte header.
    In a collection the header lists where each face's directory starts; the tables' offsets count
    from the start of the file either way."""
    start = 0
    if bytes(data[:4]) == b"ttcf":
        (faces,) = struct.unpack_from(">I", data, 8)
        if not 0 <= index < faces:
            raise ValueError(f"the collection has {faces} faces, not a face {index}")
        (start,) = struct.unpack_from(">I", data, 12 + 4 * index)
    (count,) = struct.unpack_from(">H", data, start + 4)
    tables: dict[bytes, int] = {}
    for i in range(count):
        tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, start + 12 + 16 * i)
        tables[tag] = offset
    return tables


def _format_12(data: Buffer, start: int) -> frozenset[int]:
    """Segmented coverage: groups of consecutive code points mapped to consecutive glyphs (only
    the first of a group starting at glyph 0 is unmapped)."""
    (groups,) = struct.unpack_from(">I", data, start + 12)
    found: set[int] = set()
    for first, last, glyph in struct.iter_unpack(">III", data[start + 16 : start + 16 + 12 * groups]):
        found.update(range(first + 1 if glyph == 0 else first, last + 1))
    return frozenset(found)


def _format_4(data: Buffer, start: int) -> frozenset[int]:
    """Segment mapping to delta values: per segment an end, a start, a delta and a range offset
    that points either nowhere (glyph = code + delta) or into the glyph id array after it."""
    seg_count = struct.unpack_from(">H", data, start + 6)[0] // 2
    ends = start + 14
    starts = ends + 2 * seg_count + 2  # after the reserved pad
    deltas = starts + 2 * seg_count
    range_offsets = deltas + 2 * seg_count
    found: set[int] = set()
    for i in range(seg_count):
        (last,) = struct.unpack_from(">H", data, ends + 2 * i)
        (first,) = struct.unpack_from(">H", data, starts + 2 * i)
        (delta,) = struct.unpack_from(">H", data, deltas + 2 * i)
        (range_offset,) = struct.unpack_from(">H", data, range_offsets + 2 * i)
        last = min(last, 0xFFFE)  # 0xFFFF: the last segment only closes the table
        if range_offset == 0:  # glyph = code + delta, which is glyph 0 for one code at most
            unmapped = -delta & 0xFFFF
            found.update(c for c in range(first, last + 1) if c != unmapped)
            continue
        for c in range(first, last + 1):
            at = range_offsets + 2 * i + range_offset + 2 * (c - first)
            (glyph,) = struct.unpack_from(">H", data, at)
            if glyph and (glyph + delta) & 0xFFFF:
                found.add(c)
    return frozenset(found)
