"""The Cry Havoc images: golden pictures of real engine views, no leak of hands, purity, robustness.

The views come from games played through ``engine.get_game("cryhavoc")`` with a seeded choice among
the legal actions. Golden images live in tests/render/golden/cryhavoc_*.png, compared as
tests/render/golden.py says, with a stricter share of strongly changed pixels.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageChops

import engine
import render
from engine.rng import Rng
from render.catalog import tr
from render.cryhavoc import board as ch_map
from render.cryhavoc import hand as ch_hand
from render.cryhavoc import images as cryhavoc
from render.cryhavoc import panels as ch_panels
from render.cryhavoc.panels import status_lines
from render.text import text_width
from tests.render import golden
from tests.render.golden import (
    WORLD_NAMES,
    case_ids,
    check_catalog_pair,
    check_leaves_view_alone,
    check_names_drawn,
    decode,
    fresh,
    keys_named_in,
    listen_to_pillow,
)

MAX_STRONG_FRACTION = 0.000005
"""Ten times stricter than the other games' goldens: one digit of a unit count on the map is about 40
pixels of a 3-megapixel image, and it must fail; antialiasing noise of a few pixels passes."""

NAMES = {"111": "Alice", "222": "Bérénice", "333": "Chloé", "444": "Dmitri"}
GAME = engine.get_game("cryhavoc")
Stop = Callable[[dict[str, Any], int], bool]


def players(count: int) -> list[str]:
    return ["111", "222", "333", "444"][:count]


def play(
    count: int, seed: int, stop: Stop, viewer: int | None = None, max_steps: int = 3000
) -> dict[str, Any]:
    """A seeded game of ``count`` players until ``stop(view, step)`` holds (or the end); that view.

    ``viewer`` is a seat, or -1 for whoever acts at that moment, or None for a spectator.
    """
    ids = players(count)
    state = GAME.new_game(ids, seed=seed, options={})
    chooser = Rng(seed)
    for step in range(max_steps):
        view = GAME.view(state, None)
        if stop(view, step) or GAME.is_over(state):
            if viewer is None:
                return view
            who = GAME.to_act(state)[0] if viewer == -1 and GAME.to_act(state) else ids[max(viewer, 0)]
            return GAME.view(state, who)
        player = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, player)
        state, _events = GAME.apply(state, player, legal[chooser.below(len(legal))])
    raise AssertionError("the game did not reach the wanted situation")


def _units_on_board(view: dict[str, Any]) -> int:
    return sum(x["attacker"] + x["defender"] for x in view["battle"]["objectives"].values())


@cache
def _early() -> dict[str, Any]:
    """Two players in the first rounds: a draw-two-keep-one pending, seen by the player who draws."""
    return play(2, 4, lambda v, s: s >= 25, viewer=-1)


@cache
def _mid() -> dict[str, Any]:
    """Four players in round 2 with a battle on the battle board, units on several objectives."""
    return play(4, 5, lambda v, s: v["battle"] is not None and v["round"] >= 2 and _units_on_board(v) >= 3, 0)


@cache
def _over() -> dict[str, Any]:
    """Three players, the game played to its end."""
    return play(3, 7, lambda v, s: False)


early, mid, over = fresh(_early), fresh(_mid), fresh(_over)


CASES: list[tuple[str, Callable[[], dict[str, Any]], str]] = [
    ("early", early, "en"),
    ("early", early, "fr"),
    ("mid_battle", mid, "en"),
    ("mid_battle", mid, "fr"),
    ("over", over, "en"),
    ("over", over, "fr"),
]


def check_golden(name: str, png: bytes, *, regen: bool = golden.REGEN) -> None:
    golden.check_golden(name, png, regen=regen, max_strong_fraction=MAX_STRONG_FRACTION)


def test_scenarios_are_what_their_names_say() -> None:
    e = early()
    assert e["side"] == "small" and len(e["seats"]) == 2
    assert e["pending"]["kind"] == "keep" and len(e["private"]["drawn"]) == 2
    m = mid()
    assert m["side"] == "large" and len(m["seats"]) == 4
    assert m["battle"] is not None and _units_on_board(m) >= 3
    o = over()
    assert o["phase"] == "over" and o["result"]["winners"] and len(o["seats"]) == 3


@pytest.mark.parametrize(("name", "make", "locale"), CASES, ids=case_ids(CASES))
def test_golden_public(name: str, make: Callable[[], dict[str, Any]], locale: str) -> None:
    png = render.render(make(), names=NAMES, locale=locale)
    check_golden(f"cryhavoc_{name}_{locale}", png)


def test_golden_names_in_every_alphabet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four players named in Cyrillic, Greek, Polish and with an emoji: status, orders, battle, panels."""
    heard = listen_to_pillow(monkeypatch)
    check_golden("cryhavoc_names_fr", render.render(mid(), names=WORLD_NAMES, locale="fr"))
    check_names_drawn(heard, WORLD_NAMES.values())


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_golden_private_hand_with_drawn_cards(locale: str) -> None:
    check_golden(f"cryhavoc_private_{locale}", render.render_private(early(), names=NAMES, locale=locale))


@pytest.mark.parametrize("make", [early, mid, over])
def test_png_is_phone_sized(make: Callable[[], dict[str, Any]]) -> None:
    image = decode(render.render(make(), names=NAMES, locale="en"))
    assert image.format == "PNG" and image.mode == "RGB"
    assert image.width == cryhavoc.WIDTH
    assert 1800 <= image.height <= 3200


@pytest.mark.parametrize("make", [early, mid, over])
def test_public_image_ignores_the_private_part(make: Callable[[], dict[str, Any]]) -> None:
    """No leak: views differing only in ``private`` (and who asks) give the same public bytes."""
    view = make()
    hidden = dict(view, private=None, viewer=None)
    other = dict(view, private={"seat": 1, "hand": ["hu_muster"] * 7, "drawn": ["mo_quarry", "mo_pass"]})
    images = {render.render(v, names=NAMES, locale="en") for v in (view, hidden, other)}
    assert len(images) == 1


@pytest.mark.parametrize("make", [early, mid, over])
def test_rendering_does_not_mutate_the_view(make: Callable[[], dict[str, Any]]) -> None:
    check_leaves_view_alone(render, make(), NAMES)


def test_golden_comparison_catches_a_changed_count() -> None:
    view = mid()
    region = next(r for r in view["regions"] if r["units"] and not r["hive"])
    side = next(iter(region["units"]))
    region["units"][side] += 5
    with pytest.raises(AssertionError, match="differ"):
        check_golden("cryhavoc_mid_battle_en", render.render(view, names=NAMES, locale="en"), regen=False)


def test_hand_changes_only_the_private_image() -> None:
    view = early()
    changed = copy.deepcopy(view)
    changed["private"]["hand"] = [*reversed(changed["private"]["hand"]), "hu_muster"]
    assert render.render_private(changed, names=NAMES, locale="en") != render.render_private(
        view, names=NAMES, locale="en"
    )
    assert render.render(changed, names=NAMES, locale="en") == render.render(view, names=NAMES, locale="en")


def test_spectator_gets_a_notice_instead_of_a_hand() -> None:
    view = dict(over(), private=None, viewer=None)
    image = decode(render.render_private(view, names=NAMES, locale="fr"))
    assert image.size == (900, 110)


def test_status_says_what_the_game_waits_for() -> None:
    main, sub = status_lines(early(), NAMES, "en")
    seat = early()["pending"]["seat"]
    assert main == f"{NAMES[players(2)[seat]]} keeps one of the two cards drawn"
    assert sub.startswith("Actions this round: ")
    main, _sub = status_lines(mid(), NAMES, "fr")
    step = mid()["battle"]["step"]
    assert step in ("place", "cards", "capture", "kill", "retreat", "resolve")
    assert "@" not in main and main
    main, sub = status_lines(over(), NAMES, "fr")
    winner = NAMES[over()["result"]["winners"][0]]
    assert main == f"Partie terminée : {winner} l'emporte"
    assert "PV" in sub and "@" not in sub


def test_second_render_reuses_the_empty_map() -> None:
    view = mid()
    render.render(view, names=NAMES, locale="en")
    before = ch_map.empty_map.cache_info()
    render.render(view, names=NAMES, locale="en")
    after = ch_map.empty_map.cache_info()
    assert after.misses == before.misses and after.hits == before.hits + 1


def test_long_names_are_shortened_in_the_initiative_rows_not_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four long names do not fit on the initiative row: each is cut to the same width, with "…",
    and every seat is still listed in order."""
    long_names = {
        pid: f"{name.replace('🐉 ', '')} the Magnificent of the Northern Marches"
        for pid, name in WORLD_NAMES.items()
    }
    view = mid()
    heard = listen_to_pillow(monkeypatch)
    ch_panels.tracks(view, long_names, "en", 1160)
    order = [int(s) for s in view["initiative"]]
    rows = [s for s, _path in heard if s[:3] in ("1. ", "2. ", "3. ", "4. ")]
    first_row = rows[: len(order)]
    assert [s[:3] for s in first_row] == [f"{n + 1}. " for n in range(len(order))]
    for label, seat in zip(first_row, order, strict=True):
        assert label.endswith("…") and len(label) > 8
        assert long_names[view["seats"][seat]["id"]].startswith(label[3:-1])
    assert ch_panels._widest_allowed([10, 50, 100], 120) == 60
    assert ch_panels._widest_allowed([10, 50], 120) is None


def test_prisoners_of_many_sides_all_fit_in_the_panel(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player holding prisoners of every side: each side is listed, long names shortened so that
    the row ends inside the panel."""
    view = mid()
    view["seats"][0]["prisoners_held"] = {"1": 2, "2": 1, "3": 1, "trogs": 3}
    long_names = {pid: f"{name.replace('🐉 ', '')} of the Marches" for pid, name in WORLD_NAMES.items()}
    width = 573
    heard = listen_to_pillow(monkeypatch)
    ch_panels.seat_panel(view, 0, long_names, "en", width)
    expected = [long_names[view["seats"][i]["id"]] for i in (1, 2, 3)] + [
        ch_panels.seat_label(view, "trogs", {}, "en")
    ]
    drawn = [s for s, _path in heard if not s.isdigit()][-4:]  # the panel's last line, counts aside
    for label, name in zip(drawn, expected, strict=True):
        assert label == name or (label.endswith("…") and name.startswith(label[:-1]))
    assert any(label.endswith("…") for label in drawn)
    start = ch_panels.PAD + text_width(tr("render.ch.prisoners", "en"), 18, bold=True) + 12
    assert start + sum(32 + text_width(label, 17) + 14 for label in drawn) - 14 <= width - ch_panels.PAD


def test_region_names_break_on_two_lines_when_too_long() -> None:
    assert ch_map.name_lines("Cuvette de Poussière", 14, 90) == ["Cuvette de", "Poussière"]
    assert ch_map.name_lines("Dunes", 14, 90) == ["Dunes"]
    assert ch_map.named_regions("go mossdeep flintpeak", ["flintpeak", "mossdeep"]) == [
        "mossdeep",
        "flintpeak",
    ]


def test_wrap_keeps_every_line_inside_the_card() -> None:
    lines = ch_hand.wrap("add 2 unit(s) from your reserve to an objective of the battle board", 16, 120, 3)
    assert len(lines) == 3 and lines[-1].endswith("…")
    assert all(text_width(line, 16) <= 120 for line in lines)


def test_every_view_of_random_games_renders() -> None:
    """Seeded games of 2, 3 and 4 players to their end: every third view drawn, some encoded.

    Drawing speed is measured by ``bench/render_bench.py``, not here.
    """
    drawn = 0
    phases: set[str] = set()
    for count, seed in ((2, 31), (3, 32), (4, 33)):
        ids = players(count)
        state = GAME.new_game(ids, seed=seed, options={})
        chooser = Rng(seed)
        for step in range(300):
            if GAME.is_over(state):
                break
            player = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, player)
            state, _events = GAME.apply(state, player, legal[chooser.below(len(legal))])
            if step % 3:
                continue
            view = GAME.view(state, player)
            phases.add(view["phase"])
            image = cryhavoc.compose(view, names=NAMES, locale="fr" if step % 2 else "en")
            assert image.width == cryhavoc.WIDTH
            if step % 30 == 0:
                assert render.render(view, names=NAMES, locale="en").startswith(b"\x89PNG")
                assert render.render_private(view, names=NAMES, locale="fr").startswith(b"\x89PNG")
            drawn += 1
        assert GAME.is_over(state)
        assert render.render(GAME.view(state, None), names=NAMES, locale="en").startswith(b"\x89PNG")
    assert drawn >= 100
    assert {"discard", "actions", "battle"} <= phases


def test_catalog_languages_match_and_cover_the_code() -> None:
    en, _fr = check_catalog_pair("render_cryhavoc", "render.ch.")
    root = Path(cryhavoc.__file__).parent
    named = keys_named_in(root.glob("*.py"), "render.ch.")
    assert len(named) > 30
    assert named <= en.keys(), named - en.keys()
    for prefix, items in (
        ("phase", ("discard", "actions", "battle", "prisoners", "scoring", "over")),
        ("main", ("discard", "actions", "prisoners", "scoring", "over", "battle_place", "battle_cards")),
        ("step", ("place", "cards", "capture", "kill", "retreat", "resolve")),
        ("pending", ("move", "recruit", "build", "keep")),
    ):
        for item in items:
            assert f"render.ch.{prefix}.{item}" in en, (prefix, item)


def test_unknown_pending_kind_or_phase_falls_back_to_a_generic_line() -> None:
    view = early()
    view["pending"] = {"seat": 0, "kind": "mystery", "points": 1}
    assert status_lines(view, NAMES, "en")[0] == "Alice to take an action"
    view["pending"] = None
    view["phase"] = "interlude"
    view["to_act"] = [1]
    assert status_lines(view, NAMES, "fr")[0] == "Bérénice doit jouer une action"


def _with_crystals(view: dict[str, Any], rid: str, value: int) -> dict[str, Any]:
    from engine.cryhavoc.view import crystal_tokens

    changed = copy.deepcopy(view)
    region = next(r for r in changed["regions"] if r["id"] == rid)
    region["crystals"] = value
    region["crystal_tokens"] = crystal_tokens(value)
    return changed


@pytest.mark.parametrize("make", [early, mid])
@pytest.mark.parametrize("value", [9, 12, 27, 99, 1234])
def test_any_crystal_value_is_drawn_inside_its_own_tile(
    make: Callable[[], dict[str, Any]], value: int
) -> None:
    """Crystal values have no upper limit: a rich region's crystals stay on its tile, however many."""
    view = make()
    rid = next(r["id"] for r in view["regions"] if not r["hive"] and not r.get("hq") and not r["units"])
    plain = ch_map.draw_map(_with_crystals(view, rid, 0), "en").convert("RGB")
    rich = ch_map.draw_map(_with_crystals(view, rid, value), "en").convert("RGB")
    changed = ImageChops.difference(plain, rich).getbbox()
    assert changed is not None, "the crystals are drawn"
    region = next(r for r in view["regions"] if r["id"] == rid)
    x0, y0, x1, y1 = ch_map.geometry(view).box((float(region["pos"][0]), float(region["pos"][1])))
    assert x0 <= changed[0] and changed[2] <= x1 + 1 and y0 <= changed[1] and changed[3] <= y1 + 1


def test_a_token_stays_visible_beside_a_large_crystal_value() -> None:
    view = mid()
    rid = next(r["id"] for r in view["regions"] if not r["hive"] and not r.get("hq") and not r["units"])
    rich = _with_crystals(view, rid, 99)
    region = next(r for r in rich["regions"] if r["id"] == rid)
    region["token"] = None
    without = ch_map.draw_map(rich, "en")
    region["token"] = "war_party"
    assert ch_map.draw_map(rich, "en").tobytes() != without.tobytes()
