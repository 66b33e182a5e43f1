"""Cry Havoc's rulebook: phases, actions, factions, decks, tokens, structures, skills and cards, read
from the engine's content. Texts: ``rules_cryhavoc.json``.

Cards, structures and skills are described from their data: each effect of the shared vocabulary
(``engine/cryhavoc/effects.py``) has one explanation, so the texts can never disagree with what the
bot does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from engine.cryhavoc import content as ch
from engine.cryhavoc.actions import VERBS as CH_VERBS
from engine.cryhavoc.describe import effect_text
from engine.text import Msg
from table.rules.rule_topics import make_book, msgs_of, summary_pages, topic
from table.rules.rulebook import Rulebook, Topic

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


def _points(card: ch.Card) -> Msg:
    shown = [
        Msg(f"rules.cryhavoc.points.{p}", {"n": card["points"][p]})
        for p in ch.POINT_TYPES
        if p in card["points"]
    ]
    if not shown:
        return Msg("rules.cryhavoc.card.no_points")
    return Msg("rules.cryhavoc.card.points", {"points": shown})


def _battle(kind: str, card: ch.Card) -> Msg:
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


def _how(effects: Iterable[ch.Effect]) -> list[Msg]:
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
            "cards": msgs_of("ch.card", (c["kind"] for c in fd["deck"])),
            "structures": msgs_of("ch.structure", fd["structures"]),
            "skills": msgs_of("ch.skill", fd["skills"]),
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
    return topic("cryhavoc", "deck", terrain, content)


def _bullets(items: Iterable[Msg]) -> tuple[Msg, ...]:
    return tuple(Msg("rules.cryhavoc.bullet", {"item": item}) for item in items)


def _tokens(numbers: Mapping[str, object]) -> list[Topic]:
    exploration = [
        Msg("rules.cryhavoc.copies", {"n": t["copies"], "name": Msg(f"ch.explore.{t['id']}")})
        for t in ch.TOKENS["exploration"]
    ]
    parties = [
        Msg("rules.cryhavoc.war_party", {"trogs": p["trogs"], "crystals": p["crystals"]})
        for p in ch.TOKENS["war_party"]
    ]
    return [
        topic("cryhavoc", "token", "exploration", *_bullets(exploration), params=numbers),
        topic("cryhavoc", "token", "neutral_trogs", *_bullets(parties), params=numbers),
    ]


def book() -> Rulebook:
    """The rulebook, built from the engine's data."""
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
    pages = summary_pages("cryhavoc", numbers)
    phases = [
        topic("cryhavoc", "phase", "events", *events, params=numbers),
        *(topic("cryhavoc", "phase", p, params=numbers) for p in ("draw_cards", "prisoners")),
    ]
    actions = [topic("cryhavoc", "action", a, params=numbers) for a in CH_ACTIONS]
    factions = [_faction(f) for f in ch.FACTION_ORDER]
    decks = [_deck(t) for t in ch.TERRAINS]
    structures = [_structure(s) for s in ch.STRUCTURES]
    skills = [_skill(s) for s in ch.SKILLS]
    cards = [_card(k) for k in ch.CARDS]
    tokens_topics = _tokens(numbers)
    return make_book(
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


__all__ = ["CH_ACTIONS", "CH_PHASES", "CH_VERBS", "CH_VERB_TOPICS", "book"]
