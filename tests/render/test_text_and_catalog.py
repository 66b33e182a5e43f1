"""Accent drawing, text fitting, board geometry, status lines and the render catalog."""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw

from render import text
from render.catalog import message
from render.hexgrid import fit as fit_hexes
from render.warchest import INNER, _status_line
from render.wc_board import board_layout, hex_label
from render.wc_style import UNIT_TYPES, unit_abbr, unit_name
from tests.render import views
from tests.render.golden import check_catalog_pair


def _draw(s: str) -> Image.Image:
    image = Image.new("L", (120, 60), 0)
    text.draw_text(ImageDraw.Draw(image), (10, 10), s, 30, (255,))
    return image


def test_accented_letters_are_drawn_as_base_letter_plus_mark() -> None:
    assert text._plan("é") == ("e", ((0, "\u0301"),))
    assert text._plan("Ça") == ("Ca", ((0, "\u0327"),))
    plain, marks = text._plan("Prêtre")
    assert plain == "Pretre"
    assert marks == ((2, "\u0302"),)


def test_accent_adds_ink() -> None:
    plain, accented = _draw("E"), _draw("É")
    assert ImageChops.difference(plain, accented).getbbox() is not None
    # The accent sits above the letter: the bare letter's ink is left as it was below the accent.
    box = plain.getbbox()
    assert box is not None
    accent_box = ImageChops.difference(plain, accented).getbbox()
    assert accent_box is not None and accent_box[3] <= box[1] + 2


def test_unsupported_characters_become_question_marks_and_ligatures_spell_out() -> None:
    assert text._plan("a😀b")[0] == "a?b"
    assert text._plan("cœur — oui")[0] == "coeur - oui"


def test_fit_shortens_with_ellipsis() -> None:
    long_name = "Bérénice the very patient strategist"
    short = text.fit(long_name, 24, 150)
    assert short.endswith("…")
    assert text.text_width(short, 24) <= 150
    assert text.fit("Alice", 24, 150) == "Alice"


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
