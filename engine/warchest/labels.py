"""Localisable descriptions of actions, shown next to the text in autocomplete."""

from __future__ import annotations

from engine.text import Msg, msg
from engine.warchest.actions import (
    Action,
    Attack,
    Bolster,
    Control,
    Deploy,
    GuardChoice,
    Initiative,
    Move,
    Pass,
    Pick,
    Recruit,
    Skip,
    Tactic,
)
from engine.warchest.board import Hex, label
from engine.warchest.rules import unit_name
from engine.warchest.state import PendingKind, Phase, State
from engine.warchest.units import CAVALRY, ENSIGN, FOOTMAN, LANCER, MARSHALL


def _unit_at(st: State, h: Hex) -> Msg:
    u = st.board.get(h)
    return unit_name(u[1]) if u is not None else msg("wc.unit.none")


def describe(st: State, a: Action) -> Msg:
    """The plain description of ``a``; a follow-up is wrapped by ``action_label``."""
    if isinstance(a, Deploy):
        return msg("wc.label.deploy", unit=unit_name(a.unit), hex=label(a.hex))
    if isinstance(a, Bolster):
        return msg("wc.label.bolster", unit=unit_name(a.unit), hex=label(a.hex))
    if isinstance(a, Move):
        return msg("wc.label.move", unit=unit_name(a.unit), src=label(a.src), dst=label(a.dst))
    if isinstance(a, Control):
        return msg("wc.label.control", unit=unit_name(a.unit), hex=label(a.hex))
    if isinstance(a, Attack):
        return msg(
            "wc.label.attack",
            unit=unit_name(a.unit),
            src=label(a.src),
            target_unit=_unit_at(st, a.target),
            target=label(a.target),
        )
    if isinstance(a, Tactic):
        return _tactic(st, a)
    if isinstance(a, Initiative):
        return msg("wc.label.initiative", coin=unit_name(a.coin))
    if isinstance(a, Recruit):
        return msg("wc.label.recruit", unit=unit_name(a.unit), coin=unit_name(a.coin))
    if isinstance(a, Pass):
        return msg("wc.label.pass", coin=unit_name(a.coin))
    if isinstance(a, GuardChoice):
        return msg(f"wc.label.guard_{a.source}")
    if isinstance(a, Pick):
        return msg("wc.label.pick", unit=unit_name(a.unit))
    assert isinstance(a, Skip)
    what = st.pending[-1].kind if st.pending else "none"
    return msg("wc.label.skip", what=msg(f"wc.pending.{what}"))


def _tactic(st: State, a: Tactic) -> Msg:
    unit = unit_name(a.unit)
    if a.unit == FOOTMAN or a.src is None:
        return msg("wc.label.tactic.footman", unit=unit)
    src = label(a.src)
    if a.unit in (CAVALRY, LANCER):
        dst, target = a.args
        return msg(
            "wc.label.tactic.charge",
            unit=unit,
            src=src,
            dst=label(dst),
            target_unit=_unit_at(st, target),
            target=label(target),
        )
    if a.unit == ENSIGN:
        other, dst = a.args
        return msg(
            "wc.label.tactic.ensign", unit=unit, other=_unit_at(st, other), src=label(other), dst=label(dst)
        )
    if a.unit == MARSHALL:
        other, target = a.args
        return msg(
            "wc.label.tactic.marshall",
            unit=unit,
            other=_unit_at(st, other),
            src=label(other),
            target_unit=_unit_at(st, target),
            target=label(target),
        )
    if a.unit == "royal_guard":
        return msg("wc.label.tactic.royal_guard", unit=unit, src=src, dst=label(a.args[0]))
    if a.unit == "light_cavalry":
        return msg("wc.label.tactic.gallop", unit=unit, src=src, dst=label(a.args[0]))
    return msg(
        "wc.label.tactic.shoot",
        unit=unit,
        src=src,
        target_unit=_unit_at(st, a.args[0]),
        target=label(a.args[0]),
    )


def action_label(st: State, a: Action) -> Msg:
    """``describe`` plus, during a follow-up, what the follow-up is (free move, repeat...)."""
    inner = describe(st, a)
    if st.phase != Phase.PLAY or not st.pending or isinstance(a, (Skip, GuardChoice)):
        return inner
    kind = st.pending[-1].kind
    if kind == PendingKind.PRIEST:
        return msg("wc.label.priest", action=inner)
    return msg(f"wc.label.followup.{kind}", action=inner)


_DID_HEX = {"deploy", "bolster", "control"}


def last_description(text: str) -> Msg:
    """The board's last action told in the third person (``{player}`` is left for the reader's side to
    name), from the public action text alone: a face-down coin the text leaves out stays unsaid."""
    words = text.split()
    verb, rest = (words[0], words[1:]) if words else ("", [])
    if verb in _DID_HEX and len(rest) == 2:
        return msg(f"wc.did.{verb}", unit=unit_name(rest[0]), hex=rest[1])
    if verb == "move" and len(rest) == 3:
        return msg("wc.did.move", unit=unit_name(rest[0]), src=rest[1], dst=rest[2])
    if verb == "attack" and len(rest) == 3:
        return msg("wc.did.attack", unit=unit_name(rest[0]), src=rest[1], target=rest[2])
    if verb == "tactic" and rest:
        if len(rest) >= 3:
            return msg("wc.did.tactic_at", unit=unit_name(rest[0]), src=rest[1], targets=rest[2:])
        return msg("wc.did.tactic", unit=unit_name(rest[0]))
    if verb in ("initiative", "pass", "skip"):
        return msg(f"wc.did.{verb}")
    if verb in ("recruit", "pick") and rest:
        return msg(f"wc.did.{verb}", unit=unit_name(rest[0]))
    if verb == "guard" and rest and rest[0] in ("supply", "stack"):
        return msg(f"wc.did.guard_{rest[0]}")
    return msg("wc.did.other")
