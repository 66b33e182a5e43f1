"""Rebuild a game from its seed, options and action log.

The stored state is a convenience (it spares replaying on every command); the log is the
truth. Replaying checks that the two agree, e.g. after an engine upgrade, and recovers a
game whose stored state was lost.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar

from db import ActionRecord, Store
from engine.contract import Game
from table.core.errors import NoGame

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")


def positions(
    game: Game[S, A, V],
    players: Sequence[str],
    seed: int,
    options: dict[str, str],
    actions: Iterable[tuple[str, str]],
) -> Iterator[S]:
    """The state of a new game, then the state after each ``(player, action text)`` in order."""
    state = game.new_game(list(players), seed, dict(options))
    yield state
    for player, text in actions:
        state, _events = game.apply(state, player, game.parse_action(state, player, text))
        yield state


def replay(
    game: Game[S, A, V],
    players: Sequence[str],
    seed: int,
    options: dict[str, str],
    actions: Iterable[tuple[str, str]],
) -> S:
    """The state after applying each ``(player, action text)`` in order to a new game."""
    return collections.deque(positions(game, players, seed, options, actions), maxlen=1)[0]


async def replay_game(store: Store, games: Callable[[str], Game], game_id: int) -> object:
    """Replay a stored game's whole log; ``NoGame`` if it does not exist or never started."""
    record = await store.get_game(game_id)
    if record is None or record.status == "lobby" or record.state is None:
        raise NoGame()
    game = games(record.game)
    log = await store.actions(game_id)
    return replay(game, record.player_ids, record.seed, record.options, played(log))


def handovers(
    game: Game[S, A, V],
    players: Sequence[str],
    seed: int,
    options: dict[str, str],
    actions: Iterable[tuple[str, str]],
) -> list[V]:
    """The public views a replay shows: the start, then the position at each handover (when the
    players to act change) and at the end; what the channel's posts showed, move after move."""
    frames: list[V] = []
    waiting: set[str] | None = None
    for state in positions(game, players, seed, options, actions):
        if waiting is None or set(game.to_act(state)) != waiting or game.is_over(state):
            frames.append(game.view(state, None))
            waiting = set(game.to_act(state))
    return frames


def played(log: Iterable[ActionRecord]) -> list[tuple[str, str]]:
    """The moves that make the game: ``(player, action text)``, without undone moves and undo rows."""
    return [(a.player, a.action) for a in log if a.kind == "move" and not a.undone]
