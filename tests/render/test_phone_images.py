"""What every game's images share: a board image that opens whole on a phone with legible labels,
a details image for the rest, palette PNGs, and cached text measurements that change nothing.

Discord shows a 1200-pixel image about 400 pixels wide on a phone: every label a player needs
(hexes, zones and regions, stack heights, troop characteristics, unit counts, crystal values) must
then stay at least 7 pixels tall. The texts are recorded as the text helpers draw them, at their
size in the finished image (sprites drawn larger and reduced included).
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageDraw

import render
from render import text
from render.common import to_png
from render.page import MAX_HEIGHT, PHONE_LABEL_PX, PHONE_WIDTH, WIDTH
from tests.render import test_batailles_images as batailles
from tests.render import test_cryhavoc_images as cryhavoc
from tests.render import views
from tests.render.golden import GOLDEN, check_golden, check_legible, clear_render_caches, decode, texts_of

View = dict[str, Any]

BUSIEST: list[tuple[str, Callable[[], View], dict[str, str], tuple[str, ...]]] = [
    ("warchest_four_players", views.four_players, views.NAMES, ("hex", "unit", "height", "owner")),
    ("warchest_two_players", views.mid_game, views.NAMES, ("hex", "unit", "height")),
    (
        "batailles_mid_battle",
        batailles.mid_battle,
        batailles.NAMES,
        ("zone", "troop", "stat", "hits", "advantage"),
    ),
    (
        "cryhavoc_four_players",
        cryhavoc.mid,
        cryhavoc.NAMES,
        ("region", "units", "crystal", "strength", "battle"),
    ),
    ("cryhavoc_two_players", cryhavoc.early, cryhavoc.NAMES, ("region", "units", "crystal", "strength")),
]
"""Each game's busiest views (most pieces, labels and seats) and the labels they must show."""


def _ids(cases: list[tuple[str, Any, Any, Any]]) -> list[str]:
    return [case[0] for case in cases]


@pytest.mark.parametrize(("name", "make", "names", "roles"), BUSIEST, ids=_ids(BUSIEST))
@pytest.mark.parametrize("locale", ["fr", "en"])
def test_every_label_a_player_needs_stays_legible_on_a_phone(
    name: str, make: Callable[[], View], names: dict[str, str], roles: tuple[str, ...], locale: str
) -> None:
    found, image = texts_of(lambda: render.render(make(), names=names, locale=locale))
    check_legible(found, image.width, roles)


PHONE_GOLDEN = [case for case in BUSIEST if case[0] != "warchest_two_players"]
"""The busiest view of each game (and the small Cry Havoc map, whose tiles are other shapes)."""


def phone_sized(png: bytes) -> bytes:
    """A board image as a phone shows it: scaled down to ``PHONE_WIDTH`` pixels wide (smoothly, as
    a browser or Discord's client does), kept as a palette PNG."""
    image = decode(png).convert("RGB")
    height = round(image.height * PHONE_WIDTH / image.width)
    return to_png(image.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS))


PHONE_LOCALES = [(case, "fr") for case in PHONE_GOLDEN] + [(BUSIEST[3], "en")]
"""French for each, and the large Cry Havoc map in English too (its compound names break inside)."""


@pytest.mark.parametrize(
    ("case", "locale"), PHONE_LOCALES, ids=[f"{case[0]}-{locale}" for case, locale in PHONE_LOCALES]
)
def test_golden_at_phone_width(
    case: tuple[str, Callable[[], View], dict[str, str], Any], locale: str
) -> None:
    """The board at 400 pixels wide, as it opens on a phone: a golden image to look at when the
    drawing changes (the legibility of its labels is checked above, this one shows it)."""
    name, make, names, _roles = case
    png = phone_sized(render.render(make(), names=names, locale=locale))
    assert decode(png).width == PHONE_WIDTH
    check_golden(f"phone_{name}_{locale}", png)


SCENES: list[tuple[str, Callable[[], View], dict[str, str]]] = [
    ("warchest_mid_game", views.mid_game, views.NAMES),
    ("warchest_four_players", views.four_players, views.NAMES),
    ("warchest_draft", views.draft, views.NAMES),
    ("warchest_over", views.game_over, views.NAMES),
    ("batailles_deployment", batailles.deployment, batailles.NAMES),
    ("batailles_mid_battle", batailles.mid_battle, batailles.NAMES),
    ("batailles_combat", batailles.combat, batailles.NAMES),
    ("batailles_loss", batailles.loss, batailles.NAMES),
    ("batailles_over", batailles.over, batailles.NAMES),
    ("cryhavoc_early", cryhavoc.early, cryhavoc.NAMES),
    ("cryhavoc_mid_battle", cryhavoc.mid, cryhavoc.NAMES),
    ("cryhavoc_over", cryhavoc.over, cryhavoc.NAMES),
]


@pytest.mark.parametrize(("name", "make", "names"), SCENES, ids=[s[0] for s in SCENES])
def test_the_board_image_opens_whole_on_a_phone(
    name: str, make: Callable[[], View], names: dict[str, str]
) -> None:
    image = decode(render.render(make(), names=names, locale="fr"))
    assert image.format == "PNG" and image.mode == "P"
    assert image.width == WIDTH
    assert 1000 <= image.height <= MAX_HEIGHT


@pytest.mark.parametrize(("name", "make", "names"), SCENES, ids=[s[0] for s in SCENES])
@pytest.mark.parametrize("locale", ["fr", "en"])
def test_no_text_of_a_board_is_under_7_px_on_a_phone(
    name: str, make: Callable[[], View], names: dict[str, str], locale: str
) -> None:
    """Not only the labels of the pieces: every text of the board image (pills, counts' names,
    token letters, keys) is at least ``PHONE_LABEL_PX`` tall once the image is 400 pixels wide."""
    found, image = texts_of(lambda: render.render(make(), names=names, locale=locale))
    small = sorted(
        {
            (str(d.role), d.shown, round(d.size, 1))
            for d in found
            if d.size * PHONE_WIDTH / image.width < PHONE_LABEL_PX
        }
    )
    assert not small, f"texts under {PHONE_LABEL_PX} px on a phone: {small[:10]}"


@pytest.mark.parametrize(("name", "make", "names"), SCENES, ids=[s[0] for s in SCENES])
def test_no_name_or_word_is_cut_on_the_board_or_the_details(
    name: str, make: Callable[[], View], names: dict[str, str]
) -> None:
    """Region and unit names, troops, counts' names and column texts are drawn whole, in French
    (the longer words): only a player's own name may be shortened to its room."""
    for draw in (render.render, render.render_details):
        found, _image = texts_of(lambda: draw(make(), names=names, locale="fr"))  # noqa: B023
        cut = sorted(
            {(str(d.role), d.text) for d in found if d.shown != d.text and d.text not in names.values()}
        )
        assert not cut, f"{draw.__name__}: cut {cut[:10]}"


def test_the_legibility_check_fails_on_a_label_too_small() -> None:
    """The rule itself: a 20-pixel label in a 1200-pixel image is under 7 pixels on a phone."""
    canvas = Image.new("RGB", (1200, 100))
    with text.recording() as found:
        text.draw_text(ImageDraw.Draw(canvas), (0, 0), "e1", 20, (255, 255, 255), role="hex")
    with pytest.raises(AssertionError, match="under 7 px"):
        check_legible(found, 1200, ("hex",))
    with pytest.raises(AssertionError, match="never drawn"):
        check_legible(found, 1200, ("hex", "stat"))
    check_legible(found, 800, ("hex",))


DETAILS: list[tuple[str, Callable[[], View], dict[str, str], tuple[str, ...]]] = [
    ("warchest", views.four_players, views.NAMES, ("unit_name", "count")),
    ("batailles", batailles.mid_battle, batailles.NAMES, ("stat",)),
    ("cryhavoc", cryhavoc.mid, cryhavoc.NAMES, ("count",)),
]


@pytest.mark.parametrize(("name", "make", "names", "roles"), DETAILS, ids=_ids(DETAILS))
def test_details_show_the_tables_the_board_leaves_out(
    name: str, make: Callable[[], View], names: dict[str, str], roles: tuple[str, ...]
) -> None:
    """The tables (unit coins, troop characteristics, player counts) are in the details image, in
    type as legible as the board's."""
    found, image = texts_of(lambda: render.render_details(make(), names=names, locale="fr"))
    assert image.width == WIDTH
    check_legible(found, image.width, roles)


@pytest.mark.parametrize(("name", "make", "names", "roles"), DETAILS, ids=_ids(DETAILS))
def test_details_are_public(
    name: str, make: Callable[[], View], names: dict[str, str], roles: tuple[str, ...]
) -> None:
    view = make()
    seen = [dict(view, private=None, viewer=None), dict(view, viewer="222")]
    assert len({render.render_details(v, names=names, locale="en") for v in [view, *seen]}) == 1


def test_details_of_an_unknown_game_are_refused() -> None:
    with pytest.raises(ValueError, match="no renderer"):
        render.render_details({"game": "chess"}, names={}, locale="en")


def test_every_golden_image_is_a_small_palette_png() -> None:
    pictures = sorted(GOLDEN.glob("*.png"))
    assert len(pictures) >= 30
    for path in pictures:
        assert path.stat().st_size <= 150 * 1024, path.name
        assert Image.open(path).mode == "P", path.name


def test_a_drawing_is_encoded_with_a_palette_and_a_photograph_is_not() -> None:
    board = decode(render.render(views.mid_game(), names=views.NAMES, locale="en"))
    assert board.mode == "P"
    noise = Image.frombytes("RGB", (400, 400), random.Random(3).randbytes(400 * 400 * 3))
    assert decode(to_png(noise)).mode == "RGB"
    assert decode(to_png(noise)).tobytes() == noise.tobytes()


def test_an_image_of_few_colours_keeps_them_exactly() -> None:
    rng = random.Random(5)
    image = Image.new("RGB", (200, 200), (250, 247, 240))
    draw = ImageDraw.Draw(image)
    for i in range(150):
        color = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        draw.rectangle([(i % 15) * 13, (i // 15) * 13, (i % 15) * 13 + 11, (i // 15) * 13 + 11], fill=color)
    png = to_png(image)
    assert decode(png).mode == "P"
    assert decode(png).convert("RGB").tobytes() == image.tobytes()


def test_the_same_pixels_give_the_same_bytes() -> None:
    image = Image.open(
        io.BytesIO(render.render(views.four_players(), names=views.NAMES, locale="fr"))
    ).convert("RGB")
    assert to_png(image) == to_png(image.copy())


def test_cached_text_measurements_change_nothing() -> None:
    """A board drawn with every cache empty and drawn again from warm caches is the same image,
    byte for byte, and the second time the widths come from the cache."""
    view = cryhavoc.mid()
    clear_render_caches()
    cold = render.render(view, names=cryhavoc.NAMES, locale="fr")
    before = text.text_width.cache_info()
    warm = render.render(view, names=cryhavoc.NAMES, locale="fr")
    after = text.text_width.cache_info()
    assert cold == warm
    assert after.hits > before.hits and after.misses == before.misses
    for s, size, bold in [("Fort-du-Crépuscule", 22, True), ("Дмитрий", 19, False), ("🐉 Drake", 24, True)]:
        uncached = sum(text._run_width.__wrapped__(run, size) for run in text._plan(s, bold))
        assert text.text_width(s, size, bold=bold) == uncached
