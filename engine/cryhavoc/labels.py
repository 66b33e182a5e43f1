"""Localisable descriptions of actions, shown next to the text in autocomplete."""

from __future__ import annotations

from engine.cryhavoc.actions import Act
from engine.cryhavoc.content import CARDS, STRUCTURES
from engine.cryhavoc.effects import region_name
from engine.cryhavoc.state import St
from engine.text import Msg, msg


def _card(kind: str) -> Msg:
    return msg(f"ch.card.{kind}")


def _obj(o: str) -> Msg:
    return msg(f"ch.objective.{o}")


def action_label(st: St, a: Act) -> Msg:
    v, args = a.verb, a.args
    if v in ("move", "recruit", "build"):
        return msg(f"ch.label.{v}", card=_card(args[0]), n=CARDS[args[0]]["points"].get(v, 0))
    if v == "pay":
        p = st["pending"]
        kind = "move" if p is None else p["kind"]
        return msg("ch.label.pay", card=_card(args[0]), n=CARDS[args[0]]["points"].get(kind, 0))
    if v in ("discard", "keep"):
        return msg(f"ch.label.{v}", card=_card(args[0]))
    if v == "go":
        return msg("ch.label.go", src=region_name(args[0]), dst=region_name(args[1]))
    if v in ("construct", "activate"):
        cost = STRUCTURES[args[0]]["build" if v == "construct" else "activate"]
        return msg(
            f"ch.label.{v}", structure=msg(f"ch.structure.{args[0]}"), region=region_name(args[1]), n=cost
        )
    if v == "draw":
        return msg("ch.label.draw", source=msg(f"ch.source.{args[0]}"))
    if v == "skill":
        if len(args) > 1:
            return msg("ch.label.skill_at", skill=msg(f"ch.skill.{args[0]}"), region=region_name(args[1]))
        return msg("ch.label.skill", skill=msg(f"ch.skill.{args[0]}"))
    if v == "place" or v == "capture" or v == "kill":
        return msg(f"ch.label.{v}", objective=_obj(args[0]))
    if v == "play":
        if len(args) == 3:
            return msg("ch.label.play_shift", card=_card(args[0]), src=_obj(args[1]), dst=_obj(args[2]))
        if len(args) == 2:
            return msg("ch.label.play_on", card=_card(args[0]), objective=_obj(args[1]))
        return msg("ch.label.play", card=_card(args[0]))
    if v == "retreat":
        return msg("ch.label.retreat", region=region_name(args[0]))
    if v == "ransom":
        return msg("ch.label.ransom", faction=msg(f"ch.faction.{args[0]}"))
    return msg(f"ch.label.{v}")


def last_description(label: Msg) -> Msg:
    """The recorded label of the last action told in the third person for the board (``{player}`` is
    named by the reader's side): a label's words are a menu's, addressed to the one who acts."""
    if not label.key.startswith("ch.label."):
        return msg("ch.did.other")
    return msg("ch.did." + label.key.removeprefix("ch.label."), **label.params)
