"""Localisable descriptions of actions, shown next to the text in autocomplete."""

from __future__ import annotations

from engine.cryhavoc import actions as acts
from engine.cryhavoc.content import CARDS, STRUCTURES
from engine.cryhavoc.effects import region_name
from engine.cryhavoc.state import St
from engine.text import Msg, msg


def _card(kind: str) -> Msg:
    return msg(f"ch.card.{kind}")


def _obj(o: str) -> Msg:
    return msg(f"ch.objective.{o}")


def action_label(st: St, a: acts.Action) -> Msg:
    match a:
        case acts.Move(card) | acts.Recruit(card) | acts.Build(card):
            return msg(f"ch.label.{a.verb}", card=_card(card), n=CARDS[card]["points"].get(a.verb, 0))
        case acts.Pay(card):
            p = st["pending"]
            kind = "move" if p is None else p["kind"]
            return msg("ch.label.pay", card=_card(card), n=CARDS[card]["points"].get(kind, 0))
        case acts.Discard(card) | acts.Keep(card):
            return msg(f"ch.label.{a.verb}", card=_card(card))
        case acts.Go(origin, to):
            return msg("ch.label.go", src=region_name(origin), dst=region_name(to))
        case acts.Construct(sid, rid) | acts.Activate(sid, rid):
            cost = STRUCTURES[sid]["build" if isinstance(a, acts.Construct) else "activate"]
            return msg(
                f"ch.label.{a.verb}", structure=msg(f"ch.structure.{sid}"), region=region_name(rid), n=cost
            )
        case acts.Draw(source):
            return msg("ch.label.draw", source=msg(f"ch.source.{source}"))
        case acts.UseSkill(skill, None):
            return msg("ch.label.skill", skill=msg(f"ch.skill.{skill}"))
        case acts.UseSkill(skill, str(rid)):
            return msg("ch.label.skill_at", skill=msg(f"ch.skill.{skill}"), region=region_name(rid))
        case acts.Place(o) | acts.Capture(o) | acts.Kill(o):
            return msg(f"ch.label.{a.verb}", objective=_obj(o))
        case acts.Play(card, (src, dst)):
            return msg("ch.label.play_shift", card=_card(card), src=_obj(src), dst=_obj(dst))
        case acts.Play(card, (o,)):
            return msg("ch.label.play_on", card=_card(card), objective=_obj(o))
        case acts.Play(card):
            return msg("ch.label.play", card=_card(card))
        case acts.Retreat(rid):
            return msg("ch.label.retreat", region=region_name(rid))
        case acts.Ransom(faction):
            return msg("ch.label.ransom", faction=msg(f"ch.faction.{faction}"))
    return msg(f"ch.label.{a.verb}")


def last_description(label: Msg) -> Msg:
    """The recorded label of the last action told in the third person for the board (``{player}`` is
    named by the reader's side): a label's words are a menu's, addressed to the one who acts."""
    if not label.key.startswith("ch.label."):
        return msg("ch.did.other")
    return msg("ch.did." + label.key.removeprefix("ch.label."), **label.params)
