"""Seeded random games over the engine contract, for benches and tests.

A uniformly random player reaches positions no scripted game does, fast, and the same seed always
plays the same game: the benches time and count with it, and the tests draw positions from it. The
generator that picks who acts and what they play is the caller's, apart from the game's own, so a
playout never changes the dice and draws the game makes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Generic, NamedTuple

from engine.contract import A, Game, S
from engine.forced import forced_steps
from engine.rng import Rng
from engine.text import Msg


class Step(NamedTuple, Generic[S, A]):
    """One action of a playout: the position it was played in, by whom, and what it gave, in a game
    over states ``S`` and actions ``A``."""

    before: S
    player: str
    action: A
    after: S
    events: list[Msg]
    auto: bool = False
    """Played for its player, whom the rules left no other action (``engine.forced``)."""


def random_steps(
    game: Game[S, A, object],
    players: Sequence[str],
    seed: int,
    chooser: Rng,
    *,
    options: dict[str, str] | None = None,
    limit: int | None = None,
    narrow: Callable[[list[A]], list[A]] | None = None,
    auto: bool = False,
) -> Iterator[Step[S, A]]:
    """The steps of a new game from ``seed`` until it ends (or ``limit`` actions): each time,
    ``chooser`` picks one of the players to act, then one of their legal actions (among those
    ``narrow`` keeps, when it keeps any). With ``auto``, a forced action is played without asking
    the chooser, as a table plays it (``engine.forced``), and marked so."""
    state = game.new_game(list(players), seed, dict(options or {}))
    count = 0
    while not game.is_over(state) and (limit is None or count < limit):
        if auto:
            forced = forced_steps(game, state)[: None if limit is None else limit - count]
            for step in forced:
                yield Step(state, step.player, step.action, step.after, step.events, auto=True)
                state = step.after
                count += 1
            if forced:
                continue
        acting = game.to_act(state)
        player = acting[chooser.below(len(acting))]
        legal = game.legal_actions(state, player)
        if narrow is not None:
            legal = narrow(legal) or legal
        action = legal[chooser.below(len(legal))]
        after, events = game.apply(state, player, action)
        yield Step(state, player, action, after, events)
        state = after
        count += 1
