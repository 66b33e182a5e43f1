"""Hand-built War Chest views following engine/warchest/view.py, for the renderer's tests and bench."""

from __future__ import annotations

import copy
from typing import Any

from engine.text import encode_msg
from engine.warchest.labels import last_description
from engine.warchest.view import outcome

NAMES = {"111": "Alice", "222": "Bérénice", "333": "Chloé", "444": "Dmitri"}

TWO_PLAYER_HEXES = [[x, y] for y in range(7) for x in range(7) if 3 <= x + y <= 9]
FOUR_PLAYER_HEXES = [[x, y] for y in range(7) for x in range(7) if (x, y) not in ((0, 0), (6, 6))]

_LOCATIONS_2P = [(4, 0), (6, 1), (0, 5), (2, 6), (2, 1), (3, 2), (5, 3), (1, 3), (3, 4), (4, 5)]
_LOCATIONS_4P = [*_LOCATIONS_2P, (1, 0), (0, 2), (5, 6), (6, 4)]


def label(x: int, y: int) -> str:
    return "abcdefg"[x] + str(y + 1)


def _locations(hexes: list[tuple[int, int]], control: dict[tuple[int, int], int]) -> list[dict[str, Any]]:
    return [{"hex": [x, y], "label": label(x, y), "team": control.get((x, y))} for x, y in hexes]


Struck = tuple[tuple[int, int], int, str, bool]


def _marks(seat: int, text: str, hexes: list[list[int]], struck: tuple[Struck, ...] = ()) -> dict[str, Any]:
    """One action of the view's ``since`` as the engine writes it: the public text, its hexes, a
    move's path and the units it struck."""
    path = hexes if text.split()[:1] == ["move"] and len(hexes) == 2 else None
    hit = [
        {"hex": list(h), "label": label(*h), "seat": s, "type": kind, "removed": gone}
        for h, s, kind, gone in struck
    ]
    return {"seat": seat, "text": text, "hexes": hexes, "path": path, "struck": hit}


def _last(seat: int, text: str, hexes: list[list[int]], struck: tuple[Struck, ...] = ()) -> dict[str, Any]:
    """The view's ``last`` as the engine writes it: its marks, its description and what it did."""
    told = {"label": encode_msg(last_description(text)), "outcome": [encode_msg(o) for o in outcome(struck)]}
    return {**_marks(seat, text, hexes, struck), **told}


def _unit(x: int, y: int, seat: int, team: int, kind: str, height: int) -> dict[str, Any]:
    return {"hex": [x, y], "label": label(x, y), "seat": seat, "team": team, "type": kind, "height": height}


ATTACKED: tuple[Struck, ...] = (((3, 3), 1, "cavalry", False),)
"""Bérénice's Cavalry on d4, which lost a coin to Alice's Swordsman."""


def mid_game() -> dict[str, Any]:
    """Round 3, Bérénice to play right after Alice's Swordsman attacked her Cavalry."""
    control = {(4, 0): 0, (6, 1): 0, (3, 2): 0, (0, 5): 1, (2, 6): 1, (1, 3): 1}
    return {
        "game": "warchest",
        "viewer": "222",
        "board": {"hexes": TWO_PLAYER_HEXES, "locations": _locations(_LOCATIONS_2P, control)},
        "units": [
            _unit(3, 2, 0, 0, "swordsman", 2),
            _unit(4, 1, 0, 0, "pikeman", 1),
            _unit(2, 3, 0, 0, "light_cavalry", 1),
            _unit(1, 4, 1, 1, "archer", 2),
            _unit(3, 3, 1, 1, "cavalry", 3),
            _unit(2, 4, 1, 1, "scout", 1),
        ],
        "seats": [
            {
                "id": "111",
                "team": 0,
                "units": ["swordsman", "pikeman", "crossbowman", "light_cavalry"],
                "supply": {"swordsman": 1, "pikeman": 1, "crossbowman": 3, "light_cavalry": 2},
                "discard_up": {"swordsman": 1, "pikeman": 0, "light_cavalry": 1, "royal": 0},
                "discard_down": 2,
                "bag": 2,
                "hand": 1,
                "eliminated": {"pikeman": 1},
                "markers_left": 3,
            },
            {
                "id": "222",
                "team": 1,
                "units": ["archer", "cavalry", "lancer", "scout"],
                "supply": {"archer": 1, "cavalry": 0, "lancer": 2, "scout": 3},
                "discard_up": {"cavalry": 1, "royal": 0},
                "discard_down": 1,
                "bag": 4,
                "hand": 2,
                "eliminated": {"scout": 1},
                "markers_left": 3,
            },
        ],
        "round": 3,
        "initiative": 0,
        "to_act": [1],
        "pending": None,
        "phase": "play",
        "draft": None,
        "last": _last(0, "attack swordsman d3 d4", [[3, 2], [3, 3]], ATTACKED),
        "since": [_marks(0, "attack swordsman d3 d4", [[3, 2], [3, 3]], ATTACKED)],
        "result": None,
        "private": {"seat": 1, "hand": ["archer", "royal"], "bag": {"archer": 1, "lancer": 2, "scout": 1}},
    }


def with_private(view: dict[str, Any], private: dict[str, Any] | None, viewer: str | None) -> dict[str, Any]:
    """The same position seen by another viewer: only ``viewer`` and ``private`` change."""
    other = copy.deepcopy(view)
    other["private"] = private
    other["viewer"] = viewer
    return other


def pending_follow_up() -> dict[str, Any]:
    """Alice's Swordsman just attacked and may still take its free move."""
    view = mid_game()
    view["to_act"] = [0]
    view["pending"] = {"seat": 0, "kind": "swordsman"}
    view["private"] = None
    view["viewer"] = None
    return view


def game_over() -> dict[str, Any]:
    """Alice placed her last control marker."""
    view = mid_game()
    view["phase"] = "over"
    view["to_act"] = []
    view["seats"][0]["markers_left"] = 0
    for loc in view["board"]["locations"]:
        if loc["label"] in ("c2", "f4", "d5"):
            loc["team"] = 0
    view["units"][2] = _unit(3, 4, 0, 0, "light_cavalry", 1)
    view["last"] = _last(0, "control light_cavalry d5", [[3, 4]])
    view["since"] = [_marks(0, "control light_cavalry d5", [[3, 4]])]
    view["result"] = {
        "winners": ["111"],
        "draw": False,
        "scores": {},
        "reason": {"key": "test.reason.not_in_catalog", "params": {"player": "@111"}},
    }
    view["private"] = None
    return view


def draft() -> dict[str, Any]:
    """Advanced set-up: Bérénice picks her second card; the board is still empty."""
    view = mid_game()
    control = {(4, 0): 0, (6, 1): 0, (0, 5): 1, (2, 6): 1}
    view["board"]["locations"] = _locations(_LOCATIONS_2P, control)
    view["units"] = []
    view["phase"] = "draft"
    view["round"] = 0
    view["last"] = None
    view["since"] = []
    view["draft"] = {
        "pool": ["knight", "berserker", "ensign", "marshall", "warrior_priest"],
        "picks": {"0": ["royal_guard"], "1": ["mercenary", "footman"]},
    }
    for seat in view["seats"]:
        seat.update(
            units=[], supply={}, discard_up={}, discard_down=0, bag=0, hand=0, eliminated={}, markers_left=4
        )
    view["private"] = None
    return view


def four_players() -> dict[str, Any]:
    """A four-player game on the 47-hex board, teams alternating around the table."""
    control = {(4, 0): 0, (6, 1): 0, (6, 4): 0, (0, 5): 1, (2, 6): 1, (0, 2): 1, (3, 2): 1}
    seats = []
    cards = [
        ["knight", "footman", "ensign"],
        ["berserker", "marshall", "mercenary"],
        ["royal_guard", "warrior_priest", "scout"],
        ["archer", "lancer", "pikeman"],
    ]
    for i, (pid, units) in enumerate(zip(["111", "222", "333", "444"], cards, strict=True)):
        seats.append(
            {
                "id": pid,
                "team": i % 2,
                "units": units,
                "supply": {u: 2 for u in units},
                "discard_up": {units[0]: 1},
                "discard_down": i,
                "bag": 5 - i,
                "hand": 3 if i > 1 else 2,
                "eliminated": {},
                "markers_left": 5 if i % 2 == 0 else 4,
            }
        )
    return {
        "game": "warchest",
        "viewer": None,
        "board": {"hexes": FOUR_PLAYER_HEXES, "locations": _locations(_LOCATIONS_4P, control)},
        "units": [
            _unit(4, 1, 0, 0, "knight", 2),
            _unit(5, 2, 0, 0, "footman", 1),
            _unit(2, 2, 0, 0, "footman", 2),
            _unit(3, 2, 1, 1, "berserker", 3),
            _unit(5, 4, 2, 0, "scout", 1),
            _unit(1, 4, 3, 1, "archer", 1),
            _unit(0, 3, 3, 1, "pikeman", 2),
        ],
        "seats": seats,
        "round": 5,
        "initiative": 2,
        "to_act": [3],
        "pending": None,
        "phase": "play",
        "draft": None,
        "last": _last(2, "move scout f4 f5", [[5, 3], [5, 4]]),
        "since": [_marks(2, "move scout f4 f5", [[5, 3], [5, 4]])],
        "result": None,
        "private": None,
    }
