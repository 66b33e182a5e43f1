"""The text helpers: the shipped fonts and their character map, placeholders, clusters, shortening.

Names from every alphabet must come out as written: each character in the first font of the chain
that has it (DejaVu, the Noto fonts, the emoji font), shaped and in its direction; only a character
no font has becomes one placeholder box, never "?" nor Pillow's missing glyph.
"""

from __future__ import annotations

import importlib.metadata
import random
import struct
import tomllib
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from render import faces, glyphs, text
from tests.render import golden
from tests.render.golden import listen_to_pillow

WORLD_NAMES = tuple(golden.WORLD_NAMES.values())
SCRIPT_NAMES = tuple(golden.SCRIPT_NAMES.values())
NO_FONT = "\U00010600"
"""A Linear A sign: no font of the chain has it."""


def _draw(s: str, size: int = 30, *, bold: bool = False, width: int = 400) -> Image.Image:
    image = Image.new("L", (width, 60), 0)
    text.draw_text(ImageDraw.Draw(image), (10, 10), s, size, (255,), bold=bold)
    return image


def test_fonts_ship_with_their_licence() -> None:
    fonts = sorted(p.name for p in text.FONT_DIR.glob("*.ttf"))
    assert fonts == ["DejaVuSans-Bold.ttf", "DejaVuSans.ttf"]
    licence = (text.FONT_DIR / "LICENSE").read_text(encoding="utf-8")
    assert all(name in licence for name in fonts)
    assert "Bitstream Vera Fonts Copyright" in licence and "Arev Fonts Copyright" in licence
    assert text.font(20).getname() == ("DejaVu Sans", "Book")
    assert text.font(20, True).getname() == ("DejaVu Sans", "Bold")


def test_the_other_fonts_come_from_the_pinned_packages() -> None:
    """Past DejaVu, every font of the chain is a file of a font package pinned in pyproject.toml,
    at its pinned version, under the SIL Open Font License; none ships in the repository."""
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"
    ]
    pins = dict(line.split("==") for line in project["dependencies"])
    chain = faces.chain()
    assert chain[0] == faces.DEJAVU
    names = [face.name for face in chain]
    for wanted in ("NotoSansCJK", "NotoEmoji", "NotoSansThai[wght]", "NotoSansDevanagari[wght]"):
        assert wanted in names
    for face in chain[1:]:
        package = face.path.parent.name.replace("_", "-")
        assert importlib.metadata.version(package) == pins[package]
        assert importlib.metadata.metadata(package)["License-Expression"] == "OFL-1.1"


def test_fonts_are_loaded_once_per_size() -> None:
    assert text.font(23) is text.font(23)
    assert text.font(23, True) is not text.font(23)
    assert text.font(23).size == 23


@pytest.mark.parametrize("bold", [False, True])
def test_character_map_agrees_with_the_missing_glyph(bold: bool) -> None:
    """Where the cmap says "no glyph", Pillow draws the font's missing-glyph shape; elsewhere it
    draws something else. Checked on every character up to U+2FFF and on emoji and CJK samples."""
    font = text.font(24, bold)
    covered = glyphs.code_points(text.BOLD if bold else text.REGULAR)
    missing = font.getmask(chr(0x10FFFD))  # a private-use character no font maps
    missing_shape = (missing.size, bytes(missing))
    samples = [*range(0x20, 0x3000), *range(0x1F300, 0x1F700, 3), *range(0x4E00, 0x4F00, 5)]
    for cp in samples:
        if 0xD800 <= cp <= 0xDFFF:
            continue
        mask = font.getmask(chr(cp))
        assert ((mask.size, bytes(mask)) == missing_shape) == (cp not in covered), hex(cp)


def test_both_unicode_subtables_of_the_font_agree() -> None:
    """DejaVu has a BMP map in format 4 (with glyph-array segments) and a full map in format 12."""
    data = text.REGULAR.read_bytes()
    bmp = glyphs.read_subtable(data, 3, 1)
    full = glyphs.read_subtable(data, 3, 10)
    assert bmp is not None and full is not None
    assert bmp == {c for c in full if c <= 0xFFFF}
    assert full == glyphs.read_cmap(data)
    assert ord("Ж") in full and ord("Ł") in full and 0x1F409 not in full  # the dragon is not there


def _font_with_cmap(subtable: bytes) -> bytes:
    """The smallest font file the reader accepts: a table directory with one cmap (3, 1)."""
    cmap = struct.pack(">HHHHI", 0, 1, 3, 1, 12) + subtable
    directory = struct.pack(">IHHHH", 0x00010000, 1, 16, 0, 0)
    directory += struct.pack(">4sIII", b"cmap", 0, 12 + 16, len(cmap))
    return directory + cmap


def test_format_4_reads_deltas_and_the_glyph_array() -> None:
    """Segment A-C by delta; segment x-z through the glyph array, where y maps to glyph 0 (none)."""
    ends, starts, deltas, offsets = (
        [ord("C"), ord("z"), 0xFFFF],
        [ord("A"), ord("x"), 0xFFFF],
        [-60, 0, 1],
        [],
    )
    seg = len(ends)
    array = [7, 0, 9]
    # The second segment's range offset points from its own slot to the glyph array after the table.
    offsets = [0, 2 * (seg - 1), 0]
    body = struct.pack(f">{seg}H", *ends) + b"\0\0" + struct.pack(f">{seg}H", *starts)
    body += struct.pack(f">{seg}h", *deltas) + struct.pack(f">{seg}H", *offsets) + struct.pack(">3H", *array)
    subtable = struct.pack(">HHHHHHH", 4, 14 + len(body), 0, 2 * seg, 0, 0, 0) + body
    assert glyphs.read_cmap(_font_with_cmap(subtable)) == {ord("A"), ord("B"), ord("C"), ord("x"), ord("z")}


def test_format_12_skips_glyph_zero() -> None:
    groups = [(0x41, 0x43, 0), (0x1F409, 0x1F40A, 40)]  # "A" would be glyph 0: not mapped
    body = b"".join(struct.pack(">III", *g) for g in groups)
    subtable = struct.pack(">HHIII", 12, 0, 16 + len(body), 0, len(groups)) + body
    assert glyphs.read_cmap(_font_with_cmap(subtable)) == {0x42, 0x43, 0x1F409, 0x1F40A}


def test_a_font_without_a_unicode_map_is_refused() -> None:
    subtable = struct.pack(">HHH", 6, 10, 0) + struct.pack(">HH", 0, 0)
    with pytest.raises(ValueError, match="no Unicode cmap"):
        glyphs.read_cmap(_font_with_cmap(subtable))


@pytest.mark.parametrize("bold", [False, True])
def test_names_in_every_alphabet_are_drawn_as_written(monkeypatch: Any, bold: bool) -> None:
    """Pillow receives exactly the characters of each name (a right-to-left run in its logical
    order, for the layout to place), each in a font that has it; nothing is left to a box."""
    heard = listen_to_pillow(monkeypatch)
    for name in (*WORLD_NAMES, *SCRIPT_NAMES):
        heard.clear()
        _draw(name, bold=bold)
        drawn = "".join(s for s, _path, _index in heard)
        assert text.placeholders(name, bold=bold) == ()
        assert drawn == unicodedata.normalize("NFC", name)
        for s, path, index in heard:
            assert all(golden.invisible(ch) or ord(ch) in glyphs.code_points(Path(path), index) for ch in s)


def test_placeholder_is_one_hollow_box_per_character() -> None:
    image = _draw(NO_FONT, 40)
    box = image.getbbox()
    assert box is not None
    left, top, right, bottom = box
    assert right - left >= 15 and bottom - top >= 25  # about a capital letter's size
    middle = image.getpixel(((left + right) // 2, (top + bottom) // 2))
    edge = image.getpixel((left, (top + bottom) // 2))
    assert middle == 0 and edge == 255  # hollow, with a drawn edge
    assert _draw("🐉", 40).tobytes() != image.tobytes()  # the emoji font has the dragon
    assert text.placeholders("中文🐉") == ()
    assert text.placeholders(f"{NO_FONT}a{NO_FONT}") == (NO_FONT, NO_FONT)
    assert text.text_width(NO_FONT * 2, 40) == 2 * text.text_width(NO_FONT, 40)


def test_emoji_sequences_flags_and_accents_are_single_clusters() -> None:
    family = "👨\u200d👩\u200d👧"
    assert text.clusters(f"{family} Jo") == (family, " ", "J", "o")
    assert text.placeholders(f"{family} Jo") == ()
    assert text.clusters("🇫🇷🇧🇪") == ("🇫🇷", "🇧🇪")
    assert text.clusters("👍🏽!") == ("👍🏽", "!")
    assert text.clusters("Be\u0301re\u0301nice")[:2] == ("B", "e\u0301")


@pytest.mark.parametrize("sequence", ["👨\u200d👩\u200d👧", "🇫🇷", "👍🏽", "👩🏽\u200d💻", "🏳️\u200d🌈"])
def test_emoji_sequences_are_shaped_into_one_glyph(sequence: str) -> None:
    """A family, a flag, a skin tone, a joined profession: the emoji font gets the whole sequence
    and draws one glyph, as wide as a single emoji, not its parts side by side."""
    emoji = faces.emoji_face()
    assert text._plan(sequence) == (text.Run(sequence, False, face=emoji),)
    assert text.text_width(sequence, 30) == text.text_width("🐉", 30)


def test_decomposed_accents_invisible_characters_and_odd_spaces() -> None:
    assert text.text_width("Be\u0301re\u0301nice", 24) == text.text_width("Bérénice", 24)
    assert text._plan("a\u200bb\u200e") == (text.Run("ab", False),)
    assert text._plan("❤") == (text.Run("❤", False),)  # the heart as text is DejaVu's
    assert text._plan("❤\ufe0f") == (text.Run("❤\ufe0f", False, face=faces.emoji_face()),)  # as emoji
    assert text._plan("a\tb\u3000c") == (text.Run("a b c", False),)


def test_bold_falls_back_to_the_regular_face_for_a_character_only_it_has() -> None:
    only_regular = min(glyphs.code_points(text.REGULAR) - glyphs.code_points(text.BOLD))
    ch = chr(only_regular)
    assert text._plan(f"A{ch}", bold=True) == (text.Run("A", True), text.Run(ch, False))
    assert text.placeholders(ch, bold=True) == ()


def test_fonts_past_dejavu_are_only_opened_for_text_that_needs_them() -> None:
    """Latin, Greek, Cyrillic text never looks for the Noto packages nor opens their fonts: the
    first image of a process is not slowed by fonts it does not use."""
    for cache in (faces.chain, faces.load, text._plan, text._covered, text.text_width, text._mask):
        cache.cache_clear()
    _draw("Bérénice Дмитрий Αλέξανδρος 12", bold=True)
    assert faces.chain.cache_info().misses == 0 and faces.load.cache_info().misses == 0
    _draw("Bérénice 王小明")
    assert faces.chain.cache_info().misses == 1 and faces.load.cache_info().misses == 1


def test_variable_fonts_draw_bold_at_weight_700() -> None:
    """The Noto fonts are variable: bold is their weight 700 (the CJK one defaults to thin)."""
    for name in ("王小明", "สมชาย", "राहुल", "👑"):
        (run,) = text._plan(name)
        regular = faces.load(run.face, 30, False, run.face_index).getmask(name)
        bold = faces.load(run.face, 30, True, run.face_index).getmask(name)
        assert sum(bytes(bold)) > 1.2 * sum(bytes(regular)), name


def test_cjk_names_take_the_shapes_of_their_writing() -> None:
    assert text._plan("さくら")[0].face_index == faces.CJK_FACES["ja"]
    assert text._plan("김민준")[0].face_index == faces.CJK_FACES["ko"]
    assert text._plan("王小明")[0].face_index == faces.CJK_DEFAULT
    # kana: the kanji take Japanese shapes
    assert text._plan("山田さん")[0].face_index == faces.CJK_FACES["ja"]


def test_right_to_left_runs_are_laid_out_from_the_right() -> None:
    """A right-to-left run is handed to the layout whole, in logical order, between the
    left-to-right text around it; a number inside it still reads left to right."""
    assert text._plan("שלום") == (text.Run("שלום", False, rtl=True),)
    assert text._plan("Dov שלום!") == (
        text.Run("Dov ", False),
        text.Run("שלום", False, rtl=True),
        text.Run("!", False),
    )
    assert text._plan("(שלום 12)") == (
        text.Run("(", False),
        text.Run("שלום", False, rtl=True),
        text.Run(" 12)", False),
    )
    assert text._plan("א 12 ב") == (
        text.Run(" ב", False, rtl=True),
        text.Run("12", False),
        text.Run("א ", False, rtl=True),
    )
    hebrew = _draw("שלום")
    assert hebrew.getbbox() is not None
    first_letter = _draw("ש")
    box, alone = hebrew.getbbox(), first_letter.getbbox()
    assert box is not None and alone is not None
    assert box[2] - alone[2] > 30  # the first letter of the word is drawn at its right end, not left
    assert hebrew.crop((box[2] - (alone[2] - alone[0]), 0, box[2], 60)).getbbox() is not None


def _empty_columns(image: Image.Image) -> int:
    """Columns without ink between the first and the last inked column."""
    box = image.getbbox()
    assert box is not None
    return sum(1 for x in range(box[0], box[2]) if image.crop((x, 0, x + 1, image.height)).getbbox() is None)


def test_arabic_letters_are_joined() -> None:
    """Shaped, the letters of "محمد" join into one stroke along the baseline, with no gap between
    them; the same letters in their isolated forms (as the basic layout draws them) leave gaps."""
    joined = _draw("محمد", 40)
    isolated = Image.new("L", (400, 60), 0)
    ImageDraw.Draw(isolated).text((10, 10), "دمحم", font=text.font(40), fill=255)
    assert _empty_columns(joined) == 0
    assert _empty_columns(isolated) > 0


@pytest.mark.parametrize(
    "name",
    [*WORLD_NAMES, "Bérénice the very patient strategist", "👨\u200d👩\u200d👧👨\u200d👩\u200d👧 clan"],
)
@pytest.mark.parametrize("bold", [False, True])
def test_fit_shortens_at_a_character_boundary_with_an_ellipsis(name: str, bold: bool) -> None:
    full = text.text_width(name, 22, bold=bold)
    assert text.fit(name, 22, full, bold=bold) == name
    for width in (full - 1, full * 0.7, full * 0.4, text.text_width("…", 22, bold=bold)):
        short = text.fit(name, 22, width, bold=bold)
        assert short.endswith("…")
        assert text.text_width(short, 22, bold=bold) <= width
        kept = short[:-1]
        assert name.startswith(kept) and not kept.endswith(" ")
        assert kept in ("".join(text.clusters(name)[:n]).rstrip() for n in range(len(text.clusters(name))))
        # The longest such prefix: one more character would not fit.
        longer = "".join(text.clusters(name)[: len(text.clusters(kept)) + 1]).rstrip() + "…"
        assert text.text_width(longer, 22, bold=bold) > width or longer == short


def test_fit_gives_up_only_when_not_even_the_ellipsis_fits() -> None:
    assert text.fit("Дмитрий", 22, 3) == ""
    assert text.fit("Alice", 24, 150) == "Alice"


def test_draw_text_with_max_width_shortens_as_fit_does() -> None:
    name = "Αλέξανδρος Παπαδόπουλος"
    wide, narrow = Image.new("L", (600, 60), 0), Image.new("L", (600, 60), 0)
    width = text.draw_text(ImageDraw.Draw(narrow), (0, 10), name, 24, (255,), bold=True, max_width=150)
    assert width <= 150
    text.draw_text(ImageDraw.Draw(wide), (0, 10), text.fit(name, 24, 150, bold=True), 24, (255,), bold=True)
    assert wide.tobytes() == narrow.tobytes()
    box = narrow.getbbox()
    assert box is not None and box[2] <= 151


def test_shrink_loses_height_before_letters() -> None:
    label = "Marqueurs restants"
    room = text.text_width(label, 17)
    assert text.shrink(label, 19, room, 16) == 17
    assert text.shrink(label, 19, room - 30, 16) == 16  # then fit shortens it
    assert text.shrink(label, 19, room * 2, 16) == 19


def test_capitals_are_centred_on_the_anchor() -> None:
    image = Image.new("L", (200, 100), 0)
    text.draw_text(ImageDraw.Draw(image), (10, 50), "HEH", 40, (255,), anchor="lc")
    box = image.getbbox()
    assert box is not None
    assert abs((box[1] + box[3]) / 2 - 50) <= 1


def test_fit_at_words_keeps_whole_words() -> None:
    line = "Tremor: Mountain regions lose a crystal"
    room = text.text_width("Tremor: Mountain regio…", 20)
    assert text.fit(line, 20, room) == "Tremor: Mountain regio…"
    assert text.fit(line, 20, room, words=True) == "Tremor: Mountain…"
    assert (
        text.fit("Monument", 20, text.text_width("Monum…", 20), words=True) == "Monum…"
    )  # one word: no choice
    assert text.fit(line, 20, 1000, words=True) == line


def test_wrap_breaks_between_words_and_after_hyphens() -> None:
    assert text.wrap(
        "Fort-du-Crépuscule", 22, text.text_width("Crépuscule", 22, bold=True) + 2, 2, bold=True
    ) == [
        "Fort-du-",
        "Crépuscule",
    ]
    effect = "add 2 units from your reserve to an objective of the battle board"
    lines = text.wrap(effect, 16, 120, 3)
    assert len(lines) == 3 and lines[-1].endswith("…")
    assert all(text.text_width(line, 16) <= 120 for line in lines)
    words = effect.split()
    for line in lines:
        for word in line.removesuffix("…").split():
            assert word in words, word  # no word is split
    assert " ".join(text.wrap(effect, 16, 120, 9)) == effect


def test_wrap_breaks_a_long_word_at_its_soft_hyphen_only_when_it_must() -> None:
    """A soft hyphen is a break used only when the text does not fit without it; it is drawn as a
    hyphen at the end of a line and not at all elsewhere."""
    soft = text.SOFT_HYPHEN
    narrow = text.text_width("Hollowgro", 22, bold=True)
    assert text.wrap(f"Hollow{soft}grove", 22, narrow, 2, bold=True) == ["Hollow-", "grove"]
    assert text.wrap("Hollowgrove", 22, narrow, 2, bold=True)[0].endswith("…")
    wide = text.text_width("Hollowgrove", 22, bold=True) + 2
    assert text.wrap(f"The Dust{soft}bowl", 22, wide, 2, bold=True) == ["The", "Dustbowl"]
    assert text.wrap(f"Hollow{soft}grove", 22, wide, 2, bold=True) == ["Hollowgrove"]


def test_text_widths_are_cached_and_the_same_as_measured() -> None:
    text.text_width.cache_clear()
    first = text.text_width("Bérénice", 22, bold=True)
    again = text.text_width("Bérénice", 22, bold=True)
    assert first == again == text.font(22, True).getlength("Bérénice")
    assert text.text_width.cache_info().hits == 1


def test_recording_gives_sizes_in_the_finished_image() -> None:
    big = Image.new("L", (400, 200), 0)
    with text.recording() as found:
        text.draw_text(ImageDraw.Draw(big), (0, 0), "e1", 22, (255,), role="hex")
        with text.scaled(4):
            text.draw_text(ImageDraw.Draw(big), (0, 0), "2", 88, (255,), role="height")
        text.draw_text(ImageDraw.Draw(big), (0, 0), "Dmitri the Great", 22, (255,), max_width=90, words=True)
    assert [(d.role, d.size) for d in found] == [("hex", 22), ("height", 22), (None, 22)]
    assert found[2].shown == "Dmitri…" and found[2].text == "Dmitri the Great" and found[2].room == 90


def test_a_label_from_the_cache_of_masks_is_the_label_pillow_draws() -> None:
    """At any position, to the 64th of a pixel FreeType works in, and in any colour: the same
    pixels as Pillow's own text drawing, and the second time the mask comes from the cache."""
    generator = random.Random(4)
    for _ in range(40):
        x, y = generator.uniform(0, 40), generator.uniform(24, 40)
        colour = (generator.randrange(256), generator.randrange(256), generator.randrange(256))
        label = generator.choice(["Alice 12", "Bérénice", "B7 ×3", "Chloé: Crossbowman"])
        expected = Image.new("RGBA", (320, 60), (250, 247, 240, 255))
        ImageDraw.Draw(expected).text((x, y), label, font=text.font(24), fill=colour, anchor="ls")
        for _twice in range(2):
            drawn = Image.new("RGBA", (320, 60), (250, 247, 240, 255))
            text.draw_text(ImageDraw.Draw(drawn), (x, y), label, 24, colour, anchor="ls")
            assert drawn.tobytes() == expected.tobytes(), (label, x, y)
    before = text._mask.cache_info().hits
    text.draw_text(ImageDraw.Draw(Image.new("RGB", (320, 60))), (3.5, 30.25), "Alice 12", 24, (0, 0, 0))
    text.draw_text(ImageDraw.Draw(Image.new("RGB", (320, 60))), (3.5, 30.25), "Alice 12", 24, (9, 9, 9))
    assert text._mask.cache_info().hits > before


def test_an_arabic_word_is_drawn_in_one_font_so_that_it_joins() -> None:
    """DejaVu has "ب" but not "ݐ": the word "بݐب" goes whole to the first font with all three
    (Noto Sans Arabic), rather than in three runs whose letters could not join."""
    assert 0x0628 in glyphs.code_points(text.REGULAR) and 0x0750 not in glyphs.code_points(text.REGULAR)
    (run,) = text._plan("بݐب")
    assert run.rtl and run.text == "بݐب" and run.face != 0
    assert len({r.face for r in text._plan("ب ݐ")}) == 2  # words apart keep their own fonts


@pytest.mark.parametrize("bold", [False, True])
def test_a_text_of_plain_characters_is_planned_as_the_cluster_by_cluster_plan_gives(
    bold: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``_plan`` takes a text of characters DejaVu draws as themselves as one run at once: the runs
    are those it finds cluster by cluster, for those texts and for any other."""
    samples = [
        "Last action: Dave moves their Cavalry from a6 to a5",
        "Dernière action : Zoé déploie son Éclaireur en c7 (½, ©, ß, œ, ﬁ)",
        "Tour 3 — à Loïc d'agir ; « Garde royale » ×2 → 5",
        "Ωmega Дмитрий Αλέξανδρος ½ ¼ № ∞",
        "e\u0301 cafe\u0301 Å Å",  # a letter and its accent, a composed and a decomposed letter
        "tab\there, no\u00a0break, wide\u3000space",
        "王小明 plays 🐉 Drágon 👑 and 👍🏽 🇫🇷",
        "שלום Alice مرحبا 12",
        "zero\u200dwidth \ufe0f selector \u00ad soft",
        "",
        " ",
        "\U00020000 beyond",
    ]
    assert all(text._plain(ch, bold) for ch in samples[0] + samples[2])
    fast = [text._plan.__wrapped__(s, bold) for s in samples]
    monkeypatch.setattr(text, "_plain", lambda _ch, _bold: False)
    slow = [text._plan.__wrapped__(s, bold) for s in samples]
    assert fast == slow
    assert sum(len(runs) == 1 and not runs[0].box for runs in fast) >= 4
