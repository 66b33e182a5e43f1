"""How often a player could take back the action they just played, under the old undo rule and the new.

Random playouts of every game and table size (Batailles players attack whenever they can, though
random movement seldom brings troops within range). Two settings:

- **people**: every seat a person; after each action, may its player take it back?
- **bots**: seat 0 a person, every other seat a computer player (playing at random here: the rule
  depends on what they do, not on how well); after each of the person's actions, once the bots have
  replied and it is the person's turn again (or at once, when the person acts again), may the person
  take it back?

The **new** rule is the games' ``can_undo`` (``engine.undo``): one action (with the bots' replies
since, against bots only), refused for a die, a random draw, or something hidden shown to the
asker. The **old** rule, kept here for the comparison, took back all of the player's own actions
since anyone else's last one, and refused when any of them showed a card or coin of a hand (War
Chest: any coin played face up; Cry Havoc: any action paying, playing, drawing or keeping a card)
or when the generator had moved; against bots, an action the bots had answered could not be taken
back, and the bots never consented to a request, so nothing could.

Usage: python -m bench.undoable [games per table] [name ...]
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import engine
from engine import playout
from engine.rng import Rng

OLD_SHOWING = {
    "warchest": frozenset({"deploy", "bolster", "move", "control", "attack", "tactic"}),
    "cryhavoc": frozenset({"discard", "move", "recruit", "build", "pay", "play", "draw", "keep", "score"}),
    "batailles": frozenset(),
}
"""The verbs the old rule treated as showing something hidden, per game."""
MAX_STEPS = 3000
PREFER = {"batailles": "attack"}
"""Uniformly random Batailles players seldom attack: there, players attack whenever they can, the
bots too. Their troops still seldom come within range, so Batailles' figures are upper bounds."""


def old_allows(name: str, game: Any, before: Any, actions: Sequence[Any], player: str) -> bool:
    """The old rule: the player's run of actions since anyone else's last one, none of them showing
    a hand's card or coin, and the generator where it was."""
    state = before
    for action in actions:
        if str(action).split()[0] in OLD_SHOWING[name]:
            return False
        state, _events = game.apply(state, player, action)
    return bool(game.dump(state)["rng"] == game.dump(before)["rng"])


@dataclass
class Count:
    actions: int = 0
    old: int = 0
    new: int = 0

    def add(self, old: bool, new: bool) -> None:
        self.actions += 1
        self.old += old
        self.new += new

    def row(self, name: str, players: int, setting: str) -> str:
        def share(n: int) -> str:
            return f"{100 * n / max(1, self.actions):.1f} %"

        return f"| {name} | {players} | {setting} | {self.actions} | {share(self.old)} | {share(self.new)} |"


def random_steps(
    name: str, ids: list[str], seed: int, salt: int = 0x0DD0, prefer: str | None = None
) -> Iterator[tuple[Any, ...]]:
    """Every step of a seeded random game: ``(position, player, action, position after)``; with
    ``prefer``, a player plays an action starting with that word whenever they have one."""
    narrow = (lambda legal: [a for a in legal if str(a).startswith(prefer)]) if prefer else None
    chooser = Rng(seed ^ salt)
    for step in playout.random_steps(
        engine.get_game(name), ids, seed, chooser, limit=MAX_STEPS, narrow=narrow
    ):
        yield step.before, step.player, step.action, step.after


def people(name: str, players: int, seed: int, count: Count) -> None:
    """Every seat a person: each action, asked about right after it was played."""
    game = engine.get_game(name)
    run: list[Any] = []
    run_player, run_start = None, None
    ids = [f"p{i}" for i in range(players)]
    for state, player, action, _after in random_steps(name, ids, seed, prefer=PREFER.get(name)):
        if player != run_player:
            run, run_player, run_start = [], player, state
        run.append(action)
        new = game.can_undo(state, [(player, action)], player) is None
        count.add(old_allows(name, game, run_start, run, player), new)


def against_bots(name: str, players: int, seed: int, count: Count) -> None:
    """Seat 0 a person, the others bots: each of the person's actions, asked about when the person
    is to act again (after the bots' replies)."""
    game = engine.get_game(name)
    ids = ["person", *(f"bot{i}" for i in range(1, players))]
    state = game.new_game(ids, seed, {})
    chooser = Rng(seed ^ 0xB075)
    asked: tuple[Any, list[tuple[str, Any]]] | None = None  # the position before, and the span since
    for _ in range(MAX_STEPS):
        if game.is_over(state):
            break
        acting = game.to_act(state)
        player = "person" if "person" in acting else acting[chooser.below(len(acting))]
        if player == "person" and asked is not None:
            before, span = asked
            count.add(False, game.can_undo(before, span, "person") is None)  # old: bots never consented
            asked = None
        legal = game.legal_actions(state, player)
        legal = [a for a in legal if str(a).startswith(PREFER.get(name, "-"))] or legal
        action = legal[chooser.below(len(legal))]
        after, _events = game.apply(state, player, action)
        if player == "person":
            asked = (state, [(player, action)])
        elif asked is not None:
            asked[1].append((player, action))
        state = after


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 20
    names = argv[1:] or list(engine.GAMES)
    print("| game | players | setting | actions asked about | old rule | new rule |")
    print("|---|---|---|---|---|---|")
    for name in names:
        for players in engine.get_game(name).player_counts:
            for setting, play in (("people", people), ("bots", against_bots)):
                count = Count()
                for seed in range(games):
                    play(name, players, seed, count)
                print(count.row(name, players, setting), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
