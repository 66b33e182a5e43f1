"""Builders for exact Batailles situations: a battlefield, troops where a test wants them,
and a dice generator state chosen so that the next rolls are the ones the test needs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from engine.batailles import GAME
from engine.batailles.board import parse_label, parse_map
from engine.batailles.state import State
from engine.batailles.troops import Troop
from engine.rng import Rng
from engine.text import Msg
from tests.engine.french_typing import words

A, B = "alice", "bob"
OPEN_MAP = "/".join([" ".join(["."] * 8)] * 9)


def battle(
    troops: list[tuple[str, str, str, str, str]],
    board: str = OPEN_MAP,
    active: str = A,
    rng: int = 1,
    advantage: tuple[int, int] = (0, 0),
) -> State:
    """A play-phase state, round 1, ``active`` to play.

    Troops are (player, name, "M A D R C L", zone label, facing).
    """
    placed: list[Troop] = []
    for player, name, profile, zone, facing in troops:
        t = Troop(
            name, [A, B].index(player), tuple(int(v) for v in profile.split()), parse_label(zone), facing
        )  # type: ignore[arg-type]
        t.refresh()
        placed.append(t)
    seat = [A, B].index(active)
    s = State(
        players=[A, B],
        options={
            "map": "default",
            "armies": "build",
            "hardcore": "off",
            "custom_map": board,
            "max_rounds": "15",
        },
        board=parse_map(board),
        rng=rng,
        phase="play",
        troops=placed,
        hardcore=False,
        max_rounds=15,
    )
    s.round = 1
    s.order = [seat, 1 - seat]
    s.advantage = list(advantage)
    smaller = min(len(s.army(0)), len(s.army(1)))
    s.threshold = (3 * smaller) // 4 + 1
    return s


def play(s: State, player: str, *texts: str) -> tuple[State, list[Msg]]:
    """Parse and apply several actions in a row; returns the last state and all events."""
    events: list[Msg] = []
    for text in texts:
        s, ev = GAME.apply(s, player, GAME.parse_action(s, player, text, words(GAME)))
        events += ev
    return s, events


def dice(seed: int, count: int) -> list[int]:
    rng = Rng(seed)
    return [rng.die() for _ in range(count)]


def seed_for(count: int, wanted: Callable[[list[int]], bool], start: int = 1) -> int:
    """The first generator state from ``start`` whose next ``count`` dice satisfy ``wanted``."""
    for seed in range(start, start + 2_000_000):
        if wanted(dice(seed, count)):
            return seed
    raise AssertionError("no seed found")


def seed_rolling(*faces: int) -> int:
    """A generator state whose next dice are exactly ``faces``."""
    return seed_for(len(faces), lambda got: got == list(faces))


def event(events: list[Msg], key: str) -> Msg:
    found = [e for e in events if e.key == key]
    assert found, f"no {key} in {[e.key for e in events]}"
    return found[-1]


def where(s: State, player: str, name: str) -> str | None:
    from engine.batailles.board import label

    t = s.troop([A, B].index(player), name)
    assert t is not None
    return None if t.lost or t.zone is None else label(t.zone)


def legal_texts(s: State, player: str) -> list[str]:
    return [str(a) for a in GAME.legal_actions(s, player)]


RULES = Path(__file__).resolve().parents[3] / "docs" / "rules" / "batailles.md"


def documented_maps() -> list[str]:
    """Every map example of the rules document's custom battlefield section: the one-line maps
    quoted in backquotes (those holding a ``/``) and the map files in fenced blocks."""
    text = RULES.read_text(encoding="utf-8")
    start = text.index("### Custom battlefields")
    section = text[start : text.index("\n## ", start)]
    files = re.findall(r"```text\n(.*?)```", section, flags=re.DOTALL)
    rest = re.sub(r"```text\n.*?```", "", section, flags=re.DOTALL)
    quoted = re.findall(r"`([^`\n]+)`", rest)
    lines = [m for m in quoted if re.fullmatch(r"[.fbrh0-9, /]+", m) and "/" in m and "." in m]
    return lines + files
