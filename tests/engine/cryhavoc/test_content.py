"""The shipped content is complete and consistent: map sides, decks, structures, skills, tokens."""

from __future__ import annotations

from collections import deque

import pytest

import i18n
from engine.cryhavoc.content import (
    BOARDS,
    CARDS,
    EVENTS,
    EXPLORATION,
    FACTIONS,
    SKILLS,
    STRUCTURES,
    TERRAIN_DECKS,
    TOKENS,
    deck_cards,
)
from engine.cryhavoc.describe import card_text, skill_text, structure_text


@pytest.mark.parametrize("side", sorted(BOARDS))
def test_map_sides_are_connected_and_symmetric(side: str) -> None:
    bd = BOARDS[side]
    for r, ns in bd.adj.items():
        for x in ns:
            assert r in bd.adj[x], f"{r}-{x} one way"
    assert bd.adj[bd.hive] == [], "the thick borders close the Hive to ordinary movement"
    playable = [r for r in bd.regions if r != bd.hive]
    seen = {playable[0]}
    todo = deque([playable[0]])
    while todo:
        for x in bd.adj[todo.popleft()]:
            if x not in seen:
                seen.add(x)
                todo.append(x)
    assert seen == set(playable)
    assert {a for pair in bd.thick for a in pair} >= {bd.hive}
    assert bd.arrows, "edge arrows join distant regions"
    for a, b in bd.arrows:
        assert b in bd.adj[a]


def test_map_features() -> None:
    small, large = BOARDS["small"], BOARDS["large"]
    assert len(small.hq_slots) == 2 and len(large.hq_slots) == 3
    for bd in (small, large):
        terrains = {bd.terrain(r) for r in bd.regions if bd.terrain(r)}
        assert terrains == {"mountain", "desert", "jungle", "ocean"}
        crystals = {bd.regions[r].get("crystals") for r in bd.regions if bd.terrain(r)}
        assert {1, 3, 5} <= crystals
        assert any(bd.regions[r].get("war_party") for r in bd.regions)
        assert any(bd.regions[r].get("explore") for r in bd.regions)
    assert sum(bool(large.regions[r].get("tunnel")) for r in large.regions) == 3


@pytest.mark.parametrize("faction", sorted(FACTIONS))
def test_factions_are_complete(faction: str) -> None:
    fd = FACTIONS[faction]
    deck = deck_cards(fd["deck"])
    assert len(deck) == 8
    assert sum(1 for c in fd["deck"] if c.get("scoring")) == 1
    assert len(fd["structures"]) == 3
    assert fd["default_skill"] in fd["skills"] and len(fd["skills"]) >= 5
    for c in fd["deck"]:
        assert sum(c["points"].values()) > 0
    symbols = {s for c in fd["deck"] for s in c["symbols"]}
    assert symbols & {"initiative", "draw", "draw_one", "star"}
    for sd in fd["structures"].values():
        assert sd["build"] > 0 and sd["activate"] > 0 and sd["effect"]


def test_terrain_decks_and_tokens() -> None:
    assert sorted(TERRAIN_DECKS) == ["desert", "jungle", "mountain", "ocean"]
    for cards in TERRAIN_DECKS.values():
        assert len(deck_cards(cards)) == 8
    assert sum(t["copies"] for t in TOKENS["exploration"]) == 12
    assert len(EVENTS) == 6 and TOKENS["events_used"] == 5
    assert TOKENS["battle_tokens"] == 8


def test_every_content_item_has_a_name_in_both_languages() -> None:
    keys = (
        [f"ch.card.{k}" for k in CARDS]
        + [f"ch.structure.{k}" for k in STRUCTURES]
        + [f"ch.skill.{k}" for k in SKILLS]
        + [f"ch.event.{k}" for k in EVENTS]
        + [f"ch.explore.{k}" for k in EXPLORATION]
        + [f"ch.region.{r}" for bd in BOARDS.values() for r in bd.regions]
    )
    for lang in ("en", "fr"):
        cat = i18n.catalog(lang)
        missing = [k for k in keys if k not in cat]
        assert not missing, (lang, missing)


def test_generated_texts_fill_every_placeholder_in_both_languages() -> None:
    texts = (
        [card_text(k) for k in CARDS]
        + [structure_text(s) for s in STRUCTURES]
        + [skill_text(s) for s in SKILLS]
    )
    for lang in ("en", "fr"):
        for m in texts:
            out = i18n.t(m, lang)
            assert "{" not in out and "ch." not in out, out
    assert i18n.t(card_text("hu_volley"), "en") == (
        "Volley (2 movement, 1 recruitment). Battle, any terrain: kill an enemy unit on an objective."
    )


@pytest.mark.parametrize("side", sorted(BOARDS))
def test_every_region_has_a_distinct_drawing_position(side: str) -> None:
    spots = [tuple(r["pos"]) for r in BOARDS[side].regions.values()]
    assert len(set(spots)) == len(spots)
    assert all(0 <= v <= 100 for s in spots for v in s)


def test_the_rules_document_gives_the_shipped_content() -> None:
    """docs/rules/cryhavoc.md lists every faction's units, cards, structures and skills as the data
    files hold them: the balance it explains is the one that ships."""
    import re
    from pathlib import Path

    doc = (Path(__file__).parents[3] / "docs" / "rules" / "cryhavoc.md").read_text(encoding="utf-8")
    listed = 0
    for faction, fd in FACTIONS.items():
        heading = i18n.t(f"ch.faction.{faction}", "en")
        part = doc.split(f"\n### {heading}\n", 1)[1].split("\n### ", 1)[0]
        start = fd["start_units"]
        assert f"{fd['units']} units, {start} in the HQ at the start." in part, faction
        for card in fd["deck"]:
            kind = card["kind"]
            assert f"\n- {card['copies']}× `{kind}` — {i18n.t(card_text(kind), 'en')}\n" in part, kind
            listed += 1
        for kind in (*fd["structures"], *fd["skills"]):
            text = structure_text(kind) if kind in STRUCTURES else skill_text(kind)
            assert f"\n- `{kind}` — {i18n.t(text, 'en')}\n" in part, kind
            listed += 1
    assert listed == len(re.findall(r"^- (?:\d+× )?`(?:hu|ma|pi|tr)_\w+` — ", doc, re.M))
