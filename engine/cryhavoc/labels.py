"""Localisable descriptions of actions, shown next to the text in autocomplete."""

from __future__ import annotations

from engine.cryhavoc.actions import Action, Play
from engine.cryhavoc.content import CARDS, STRUCTURES
from engine.cryhavoc.effects import region_name
from engine.cryhavoc.state import St
from engine.text import Msg, msg


def _card(kind: str) -> Msg:
    return msg(f"ch.card.{kind}")


def _obj(o: str) -> Msg:
    return msg(f"ch.objective.{o}")


def action_label(st: St, a: Action) -> Msg:
    """The label of ``a``; the verb tells the kinds apart (see ``actions``), the most frequent first."""
    if a.verb == "go":
        return msg("ch.label.go", src=region_name(a.origin), dst=region_name(a.to))
    if a.verb == "pay":
        p = st["pending"]
        kind = "move" if p is None else p["kind"]
        return msg("ch.label.pay", card=_card(a.card), n=CARDS[a.card]["points"].get(kind, 0))
    if a.verb == "move" or a.verb == "recruit" or a.verb == "build":
        return msg(f"ch.label.{a.verb}", card=_card(a.card), n=CARDS[a.card]["points"].get(a.verb, 0))
    if a.verb == "discard" or a.verb == "keep":
        return msg(f"ch.label.{a.verb}", card=_card(a.card))
    if a.verb == "draw":
        return msg("ch.label.draw", source=msg(f"ch.source.{a.source}"))
    if a.verb == "place" or a.verb == "capture" or a.verb == "kill":
        return msg(f"ch.label.{a.verb}", objective=_obj(a.objective))
    if a.verb == "play":
        return _play_label(a)
    if a.verb == "construct" or a.verb == "activate":
        cost = STRUCTURES[a.structure]["build" if a.verb == "construct" else "activate"]
        structure = msg(f"ch.structure.{a.structure}")
        return msg(f"ch.label.{a.verb}", structure=structure, region=region_name(a.region), n=cost)
    if a.verb == "skill":
        if a.region is None:
            return msg("ch.label.skill", skill=msg(f"ch.skill.{a.skill}"))
        return msg("ch.label.skill_at", skill=msg(f"ch.skill.{a.skill}"), region=region_name(a.region))
    if a.verb == "retreat":
        return msg("ch.label.retreat", region=region_name(a.region))
    if a.verb == "ransom":
        return msg("ch.label.ransom", faction=msg(f"ch.faction.{a.faction}"))
    return msg(f"ch.label.{a.verb}")


def _play_label(a: Play) -> Msg:
    match a.objectives:
        case (src, dst):
            return msg("ch.label.play_shift", card=_card(a.card), src=_obj(src), dst=_obj(dst))
        case (o,):
            return msg("ch.label.play_on", card=_card(a.card), objective=_obj(o))
    return msg("ch.label.play", card=_card(a.card))


def last_description(label: Msg) -> Msg:
    """The recorded label of the last action told in the third person for the board (``{player}`` is
    named by the reader's side): a label's words are a menu's, addressed to the one who acts."""
    if not label.key.startswith("ch.label."):
        return msg("ch.did.other")
    return msg("ch.did." + label.key.removeprefix("ch.label."), **label.params)
