"""What each game's rulebook holds, read from the engines' own data.

The texts live in the catalog (``i18n/locales/<lang>/rules_<game>.json``); this module only says
which topics exist, in which order, and passes each text the numbers the engine plays by. A unit,
card, structure or skill added to an engine's data therefore gets its topic at once, and the
rulebook tests fail until its text is written in both languages.

Cry Havoc's cards, structures and skills are described from their data: each effect of the shared
vocabulary (``engine/cryhavoc/effects.py``) has one explanation, so the texts can never disagree
with what the bot does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from engine.batailles import DEFAULT_MAX_ROUNDS
from engine.batailles import board as bt_board
from engine.batailles import combat as bt_combat
from engine.batailles import rules as bt_rules
from engine.batailles import troops as bt_troops
from engine.cryhavoc import content as ch
from engine.cryhavoc.actions import VERBS as CH_VERBS
from engine.cryhavoc.describe import effect_text
from engine.text import Msg
from engine.warchest import rules as wc_rules
from engine.warchest import setup as wc_setup
from engine.warchest.board import board_map
from engine.warchest.units import COINS, FIRST_GAME, FIRST_GAME_4, ROYAL
from table.rules.rulebook import Group, Rulebook, Topic

PAGES = ("overview", "setup", "turn", "actions", "combat", "scoring", "end")
"""The summary pages every game has, in reading order; the first lists every topic."""

CH_PHASES = ("events", "draw_cards", "actions", "combat", "prisoners", "scoring")
"""The six phases of a Cry Havoc round, each a topic (three of them are summary pages)."""

CH_ACTIONS = ("move", "recruit", "build", "draw", "score", "skill", "pass")
"""The actions a Cry Havoc player starts in the actions phase, named by their verbs."""

CH_VERB_TOPICS = {
    "discard": "draw_cards",
    "move": "move",
    "go": "move",
    "recruit": "recruit",
    "build": "build",
    "pay": "actions",
    "construct": "build",
    "activate": "build",
    "draw": "draw",
    "keep": "draw",
    "score": "score",
    "skill": "skill",
    "end": "actions",
    "pass": "pass",
    "place": "combat",
    "play": "combat",
    "fold": "combat",
    "capture": "combat",
    "kill": "combat",
    "retreat": "combat",
    "ransom": "prisoners",
    "done": "prisoners",
}
"""Which topic explains each verb a Cry Havoc player types (a test checks every engine verb is here)."""

TARGETED_SKILLS = ("crystal", "tunnel_spawn", "nest")
"""Skill effects that name a region (as ``engine.cryhavoc.turns.skill_targets`` has it)."""

BT_TERRAIN = tuple(f.name for f in dataclasses.fields(bt_board.Terrain) if f.name != "advantage")
"""Batailles' terrain pieces, as the engine's ``Terrain`` names them (the advantage value aside)."""

BT_RULES = ("facing", "coordination", "hits", "morale", "advantage", "threshold", "hardcore", "maps")


def _topic(
    game: str, kind: str, tid: str, *body: Msg, title: Msg | None = None, params: dict[str, Any] | None = None
) -> Topic:
    """A topic whose first paragraph is ``rules.<game>.<kind>.<id>`` (with ``params``) and whose
    title is that key's ``.title`` unless given."""
    key = f"rules.{game}.{kind}.{tid}"
    return Topic(tid, kind, title or Msg(f"{key}.title"), (Msg(key, params or {}), *body))


def _pages(game: str, numbers: dict[str, Any]) -> list[Topic]:
    """The summary pages; each text takes from ``numbers`` what it shows (the engine's own values)."""
    return [_topic(game, "page", p, params=numbers) for p in PAGES]


def _book(
    game: str,
    topics: Iterable[Topic],
    groups: Iterable[tuple[str, Iterable[str]]],
    alphabetical: Iterable[str] = (),
) -> Rulebook:
    """A rulebook with the summary pages; ``groups`` are what the overview lists, under
    ``table.rules.group.<key>``, those in ``alphabetical`` sorted by name in the reader's language."""
    sort = set(alphabetical)
    return Rulebook(
        game,
        tuple(topics),
        PAGES,
        tuple(Group(f"table.rules.group.{key}", tuple(ids), key in sort) for key, ids in groups),
    )


def _names(prefix: str, ids: Iterable[str]) -> list[Msg]:
    return [Msg(f"{prefix}.{i}") for i in ids]


# ---- War Chest ----------------------------------------------------------------------------------


def _board_numbers(board: str, players: int, suffix: str = "") -> dict[str, int]:
    """What the War Chest pages show of a board and its set-up, named with ``suffix``."""
    bm = board_map(board)
    numbers = {
        "hexes": len(bm.hexes),
        "locations": len(bm.locations),
        "markers": bm.markers,
        "start": len(bm.start[0]),
        "cards": wc_setup.CARDS_PER_SEAT[players],
        "pool": wc_setup.DRAFT_POOL[players],
    }
    return {name + suffix: value for name, value in numbers.items()}


def warchest() -> Rulebook:
    in_bag = 2  # coins of each unit type that start in the bag, as engine.warchest.setup deals them
    numbers = {
        **_board_numbers("2p", 2),
        **_board_numbers("4p", 4, "4"),
        "bag": in_bag,
        "hand": wc_rules.HAND_SIZE,
        "rounds": wc_rules.STALL_ROUNDS,
        "first_a": _names("wc.unit", FIRST_GAME[0]),
        "first_b": _names("wc.unit", FIRST_GAME[1]),
        **{f"seat{i}": _names("wc.unit", cards) for i, cards in enumerate(FIRST_GAME_4, start=1)},
    }
    units = [
        Topic(
            unit,
            "unit",
            Msg(f"wc.unit.{unit}"),
            (
                Msg("rules.warchest.coins", {"coins": coins, "bag": in_bag, "supply": coins - in_bag}),
                Msg(f"rules.warchest.unit.{unit}"),
            ),
        )
        for unit, coins in sorted(COINS.items())
    ]
    others = [
        _topic("warchest", "coin", ROYAL, title=Msg(f"wc.unit.{ROYAL}")),
        _topic("warchest", "rule", "draft", params=numbers),
        _topic("warchest", "rule", "teams", params=numbers),
    ]
    return _book(
        "warchest",
        [*_pages("warchest", numbers), *units, *others],
        [("units", [u.id for u in units]), ("topics", [o.id for o in others])],
        alphabetical=["units"],
    )


# ---- Batailles ----------------------------------------------------------------------------------


def batailles() -> Rulebook:
    numbers = {
        "points": bt_troops.POINTS,
        "troops": bt_rules.ACTIVATIONS_PER_TURN,
        "hit": bt_combat.HIT,
        "dice": bt_combat.MAX_TROOP_DEFENCE,
        "cost": bt_rules.MORALE_COST,
        "places": bt_board.PLACES,
        "gap": bt_board.GAP,
        "rounds": DEFAULT_MAX_ROUNDS,
        "retrained": bt_rules.MAX_RETRAINED,
        "most": bt_board.MAX_ADVANTAGE,
    }
    pages = _pages("batailles", numbers)
    stats = [_topic("batailles", "stat", s, params=numbers) for s in bt_troops.STATS]
    terrain = [_topic("batailles", "terrain", t, params=numbers) for t in BT_TERRAIN]
    rules = [_topic("batailles", "rule", r, params=numbers) for r in BT_RULES]
    return _book(
        "batailles",
        [*pages, *stats, *terrain, *rules],
        [
            ("characteristics", bt_troops.STATS),
            ("terrain", BT_TERRAIN),
            ("topics", BT_RULES),
        ],
    )


# ---- Cry Havoc ----------------------------------------------------------------------------------


def _points(card: dict[str, Any]) -> Msg:
    shown = [
        Msg(f"rules.cryhavoc.points.{p}", {"n": card["points"][p]})
        for p in ch.POINT_TYPES
        if p in card["points"]
    ]
    if not shown:
        return Msg("rules.cryhavoc.card.no_points")
    return Msg("rules.cryhavoc.card.points", {"points": shown})


def _battle(kind: str, card: dict[str, Any]) -> Msg:
    effect = card.get("battle")
    if effect is None:
        return Msg("rules.cryhavoc.battle.none")
    where = Msg(f"ch.terrain.{card['terrain']}") if card["terrain"] else Msg("ch.text.anywhere")
    do = "bonus_any" if effect["do"] == "bonus" and effect["objective"] == "any" else effect["do"]
    params = {k: v for k, v in effect.items() if k not in ("do", "objective")}
    if effect.get("objective") not in (None, "any"):
        params["objective"] = Msg(f"ch.objective.{effect['objective']}")
    how = Msg(f"rules.cryhavoc.battle.{do}", {"card": Msg(f"ch.card.{kind}"), **params})
    return Msg("rules.cryhavoc.card.battle", {"where": where, "effect": effect_text(effect), "how": how})


def _card(kind: str) -> Topic:
    card = ch.CARDS[kind]
    if card["terrain"] is None:
        owner = Msg(
            "rules.cryhavoc.card.faction",
            {"faction": Msg(f"ch.faction.{card['faction']}"), "copies": card["copies"]},
        )
    else:
        owner = Msg(
            "rules.cryhavoc.card.terrain",
            {"terrain": Msg(f"ch.terrain.{card['terrain']}"), "copies": card["copies"]},
        )
    body = [owner, _points(card)]
    body += [Msg(f"rules.cryhavoc.symbol.{s}") for s in card["symbols"]]
    if card.get("scoring"):
        body.append(Msg("rules.cryhavoc.card.scoring"))
    body.append(_battle(kind, card))
    return Topic(kind, "card", Msg(f"ch.card.{kind}"), tuple(body))


def _how(effects: Iterable[dict[str, Any]]) -> list[Msg]:
    """How the bot applies each effect of a structure or skill, once per kind of effect."""
    kinds = list(dict.fromkeys(e["do"] for e in effects))
    return [Msg(f"rules.cryhavoc.how.{do}", {"nest": ch.TOKENS["nest"]["trogs"]}) for do in kinds]


def _structure(sid: str) -> Topic:
    sd = ch.STRUCTURES[sid]
    effects = [effect_text(e) for e in sd["effect"]]
    body = [
        Msg(
            "rules.cryhavoc.structure",
            {
                "faction": Msg(f"ch.faction.{sd['faction']}"),
                "tokens": ch.TOKENS["structure_tokens"],
                "build": sd["build"],
                "activate": sd["activate"],
                "effect": effects,
            },
        ),
        *_how(sd["effect"]),
    ]
    if sd["guard"]:
        body.append(Msg("rules.cryhavoc.how.guard", {"n": sd["guard"]}))
    body.append(Msg("rules.cryhavoc.structure.rules", {"name": Msg(f"ch.structure.{sid}")}))
    return Topic(sid, "structure", Msg(f"ch.structure.{sid}"), tuple(body))


@cache
def _skill_owner() -> dict[str, str]:
    return {sid: fac for fac, fd in ch.FACTIONS.items() for sid in fd["skills"]}


def _skill(sid: str) -> Topic:
    faction = _skill_owner()[sid]
    default = ch.FACTIONS[faction]["default_skill"] == sid
    head = Msg(
        f"rules.cryhavoc.skill.{'default' if default else 'extra'}",
        {"faction": Msg(f"ch.faction.{faction}"), "effect": [effect_text(e) for e in ch.SKILLS[sid]]},
    )
    targeted = any(e["do"] in TARGETED_SKILLS for e in ch.SKILLS[sid])
    usage = Msg(
        f"rules.cryhavoc.skill.{'rules_region' if targeted else 'rules'}", {"name": Msg(f"ch.skill.{sid}")}
    )
    body = (head, *_how(ch.SKILLS[sid]), usage)
    return Topic(sid, "skill", Msg(f"ch.skill.{sid}"), body)


def _faction(fac: str) -> Topic:
    fd = ch.FACTIONS[fac]
    content = Msg(
        "rules.cryhavoc.faction.content",
        {
            "units": fd["units"],
            "start": fd["start_units"],
            "cards": _names("ch.card", (c["kind"] for c in fd["deck"])),
            "structures": _names("ch.structure", fd["structures"]),
            "skills": _names("ch.skill", fd["skills"]),
            "default": Msg(f"ch.skill.{fd['default_skill']}"),
        },
    )
    # The faction's text names some of its cards, structures and skills: by their catalog names.
    names = {
        **{c["kind"]: Msg(f"ch.card.{c['kind']}") for c in fd["deck"]},
        **{sid: Msg(f"ch.structure.{sid}") for sid in fd["structures"]},
        **{sid: Msg(f"ch.skill.{sid}") for sid in fd["skills"]},
    }
    return Topic(
        fac, "faction", Msg(f"ch.faction.{fac}"), (Msg(f"rules.cryhavoc.faction.{fac}", names), content)
    )


def _deck(terrain: str) -> Topic:
    cards = [
        Msg("rules.cryhavoc.copies", {"n": c["copies"], "name": Msg(f"ch.card.{c['kind']}")})
        for c in ch.TERRAIN_DECKS[terrain]
    ]
    content = Msg("rules.cryhavoc.deck.content", {"terrain": Msg(f"ch.terrain.{terrain}"), "cards": cards})
    return _topic("cryhavoc", "deck", terrain, content)


def _bullets(items: Iterable[Msg]) -> tuple[Msg, ...]:
    return tuple(Msg("rules.cryhavoc.bullet", {"item": item}) for item in items)


def _tokens(numbers: dict[str, Any]) -> list[Topic]:
    exploration = [
        Msg("rules.cryhavoc.copies", {"n": t["copies"], "name": Msg(f"ch.explore.{t['id']}")})
        for t in ch.TOKENS["exploration"]
    ]
    parties = [
        Msg("rules.cryhavoc.war_party", {"trogs": p["trogs"], "crystals": p["crystals"]})
        for p in ch.TOKENS["war_party"]
    ]
    return [
        _topic("cryhavoc", "token", "exploration", *_bullets(exploration), params=numbers),
        _topic("cryhavoc", "token", "neutral_trogs", *_bullets(parties), params=numbers),
    ]


def cryhavoc() -> Rulebook:
    tokens = ch.TOKENS
    numbers = {
        "draw": tokens["draw_per_round"],
        "limit": tokens["hand_limit"],
        "actions": tokens["actions_per_round"],
        "battles": tokens["battle_tokens"],
        "control": tokens["control_vp"],
        "ransom": tokens["ransom_vp"],
        "events": len(tokens["events"]),
        "used": tokens["events_used"],
        "rounds": len(tokens["event_positions"]),
        "exploration": sum(t["copies"] for t in tokens["exploration"]),
        "pool": tokens["neutral_trogs"],
        "nest": tokens["nest"]["trogs"],
        "positions": tokens["event_positions"],
    }
    events = _bullets(Msg(f"ch.event.{e['id']}") for e in tokens["events"])
    pages = _pages("cryhavoc", numbers)
    phases = [
        _topic("cryhavoc", "phase", "events", *events, params=numbers),
        *(_topic("cryhavoc", "phase", p, params=numbers) for p in ("draw_cards", "prisoners")),
    ]
    actions = [_topic("cryhavoc", "action", a, params=numbers) for a in CH_ACTIONS]
    factions = [_faction(f) for f in ch.FACTION_ORDER]
    decks = [_deck(t) for t in ch.TERRAINS]
    structures = [_structure(s) for s in ch.STRUCTURES]
    skills = [_skill(s) for s in ch.SKILLS]
    cards = [_card(k) for k in ch.CARDS]
    tokens_topics = _tokens(numbers)
    return _book(
        "cryhavoc",
        [*pages, *phases, *actions, *factions, *decks, *tokens_topics, *structures, *skills, *cards],
        [
            ("phases", CH_PHASES),
            ("actions", CH_ACTIONS),
            ("factions", ch.FACTION_ORDER),
            ("decks", ch.TERRAINS),
            ("tokens", [t.id for t in tokens_topics]),
        ],
    )


# ---- all games ----------------------------------------------------------------------------------

BUILDERS: dict[str, Callable[[], Rulebook]] = {
    "warchest": warchest,
    "batailles": batailles,
    "cryhavoc": cryhavoc,
}


@cache
def rulebook(game: str) -> Rulebook | None:
    """The rulebook of ``game``, built once; ``None`` for a game without one."""
    builder = BUILDERS.get(game)
    return builder() if builder is not None else None


__all__ = [
    "BT_RULES",
    "BT_TERRAIN",
    "CH_ACTIONS",
    "CH_PHASES",
    "CH_VERBS",
    "CH_VERB_TOPICS",
    "PAGES",
    "rulebook",
]
