"""The text board: the whole position as lines a screen reader follows, from the public view.

It opens with the board's alt text (game, round, whose turn or the result, the last action, each
seat's counts), then goes through the position the way each game is read: War Chest by hex and unit
and the locations' control, Batailles by zone and troop with facing and characteristics, Cry Havoc by
region with units, control, crystals, structures and tokens. Only the public view is read here; a
player's own hidden part is added by ``render.describe("private", ...)`` for that player alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from render.alt import Glance, board_words, sentence
from render.catalog import player_name


def seat_name(view: Mapping[str, object], names: Mapping[str, str], seat: object) -> str:
    """The name of the player at ``seat`` (an index, or its text), "?" for no seat of the view."""
    seats = view.get("seats") or []
    if isinstance(seat, str) and seat.isdigit():
        seat = int(seat)
    if isinstance(seats, Sequence) and isinstance(seat, int) and 0 <= seat < len(seats):
        found = seats[seat]
        player = found.get("id") if isinstance(found, Mapping) else None
        return player_name(names, None if player is None else str(player))
    return "?"


def text_board(glance: Glance, game_lines: list[str], locale: str) -> str:
    """The position in lines: the board's alt text first, then the game's own walk through it."""
    lines = [board_words(glance, locale, limit=None)]
    lines += [sentence(line) if not line.endswith(":") else line for line in game_lines]
    return "\n".join(lines)
