"""Action values. Every Cry Havoc decision is one ``Act``: a verb and a few words, ``str()`` being the
text a player types and ``parse`` reading it back.

Grammar (``<card>`` is a card kind such as ``hu_muster``; copies are interchangeable; ``<region>``
a region id; ``<objective>`` one of control, prisoners, attrition; ``<source>`` ``deck`` or a terrain):

    discard <card>                     hand limit in the draw phase
    move <card> | recruit <card> | build <card>     start an action paying a first card
    pay <card>                          pay one more card into the action under way
    go <from> <to>                      one unit, one step (costs one movement point)
    construct <structure> <region>      activate <structure> <region>
    draw <source>   keep <card>         draw two, keep one
    score                               play the Enable Scoring card
    skill <skill> [<region>]            use a skill (free; once a round)
    end | pass                          finish the action under way | spend an action doing nothing
    place <objective>                   put one unit of the battle on an objective
    play <card> [<objective> [<objective>]]   a battle effect; fold   stop playing cards in this battle
    capture <objective> | kill <objective> | retreat <region>
    ransom <faction> | done             buy a prisoner back for 2 VP | stop buying
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from engine.kept import ACTIONS_KEPT


@dataclass(frozen=True)
class Act:
    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.verb, *self.args))


@functools.lru_cache(maxsize=ACTIONS_KEPT)
def act(verb: str, *args: str) -> Act:
    """The action ``verb args``, the same value handed out again (``engine.kept``)."""
    return Act(verb, tuple(args))


VERBS = (
    "discard",
    "move",
    "recruit",
    "build",
    "pay",
    "go",
    "construct",
    "activate",
    "draw",
    "keep",
    "score",
    "skill",
    "end",
    "pass",
    "place",
    "play",
    "fold",
    "capture",
    "kill",
    "retreat",
    "ransom",
    "done",
)
