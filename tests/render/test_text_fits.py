"""Texts that fit where they are drawn: each text the recorder hears is drawn whole (or wrapped
whole over its lines), inside the card, panel or sprite it belongs to, clear of the marks beside it.

Each case is one a player saw cut or hidden: a folded Trog defender's battle header, a region whose
units vanished while its battle waited, a hand card's battle effect, the names in a War Chest bag,
the French Cry Havoc legend, the characteristics of Batailles troops sharing a zone, and the owner's
letter on a four-player War Chest token.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import render
from engine.cryhavoc.content import CARDS
from render.batailles import field as bt_field
from render.catalog import tr
from render.cryhavoc import board as ch_map
from render.cryhavoc import hand
from render.cryhavoc.panels import battle_board
from render.cryhavoc.panels import legend as ch_legend
from render.cryhavoc.style import seat_label
from render.page import INNER, legible
from render.text import ELLIPSIS, Drawn, recording
from render.warchest import sprites as wc_sprites
from render.warchest.panels import private_panel
from tests.render import test_batailles_images as bt_images
from tests.render import test_cryhavoc_images as ch_images
from tests.render import views as wc_views
from tests.render.golden import clear_render_caches, texts_of

LOCALES = ["en", "fr"]


def whole(found: list[Drawn]) -> list[tuple[str, str]]:
    """The texts drawn shortened: (asked, shown) of each one cut with an ellipsis."""
    return [(d.text, d.shown) for d in found if d.shown != d.text or d.shown.endswith(ELLIPSIS)]


def inside(d: Drawn, margin: float = 0.0) -> bool:
    assert d.box is not None and d.canvas is not None
    x0, y0, x1, y1 = d.box
    return x0 >= margin and y0 >= margin and x1 <= d.canvas[0] - margin and y1 <= d.canvas[1] - margin


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# --------------------------------------------------------------------------- Cry Havoc


def trogs_folded() -> dict[str, Any]:
    """A battle against the neutral Trogs, who folded while the attacker still plays cards."""
    view = ch_images.mid()
    battle = view["battle"]
    battle.update(defender="trogs", step="cards", folded=[False, True])
    return view


@pytest.mark.parametrize("locale", LOCALES)
def test_a_folded_trog_defender_keeps_its_header_and_says_it_folded(locale: str) -> None:
    view = trogs_folded()
    with recording() as found:
        battle_board(view, ch_images.NAMES, locale, INNER)
    drawn = [d.shown for d in found]
    defender = tr("render.ch.battle.defender", locale, name=seat_label(view, "trogs", {}, locale))
    assert defender in drawn, drawn
    assert tr("render.ch.battle.folded_defender", locale) in drawn
    assert not whole(found), whole(found)
    assert all(d.size >= legible() for d in found)


def test_folds_are_not_shown_once_the_cards_are_done() -> None:
    view = trogs_folded()
    view["battle"].update(step="capture", folded=[True, True])
    with recording() as found:
        battle_board(view, ch_images.NAMES, "en", INNER)
    assert not {"Attacker folded", "Defender folded"} & {d.shown for d in found}


def test_the_region_of_a_waiting_battle_shows_the_units_fighting_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While a battle waits for its players, the units it took out of its region (to place, and on
    the battle board) still stand on the map's region, by side."""
    view = ch_images.mid()
    battle = view["battle"]
    battle["placing"] = {"attacker": 1, "defender": 0}
    drawn: dict[str, dict[str, int]] = {}
    patch = ch_map.region_patch.__wrapped__

    def spy(key: Any, region: str, ring: int) -> Any:
        r = json.loads(region)
        drawn[str(r["id"])] = dict(r["units"])
        return patch(key, region, ring)

    monkeypatch.setattr(ch_map, "region_patch", spy)
    ch_map.draw_map(view, "en")
    objectives = battle["objectives"].values()
    fighting = {
        str(battle[role]): battle["placing"][role] + sum(o[role] for o in objectives)
        for role in ("attacker", "defender")
    }
    region = next(r for r in view["regions"] if r["id"] == battle["region"])
    assert not region["units"], "the engine keeps the fighting units off the region"
    assert drawn[battle["region"]] == {side: n for side, n in fighting.items() if n}
    assert all(n > 0 for n in drawn[battle["region"]].values())


@pytest.mark.parametrize("locale", LOCALES)
def test_every_hand_card_holds_its_texts_and_its_battle_effect(locale: str) -> None:
    for kind in CARDS:
        hand.card.cache_clear()
        with recording() as found:
            hand.card(kind, 0, locale)
        assert not whole(found), (kind, whole(found))
        assert all(inside(d, 4) for d in found), (kind, [(d.shown, d.box) for d in found if not inside(d, 4)])
        battle = tr("render.ch.card.battle", locale)
        below = [d for d in found if d.box and d.box[1] > next(b.box[1] for b in found if b.shown == battle)]
        assert below, f"{kind}: nothing under the battle heading"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_legend_of_the_details_is_whole_and_clear_of_its_marks(locale: str) -> None:
    clear_render_caches()
    with recording() as found:
        ch_legend(locale, INNER)
    # the entries' words, drawn in regular type on the panel (the marks' own labels are bold)
    texts = [d for d in found if not d.bold and d.canvas is not None and d.canvas[0] == INNER]
    assert not whole(texts), whole(texts)
    mark = ch_map.trog_token(tr("render.ch.token.war_party", locale), ch_map.trog_strength("war_party"))
    half = (INNER - 2 * 16) / 2
    for d in texts:
        assert d.box is not None
        left = d.box[0] - 16 - (half if d.box[0] >= 16 + half else 0)
        assert left >= mark.width, (d.shown, left, mark.width)
    drawn = " ".join(d.shown for d in texts)
    assert "rouge 5" in drawn or "red 5" in drawn


# --------------------------------------------------------------------------- War Chest


@pytest.mark.parametrize("locale", LOCALES)
def test_a_bag_row_writes_its_unit_names_whole(locale: str) -> None:
    bag = {"royal_guard": 2, "warrior_priest": 1, "light_cavalry": 3, "royal": 1}
    view = wc_views.with_private(wc_views.mid_game(), {"seat": 0, "hand": ["royal"], "bag": bag}, "111")
    with recording() as found:
        private_panel(view, wc_views.NAMES, locale)
    assert not whole(found), whole(found)
    assert all(inside(d) for d in found)


@pytest.mark.parametrize("owner", ["A", "BE", "张", "민", "Ж"])
def test_the_owner_tag_is_legible_and_leaves_the_unit_code_whole(owner: str) -> None:
    """The owner's letter (or two, or a Chinese or Korean initial) on a four-player token is at the
    legible size, inside the token's sprite, and covers no part of the unit's code."""
    wc_sprites.token.cache_clear()
    with recording() as found:
        wc_sprites.token("berserker", 1, 3, "fr", 26, owner)
    unit = next(d for d in found if d.role == "unit")
    tag = next(d for d in found if d.role == "owner")
    assert tag.shown == owner and tag.size >= legible()
    assert inside(tag) and inside(unit)
    assert unit.box is not None and tag.box is not None
    pill = wc_sprites.owner_tag(owner)
    # the pill around the tag reaches half its height from the tag's middle: under the unit's code
    middle = (tag.box[1] + tag.box[3]) / 2
    assert middle - pill[2] / 2 >= unit.box[3], (tag.box, unit.box)
    assert not overlap(tag.box, unit.box)


def test_four_player_boards_draw_every_owner_tag_at_the_legible_size() -> None:
    view = wc_views.four_players()
    found, _image = texts_of(lambda: render.render(view, names=wc_views.NAMES, locale="fr"))
    tags = [d for d in found if d.role == "owner"]
    assert tags and all(d.size >= legible() for d in tags)


# --------------------------------------------------------------------------- Batailles


def crowded() -> dict[str, Any]:
    """Four troops in one zone, three in another, three in a forest zone: one place each."""
    view = copy.deepcopy(bt_images.deployment())
    own = [t for t in view["troops"] if t["seat"] == 0]
    other = [t for t in view["troops"] if t["seat"] == 1]
    for troops, zone in ((own[:4], [2, 0]), (own[4:7], [1, 1]), (other[:3], [1, 6])):
        for t in troops:
            t["zone"], t["label"] = zone, bt_field.zone_label((zone[0], zone[1]))
    assert any(z["forest"] for z in view["board"]["zones"] if z["zone"] == [1, 6])
    return view


@pytest.mark.parametrize("locale", LOCALES)
def test_troops_sharing_a_zone_show_their_names_and_main_characteristics(locale: str) -> None:
    view = crowded()
    found, _image = texts_of(lambda: render.render(view, names=bt_images.NAMES, locale=locale))
    names = [d for d in found if d.role == "troop"]
    on_board = [t for t in view["troops"] if t["zone"] is not None and not t["lost"]]
    assert len(names) == len(on_board)
    assert all(d.shown == d.text for d in names), [(d.text, d.shown) for d in names if d.shown != d.text]
    values = [d.shown for d in found if d.role == "stat"]
    # every troop shows at least its Movement, Attack and Defence: three values each, or more
    assert len(values) >= 3 * len(on_board)
    for troop in on_board:
        m, a, d = (str(troop["profile"][k]) for k in ("movement", "attack", "defence"))
        assert m in values and a in values and d in values
    assert all(d.size >= legible() for d in found if d.role in ("troop", "stat"))
