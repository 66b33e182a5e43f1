"""The 200 display names of ``data/display_names.txt``, in every script the images must draw
(Chinese, Japanese, Korean, Thai, Devanagari, Hebrew, Arabic, emoji with skin tones, flags and
joined sequences, mixed with Latin): not one character is left to a placeholder box, judged by the
fonts' own character maps (the renderer's glyph coverage), and every name reaches Pillow whole."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageDraw

from bench.name_coverage import coverage, display_names
from render import text
from tests.render.golden import check_names_drawn, clear_render_caches, listen_to_pillow

NAMES = display_names()

SCRIPTS = {
    "Han": (0x4E00, 0x9FFF),
    "kana": (0x3040, 0x30FF),
    "Hangul": (0xAC00, 0xD7AF),
    "Thai": (0x0E00, 0x0E7F),
    "Devanagari": (0x0900, 0x097F),
    "Hebrew": (0x0590, 0x05FF),
    "Arabic": (0x0600, 0x06FF),
    "skin tone": (0x1F3FB, 0x1F3FF),
    "flag": (0x1F1E6, 0x1F1FF),
    "joiner": (0x200D, 0x200D),
}


def test_the_list_holds_200_distinct_names_in_every_script() -> None:
    assert len(NAMES) == 200 == len(set(NAMES))
    for script, (low, high) in SCRIPTS.items():
        assert sum(1 for name in NAMES if any(low <= ord(ch) <= high for ch in name)) >= 5, script


@pytest.mark.parametrize("bold", [False, True])
def test_no_name_has_a_character_drawn_as_a_box(bold: bool) -> None:
    boxed = {name: text.placeholders(name, bold=bold) for name in NAMES if text.placeholders(name, bold=bold)}
    assert boxed == {}
    assert coverage(NAMES)[f"boxes_{'bold' if bold else 'regular'}"] == 0


@pytest.mark.parametrize("bold", [False, True])
def test_every_name_reaches_pillow_in_fonts_that_have_its_characters(monkeypatch: Any, bold: bool) -> None:
    heard = listen_to_pillow(monkeypatch)
    for name in NAMES:
        clear_render_caches()  # a label whose mask is kept is not drawn by Pillow again
        heard.clear()
        image = Image.new("L", (600, 60), 0)
        width = text.draw_text(ImageDraw.Draw(image), (10, 10), name, 28, (255,), bold=bold)
        box = image.getbbox()
        assert box is not None and box[2] <= 10 + width + 4, name  # ink, within the measured width
        check_names_drawn(heard, [name])
