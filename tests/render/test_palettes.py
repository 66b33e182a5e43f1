"""The fixed board palettes and the band-reusing PNG encoder.

The palettes (rebuilt by ``make regen-golden``, see ``tests/render/palette_sources.py``) are held to
what players would notice on boards they were not built from (fresh seeds); the encoder to exact
pixels and stable bytes.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from render import palettes, png
from render.common import PAPER, to_png
from render.warchest import images as warchest
from tests.render import views
from tests.render.golden import decode
from tests.render.palette_sources import GAMES, boards


@pytest.mark.parametrize("game", GAMES)
def test_a_palette_file_holds_at_most_256_distinct_colours(game: str) -> None:
    colours = palettes.read(game)
    assert 64 <= len(colours) <= palettes.SIZE
    assert len(set(colours)) == len(colours)
    assert colours[0] == PAPER  # the page's lead column, PNG's filter bytes, is index 0


@pytest.mark.parametrize("game", GAMES)
def test_boards_the_palette_was_not_built_from_keep_their_colours(game: str) -> None:
    """Fresh seeds: the flat colours (anything covering a thousandth of the board) come out exactly
    or within six levels (two shades of one fill that the shrunk sprites leave, which Pillow's
    palette lookup cannot keep apart), and the anti-aliased edges move by at most a shade on average,
    never by a jump."""
    palette = palettes.load(game)
    for board in boards(game, range(7, 8), 60, 180):
        rgb = board.convert("RGB")
        shown = rgb.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
        pixels = rgb.width * rgb.height
        flat = [colour for count, colour in rgb.getcolors(1 << 24) or [] if count >= pixels / 1000]
        probe = Image.new("RGB", (len(flat), 1))
        probe.putdata(flat)
        kept = probe.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
        assert ImageChops.difference(probe, kept).getextrema() <= ((0, 6),) * 3, game
        difference = ImageChops.difference(rgb, shown)
        assert max(ImageStat.Stat(difference).mean) < 1.5, game
        strong = sum(difference.convert("L").histogram()[48:])
        assert strong <= pixels * 0.0002, (game, strong)


def test_an_edge_entry_that_would_take_a_flat_colour_is_dropped() -> None:
    """Two near colours, one covering most of the picture: the near one may not steal its pixels."""
    paper, near = (250, 247, 240), (248, 245, 238)
    image = Image.new("RGB", (100, 100), paper)
    ImageDraw.Draw(image).rectangle([0, 0, 3, 3], fill=(27, 27, 31))
    colours = palettes._keep_exact([near, paper, (27, 27, 31)], [paper, (27, 27, 31)])
    assert near not in colours
    shown = image.quantize(palette=palettes.image_of(colours), dither=Image.Dither.NONE).convert("RGB")
    assert shown.tobytes() == image.tobytes()


def _noise(width: int, height: int, seed: int) -> Image.Image:
    generator = random.Random(seed)
    image = Image.frombytes("P", (width, height), generator.randbytes(width * height))
    image.putpalette(list(generator.randbytes(768)))
    return image


@pytest.mark.parametrize(("width", "height"), [(1, 1), (37, 5), (301, 97), (1200, 33)])
def test_the_encoder_gives_back_the_exact_indices_and_palette(width: int, height: int) -> None:
    image = _noise(width, height, width * height)
    decoded = Image.open(io.BytesIO(png.encode(image)))
    decoded.load()
    assert decoded.mode == "P"
    assert decoded.size == (width, height)
    assert decoded.tobytes() == image.tobytes()
    assert decoded.getpalette() == image.getpalette()


def test_a_cold_and_a_warm_encoder_give_the_same_bytes() -> None:
    image = _noise(640, 200, 1)
    png.forget()
    cold = png.encode(image)
    warm = png.encode(image)
    png.forget()
    assert cold == warm == png.encode(image.copy())


def test_a_changed_pixel_deflates_its_band_again_and_reuses_the_others() -> None:
    image = _noise(400, 10 * png.BAND, 2)
    png.forget()
    png.encode(image)
    before = dict(png.stats)
    image.putpixel((123, 4 * png.BAND + 3), (image.getpixel((123, 4 * png.BAND + 3)) + 1) % 256)
    changed = png.encode(image)
    assert png.stats["deflated"] - before["deflated"] == 1
    assert png.stats["reused"] - before["reused"] == 9
    assert decode(changed).tobytes() == image.tobytes()


def _boards(game: str, count: int) -> list[Image.Image]:
    """Consecutive public pages of a seeded game, with their lead column, as the bot draws them."""
    pages = []
    for board in boards(game, range(5, 6), 1, count):
        page = Image.new("RGB", (board.width + 1, board.height), PAPER)
        page.paste(board.convert("RGB"), (1, 0))
        pages.append(page)
    return pages


@pytest.mark.parametrize("game", GAMES)
def test_a_page_is_quantised_only_where_it_changed_with_the_same_bytes_as_whole(game: str) -> None:
    """Move after move, ``encode_page`` gives exactly the PNG of the whole page quantised at once,
    while most bands come unchanged from the previous page."""
    palette = palettes.load(game)
    png.forget()
    before = dict(png.stats)
    pages = _boards(game, 12)
    for page in pages:
        whole = png.encode(page.quantize(palette=palette, dither=Image.Dither.NONE), lead=True)
        assert png.encode_page(page, palette) == whole
    assert png.stats["unchanged"] - before["unchanged"] > 0
    png.forget()


def test_a_page_whose_lead_column_is_not_paper_is_still_encoded_right() -> None:
    palette = palettes.load("warchest")
    page = _boards("warchest", 1)[0]
    page.putpixel((0, 40), (27, 27, 31))  # ink where the filter bytes go
    png.forget()
    expected = page.crop((1, 0, page.width, page.height)).quantize(palette=palette, dither=Image.Dither.NONE)
    assert decode(png.encode_page(page, palette)).tobytes() == expected.tobytes()


def test_a_page_with_the_lead_column_gives_the_picture_without_it() -> None:
    picture = _noise(300, 70, 4)
    page = Image.new("P", (301, 70), 0)
    page.paste(picture, (1, 0))
    page.putpalette(picture.getpalette() or [])
    assert png.encode(page, lead=True) == png.encode(picture)
    page.putpixel((0, 5), 7)  # not a lead column after all: encoded whole, never wrong
    assert decode(png.encode(page, lead=True)).tobytes() == page.crop((1, 0, 301, 70)).tobytes()


def test_the_cache_of_bands_stays_within_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(png, "CACHE_BYTES", 64 * 1024)
    png.forget()
    for seed in range(6):
        png.encode(_noise(500, 4 * png.BAND, 10 + seed))
    assert 0 < png._held <= 64 * 1024
    assert png._held == sum(len(band) for band in png._bands.values())
    png.forget()


def test_a_board_comes_out_in_its_games_palette() -> None:
    board = warchest.compose(views.mid_game(), names=views.NAMES, locale="en")
    decoded = decode(to_png(board, palettes.load("warchest")))
    assert decoded.mode == "P"
    assert decoded.getpalette()[: 3 * len(palettes.read("warchest"))] == [
        channel for colour in palettes.read("warchest") for channel in colour
    ]


def test_a_page_changed_in_a_corner_and_on_a_bands_last_row_has_the_bytes_of_a_whole_encoding() -> None:
    """A band under a changed last row is deflated again after it (its first row refers back to
    that row): the bytes stay those of the whole page encoded at once."""
    palette = palettes.load("warchest")
    colours = palettes.read("warchest")
    pick = random.Random(9)
    page = Image.new("RGB", (201, 6 * png.BAND), PAPER)
    draw = ImageDraw.Draw(page)
    for _ in range(60):
        x, y = pick.randrange(1, 190), pick.randrange(0, page.height - 8)
        draw.rectangle([x, y, x + pick.randrange(2, 12), y + pick.randrange(2, 8)], fill=pick.choice(colours))
    png.forget()
    png.encode_page(page, palette)
    draw.rectangle([150, 2 * png.BAND + 3, 170, 2 * png.BAND + 6], fill=colours[5])
    draw.line([(20, 3 * png.BAND - 1), (60, 3 * png.BAND - 1)], fill=colours[9])
    before = dict(png.stats)
    encoded = png.encode_page(page, palette)
    assert encoded == png.encode(page.quantize(palette=palette, dither=Image.Dither.NONE), lead=True)
    assert png.stats["unchanged"] - before["unchanged"] == 4  # bands 0, 1, 4 and 5
    png.forget()


def test_a_page_whose_drawer_names_changed_boxes_is_read_in_their_columns_only() -> None:
    """Boxes across band edges, one reaching past the page's right edge: only their columns are
    read again, and the bytes are those of the whole page encoded at once; a change outside the
    boxes the drawer named is not seen (the drawer vouched for it)."""
    palette = palettes.load("warchest")
    colours = palettes.read("warchest")
    page = Image.new("RGB", (241, 6 * png.BAND), PAPER)
    draw = ImageDraw.Draw(page)
    for n in range(12):
        draw.rectangle([10 + 18 * n, 5 + 7 * n, 20 + 18 * n, 14 + 7 * n], fill=colours[n + 2])
    png.forget()
    png.encode_page(page, palette, ("first", None, []))
    draw.rectangle([30, png.BAND - 4, 50, 2 * png.BAND + 3], fill=colours[7])
    draw.rectangle([200, 3 * png.BAND + 2, 240, 3 * png.BAND + 9], fill=colours[3])
    boxes = [(png.BAND - 4, 2 * png.BAND + 4, 30, 51), (3 * png.BAND + 2, 3 * png.BAND + 10, 200, 260)]
    encoded = png.encode_page(page, palette, ("second", "first", boxes))
    assert encoded == png.encode(page.quantize(palette=palette, dither=Image.Dither.NONE), lead=True)
    before = page.copy()
    draw.rectangle([100, 5, 110, 9], fill=colours[4])  # outside every box named below
    draw.rectangle([60, 4 * png.BAND + 1, 70, 4 * png.BAND + 5], fill=colours[5])
    encoded = png.encode_page(page, palette, ("third", "second", [(4 * png.BAND, 5 * png.BAND, 55, 75)]))
    before.paste(page.crop((55, 4 * png.BAND, 75, 5 * png.BAND)), (55, 4 * png.BAND))
    assert encoded == png.encode(before.quantize(palette=palette, dither=Image.Dither.NONE), lead=True)
    png.forget()
