"""Rebuild a game from its seed, options and action log.

The stored state is a convenience (it spares replaying on every command); the log is the
truth. Replaying checks that the two agree, e.g. after an engine upgrade, and recovers a
game whose stored state was lost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from db import ActionRecord, Store
from engine.contract import Game
from table.errors import NoGame


def replay(
    game: Game,
    players: Sequence[str],
    seed: int,
    options: dict[str, str],
    actions: Iterable[tuple[str, str]],
) -> Any:
    """The state after applying each ``(player, action text)`` in order to a new game."""
    state = game.new_game(list(players), seed, dict(options))
    for player, text in actions:
        state, _events = game.apply(state, player, game.parse_action(state, player, text))
    return state


async def replay_game(store: Store, games: Callable[[str], Game], game_id: int) -> Any:
    """Replay a stored game's whole log; ``NoGame`` if it does not exist or never started."""
    record = await store.get_game(game_id)
    if record is None or record.status == "lobby" or record.state is None:
        raise NoGame()
    game = games(record.game)
    log = await store.actions(game_id)
    return replay(game, record.player_ids, record.seed, record.options, played(log))


def played(log: Iterable[ActionRecord]) -> list[tuple[str, str]]:
    """The moves that make the game: ``(player, action text)``, without undone moves and undo rows."""
    return [(a.player, a.action) for a in log if a.kind == "move" and not a.undone]
