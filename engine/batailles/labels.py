"""How an action is named to players: the catalog message autocomplete, the menus and the board's
last-action line show (the action's text form is for parsing, not for reading)."""

from __future__ import annotations

from engine.batailles.actions import (
    Action,
    Activate,
    Attack,
    Deploy,
    Dismiss,
    Done,
    EndTurn,
    Face,
    Hold,
    Lose,
    Morale,
    Move,
    Ready,
    Recruit,
    Reroll,
    Retrain,
    SetProfile,
)
from engine.batailles.board import label
from engine.batailles.troops import profile_text
from engine.text import Msg, msg


def _dir_msg(direction: str) -> Msg:
    """A direction or facing as a catalog message."""
    return msg(f"bt.dir.{direction}")


def action_label(a: Action) -> Msg:
    """The localisable description of an action, as autocomplete shows it."""
    if isinstance(a, Recruit):
        return msg("bt.act.recruit", name=a.name, profile=profile_text(a.profile))
    if isinstance(a, Dismiss):
        return msg("bt.act.dismiss", name=a.name)
    if isinstance(a, Ready):
        return msg("bt.act.ready")
    if isinstance(a, Deploy):
        return msg("bt.act.deploy", name=a.name, zone=label(a.zone), facing=_dir_msg(a.facing))
    if isinstance(a, Activate):
        key = "bt.act.activate" if len(a.names) == 1 else "bt.act.coordinate"
        return msg(key, names=" + ".join(a.names))
    if isinstance(a, Move):
        return msg("bt.act.move", direction=_dir_msg(a.direction), facing=_dir_msg(a.facing))
    if isinstance(a, Face):
        return msg("bt.act.face", facing=_dir_msg(a.direction))
    if isinstance(a, Attack):
        return msg("bt.act.attack", zone=label(a.zone), dice=a.dice)
    if isinstance(a, Reroll):
        return msg("bt.act.reroll", count=a.count)
    if isinstance(a, Done):
        return msg("bt.act.done")
    if isinstance(a, EndTurn):
        return msg("bt.act.end")
    if isinstance(a, Morale):
        return msg("bt.act.morale", zone=label(a.zone))
    if isinstance(a, Hold):
        return msg("bt.act.hold", name=a.name, dice=a.dice)
    if isinstance(a, Lose):
        return msg("bt.act.lose", name=a.name)
    if isinstance(a, Retrain):
        return msg("bt.act.retrain", name=a.name)
    if isinstance(a, SetProfile):
        return msg("bt.act.profile", profile=profile_text(a.profile))
    return msg("bt.act.unknown", text=str(a))


def last_description(a: Action) -> Msg:
    """The action told in the third person for the board's last-action line (``{player}`` is named by
    the reader's side): the label's words are a button's, addressed to the one who acts."""
    label = action_label(a)
    return msg("bt.did." + label.key.removeprefix("bt.act."), **label.params)
