"""What each player of a game played, read from its stored state by the game's rules.

Results keep it (``results.sides``: player id -> ids the catalog names, such as a War Chest unit or a
Cry Havoc faction) so that a player's record counts wins by them without loading every game.
Results recorded before the column existed get it from their game's state when the stores fill the
missing ones (``Store.fill_sides``: at the first catch-up after a start, and with every recomputation
of the ratings).

The stores know no game: the rules' reading (``engine.contract.Game.sides``) is handed in with
``read_sides_with`` by what runs them (``table.core.ratings.use_engine_sides``: the tables, and
``python -m db``), so the store layer imports nothing of the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from db.values import JSON

Sides = dict[str, tuple[str, ...]]

SidesReader = Callable[[str, Mapping[str, JSON]], Sequence[Sequence[str]]]
"""``(game, state) -> each seat's side``; raises ``ValueError`` (or ``KeyError``, ``TypeError``,
``AttributeError``) for a state it cannot read."""

_reader: SidesReader | None = None


def read_sides_with(reader: SidesReader | None) -> None:
    """Have ``sides_played`` read sides with ``reader`` (None: record them as unknown)."""
    global _reader
    _reader = reader


def sides_played(game: str, state: Mapping[str, JSON] | None, players: Sequence[str]) -> Sides:
    """Each player's side in a game of ``game`` whose engine dump is ``state`` (players in seat
    order); empty when there is no state, no reader or the reader cannot read it, so a broken save is
    recorded as unknown rather than retried at every start."""
    if state is None or _reader is None:
        return {}
    try:
        per_seat = _reader(game, state)
    except (KeyError, TypeError, ValueError, AttributeError):
        return {}
    return {player: tuple(side) for player, side in zip(players, per_seat, strict=False)}
