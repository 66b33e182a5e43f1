"""Card, structure and skill texts built from the content data, for hands, help and the rules page.

The printed texts are generated rather than written per card so that a number changed in
``data/*.json`` can never disagree with what players read.
"""

from __future__ import annotations

from engine.cryhavoc.content import CARDS, POINT_TYPES, SKILLS, STRUCTURES, Effect
from engine.text import Msg, msg


def effect_text(e: Effect) -> Msg:
    """One effect of the shared vocabulary (battle effects included)."""
    do = e["do"]
    if do == "bonus":
        if e["objective"] == "any":
            return msg("ch.effect.bonus_any", n=e["n"])
        return msg("ch.effect.bonus", n=e["n"], objective=msg(f"ch.objective.{e['objective']}"))
    return msg(f"ch.effect.{do}", **{k: v for k, v in e.items() if k != "do"})


def card_text(kind: str) -> Msg:
    c = CARDS[kind]
    parts: list[Msg] = [
        msg("ch.text.points", n=c["points"][p], kind=msg(f"ch.points.{p}"))
        for p in POINT_TYPES
        if p in c["points"]
    ]
    parts += [msg(f"ch.symbol.{s}") for s in c["symbols"]]
    if c.get("scoring"):
        parts.append(msg("ch.text.scoring"))
    effect = c["battle"]
    battle = effect_text(effect) if effect else msg("ch.effect.none")
    where = msg(f"ch.terrain.{c['terrain']}") if c["terrain"] else msg("ch.text.anywhere")
    return msg("ch.text.card", name=msg(f"ch.card.{kind}"), points=parts, battle=battle, where=where)


def structure_text(sid: str) -> Msg:
    sd = STRUCTURES[sid]
    effects = [effect_text(e) for e in sd["effect"]]
    if sd["guard"]:
        effects.append(msg("ch.effect.guard", n=sd["guard"]))
    return msg(
        "ch.text.structure",
        name=msg(f"ch.structure.{sid}"),
        build=sd["build"],
        activate=sd["activate"],
        effect=effects,
    )


def skill_text(sid: str) -> Msg:
    return msg("ch.text.skill", name=msg(f"ch.skill.{sid}"), effect=[effect_text(e) for e in SKILLS[sid]])
