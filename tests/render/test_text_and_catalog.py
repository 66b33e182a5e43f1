"""Board geometry, status lines and the render catalog (the text helpers: test_text.py)."""

from __future__ import annotations

from render.catalog import message
from render.warchest.board import board_layout, hex_label
from render.warchest.hexgrid import fit as fit_hexes
from render.warchest.images import INNER, _status_line
from render.warchest.style import UNIT_TYPES, unit_abbr, unit_name
from tests.render import views
from tests.render.golden import check_catalog_pair


def test_hex_labels_follow_the_architecture() -> None:
    assert hex_label((4, 0)) == "e1"
    assert hex_label((2, 6)) == "c7"


def test_both_boards_fit_the_image_width() -> None:
    two = board_layout([tuple(h) for h in views.TWO_PLAYER_HEXES], INNER)  # type: ignore[misc]
    four = board_layout([tuple(h) for h in views.FOUR_PLAYER_HEXES], INNER)  # type: ignore[misc]
    assert two.width <= INNER and four.width <= INNER
    assert four.size < two.size  # the wider board gets smaller hexes
    assert two.size >= 70  # tokens stay large enough to read on a phone
    assert fit_hexes([(0, 0)], 500, max_size=40).size == 40


def test_status_line_names_who_acts_and_the_result() -> None:
    main, _sub = _status_line(views.mid_game(), views.NAMES, "fr")
    assert main == "À jouer : Bérénice"
    main, _sub = _status_line(views.pending_follow_up(), views.NAMES, "en")
    assert main == "Alice must finish: the Swordsman's free move"
    main, sub = _status_line(views.game_over(), views.NAMES, "en")
    assert main == "Game over: Alice won"
    assert sub == ""  # a reason key missing from the catalog is left out, not shown raw


def test_unknown_follow_up_kind_uses_generic_text() -> None:
    view = views.pending_follow_up()
    view["pending"]["kind"] = "something_new"
    main, _sub = _status_line(view, views.NAMES, "en")
    assert main == "Alice must finish: a follow-up action"


def test_catalog_languages_match() -> None:
    check_catalog_pair("render", "render.")


def test_every_unit_has_a_name_and_a_unique_abbreviation() -> None:
    for locale in ("en", "fr"):
        abbrs = [unit_abbr(u, locale) for u in UNIT_TYPES]
        assert len(set(abbrs)) == len(abbrs), locale
        assert all(1 <= len(a) <= 3 for a in abbrs)
        for unit in UNIT_TYPES:
            assert "_" not in unit_name(unit, locale)
    assert unit_name("scout", "fr") == "Éclaireur"
    assert unit_name("swordsman", "fr") == "Soldat"


def test_result_reason_shows_display_names_and_hides_unknown_keys() -> None:
    names = {"11": "Bob", "111": "Alice"}
    reason = {"key": "render.wc.initiative", "params": {"name": "@111"}}
    assert message(reason, "en", names) == "Initiative: Alice"
    assert message({"key": "no.such.key", "params": {}}, "en", names) == ""
    assert message(None, "en", names) == ""
