"""Action values: small frozen dataclasses whose ``str()`` is the text a player types.

Grammar (hexes are labels such as ``e1``; ``<coin>`` is a unit id or ``royal``):

    deploy <unit> <hex>                 bolster <unit> <hex>
    move <unit> <from> <to>             control <unit> <hex>
    attack <unit> <from> <target>       tactic <unit> [<from>] <hex>...
    initiative <coin>                   recruit <unit> <coin>          pass <coin>
    guard supply | guard stack          skip                           pick <unit>

Follow-up manoeuvres (Berserker, Swordsman, Footman, Mercenary) use the same ``move``/``attack``/
``control`` texts: the pending follow-up says which coin pays for them.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.warchest.board import Hex, label


@dataclass(frozen=True)
class Deploy:
    unit: str
    hex: Hex
    verb = "deploy"

    def __str__(self) -> str:
        return f"deploy {self.unit} {label(self.hex)}"


@dataclass(frozen=True)
class Bolster:
    unit: str
    hex: Hex
    verb = "bolster"

    def __str__(self) -> str:
        return f"bolster {self.unit} {label(self.hex)}"


@dataclass(frozen=True)
class Move:
    unit: str
    src: Hex
    dst: Hex
    verb = "move"

    def __str__(self) -> str:
        return f"move {self.unit} {label(self.src)} {label(self.dst)}"


@dataclass(frozen=True)
class Control:
    unit: str
    hex: Hex
    verb = "control"

    def __str__(self) -> str:
        return f"control {self.unit} {label(self.hex)}"


@dataclass(frozen=True)
class Attack:
    unit: str
    src: Hex
    target: Hex
    verb = "attack"

    def __str__(self) -> str:
        return f"attack {self.unit} {label(self.src)} {label(self.target)}"


@dataclass(frozen=True)
class Tactic:
    """A unit's tactic. ``src`` is ``None`` for the Footman (the tactic drives both Footmen)."""

    unit: str
    src: Hex | None
    args: tuple[Hex, ...] = ()
    verb = "tactic"

    def __str__(self) -> str:
        parts = ["tactic", self.unit]
        if self.src is not None:
            parts.append(label(self.src))
        parts.extend(label(h) for h in self.args)
        return " ".join(parts)


@dataclass(frozen=True)
class Initiative:
    coin: str
    verb = "initiative"

    def __str__(self) -> str:
        return f"initiative {self.coin}"


@dataclass(frozen=True)
class Recruit:
    unit: str
    coin: str
    verb = "recruit"

    def __str__(self) -> str:
        return f"recruit {self.unit} {self.coin}"


@dataclass(frozen=True)
class Pass:
    coin: str
    verb = "pass"

    def __str__(self) -> str:
        return f"pass {self.coin}"


@dataclass(frozen=True)
class GuardChoice:
    """The Royal Guard's owner chooses where the lost coin comes from: ``supply`` or ``stack``."""

    source: str
    verb = "guard"

    def __str__(self) -> str:
        return f"guard {self.source}"


@dataclass(frozen=True)
class Skip:
    """Decline an optional follow-up (a free move, a Berserker repeat...)."""

    verb = "skip"

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True)
class Pick:
    """A draft pick."""

    unit: str
    verb = "pick"

    def __str__(self) -> str:
        return f"pick {self.unit}"


Action = (
    Deploy
    | Bolster
    | Move
    | Control
    | Attack
    | Tactic
    | Initiative
    | Recruit
    | Pass
    | GuardChoice
    | Skip
    | Pick
)
MANOEUVRES = (Move, Control, Attack, Tactic)
FACE_DOWN = (Initiative, Recruit, Pass)


def coin_of(action: Action) -> str | None:
    """The coin a main action spends from the hand (``None`` for follow-up-only actions)."""
    if isinstance(action, (Initiative, Pass, Recruit)):
        return action.coin
    if isinstance(action, Tactic) and action.unit == "royal_guard":
        return "royal"
    if isinstance(action, (Deploy, Bolster, Move, Control, Attack, Tactic)):
        return action.unit
    return None


def hexes_of(action: Action) -> tuple[Hex, ...]:
    """Every hex the action names, for highlighting the last move on the board."""
    if isinstance(action, (Deploy, Bolster, Control)):
        return (action.hex,)
    if isinstance(action, Move):
        return (action.src, action.dst)
    if isinstance(action, Attack):
        return (action.src, action.target)
    if isinstance(action, Tactic):
        return ((action.src,) if action.src is not None else ()) + action.args
    return ()
