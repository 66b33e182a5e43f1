"""Action values. Every Cry Havoc decision is a small frozen dataclass with named fields, ``str()``
being the text a player types and ``parse`` reading it back (``parse(str(a)) == a``).

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

Each class names its verb (``verb``, a class constant of its own literal type): hints group the
legal actions by it, and the rules that run at every step of a search tell the actions apart by it,
the type check narrowing the action to its class as ``isinstance`` would, at a third of the cost.
The rules build their actions through ``kept`` constructors, and ``act`` builds one from its verb
and words: the search lists the same few hundred actions millions of times, and a value handed out
again costs a cache look-up where a new one costs its construction.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar, Literal

from engine.errors import BadInput
from engine.kept import ACTIONS_KEPT, kept


@dataclass(frozen=True, slots=True)
class _Card:
    """An action whose one word is a card kind of the hand."""

    card: str
    verb: ClassVar[str] = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.card}"


class Discard(_Card):
    """Down to the hand limit in the draw phase."""

    __slots__ = ()
    verb: ClassVar[Literal["discard"]] = "discard"


class Move(_Card):
    """Start a move, paying the card's movement points."""

    __slots__ = ()
    verb: ClassVar[Literal["move"]] = "move"


class Recruit(_Card):
    """Start a recruitment, paying the card's recruit points."""

    __slots__ = ()
    verb: ClassVar[Literal["recruit"]] = "recruit"


class Build(_Card):
    """Start building, paying the card's build points."""

    __slots__ = ()
    verb: ClassVar[Literal["build"]] = "build"


class Pay(_Card):
    """One more card into the action under way."""

    __slots__ = ()
    verb: ClassVar[Literal["pay"]] = "pay"


class Keep(_Card):
    """The card kept of the two drawn."""

    __slots__ = ()
    verb: ClassVar[Literal["keep"]] = "keep"


@dataclass(frozen=True, slots=True)
class Go:
    """One unit's step from ``origin`` to ``to``, for one movement point."""

    origin: str
    to: str
    verb: ClassVar[Literal["go"]] = "go"

    def __str__(self) -> str:
        return f"go {self.origin} {self.to}"


@dataclass(frozen=True, slots=True)
class _Structure:
    """An action on a structure of the seat's faction in a region."""

    structure: str
    region: str
    verb: ClassVar[str] = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.structure} {self.region}"


class Construct(_Structure):
    """Build a structure in a region the seat controls."""

    __slots__ = ()
    verb: ClassVar[Literal["construct"]] = "construct"


class Activate(_Structure):
    """Use a structure of the seat's for its effect."""

    __slots__ = ()
    verb: ClassVar[Literal["activate"]] = "activate"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw two cards from ``source`` (``deck``, or a terrain's deck) to keep one."""

    source: str
    verb: ClassVar[Literal["draw"]] = "draw"

    def __str__(self) -> str:
        return f"draw {self.source}"


@dataclass(frozen=True, slots=True)
class UseSkill:
    """Use a skill, on a region when the skill takes one."""

    skill: str
    region: str | None = None
    verb: ClassVar[Literal["skill"]] = "skill"

    def __str__(self) -> str:
        return f"skill {self.skill}" if self.region is None else f"skill {self.skill} {self.region}"


@dataclass(frozen=True, slots=True)
class Play:
    """A battle card, with the objectives its effect names (none, one, or from and to for a shift)."""

    card: str
    objectives: tuple[str, ...] = ()
    verb: ClassVar[Literal["play"]] = "play"

    def __str__(self) -> str:
        return " ".join(("play", self.card, *self.objectives))


@dataclass(frozen=True, slots=True)
class _Objective:
    """A battle decision about one objective."""

    objective: str
    verb: ClassVar[str] = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.objective}"


class Place(_Objective):
    """One unit of the battle onto an objective."""

    __slots__ = ()
    verb: ClassVar[Literal["place"]] = "place"


class Capture(_Objective):
    """Take a prisoner from an objective."""

    __slots__ = ()
    verb: ClassVar[Literal["capture"]] = "capture"


class Kill(_Objective):
    """Kill a unit on an objective."""

    __slots__ = ()
    verb: ClassVar[Literal["kill"]] = "kill"


@dataclass(frozen=True, slots=True)
class Retreat:
    """Where the loser of Region Control withdraws."""

    region: str
    verb: ClassVar[Literal["retreat"]] = "retreat"

    def __str__(self) -> str:
        return f"retreat {self.region}"


@dataclass(frozen=True, slots=True)
class Ransom:
    """Buy back a prisoner held by ``faction`` (``trogs`` for the neutral Trogs)."""

    faction: str
    verb: ClassVar[Literal["ransom"]] = "ransom"

    def __str__(self) -> str:
        return f"ransom {self.faction}"


@dataclass(frozen=True, slots=True)
class _Word:
    """An action of its verb alone."""

    verb: ClassVar[str] = ""

    def __str__(self) -> str:
        return self.verb


class Score(_Word):
    """Play the Enable Scoring card."""

    __slots__ = ()
    verb: ClassVar[Literal["score"]] = "score"


class End(_Word):
    """Finish the action under way."""

    __slots__ = ()
    verb: ClassVar[Literal["end"]] = "end"


class Pass(_Word):
    """Spend an action doing nothing."""

    __slots__ = ()
    verb: ClassVar[Literal["pass"]] = "pass"


class Fold(_Word):
    """Stop playing cards in this battle."""

    __slots__ = ()
    verb: ClassVar[Literal["fold"]] = "fold"


class Done(_Word):
    """Stop buying prisoners back."""

    __slots__ = ()
    verb: ClassVar[Literal["done"]] = "done"


Action = (
    Discard
    | Move
    | Recruit
    | Build
    | Pay
    | Go
    | Construct
    | Activate
    | Draw
    | Keep
    | Score
    | UseSkill
    | End
    | Pass
    | Place
    | Play
    | Fold
    | Capture
    | Kill
    | Retreat
    | Ransom
    | Done
)
"""Every Cry Havoc action."""

CardAction = Discard | Move | Recruit | Build | Pay | Keep
"""The actions whose one word is a card of the hand."""

discard = kept(Discard)
move = kept(Move)
recruit = kept(Recruit)
build = kept(Build)
pay = kept(Pay)
keep = kept(Keep)
go = kept(Go)
construct = kept(Construct)
activate = kept(Activate)
draw = kept(Draw)
use_skill = kept(UseSkill)
play = kept(Play)
place = kept(Place)
capture = kept(Capture)
kill = kept(Kill)
retreat = kept(Retreat)
ransom = kept(Ransom)
SCORE, END, PASS, FOLD, DONE = Score(), End(), Pass(), Fold(), Done()
"""The actions without a word: one value each."""

_ONE_WORD = {cls.verb: cls for cls in (Discard, Move, Recruit, Build, Pay, Keep, Draw, Retreat, Ransom)}
_OBJECTIVE = {cls.verb: cls for cls in (Place, Capture, Kill)}
_TWO_WORDS = {cls.verb: cls for cls in (Go, Construct, Activate)}
_NO_WORD: dict[str, Action] = {a.verb: a for a in (SCORE, END, PASS, FOLD, DONE)}


def card_of(action: object) -> str | None:
    """The card of the hand an action spends or keeps (``None`` for the others)."""
    return action.card if isinstance(action, (_Card, Play)) else None


def _build(verb: str, args: tuple[str, ...]) -> Action | None:
    """The action of ``verb`` with the words ``args``, or ``None`` when they do not fit it."""
    n = len(args)
    if verb in _NO_WORD:
        return _NO_WORD[verb] if n == 0 else None
    if verb in _ONE_WORD:
        return _ONE_WORD[verb](args[0]) if n == 1 else None
    if verb in _OBJECTIVE:
        return _OBJECTIVE[verb](args[0]) if n == 1 else None
    if verb in _TWO_WORDS:
        return _TWO_WORDS[verb](args[0], args[1]) if n == 2 else None
    if verb == "skill":
        return UseSkill(args[0], args[1] if n == 2 else None) if n in (1, 2) else None
    if verb == "play":
        return Play(args[0], args[1:]) if n in (1, 2, 3) else None
    return None


@functools.lru_cache(maxsize=ACTIONS_KEPT)
def act(verb: str, *args: str) -> Action:
    """The action ``verb args``, the same value handed out again (``engine.kept``)."""
    built = _build(verb, args)
    if built is None:
        raise BadInput("ch.error.bad_input", input=" ".join((verb, *args)), examples="—")
    return built


def parse(text: str) -> Action:
    """The action whose ``str()`` is ``text`` (the English words, as the action log stores them)."""
    words = text.split()
    if not words:
        raise BadInput("ch.error.bad_input", input=text, examples="—")
    return act(*words)


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
