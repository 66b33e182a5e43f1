"""A tiny two-player game implementing the engine contract, for table-layer tests.

Players take 1..max stones from a heap in turn; whoever takes the last stone wins. A
seeded generator picks the first player and deals each player a secret "hand" of colours
after every move, so replay and hidden-information tests have something to check.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.contract import OptionSpec, Result
from engine.errors import BadInput, GameOver, IllegalAction, NotYourTurn
from engine.lexicon import PLAIN, Lexicon
from engine.rng import Rng
from engine.text import Msg, PlayerRef, msg

COLOURS = ("red", "green", "blue")


@dataclass(frozen=True)
class Take:
    n: int

    def __str__(self) -> str:
        return f"take {self.n}"


class Nim:
    name = "nim"
    player_counts = (2,)
    option_specs = (
        OptionSpec("heap", choices=("7", "10", "40"), default="10"),
        OptionSpec("max", choices=("2", "3", "30"), default="3"),
    )

    def new_game(self, players: Sequence[str], seed: int, options: dict[str, str] | None = None) -> Any:
        opts = {s.name: s.default for s in self.option_specs} | dict(options or {})
        rng = Rng(seed)
        state = {
            "players": list(players),
            "heap": int(opts["heap"]),
            "max": int(opts["max"]),
            "turn": rng.below(len(players)),
            "hands": [[], []],
            "rng": 0,
            "winner": None,
        }
        state["hands"] = [[rng.choice(COLOURS) for _ in range(2)] for _ in players]
        state["rng"] = rng.state
        return state

    def to_act(self, state: Any) -> list[str]:
        return [] if state["winner"] is not None else [state["players"][state["turn"]]]

    def legal_actions(self, state: Any, player: str) -> list[Any]:
        if player not in self.to_act(state):
            return []
        return [Take(n) for n in range(1, min(state["max"], state["heap"]) + 1)]

    def parse_action(self, state: Any, player: str, text: str, lexicon: Lexicon = PLAIN) -> Any:
        words = text.lower().split()
        if len(words) != 2 or words[0] != "take" or not words[1].isdigit():
            raise BadInput(input=text)
        return Take(int(words[1]))

    def apply(self, state: Any, player: str, action: Any) -> tuple[Any, list[Msg]]:
        if state["winner"] is not None:
            raise GameOver()
        if player not in self.to_act(state):
            raise NotYourTurn(waiting=[PlayerRef(p) for p in self.to_act(state)])
        if action not in self.legal_actions(state, player):
            raise IllegalAction("nim.illegal", n=action.n, max=min(state["max"], state["heap"]))
        new = copy.deepcopy(state)
        new["heap"] -= action.n
        rng = Rng(new["rng"])
        new["hands"][new["turn"]] = [rng.choice(COLOURS) for _ in range(2)]
        new["rng"] = rng.state
        events = [msg("nim.took", player=PlayerRef(player), n=action.n, left=new["heap"])]
        if new["heap"] == 0:
            new["winner"] = player
            events.append(msg("nim.won", player=PlayerRef(player)))
        else:
            new["turn"] = 1 - new["turn"]
        return new, events

    def label(self, state: Any, action: Any) -> Msg:
        return msg("nim.label", n=action.n)

    def is_over(self, state: Any) -> bool:
        return state["winner"] is not None

    def result(self, state: Any) -> Result | None:
        if state["winner"] is None:
            return None
        return Result(winners=(state["winner"],), reason=msg("nim.reason", player=PlayerRef(state["winner"])))

    def view(self, state: Any, player: str | None) -> dict[str, Any]:
        seat = state["players"].index(player) if player in state["players"] else None
        return {
            "game": "nim",
            "heap": state["heap"],
            "to_act": self.to_act(state),
            "private": None if seat is None else {"seat": seat, "hand": list(state["hands"][seat])},
        }

    def dump(self, state: Any) -> dict[str, Any]:
        return dict(copy.deepcopy(state))

    def can_undo(self, before: Any, steps: Any, player: str) -> Any | None:
        return None  # nothing is drawn or shown after the deal

    def default_action(self, state: Any, player: str) -> Any | None:
        return None  # every Nim move takes stones: nothing neutral to play for an absent player

    def load(self, data: dict[str, Any]) -> Any:
        missing = {"players", "heap", "max", "turn", "hands", "rng", "winner"} - set(data)
        if missing:
            raise ValueError(f"not a Nim state: {sorted(missing)} missing")
        return copy.deepcopy(data)


NIM = Nim()


def lookup(name: str) -> Any:
    """Game lookup for Tables: Nim here, anything else from the engine registry."""
    if name == "nim":
        return NIM
    import engine

    return engine.get_game(name)


GAME: Any = NIM
"""What ``engine.get_game`` returns once Nim is registered (``tests.games.nim``)."""
