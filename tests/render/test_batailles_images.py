"""The Batailles images: golden pictures of real engine views, purity, caching, random-play robustness.

The views come from games played through ``engine.get_game("batailles")``: seeded dice, and actions
chosen by a small seeded policy that deploys, advances and attacks. Golden images live in
tests/render/golden/batailles_*.png, compared with the same tolerance as the War Chest ones (see
tests/render/golden.py): a moved troop or a changed count fails, font noise passes.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import engine
import render
from engine.rng import Rng
from render.batailles import board as bt_board
from render.batailles import field as bt_field
from render.batailles import images as batailles
from render.batailles import sprites as bt_sprites
from render.batailles.panels import phase_key, stat_key, status_lines
from render.batailles.style import STATS, WATER, stat_letters
from render.catalog import tr
from render.page import INNER, LABEL, legible
from render.text import text_width
from tests.render.golden import (
    MORE_SCRIPT_NAMES,
    SCRIPT_NAMES,
    WORLD_NAMES,
    case_ids,
    check_catalog_pair,
    check_golden,
    check_leaves_view_alone,
    check_names_drawn,
    check_second_draw_uses_caches,
    decode,
    fresh,
    keys_named_in,
    listen_to_pillow,
    texts_of,
)

NAMES = {"111": "Alice", "222": "Bérénice"}
PLAYERS = ["111", "222"]
GAME = engine.get_game("batailles")

State = Any
Stop = Callable[[dict[str, Any]], bool]


Recruits = tuple[tuple[str, str], ...]


def _choose(state: State, player: str, chooser: Rng, recruits: Recruits = (), cluster: bool = False) -> Any:
    """A seeded, aggressive choice: attack with every die, advance towards the enemy, rarely stop.

    In an army-building game the army is ``recruits`` (name, "M A D R C L"); ``cluster`` deploys
    every troop in the first free zone, so that groups form at once.
    """
    seat = PLAYERS.index(player)
    view = GAME.view(state, None)
    if view["phase"] == "build":
        have = [t["name"] for t in view["troops"] if t["seat"] == seat]
        todo = [f"recruit {name} {profile}" for name, profile in recruits if name not in have]
        return GAME.parse_action(state, player, todo[0] if todo else "ready")
    legal = GAME.legal_actions(state, player)
    forward = "n" if seat == 0 else "s"

    def rank(action: Any) -> tuple[int, int]:
        words = str(action).split()
        word = words[0]
        if word == "attack":
            return (0, -int(words[-1]))
        if word == "reroll":
            return (0, -int(words[-1]))
        if word == "coordinate":
            return (1, -len(words[1].split("+")))
        if word == "move":
            return (2, 0) if words[1] == forward and words[2] == forward else (6, 0)
        if word == "deploy":
            if words[-1] != forward:
                return (9, 0)
            return (3, int(words[2][1:]) * 16 + ord(words[2][0])) if cluster else (3, 0)
        if word in ("activate", "lose", "hold", "morale", "ready"):
            return (3, 0)
        if word == "done":
            return (7, 0)
        if word == "end":
            return (8, 0)
        return (5, 0)

    best = min(rank(a) for a in legal)
    top = [a for a in legal if rank(a) == best]
    return top[chooser.below(len(top))]


def play(
    seed: int,
    options: dict[str, str],
    stop: Stop,
    *,
    max_actions: int = 8000,
    recruits: Recruits = (),
    cluster: bool = False,
) -> dict[str, Any]:
    """Play a seeded game until ``stop(view)`` holds; the view of that moment (seen by nobody)."""
    state = GAME.new_game(PLAYERS, seed=seed, options=options)
    chooser = Rng(seed)
    for step in range(max_actions):
        view = GAME.view(state, None)
        if stop(view) or GAME.is_over(state):
            return view
        acting = GAME.to_act(state)
        player = acting[step % len(acting)]  # both armies deploy (or build) side by side
        action = _choose(state, player, chooser, recruits, cluster)
        state, _events = GAME.apply(state, player, action)
    raise AssertionError("the game did not reach the wanted situation")


def _deployed(view: dict[str, Any]) -> int:
    return sum(int(s["deployed"]) for s in view["seats"])


@cache
def _deployment() -> dict[str, Any]:
    """The default battlefield with seven troops of twenty deployed, none of them shown: each army's
    deployment is hidden until both are done, from the public board most of all."""
    return play(11, {"map": "default"}, lambda v: _deployed(v) >= 7)


@cache
def _mid_battle() -> dict[str, Any]:
    """The river battlefield, a troop acting after a hit landed: hits pending on a zone."""
    return play(
        1,
        {"map": "forest_river"},
        lambda v: bool(v["hits"]) and v["activation"] is not None and v["round"] >= 2,
    )


@cache
def _combat() -> dict[str, Any]:
    """The village on the hill, the defender deciding on a reroll: both rolls on show."""
    return play(1, {"map": "hill_village"}, lambda v: v["combat"] is not None)


SMALL_MAP = ". . . ./. f . ./. . . ./h . 2 rr/. . . ./. . b ./. . . ."
"""A 4 x 7 custom battlefield: the smallest depth the rules allow, so the armies meet at once."""
HEAVY = (
    ("pike1", "2 3 0 0 0 0"),
    ("pike2", "2 3 0 0 0 0"),
    ("pike3", "2 3 0 0 0 0"),
    ("chief", "2 2 0 0 0 1"),
)


@cache
def _loss() -> dict[str, Any]:
    """Two built armies clash on a small custom map; a defender must choose a loss."""
    return play(
        1,
        {"custom_map": SMALL_MAP, "armies": "build"},
        lambda v: (v["pending"] or {}).get("kind") == "loss",
        recruits=HEAVY,
        cluster=True,
    )


@cache
def _over() -> dict[str, Any]:
    """A long battle on the default battlefield, ended when an army reached the defeat threshold."""
    return play(1, {"map": "default", "max_rounds": "40"}, lambda v: v["phase"] == "over")


@cache
def _morale() -> dict[str, Any]:
    """Raiders on open ground: a player spent six advantage points to test the enemy's morale."""
    return play(
        1, {"map": "open_field", "armies": "raiders"}, lambda v: (v["pending"] or {}).get("kind") == "morale"
    )


deployment, mid_battle, combat = fresh(_deployment), fresh(_mid_battle), fresh(_combat)
loss, over, morale = fresh(_loss), fresh(_over), fresh(_morale)


CASES: list[tuple[str, Callable[[], dict[str, Any]], str]] = [
    ("deployment", deployment, "en"),
    ("deployment", deployment, "fr"),
    ("mid_battle", mid_battle, "en"),
    ("mid_battle", mid_battle, "fr"),
    ("combat", combat, "fr"),
    ("combat", combat, "en"),
    ("loss", loss, "en"),
    ("over", over, "en"),
    ("over", over, "fr"),
    ("details_combat", combat, "fr"),
    ("details_over", over, "en"),
]


def test_scenarios_are_what_their_names_say() -> None:
    assert deployment()["phase"] == "deploy"
    mid = mid_battle()
    assert mid["phase"] == "play" and mid["hits"] and mid["activation"]
    assert combat()["combat"] is not None
    assert loss()["pending"]["kind"] == "loss"
    assert over()["phase"] == "over" and over()["result"]["winners"]
    assert over()["result"]["reason"]["key"] == "bt.result.broken"


@pytest.mark.parametrize(("name", "make", "locale"), CASES, ids=case_ids(CASES))
def test_golden_public(name: str, make: Callable[[], dict[str, Any]], locale: str) -> None:
    """The battlefield images, and the details images (``details_``) that anyone may ask for."""
    draw = render.render_details if name.startswith("details_") else render.render
    check_golden(f"batailles_{name}_{locale}", draw(make(), names=NAMES, locale=locale))


NAME_CASES: list[tuple[str, Callable[[], dict[str, Any]], str]] = [
    ("names_cyrillic_greek", combat, "fr"),
    ("names_polish_emoji", mid_battle, "en"),
    ("names_scripts", mid_battle, "en"),
]
NAME_PAIRS = {
    "names_cyrillic_greek": (WORLD_NAMES["111"], WORLD_NAMES["222"]),
    "names_polish_emoji": (WORLD_NAMES["333"], WORLD_NAMES["444"]),
    "names_scripts": (SCRIPT_NAMES["111"], MORE_SCRIPT_NAMES["222"]),
}


@pytest.mark.parametrize(("name", "make", "locale"), NAME_CASES, ids=case_ids(NAME_CASES))
def test_golden_names_in_every_alphabet(
    monkeypatch: pytest.MonkeyPatch, name: str, make: Callable[[], dict[str, Any]], locale: str
) -> None:
    """Two armies a picture: Cyrillic against Greek, Polish against a name with an emoji, Chinese
    against Hebrew (right to left)."""
    names = dict(zip(PLAYERS, NAME_PAIRS[name], strict=True))
    heard = listen_to_pillow(monkeypatch)
    check_golden(f"batailles_{name}_{locale}", render.render(make(), names=names, locale=locale))
    check_names_drawn(heard, names.values())


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_golden_private_notice(locale: str) -> None:
    check_golden(
        f"batailles_private_{locale}", render.render_private(mid_battle(), names=NAMES, locale=locale)
    )


MAPS = ["default", "forest_river", "hill_village", "open_field"]


def _preset(name: str) -> tuple[bt_field.FieldMap, bt_field.Grid]:
    view = GAME.view(GAME.new_game(PLAYERS, seed=1, options={"map": name}), None)
    fmap = bt_field.field_map(view)
    return fmap, bt_field.grid_for(fmap.cols, fmap.rows, INNER)


def _inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("name", MAPS)
def test_an_advantage_value_sits_in_its_own_zone_clear_of_the_other_marks(name: str) -> None:
    """The star and value of an advantage zone are inside that zone's band, after its label (read
    with it, not on the corner it shares with the next zone), and never under the hits, the
    places or the label."""
    fmap, grid = _preset(name)
    zones = [(zone, t) for zone, t in fmap.terrain if t.advantage]
    assert zones or name == "open_field"
    for zone, terrain in zones:
        star, hits = bt_field.badge_boxes(grid, zone, terrain)
        assert star is not None
        x0, y0, x1, _y1 = grid.zone_box(zone)
        band = (x0 + 1, y0, x1 - 1, y0 + grid.strip)
        assert _inside(star, band) and _inside(hits, band), zone
        assert not _overlap(star, hits)
        label_right = x0 + 5 + text_width(bt_field.zone_label(zone), LABEL)
        assert star[0] >= label_right
        assert all(not _overlap(star, grid.place_box(zone, place)) for place in range(4))
        assert hits[2] - hits[0] >= bt_sprites.hits_badge(9, grid.strip - 2).width  # room for the hits
        assert hits[2] - hits[0] >= bt_sprites.hits_badge(15, grid.strip - 2, burst=False).width


@pytest.mark.parametrize("name", ["forest_river", "default"])
def test_a_river_runs_inside_its_row_not_on_the_line_between_rows(name: str) -> None:
    """Water fills the zone's width (it meets the next zone's river) but stops short of the lines
    above and below the zone: the pixels along a river zone's lower edge are ground, not water."""
    fmap, grid = _preset(name)
    field = bt_field.empty_field(fmap, grid).convert("RGB")
    rivers = [zone for zone, t in fmap.terrain if t.river]
    assert rivers or name == "default"
    for zone in rivers:
        box = bt_field.river_box(grid, zone, bt_field.places(fmap.at(zone)))
        assert box is not None
        x0, y0, x1, y1 = grid.zone_box(zone)
        assert box[0] == x0 and box[2] == x1
        assert box[1] >= y0 + grid.strip and box[3] <= y1 - bt_field.RIVER_BANK
        water = [
            field.getpixel((x, round((box[1] + box[3]) / 2))) for x in range(round(x0) + 4, round(x1) - 4)
        ]
        assert water.count(WATER) > len(water) / 3
        for y in range(round(y1) - bt_field.RIVER_BANK + 2, round(y1) - 1):
            row = [field.getpixel((x, y)) for x in range(round(x0) + 4, round(x1) - 4)]
            assert WATER not in row, (zone, y)


def test_troop_bars_are_as_wide_as_their_zone_with_legible_names() -> None:
    """Every troop on the battlefield is a bar across its zone with its name in full-size type; a
    troop with two places to itself shows its six characteristics."""
    view = mid_battle()
    grid = bt_field.grid_for(int(view["board"]["width"]), int(view["board"]["height"]), INNER)
    assert grid.place_size[0] >= 0.9 * grid.size
    found, _image = texts_of(lambda: render.render(view, names=NAMES, locale="en"))
    names = [d for d in found if d.role == "troop"]
    on_board = [t for t in view["troops"] if t["zone"] is not None and not t["lost"]]
    assert len(names) == len(on_board)
    assert all(d.size >= legible() for d in names)
    assert all(d.shown == d.text for d in names)  # the preset armies' names all fit
    assert bt_board.allot(["river", None, None, None], 1) == [(1, 2)]
    assert bt_board.allot([None, None, None, None], 3) == [(0, 1), (1, 1), (2, 1)]
    assert bt_board.allot(["forest", None, "river", "river"], 1) == [(1, 1)]


def test_a_long_troop_name_keeps_its_number() -> None:
    short, bold = bt_sprites.short_name("horseman12", LABEL, 80)
    assert short.endswith("\u202612") and not bold and text_width(short, LABEL) <= 80
    assert bt_sprites.short_name("inf1", LABEL, 80) == ("inf1", True)


@pytest.mark.parametrize("make", [deployment, mid_battle, combat, loss, morale, over])
def test_rendering_does_not_mutate_the_view(make: Callable[[], dict[str, Any]]) -> None:
    check_leaves_view_alone(render, make(), NAMES)


def test_same_view_gives_same_bytes_for_every_viewer() -> None:
    view = mid_battle()
    seen_by = [dict(view, viewer=v) for v in (None, "111", "222")]
    images = {render.render(v, names=NAMES, locale="en") for v in seen_by}
    assert len(images) == 1


def test_second_render_only_reuses_cached_layers() -> None:
    view = mid_battle()
    caches = [bt_field.empty_field, bt_sprites.troop_bar, bt_sprites.hits_badge, bt_sprites.zone_outline]
    check_second_draw_uses_caches(caches, lambda: render.render(view, names=NAMES, locale="en"))


def test_golden_comparison_catches_a_changed_count() -> None:
    view = mid_battle()
    view["seats"][0]["advantage"] = int(view["seats"][0]["advantage"]) + 7
    with pytest.raises(AssertionError, match="differ strongly"):
        check_golden("batailles_mid_battle_en", render.render(view, names=NAMES, locale="en"), regen=False)


def test_turning_a_troop_changes_the_image() -> None:
    view = mid_battle()
    troop = next(t for t in view["troops"] if t["zone"] is not None and not t["lost"])
    turned = copy.deepcopy(view)
    turned_troop = next(
        t for t in turned["troops"] if t["name"] == troop["name"] and t["seat"] == troop["seat"]
    )
    turned_troop["facing"] = {"n": "s", "s": "n", "e": "w", "w": "e"}[troop["facing"]]
    assert render.render(turned, names=NAMES, locale="en") != render.render(view, names=NAMES, locale="en")


def test_status_says_what_the_game_waits_for() -> None:
    view = mid_battle()
    main, sub = status_lines(view, NAMES, "en")
    acting = " + ".join(view["activation"]["troops"])
    who = NAMES[PLAYERS[view["active"]]]
    assert main == f"{who} to play: {view['activations_left']} of 6 activations left"
    assert sub.startswith(f"Acting: {acting} in {view['activation']['label']}")
    pending = loss()["pending"]
    main, _sub = status_lines(loss(), NAMES, "fr")
    who = NAMES[PLAYERS[pending["seat"]]]
    assert pending["count"] == 1 and main == f"{who} doit retirer 1 troupe de {pending['label']}"
    pending = morale()["pending"]
    main, _sub = status_lines(morale(), NAMES, "en")
    who = NAMES[PLAYERS[pending["seat"]]]
    assert main == f"Morale test in {pending['label']}: {who} picks the troop and the dice"
    assert phase_key(morale()) == "morale" and phase_key(combat()) == "reroll"


def test_result_names_the_winner_and_the_reason() -> None:
    main, sub = status_lines(over(), NAMES, "fr")
    winner = NAMES[over()["result"]["winners"][0]]
    assert main == f"Partie terminée : {winner} l'emporte"
    assert "seuil de défaite" in sub and "@" not in sub


def test_troops_fill_the_places_terrain_leaves_free() -> None:
    river_and_wood = bt_field.Terrain(river=2, forest=1)
    assert bt_field.places(river_and_wood) == ["forest", None, "river", "river"]
    assert bt_field.places(bt_field.Terrain(forest=4)) == ["forest"] * 4
    assert bt_field.places(bt_field.Terrain(hill=True, building=2)) == ["building", "building", None, None]


def test_french_image_says_portee_not_range() -> None:
    assert render.render(over(), names=NAMES, locale="fr") != render.render(over(), names=NAMES, locale="en")


def test_missing_name_falls_back_to_the_id() -> None:
    assert decode(render.render(mid_battle(), names={}, locale="en")).width == batailles.WIDTH


def test_build_phase_and_a_large_custom_map_render() -> None:
    view = GAME.view(GAME.new_game(PLAYERS, seed=1, options={"armies": "build"}), None)
    assert decode(render.render(view, names=NAMES, locale="fr")).width == batailles.WIDTH
    wide = "/".join([" ".join(["f"] + ["."] * 14 + ["hbb3"])] * 16)
    view = GAME.view(GAME.new_game(PLAYERS, seed=1, options={"custom_map": wide}), "111")
    image = decode(render.render(view, names=NAMES, locale="en"))
    assert image.width == batailles.WIDTH
    assert image.height <= 3000


@pytest.mark.slow
def test_every_view_of_random_games_renders() -> None:
    """Three hundred steps of seeded play over every battlefield: each view is drawn, some encoded.

    Drawing is checked on every view; PNG encoding (identical for every view) on every tenth.
    """
    steps = 0
    phases: set[str] = set()
    for seed, options in [
        (21, {"map": "default"}),
        (22, {"map": "forest_river", "hardcore": "on", "max_rounds": "3"}),
        (23, {"map": "hill_village", "armies": "raiders"}),
        (24, {"map": "open_field", "armies": "build"}),
    ]:
        state = GAME.new_game(PLAYERS, seed=seed, options=options)
        chooser = Rng(seed)
        recruits = (("foot", "1 2 2 0 0 0"), ("bow", "1 1 0 2 0 1"), ("boss", "1 0 1 1 2 0"))
        for n in range(75):
            if GAME.is_over(state):
                break
            player = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, player)
            if n % 3 or GAME.view(state, None)["phase"] == "build":
                action = _choose(state, player, chooser, recruits)
            else:
                action = legal[chooser.below(len(legal))]
            state, _events = GAME.apply(state, player, action)
            view = GAME.view(state, player)
            phases.add(phase_key(view))
            image = batailles.compose(view, names=NAMES, locale="fr" if n % 2 else "en")
            assert image.width == batailles.WIDTH
            if n % 10 == 0 or GAME.is_over(state):
                assert render.render(view, names=NAMES, locale="en").startswith(b"\x89PNG")
            steps += 1
    assert steps >= 250
    assert {"build", "deploy", "retrain", "play", "reroll"} <= phases


def test_catalog_languages_match_and_cover_the_code() -> None:
    en, fr = check_catalog_pair("render_batailles", "render.bt.")
    named = keys_named_in(Path(batailles.__file__).parent.glob("*.py"), "render.bt.")
    assert len(named) > 20
    assert named <= en.keys(), named - en.keys()
    for phase in ("build", "deploy", "retrain", "play", "loss", "morale", "reroll", "over"):
        assert f"render.bt.phase.{phase}" in en
    assert [fr[f"render.bt.stat.{s}"] for s in STATS] == ["M", "A", "D", "P", "C", "L"]


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_last_action_is_said_in_the_readers_words(locale: str) -> None:
    """The status repeats the last action in the third person ("Alice active art2" in French), never
    as the action's text form ("activate art2") nor as the menu's words to the actor ("End your turn")."""
    import i18n
    from engine.batailles.actions import parse
    from engine.batailles.labels import last_description
    from engine.text import decode_msg
    from render.batailles import panels as bt_panels
    from render.text import recording

    for view in (_mid_battle(), _combat(), _loss()):
        last = view["last"]
        assert decode_msg(last["label"]) == last_description(parse(last["text"]))
        name = NAMES[view["seats"][last["seat"]]["id"]]
        said = i18n.t(decode_msg(last["label"]), locale, player=name)
        assert name in " ".join(said.split(" ")[:4]), said  # "Alice …", "Les troupes d'Alice …"
        with recording() as found:
            bt_panels.status(view, NAMES, locale, 1200)
        line = next((d.text for d in found if said in d.text), None)
        assert line is not None, (last, [d.text for d in found])
        # the text form as whole words ("face s" is not in "face south")
        written = re.search(r"\b" + re.escape(last["text"]) + r"\b", line)
        assert len(last["text"].split()) == 1 or not written, line


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_a_troop_shows_its_characteristics_after_their_initials(locale: str) -> None:
    """A first-time player reads "M1 A2 D2" on the troop and the initials' key under the
    battlefield, on the board image itself: no bare "122000", no table needed."""
    from render.text import recording

    letters = tuple(stat_letters(locale))
    bt_sprites.troop_bar.cache_clear()
    with recording() as found:
        bt_sprites.troop_bar("inf1", 0, (1, 2, 2, 0, 0, 0), "n", 120, 2 * LABEL + 10, letters=letters)
    assert [d.shown for d in found if d.role == "stat"] == [letters[0], "1", letters[1], "2", letters[2], "2"]
    assert all(d.size >= legible() for d in found)
    strong = (3, 3, 3, 3, 3, 3)  # more than a zone is wide for: the six values in order
    with recording() as found:
        bt_sprites.troop_bar("hero", 0, strong, "n", 120, 2 * LABEL + 10, letters=letters)
    assert [d.shown for d in found if d.role == "stat"] == ["3"] * 6
    stat_key.cache_clear()
    found, _image = texts_of(lambda: render.render(mid_battle(), names=NAMES, locale=locale))
    assert any(tr("render.bt.stats", locale) in d.shown for d in found if d.role == "key")
    on_board = [d.shown for d in found if d.role == "stat"]
    assert letters[0] in on_board and letters[1] in on_board
