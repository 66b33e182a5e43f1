"""Pictures re-laid where their pieces changed (``render.layers``), the War Chest board drawn
through them, and the kept arrow sprites: each picture is exactly the one a fresh drawing gives."""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence

import pytest
from PIL import Image, ImageChops, ImageDraw

from render import common, palettes, panels, png
from render.batailles import board as bt_board
from render.batailles import field as bt_field
from render.batailles import images as batailles
from render.batailles import panels as bt_panels
from render.cryhavoc import board as ch_board
from render.cryhavoc import images as cryhavoc
from render.cryhavoc import panels as ch_panels
from render.layers import Layers, Piece, Shelf, centered
from render.page import INNER
from render.text import recording
from render.warchest import board as wc_board
from render.warchest import images as warchest
from tests.render import views
from tests.render.palette_sources import NAMES, seeded_views


def _ground(width: int = 120, height: int = 90) -> Image.Image:
    ground = Image.new("RGBA", (width, height), (240, 235, 220, 255))
    draw = ImageDraw.Draw(ground)
    for x in range(0, width, 10):
        draw.line([(x, 0), (x, height)], fill=(150, 140, 110, 255))
    return ground


def _sprites(count: int) -> list[Image.Image]:
    """Translucent discs and squares of a few sizes: their edges blend with what lies under them."""
    found = []
    for n in range(count):
        size = 8 + 5 * n
        sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        draw = ImageDraw.Draw(sprite)
        color = (40 * n % 256, 90, 200 - 20 * n, 160 + 10 * n)
        (draw.ellipse if n % 2 else draw.rectangle)([1, 1, size - 2, size - 2], fill=color)
        found.append(sprite)
    return found


def _fresh(ground: Image.Image, pieces: Sequence[Piece]) -> Image.Image:
    """``pieces`` composited one after the other on a copy of ``ground``: a whole drawing."""
    canvas = ground.copy()
    for item, x, y in pieces:
        common.paste_centered(canvas, item, (x + item.width / 2, y + item.height / 2))
    return canvas


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None and a.tobytes() == b.tobytes()


def test_each_picture_equals_a_whole_drawing_through_moves_removals_edges_and_reorders() -> None:
    ground = _ground()
    sprites = _sprites(6)
    pick = random.Random(3)
    layers = Layers(ground)
    pieces: list[Piece] = []
    for step in range(60):
        kind = pick.randrange(5)
        if kind == 0 or not pieces:  # a piece comes, sometimes reaching past an edge
            piece = (pick.choice(sprites), pick.randrange(-15, 115), pick.randrange(-15, 85))
            pieces.insert(pick.randrange(len(pieces) + 1), piece)
        elif kind == 1:  # a piece goes
            pieces.pop(pick.randrange(len(pieces)))
        elif kind == 2:  # a piece moves
            at = pick.randrange(len(pieces))
            item, x, y = pieces[at]
            pieces[at] = (item, x + pick.randrange(-9, 10), y + pick.randrange(-9, 10))
        elif kind == 3 and len(pieces) > 1:  # two pieces swap their order
            a, b = pick.sample(range(len(pieces)), 2)
            pieces[a], pieces[b] = pieces[b], pieces[a]
        else:  # the same piece twice at one place
            pieces.append(pieces[pick.randrange(len(pieces))])
        drawn = layers.draw(list(pieces))
        assert _same(drawn, _fresh(ground, pieces)), f"step {step}"


def test_only_the_boxes_of_changed_pieces_are_laid_again() -> None:
    ground = _ground()
    a, b = _sprites(2)
    layers = Layers(ground)
    layers.draw([(a, 10, 10), (b, 60, 40)])
    layers.draw([(a, 10, 10), (b, 70, 40)])
    assert sorted(layers.changed) == [
        (60, 40, 60 + b.width, 40 + b.height),
        (70, 40, 70 + b.width, 40 + b.height),
    ]
    unchanged = layers.version
    layers.draw([(a, 10, 10), (b, 70, 40)])
    assert layers.changed == [] and layers.version == unchanged + 1


def test_a_box_inside_another_changed_box_is_not_laid_again() -> None:
    """A token and the outline around it change together: the outline's box alone is re-laid, and
    the picture is still the whole drawing."""
    ground = _ground()
    small, _, _, big = _sprites(4)
    layers = Layers(ground)
    layers.draw([(big, 20, 20), (small, 25, 25)])
    drawn = layers.draw([(big, 21, 20), (small, 26, 27), (small, 26, 27)])
    assert sorted(layers.changed) == [
        (20, 20, 20 + big.width, 20 + big.height),
        (21, 20, 21 + big.width, 20 + big.height),
    ]
    assert _same(drawn, _fresh(ground, [(big, 21, 20), (small, 26, 27), (small, 26, 27)]))


def test_a_changed_piece_is_drawn_again_and_the_old_place_is_cleared() -> None:
    ground = _ground()
    (a,) = _sprites(1)
    opaque = a.copy()
    opaque.putalpha(255)
    layers = Layers(ground)
    layers.draw([centered(opaque, (30, 30))])
    moved = layers.draw([centered(opaque, (80, 30))]).copy()
    assert moved.getpixel((80, 30)) == opaque.getpixel((opaque.width // 2, opaque.height // 2))
    assert moved.getpixel((30, 30)) == ground.getpixel((30, 30))


def test_the_war_chest_board_move_after_move_equals_a_board_drawn_afresh() -> None:
    for players in (2, 4):
        for view in seeded_views("warchest", players, 11, 40):
            hexes = [(int(x), int(y)) for x, y in view["board"]["hexes"]]
            layout = wc_board.board_layout(hexes, INNER)
            kept = wc_board.draw_board(view, layout, "en").copy()
            wc_board._layers.clear()
            assert _same(kept, wc_board.draw_board(view, layout, "en"))


def test_a_moved_token_is_redrawn_on_the_kept_board() -> None:
    view = views.mid_game()
    layout = wc_board.board_layout([(int(x), int(y)) for x, y in view["board"]["hexes"]], INNER)
    before = wc_board.draw_board(view, layout, "en").copy()
    unit = view["units"][1]
    was = layout.center((unit["hex"][0], unit["hex"][1]))
    unit["hex"] = [5, 1]
    after = wc_board.draw_board(view, layout, "en").copy()
    style = wc_board.hex_style(layout.size)
    x, y = style.piece_center(was)
    assert before.getpixel((round(x), round(y))) != after.getpixel((round(x), round(y)))
    wc_board._layers.clear()
    assert _same(after, wc_board.draw_board(view, layout, "en"))


def test_an_arrow_is_drawn_once_and_pasted_as_before() -> None:
    common.arrow.cache_clear()
    first = common.arrow((20.5, 30.25), (90.0, 61.5))
    assert first is common.arrow((20.5, 30.25), (90.0, 61.5))
    assert common.arrow((5.0, 5.0), (5.2, 5.3)) is None  # too short to point anywhere
    canvas = Image.new("RGBA", (120, 90), (240, 235, 220, 255))
    common.path_arrow(canvas, (20.5, 30.25), (90.0, 61.5))
    assert first is not None
    item, x, y = first
    assert _same(canvas, _fresh(Image.new("RGBA", (120, 90), (240, 235, 220, 255)), [(item, x, y)]))
    assert canvas.getpixel((55, 46))[:3] != (240, 235, 220)


def test_the_cry_havoc_map_move_after_move_equals_a_map_drawn_afresh() -> None:
    for players in (2, 4):
        for view in seeded_views("cryhavoc", players, 11, 40):
            kept = ch_board.draw_map(view, "en").copy()
            ch_board._layers.clear()
            assert _same(kept, ch_board.draw_map(view, "en"))


def test_the_batailles_battlefield_move_after_move_equals_one_drawn_afresh() -> None:
    for view in seeded_views("batailles", 2, 11, 60):
        board = view["board"]
        grid = bt_field.grid_for(int(board["width"]), int(board["height"]), INNER)
        kept = bt_board.draw_battlefield(view, grid)
        bt_board._layers.clear()
        assert _same(kept, bt_board.draw_battlefield(view, grid))


@pytest.mark.parametrize(
    ("game", "players"), [("warchest", 4), ("batailles", 2), ("cryhavoc", 2), ("cryhavoc", 4)]
)
def test_pages_encoded_without_reading_the_rows_their_board_kept_have_the_bytes_of_whole_encodings(
    game: str, players: int
) -> None:
    """The page says which rows its board left as they were (``png.UNCHANGED``): move after move the
    encoder, which does not read those rows, gives the bytes of the whole page encoded at once."""
    palette = palettes.load(game)
    module, kept_boards = {
        "warchest": (warchest, wc_board),
        "batailles": (batailles, bt_board),
        "cryhavoc": (cryhavoc, ch_board),
    }[game]
    png.forget()
    trusted = png.stats["unread"]
    for view in seeded_views(game, players, 5, 30):
        encoded = module.render(view, names=NAMES, locale="en")
        kept, kept_boards._layers = kept_boards._layers, Shelf(4)  # a fresh board, apart
        page = module.compose(view, names=NAMES, locale="en", lead=True)
        kept_boards._layers = kept
        assert encoded == png.encode(page.quantize(palette=palette, dither=Image.Dither.NONE), lead=True)
    assert png.stats["unread"] - trusted > 20 * 30
    png.forget()


def test_threads_never_share_kept_layers() -> None:
    """A kept picture is drawn over by the next drawing: two threads drawing at once keep their own."""
    shelf: Shelf[str] = Shelf(2)
    ground = _ground()
    here = shelf.get("board", ground)
    assert shelf.get("board", ground) is here
    there: list[Layers] = []
    thread = threading.Thread(target=lambda: there.append(shelf.get("board", ground)))
    thread.start()
    thread.join()
    assert there and there[0] is not here
    assert shelf.get("board", ground) is here
    assert shelf.get("board", _ground()) is not here  # a ground drawn again starts afresh


def test_a_kept_chip_is_the_chip_drawn_in_place_on_the_strip() -> None:
    """Chips are drawn once and pasted (``render.panels._chip_image``): each strip, for every game
    and table size and in both languages, equals the one drawn chip by chip in place."""
    cases = [("warchest", 2), ("warchest", 4), ("batailles", 2), ("cryhavoc", 2), ("cryhavoc", 4)]
    images = {"warchest": warchest, "batailles": batailles, "cryhavoc": cryhavoc}
    users = (warchest, bt_panels, ch_panels)  # the modules that lay out a strip
    strips: list[tuple[Sequence[panels.Chip], int, int]] = []
    real = panels.chip_row

    def listen(chips: Sequence[panels.Chip], width: int, per_row: int) -> Image.Image:
        strips.append((list(chips), width, per_row))
        return real(chips, width, per_row)

    for module in users:
        module.chip_row = listen  # type: ignore[attr-defined]
    try:
        for game, players in cases:
            for n, view in enumerate(seeded_views(game, players, 3, 12)):
                images[game].render(view, names=NAMES, locale="fr" if n % 2 else "en")
    finally:
        for module in users:
            module.chip_row = real  # type: ignore[attr-defined]
    assert len(strips) >= 5 * 12
    for chips, width, per_row in strips:
        kept = real(chips, width, per_row)
        with recording():  # a recorder makes every chip be drawn in place
            drawn = real(chips, width, per_row)
        assert _same(kept, drawn)


def test_the_war_chest_status_from_its_kept_top_equals_one_drawn_whole() -> None:
    for players in (2, 4):
        for view in seeded_views("warchest", players, 7, 40):
            kept = warchest._status(view, NAMES, "en")
            with recording():
                whole = warchest._status(view, NAMES, "en")
            assert _same(kept, whole)


def test_a_war_chest_page_names_only_the_chips_that_changed() -> None:
    """From the second page of a table on, the strip is told to the encoder chip by chip: the
    boxes of the chips whose counts or badges changed, and the encoding stays byte for byte."""
    palette = palettes.load("warchest")
    png.forget()
    kept, wc_board._layers = wc_board._layers, Shelf(4)
    try:
        named = 0
        for n, view in enumerate(seeded_views("warchest", 4, 5, 20)):
            page = warchest.compose(view, names=NAMES, locale="en", lead=True)
            _name, _since, rows = page.info[png.UNCHANGED]
            strip = [row for row in rows if row[0] > page.height - 200]
            if n > 0:
                assert all(len(row) == 4 for row in strip)
                named += len(strip)
            encoded = png.encode_page(page, palette, page.info[png.UNCHANGED])
            assert encoded == png.encode(page.quantize(palette=palette, dither=Image.Dither.NONE), lead=True)
        assert 0 < named < 4 * 19
    finally:
        wc_board._layers = kept
        png.forget()
