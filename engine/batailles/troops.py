"""Troops: the six characteristics, the five-point rule, names and preset armies.

A troop's profile is a tuple ``(movement, attack, defence, range, command, logistics)``
whose values add up to exactly ``POINTS``. The mutable parts of a troop (where it
stands, which way it faces, the logistics and command points left this turn) live in
``Troop``; the state owns a list of them and copies it before every change.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TypedDict, cast

from engine.batailles.board import Zone
from engine.errors import BadInput

Profile = tuple[int, int, int, int, int, int]


class TroopJson(TypedDict):
    """A ``Troop`` as saved: its zone as ``[x, y]``, or None off the field."""

    name: str
    seat: int
    profile: list[int]
    zone: list[int] | None
    facing: str
    lost: bool
    logistics_left: int
    command_left: int


STATS = ("movement", "attack", "defence", "range", "command", "logistics")
POINTS = 5
NAME_RE = re.compile(r"^[^\W\d_][\w-]{0,15}$")
"""A troop's name: a letter (of any script, accented or not), then up to 15 letters, digits,
``-`` or ``_``; never ``+`` (which joins a coordination) nor a space. Players type it in lower case."""
PRESET_ARMIES = ("classic", "raiders")
_ARMIES = Path(__file__).parent / "armies"


@cache
def all_profiles() -> tuple[Profile, ...]:
    """Every way to spread five points over six characteristics (252), in a stable order."""
    found: list[Profile] = []
    for combo in itertools.product(range(POINTS + 1), repeat=len(STATS)):
        if sum(combo) == POINTS:
            found.append(cast(Profile, combo))  # six values: repeat=len(STATS)
    return tuple(sorted(found, reverse=True))


def check_profile(values: tuple[int, ...]) -> Profile:
    """The profile itself, or ``BadInput`` explaining the five-point rule with the given sum."""
    if len(values) != len(STATS) or any(v < 0 for v in values):
        raise BadInput("bt.err.profile_shape", input=" ".join(map(str, values)))
    if sum(values) != POINTS:
        raise BadInput(
            "bt.err.profile_sum", input=" ".join(map(str, values)), total=sum(values), points=POINTS
        )
    return cast(Profile, values)  # six values, checked above


def profile_text(profile: Profile) -> str:
    return " ".join(str(v) for v in profile)


def check_name(name: str) -> str:
    if not NAME_RE.match(name) or name != name.lower():
        raise BadInput("bt.err.name", input=name)
    return name


@dataclass
class Troop:
    """One troop on (or off) the battlefield."""

    name: str
    seat: int
    profile: Profile
    zone: Zone | None = None
    facing: str = "n"
    lost: bool = False
    logistics_left: int = 0
    command_left: int = 0

    @property
    def movement(self) -> int:
        return self.profile[0]

    @property
    def attack(self) -> int:
        return self.profile[1]

    @property
    def defence(self) -> int:
        return self.profile[2]

    @property
    def range(self) -> int:
        return self.profile[3]

    @property
    def command(self) -> int:
        return self.profile[4]

    @property
    def logistics(self) -> int:
        return self.profile[5]

    @property
    def only_moves(self) -> bool:
        """Every point in Movement: the troop can only move or turn, nothing else (the rules' words)."""
        return self.movement == POINTS

    @property
    def on_field(self) -> bool:
        return self.zone is not None and not self.lost

    def refresh(self) -> None:
        """Logistics and command points come back at the start of every turn."""
        self.logistics_left = self.logistics
        self.command_left = self.command

    def to_json(self) -> TroopJson:
        return {
            "name": self.name,
            "seat": self.seat,
            "profile": list(self.profile),
            "zone": list(self.zone) if self.zone is not None else None,
            "facing": self.facing,
            "lost": self.lost,
            "logistics_left": self.logistics_left,
            "command_left": self.command_left,
        }

    def copy(self) -> Troop:
        """``from_json(to_json())`` without the dict in between: a state copies every troop per move."""
        zone = self.zone
        return Troop(
            self.name,
            self.seat,
            cast(Profile, tuple(self.profile)),  # a tuple even if a list was set, as from_json makes it
            (zone[0], zone[1]) if zone is not None else None,
            self.facing,
            self.lost,
            self.logistics_left,
            self.command_left,
        )

    @staticmethod
    def from_json(data: TroopJson) -> Troop:
        zone = data["zone"]
        return Troop(
            name=data["name"],
            seat=data["seat"],
            profile=cast(Profile, tuple(data["profile"])),  # six values, as every save wrote them
            zone=(zone[0], zone[1]) if zone is not None else None,
            facing=data["facing"],
            lost=data["lost"],
            logistics_left=data["logistics_left"],
            command_left=data["command_left"],
        )


@cache
def preset_army(name: str) -> tuple[tuple[str, Profile], ...]:
    """A preset army as (name, profile) pairs, checked against the five-point rule."""
    data = json.loads((_ARMIES / f"{name}.json").read_text(encoding="utf-8"))
    return tuple((check_name(t["name"]), check_profile(tuple(t["profile"]))) for t in data["troops"])
