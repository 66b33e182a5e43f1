"""Forced moves: a decision the rules leave only one answer to is no decision.

When the player to act has exactly one legal action (War Chest's "pass" with only the Royal Coin in
hand and the initiative already taken, Batailles' "end" once every troop has acted, Cry Havoc's "keep"
of the last card), asking them for it costs a ping, a reminder and a day of waiting for nothing. The
table plays it for them at once and marks it automatic. A move is forced only when the rules leave
exactly one legal action: a choice between two actions that lead to the same position is still the
player's, since telling them apart would mean comparing positions, and the player may prefer one.

In a phase where several players act at once (Batailles' deployment), each player with exactly one
legal action is played for, in the order the game lists those to act; the others still choose.

``engine.playout.random_steps(auto=True)`` plays the forced moves as a table does, without asking the random
player, and the golden transcripts mark them "(automatic)".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, NamedTuple

from engine.contract import A, Game, S
from engine.text import Msg

MAX_FORCED = 1000
"""The most forced actions played in a row: no game forces this many, so a loop is a bug, not a game."""


class ForcedStep(NamedTuple, Generic[S, A]):
    """One action played for a player whom the rules left no other: who, what, and what it gave, in a
    game over states ``S`` and actions ``A``."""

    player: str
    action: A
    after: S
    events: list[Msg]


def forced_action(game: Game[S, A, object], state: S, player: str) -> A | None:
    """The action the rules leave ``player``, when they leave exactly one; else None."""
    legal = game.legal_actions(state, player)
    return legal[0] if len(legal) == 1 else None


def forced_steps(
    game: Game[S, A, object], state: S, *, plays: Callable[[str], bool] = lambda _player: True
) -> list[ForcedStep[S, A]]:
    """The actions to play for the players to act from ``state`` on, one after the other, while one
    of them (among those ``plays`` says are played for: a computer player plays its own) has exactly
    one legal action; none when nobody's move is forced."""
    steps: list[ForcedStep[S, A]] = []
    while not game.is_over(state):
        found = next(
            (
                (player, action)
                for player in game.to_act(state)
                if plays(player) and (action := forced_action(game, state, player)) is not None
            ),
            None,
        )
        if found is None:
            break
        if len(steps) >= MAX_FORCED:
            raise RuntimeError(f"{game.name}: more than {MAX_FORCED} forced actions in a row")
        player, action = found
        after, events = game.apply(state, player, action)
        steps.append(ForcedStep(player, action, after, list(events)))
        state = after
    return steps


__all__ = ["MAX_FORCED", "ForcedStep", "forced_action", "forced_steps"]
