"""The Cry Havoc images: golden pictures of real engine views, no leak of hands, purity, robustness.

The views come from games played through ``engine.get_game("cryhavoc")`` with a seeded choice among
the legal actions. Golden images live in tests/render/golden/cryhavoc_*.png, compared as
tests/render/golden.py says, with a stricter share of strongly changed pixels.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

import engine
import render
from engine.rng import Rng
from render.common import contrast
from render.cryhavoc import board as ch_map
from render.cryhavoc import hand as ch_hand
from render.cryhavoc import images as cryhavoc
from render.cryhavoc import layout, style
from render.cryhavoc import panels as ch_panels
from render.cryhavoc.panels import status_lines
from render.text import Drawn, recording, text_width
from tests.render import golden
from tests.render.golden import (
    MORE_SCRIPT_NAMES,
    WORLD_NAMES,
    case_ids,
    check_catalog_pair,
    check_leaves_view_alone,
    check_names_drawn,
    decode,
    fresh,
    keys_named_in,
    listen_to_pillow,
    texts_of,
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
    """Two players in the first rounds: a draw-two-keep-one pending, seen by the player who draws,
    who holds a hand of five cards or more (the private image lays out a full hand)."""

    def stop(v: dict[str, Any], s: int) -> bool:
        pending = v.get("pending") or {}
        return s >= 25 and pending.get("kind") == "keep" and v["seats"][pending["seat"]]["hand"] >= 5

    return play(2, 4, stop, viewer=-1)


@cache
def _mid() -> dict[str, Any]:
    """Four players in round 2 with a battle on the battle board, units on several objectives."""
    return play(4, 7, lambda v, s: v["battle"] is not None and v["round"] >= 2 and _units_on_board(v) >= 3, 0)


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
    ("details_mid_battle", mid, "fr"),
    ("details_early", early, "en"),
]


def check_golden(name: str, png: bytes, *, regen: bool = golden.REGEN) -> None:
    golden.check_golden(name, png, regen=regen, max_strong_fraction=MAX_STRONG_FRACTION)


def test_scenarios_are_what_their_names_say() -> None:
    e = early()
    assert e["side"] == "small" and len(e["seats"]) == 2
    assert e["pending"]["kind"] == "keep" and len(e["private"]["drawn"]) == 2
    assert len(e["private"]["hand"]) >= 5
    m = mid()
    assert m["side"] == "large" and len(m["seats"]) == 4
    assert m["battle"] is not None and _units_on_board(m) >= 3
    o = over()
    assert o["phase"] == "over" and o["result"]["winners"] and len(o["seats"]) == 3


@pytest.mark.parametrize(("name", "make", "locale"), CASES, ids=case_ids(CASES))
def test_golden_public(name: str, make: Callable[[], dict[str, Any]], locale: str) -> None:
    """The map images, and the details images (``details_``) that anyone may ask for."""
    draw = render.render_details if name.startswith("details_") else render.render
    check_golden(f"cryhavoc_{name}_{locale}", draw(make(), names=NAMES, locale=locale))


def test_golden_names_in_every_alphabet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four players named in Cyrillic, Greek, Polish and with an emoji: status, orders, battle, panels."""
    heard = listen_to_pillow(monkeypatch)
    check_golden("cryhavoc_names_fr", render.render(mid(), names=WORLD_NAMES, locale="fr"))
    check_names_drawn(heard, WORLD_NAMES.values())


def test_golden_names_in_other_scripts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four players named in Korean with a joined emoji, Hebrew, Devanagari and Latin with a flag
    sequence: status, orders, battle, panels."""
    heard = listen_to_pillow(monkeypatch)
    check_golden("cryhavoc_names_scripts_en", render.render(mid(), names=MORE_SCRIPT_NAMES, locale="en"))
    check_names_drawn(heard, MORE_SCRIPT_NAMES.values())


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_golden_private_hand_with_drawn_cards(locale: str) -> None:
    check_golden(f"cryhavoc_private_{locale}", render.render_private(early(), names=NAMES, locale=locale))


def test_during_a_battle_the_battle_board_comes_right_under_the_status() -> None:
    """What the players decide on during a battle is near the top, above the map."""
    names = [name for name, _section in cryhavoc.public_sections(mid(), names=NAMES, locale="fr")]
    assert names == ["status", "battle", "map", "strip"]
    names = [name for name, _section in cryhavoc.public_sections(early(), names=NAMES, locale="fr")]
    assert names == ["status", "map", "strip"]


SIDES = [("large", 3, 7), ("large", 4, 8), ("small", 2, 9)]


def _map_of(count: int, seed: int) -> dict[str, Any]:
    return GAME.view(GAME.new_game(players(count), seed=seed, options={}), None)


@pytest.mark.parametrize(("side", "count", "seed"), SIDES)
def test_no_two_borders_of_the_map_cross(side: str, count: int, seed: int) -> None:
    """On each side of the map, from the layout the map is drawn with: no two border lines cross,
    none runs under a third region's tile, no two tiles touch, and the edge arrows cross nothing."""
    view = _map_of(count, seed)
    assert view["side"] == side
    key = ch_map.static_key(view, "fr")
    g, pairs, arrows = ch_map.map_lines(key)
    assert g == ch_map.geometry(view)
    lines = layout.border_segments(pairs, g)
    assert len(lines) >= 20
    for (a, b), (c, d) in itertools.combinations(pairs, 2):
        if len({a, b, c, d}) == 4:
            assert not layout.segments_cross((g.center(a), g.center(b)), (g.center(c), g.center(d))), (
                f"{a}-{b} crosses {c}-{d}"
            )
    ids = [rid for rid, _center in g.centers]
    for a, b in pairs:
        for rid in ids:
            if rid not in (a, b):
                assert not layout.segment_hits_box((g.center(a), g.center(b)), g.box(rid), 6), (a, b, rid)
    for one, other in itertools.combinations(ids, 2):
        p, q = g.box(one), g.box(other)
        apart = max(p[0] - q[2], q[0] - p[2], p[1] - q[3], q[1] - p[3])
        assert apart >= 14, (one, other)
    assert len(arrows) == 2 * len(view["arrows"])
    for arrow in arrows:
        assert all(not layout.segments_cross(arrow.segment, line) for line in lines), arrow
        assert all(
            not layout.segment_hits_box(arrow.segment, g.box(rid), 2) for rid in ids if rid != arrow.region
        )
        x, y = arrow.badge
        assert x - layout.BADGE_RADIUS >= 0 and x + layout.BADGE_RADIUS <= g.width
        assert y - layout.BADGE_RADIUS >= 0 and y + layout.BADGE_RADIUS <= g.height
    for arrow, other in itertools.combinations(arrows, 2):
        assert not layout.segments_cross(arrow.segment, other.segment)


def test_the_crossing_check_sees_crossed_borders() -> None:
    """Drawn at their printed positions with tiles of legible size, borders of the large side run
    under other tiles: the reason for the side's own layout."""
    view = _map_of(4, 8)
    printed = layout.layout_for("other", layout.printed_positions(view["regions"]))
    key = ch_map.static_key(view, "fr")
    pairs = layout.borders(key[3], key[4], printed)
    big = layout.Layout(printed.width, printed.height, 176, 124, printed.centers)
    under = [
        (a, b, rid)
        for a, b in pairs
        for rid, _c in big.centers
        if rid not in (a, b) and layout.segment_hits_box((big.center(a), big.center(b)), big.box(rid), 6)
    ]
    assert under
    assert layout.segments_cross(((0, 0), (10, 10)), ((0, 10), (10, 0)))
    assert not layout.segments_cross(((0, 0), (10, 10)), ((10, 10), (20, 0)))


def test_trog_tokens_show_the_trogs_they_bring_out() -> None:
    """A Nest brings out its fixed number of Trogs; a War Party lies face down, so its token shows
    the range the box's War Parties cover, the same whichever it is."""
    view = mid()
    regions = [r for r in view["regions"] if not r["hive"] and r.get("hq") is None]
    regions[0]["token"], regions[1]["token"] = "war_party", "nest"
    found, _image = texts_of(lambda: render.render(view, names=NAMES, locale="fr"))
    shown = [d.shown for d in found if d.role == "strength"]
    assert "1\u20133" in shown and "2" in shown
    assert ch_map.trog_strength("nest") == "2" and ch_map.trog_strength("war_party") == "1\u20133"


def _word_cut(d: Drawn) -> bool:
    """Whether ``d`` was shortened inside a word although a shortening at a word would have fit."""
    if d.shown == d.text or not d.shown.endswith("\u2026"):
        return False
    kept = d.shown[:-1].rstrip()
    at_word = d.text[len(kept) : len(kept) + 1] in (" ", "")
    first_word = d.text.split()[0] if d.text.split() else ""
    fits = d.room is not None and text_width(first_word + "\u2026", round(d.size * 1), bold=d.bold) <= d.room
    return not at_word and (" " in kept or fits)


@pytest.mark.parametrize("make", [mid, over, early])
@pytest.mark.parametrize("locale", ["fr", "en"])
def test_no_text_is_cut_inside_a_word(make: Callable[[], dict[str, Any]], locale: str) -> None:
    """Every text of the map, the details and the hand is whole, broken between words, or shortened
    after a whole word with "…" ("Tremor: Mountain regions…" rather than "…regio…"), long names
    included; only a single word wider than its room is cut."""
    long_names = {pid: f"{name} of the Northern Marches" for pid, name in NAMES.items()}
    everything: list[Drawn] = []
    for draw in (render.render, render.render_details, render.render_private):
        found, _image = texts_of(lambda: draw(make(), names=long_names, locale=locale))  # noqa: B023
        everything += found
    assert [(d.text, d.shown) for d in everything if _word_cut(d)] == []
    assert any(d.shown != d.text for d in everything)  # some texts were indeed shortened


def test_the_word_cut_check_sees_a_cut_word() -> None:
    assert _word_cut(
        Drawn("Tremor: Mountain regions lose", "Tremor: Mountain regio\u2026", 20, False, None, 300.0)
    )
    assert not _word_cut(
        Drawn("Tremor: Mountain regions lose", "Tremor: Mountain\u2026", 20, False, None, 300.0)
    )
    assert _word_cut(Drawn("Monument", "Monum\u2026", 17, False, None, 200.0))
    assert not _word_cut(Drawn("Monument", "Monum\u2026", 17, False, None, 60.0))


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_players_frame_reads_on_every_terrain(seat: int) -> None:
    """A controlled region's frame is the player's colour between two dark lines: on every terrain
    the lines stand out from the tile (contrast of 4.5 or more) however close the player's colour
    is to it (the blue on the ocean)."""
    color = style.side_color(seat)
    for terrain, fill in style.TERRAIN_FILL.items():
        box = (10, 10, 190, 140)
        image = Image.new("RGB", (200, 150), (250, 247, 240))
        image.paste(ch_map.tile(terrain, "land", 180, 130, None).convert("RGB"), (10, 10))
        ch_map.control_frame(ImageDraw.Draw(image), box, color)
        row = [image.getpixel((x, 75)) for x in range(10, 30)]
        band = [px for px in row if px == color]
        assert len(band) >= ch_map.FRAME_BAND - 1, terrain
        inner = row[row.index(color) + len(band)]
        assert contrast(inner, fill) >= 4.5, (terrain, inner)
        assert contrast(row[0], fill) >= 4.5, (terrain, row[0])


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


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_last_action_is_said_in_the_readers_words(locale: str) -> None:
    """The status repeats the last action as the moves menu names it (cards and regions by their
    names in the reader's language), never as the action's text with its ids; a card kept from a
    draw stays hidden."""
    for view in (early(), mid(), over()):
        last = view["last"]
        with recording() as found:
            ch_panels.status(view, NAMES, locale, 1200)
        line = next(d.text for d in found if NAMES[players(4)[last["seat"]]] in d.text and ":" in d.text)
        assert last["text"] not in line, line
        assert not any(f"{prefix}_" in line for prefix in ("hu", "mo", "pi", "tr")), line
    kept = play(2, 4, lambda v, s: bool(v["last"]) and v["last"]["text"] == "keep")
    assert "keep" in kept["last"]["text"] and kept["last"]["label"]["key"] == "ch.did.keep_hidden"


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
    rows = [s for s, *_rest in heard if s[:3] in ("1. ", "2. ", "3. ", "4. ")]
    first_row = rows[: len(order)]
    assert [s[:3] for s in first_row] == [f"{n + 1}. " for n in range(len(order))]
    for label, seat in zip(first_row, order, strict=True):
        assert label.endswith("…") and len(label) > 8
        assert long_names[view["seats"][seat]["id"]].startswith(label[3:-1])
    assert ch_panels._widest_allowed([10, 50, 100], 120) == 60
    assert ch_panels._widest_allowed([10, 50], 120) is None


def test_prisoners_of_many_sides_are_all_listed_whole() -> None:
    """A player holding prisoners of every side: each side is listed with its whole name, the row
    going on to a second line rather than cutting names."""
    view = mid()
    view["seats"][0]["prisoners_held"] = {"1": 2, "2": 1, "3": 1, "trogs": 3}
    long_names = {pid: f"{name.replace('🐉 ', '')} of the Marches" for pid, name in WORLD_NAMES.items()}
    width = 585
    with recording() as found:
        panel = ch_panels.seat_panel(view, 0, long_names, "en", width)
    expected = [long_names[view["seats"][i]["id"]] for i in (1, 2, 3)] + [
        ch_panels.seat_label(view, "trogs", {}, "en")
    ]
    drawn = [d.shown for d in found]
    assert all(name in drawn for name in expected), drawn
    view["seats"][0]["prisoners_held"] = {}
    assert panel.height > ch_panels.seat_panel(view, 0, long_names, "en", width).height


def test_region_names_break_on_two_lines_between_words() -> None:
    g = ch_map.geometry(mid())
    assert ch_map.name_lines({"id": "dustbowl"}, g, "fr") == ["Cuvette de", "Poussière"]
    assert ch_map.name_lines({"id": "duskkeep"}, g, "fr") == ["Fort-du-", "Crépuscule"]
    assert ch_map.name_lines({"id": "mossdeep"}, g, "en") == ["Mossdeep"]
    assert ch_map.name_lines({"id": "hollowgrove"}, g, "en") == ["Hollow-", "grove"]
    assert ch_map.name_lines({"id": "scorchwaste"}, g, "en") == ["The Scorch-", "waste"]


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_no_region_name_is_cut_on_either_side_of_the_map(locale: str) -> None:
    """Every region's name fits its tile whole, on one or two lines, on the small map (two players)
    and on the large one (three and four players), whose tiles are narrower."""
    for view in (early(), mid()):
        g = ch_map.geometry(view)
        for region in view["regions"]:
            lines = ch_map.name_lines(region, g, locale)
            assert 1 <= len(lines) <= 2 and all("…" not in line for line in lines), (region["id"], lines)
            whole = style.region_name(str(region["id"]), locale).replace(" ", "").replace("-", "")
            assert "".join(lines).replace(" ", "").replace("-", "").lower() == whole.lower()


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
    x0, y0, x1, y1 = ch_map.geometry(view).box(region["id"])
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


def _drawn_whole(view: dict[str, Any], locale: str) -> Image.Image:
    """The map drawn the plain way: every region's pieces straight onto one copy of the empty map."""
    key = ch_map.static_key(view, locale)
    g = ch_map.geometry(view)
    img = ch_map.empty_map(key).copy()
    rings = ch_map.highlight_rings(view)
    for region in view["regions"]:
        r = ch_map.shown_region(view, region)
        ring = rings.get(r["id"], 0)
        ch_map._draw_region(img, r, g.box(str(r["id"])), g, ring, locale)
    ch_map.draw_path(img, view, g)
    return img


def _marks_regions(view: dict[str, Any]) -> bool:
    return bool((view.get("last") or {}).get("regions"))


@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_map_drawn_region_by_region_is_the_map_drawn_whole(count: int) -> None:
    """Regions are drawn on patches that are kept and pasted: the pixels must be those of drawing
    on the whole map, highlight rings that reach into a neighbour's margin included."""
    ch_map.region_patch.cache_clear()
    stops: list[Stop] = [
        lambda v, s: v["battle"] is not None,  # the ring of the battle under way
        lambda v, s: s > 20 and _marks_regions(v),  # the rings of the last action's regions
        lambda v, s: s >= 150,
    ]
    for stop in stops:
        view = play(count, 11 + count, stop)
        for locale in ("en", "fr"):
            patched, whole = ch_map.draw_map(view, locale), _drawn_whole(view, locale)
            assert ImageChops.difference(patched.convert("RGB"), whole.convert("RGB")).getbbox() is None


def test_a_move_redraws_only_the_regions_it_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    view = play(4, 5, lambda v, s: s >= 30)
    ch_map.region_patch.cache_clear()
    ch_map.draw_map(view, "en")
    drawn: list[str] = []
    real = ch_map._draw_region
    monkeypatch.setattr(ch_map, "_draw_region", lambda img, r, *a: (drawn.append(r["id"]), real(img, r, *a)))
    moved = copy.deepcopy(view)
    target = next(r for r in moved["regions"] if not r.get("hive"))
    target["crystals"] = int(target.get("crystals") or 0) + 3
    ch_map.draw_map(moved, "en")
    assert drawn == [target["id"]]
    drawn.clear()
    ch_map.draw_map(view, "en")  # the position before: every patch is still kept
    assert drawn == []
