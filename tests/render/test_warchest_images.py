"""The War Chest images: size, golden pictures, no hidden information, purity and caching.

Golden images live in tests/render/golden/ (see tests/render/golden.py for the tolerance and how to
regenerate them).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

import render
from render.warchest import board as wc_board
from render.warchest import sprites as wc_sprites
from render.warchest.images import WIDTH
from tests.render import views
from tests.render.golden import (
    WORLD_NAMES,
    case_ids,
    check_golden,
    check_leaves_view_alone,
    check_names_drawn,
    check_second_draw_uses_caches,
    decode,
    listen_to_pillow,
)

PUBLIC_CASES: list[tuple[str, Callable[[], dict[str, Any]], str]] = [
    ("mid_game", views.mid_game, "en"),
    ("mid_game", views.mid_game, "fr"),
    ("pending", views.pending_follow_up, "en"),
    ("over", views.game_over, "fr"),
    ("draft", views.draft, "en"),
    ("four_players", views.four_players, "fr"),
]


@pytest.mark.parametrize(("name", "make", "locale"), PUBLIC_CASES, ids=case_ids(PUBLIC_CASES))
def test_golden_public(name: str, make: Callable[[], dict[str, Any]], locale: str) -> None:
    png = render.render(make(), names=views.NAMES, locale=locale)
    check_golden(f"warchest_{name}_{locale}", png)


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


@pytest.mark.parametrize("make", [views.mid_game, views.four_players, views.draft])
def test_png_is_phone_sized(make: Callable[[], dict[str, Any]]) -> None:
    image = decode(render.render(make(), names=views.NAMES, locale="en"))
    assert image.format == "PNG"
    assert image.mode == "RGB"
    assert image.width == WIDTH
    assert 1000 <= image.width <= 1200
    assert 1500 <= image.height <= 2600


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
