"""The War Chest images: size, golden pictures, no hidden information, purity and caching.

Golden images live in tests/render/golden/ (see tests/render/golden.py for the tolerance and how to
regenerate them).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

import render
from render.warchest import board as wc_board
from render.warchest import sprites as wc_sprites
from render.warchest.images import INNER, WIDTH
from render.warchest.style import owner_tags
from tests.render import views
from tests.render.golden import (
    SCRIPT_NAMES,
    WORLD_NAMES,
    case_ids,
    check_golden,
    check_leaves_view_alone,
    check_names_drawn,
    check_second_draw_uses_caches,
    decode,
    listen_to_pillow,
    texts_of,
)

PUBLIC_CASES: list[tuple[str, Callable[[], dict[str, Any]], str]] = [
    ("mid_game", views.mid_game, "en"),
    ("mid_game", views.mid_game, "fr"),
    ("pending", views.pending_follow_up, "en"),
    ("over", views.game_over, "fr"),
    ("draft", views.draft, "en"),
    ("four_players", views.four_players, "fr"),
    ("details_mid_game", views.mid_game, "fr"),
    ("details_four_players", views.four_players, "en"),
]


@pytest.mark.parametrize(("name", "make", "locale"), PUBLIC_CASES, ids=case_ids(PUBLIC_CASES))
def test_golden_public(name: str, make: Callable[[], dict[str, Any]], locale: str) -> None:
    """The board images, and the details images (``details_``) that anyone may ask for."""
    draw = render.render_details if name.startswith("details_") else render.render
    check_golden(f"warchest_{name}_{locale}", draw(make(), names=views.NAMES, locale=locale))


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_golden_private(locale: str) -> None:
    png = render.render_private(views.mid_game(), names=views.NAMES, locale=locale)
    check_golden(f"warchest_private_{locale}", png)


def test_golden_names_in_every_alphabet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four players named in Cyrillic, Greek, Polish and with an emoji: headers, status, legend."""
    heard = listen_to_pillow(monkeypatch)
    png = render.render(views.four_players(), names=WORLD_NAMES, locale="fr")
    check_golden("warchest_names_fr", png)
    check_names_drawn(heard, WORLD_NAMES.values())


def test_golden_names_in_other_scripts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four players named in Chinese, Arabic, Thai with a skin tone and Japanese with a flag."""
    heard = listen_to_pillow(monkeypatch)
    png = render.render(views.four_players(), names=SCRIPT_NAMES, locale="en")
    check_golden("warchest_names_scripts_en", png)
    check_names_drawn(heard, SCRIPT_NAMES.values())


def _opaque(sprite: Image.Image, center: tuple[float, float], box: tuple[float, float, float, float]) -> int:
    """How many pixels of ``sprite``, pasted centred on ``center``, are more than faintly drawn
    inside ``box``."""
    x = round(center[0] - sprite.width / 2)
    y = round(center[1] - sprite.height / 2)
    left, top = max(0, math.floor(box[0]) - x), max(0, math.floor(box[1]) - y)
    right, bottom = min(sprite.width, math.ceil(box[2]) - x), min(sprite.height, math.ceil(box[3]) - y)
    if right <= left or bottom <= top:
        return 0
    alpha = sprite.getchannel("A").crop((left, top, right, bottom))
    return sum(alpha.point(lambda a: 255 if a > 90 else 0).histogram()[255:])


@pytest.mark.parametrize("hexes", [views.TWO_PLAYER_HEXES, views.FOUR_PLAYER_HEXES], ids=["two", "four"])
def test_a_hex_label_stays_clear_of_the_highlight_ring_and_stack(hexes: list[list[int]]) -> None:
    """On both boards, no mark of a hex covers its label: not the last-action band along the edge
    (only its faint wash, over which the label is printed again), not a controlled location's
    ring, not a stack of three with its height and owner badges."""
    cells = [(int(x), int(y)) for x, y in hexes]
    layout = wc_board.board_layout(cells, INNER)
    style = wc_board.hex_style(layout.size)
    band = wc_sprites.last_outline(layout.size - wc_board.HEX_GAP, style.band)
    marks = [wc_sprites.control_ring(team, style.ring, style.ring_line) for team in (None, 0, 1)] + [
        wc_sprites.token("knight", team, 3, "fr", style.token, "A") for team in (0, 1)
    ]
    for h in cells:
        label = wc_board.label_box(layout, h)
        center = layout.center(h)
        assert _opaque(band, center, label) == 0, h
        for mark in marks:
            assert _opaque(mark, style.piece_center(center), label) == 0, h
    # The check sees a mark on a label: the band, moved to the label's height, covers it.
    h = cells[0]
    cx, cy = layout.center(h)
    assert _opaque(band, (cx, cy + style.size - style.label_dy), wc_board.label_box(layout, h)) > 0


def test_the_highlight_of_the_last_action_is_drawn_and_keeps_the_label() -> None:
    """The highlighted hexes change under the band, and their label is printed on top, whole."""
    view = views.mid_game()
    layout = wc_board.board_layout([tuple(h) for h in view["board"]["hexes"]], INNER)  # type: ignore[misc]
    plain = dict(view, last=None, since=[])
    found, _image = texts_of(lambda: render.render(view, names=views.NAMES, locale="en"))
    drawn = wc_board.draw_board(view, layout, "en").convert("RGB")
    without = wc_board.draw_board(plain, layout, "en").convert("RGB")
    for h in view["last"]["hexes"]:
        cx, cy = layout.center((h[0], h[1]))
        assert drawn.getpixel((round(cx), round(cy - layout.size + 4))) != without.getpixel(
            (round(cx), round(cy - layout.size + 4))
        )
    labels = [d.shown for d in found if d.role == "hex"]
    assert labels.count("d3") == 2 and labels.count("d4") == 2  # printed, then printed again on top


def test_teammates_units_carry_their_owners_letter() -> None:
    """With four players, teammates share a colour and a shape: each token carries its owner's
    letter, and the strip shows each player's letter by the name."""
    view = views.four_players()
    found, _image = texts_of(lambda: render.render(view, names=views.NAMES, locale="fr"))
    letters = {d.shown for d in found if d.role == "owner"}
    assert letters == {"A", "B", "C", "D"}  # Alice, Bérénice, Chloé, Dmitri all have units out
    alice = wc_sprites.token("footman", 0, 1, "fr", 26, "A")
    chloe = wc_sprites.token("footman", 0, 1, "fr", 26, "C")
    assert alice.tobytes() != chloe.tobytes()
    assert owner_tags(views.mid_game(), views.NAMES) == {}  # one seat a team: colour says it all


def test_owner_letters_tell_teammates_apart_whatever_their_names() -> None:
    view = views.four_players()
    same_start = {"111": "Anna", "222": "Bob", "333": "Alice", "444": "Dan"}
    assert owner_tags(view, same_start) == {0: "AN", 1: "B", 2: "AL", 3: "D"}
    twins = {"111": "Sam", "222": "Bob", "333": "Sam", "444": "Dan"}
    assert owner_tags(view, twins) == {0: "1", 1: "B", 2: "3", 3: "D"}
    assert owner_tags(view, {**views.NAMES, "444": "🐉 Drake"})[3] == "D"  # the emoji has no letter
    assert owner_tags(view, {**views.NAMES, "444": "🐉"})[3] == "4"


@pytest.mark.parametrize("locale", ["fr", "en"])
@pytest.mark.parametrize("make", [views.mid_game, views.four_players, views.draft])
def test_unit_and_player_names_are_drawn_whole_where_there_is_room(
    make: Callable[[], dict[str, Any]], locale: str
) -> None:
    """In the tables and the legend every unit name is written out ("Porte-étendard", "Prêtre
    guerrier"), at the size of the other names, and so are the players' names."""
    for draw in (render.render, render.render_details):
        found, _image = texts_of(lambda: draw(make(), names=views.NAMES, locale=locale))  # noqa: B023
        cut = [(d.text, d.shown) for d in found if d.shown != d.text]
        assert cut == []
        names = [d for d in found if d.role == "unit_name"]
        assert draw is render.render or {round(d.size) for d in names} == {22}


def test_private_png_is_small() -> None:
    image = decode(render.render_private(views.mid_game(), names=views.NAMES, locale="en"))
    assert image.format == "PNG"
    assert image.width <= 1000
    assert image.height <= 500


def test_public_image_ignores_private_part() -> None:
    view = views.mid_game()
    as_owner = render.render(view, names=views.NAMES, locale="en")
    other_hand = {"seat": 1, "hand": ["lancer", "lancer", "scout"], "bag": {"royal": 1}}
    for private, viewer in [(None, None), (other_hand, "222"), ({"seat": 0, "hand": [], "bag": {}}, "111")]:
        other = views.with_private(view, private, viewer)
        assert render.render(other, names=views.NAMES, locale="en") == as_owner


def test_private_image_shows_the_private_part() -> None:
    view = views.mid_game()
    other = views.with_private(view, {"seat": 1, "hand": ["lancer"], "bag": {"royal": 1}}, "222")
    first = render.render_private(view, names=views.NAMES, locale="en")
    assert render.render_private(other, names=views.NAMES, locale="en") != first


def test_spectator_private_image_is_a_notice() -> None:
    view = views.with_private(views.mid_game(), None, None)
    image = decode(render.render_private(view, names=views.NAMES, locale="fr"))
    assert image.height < 150


@pytest.mark.parametrize("make", [views.mid_game, views.game_over, views.draft, views.four_players])
def test_rendering_does_not_mutate_the_view(make: Callable[[], dict[str, Any]]) -> None:
    check_leaves_view_alone(render, make(), views.NAMES)


def test_second_render_only_reuses_cached_layers() -> None:
    view = views.mid_game()
    caches = [wc_board.empty_board, wc_sprites.token, wc_sprites.control_ring, wc_sprites.last_outline]
    check_second_draw_uses_caches(caches, lambda: render.render(view, names=views.NAMES, locale="en"))


def test_golden_comparison_catches_a_changed_counter() -> None:
    view = views.mid_game()
    view["seats"][0]["bag"] = 7
    with pytest.raises(AssertionError, match="differ strongly"):
        check_golden("warchest_mid_game_en", render.render(view, names=views.NAMES, locale="en"), regen=False)


def test_a_move_changes_the_image() -> None:
    view = views.mid_game()
    moved = copy.deepcopy(view)
    moved["units"][1]["hex"] = [5, 1]
    moved["last"] = {"seat": 0, "text": "move pikeman e2 f2", "hexes": [[4, 1], [5, 1]]}
    assert render.render(moved, names=views.NAMES, locale="en") != render.render(
        view, names=views.NAMES, locale="en"
    )


def test_display_names_appear_through_names() -> None:
    view = views.mid_game()
    renamed = {**views.NAMES, "222": "Zed"}
    assert render.render(view, names=renamed, locale="en") != render.render(
        view, names=views.NAMES, locale="en"
    )


def test_missing_name_falls_back_to_the_id() -> None:
    png = render.render(views.mid_game(), names={}, locale="en")
    assert decode(png).width == WIDTH


def test_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="no renderer"):
        render.render({"game": "chess"}, names={}, locale="en")
    with pytest.raises(ValueError, match="no renderer"):
        render.render_private({"game": "chess"}, names={}, locale="en")
