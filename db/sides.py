"""What each player of a game played, read from its stored state by the engine's ``sides``.

Results keep it (``results.sides``: player id -> ids the catalog names, War Chest units, a Batailles
army, a Cry Havoc faction) so that a player's record counts wins by them without loading every game.
Results recorded before the column existed get it from their game's state when the stores fill the
missing ones (``Store.fill_sides``: at the first catch-up after a start, and with every recomputation
of the ratings).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import GameError

Sides = dict[str, tuple[str, ...]]


def sides_played(game: str, state: Mapping[str, Any] | None, players: Sequence[str]) -> Sides:
    """Each player's side in a game of ``game`` whose engine dump is ``state`` (players in seat
    order); empty when there is no state or the engine cannot read it, so a broken save is recorded
    as unknown rather than retried at every start."""
    if state is None:
        return {}
    import engine  # the rules are loaded by the processes that fill sides, not by every store user

    try:
        rules = engine.get_game(game)
        per_seat = rules.sides(rules.load(dict(state)))
    except (GameError, KeyError, TypeError, ValueError, AttributeError):
        return {}
    return {player: tuple(side) for player, side in zip(players, per_seat, strict=False)}
