"""What the board shows of the moves since the last handover, and what each of them did.

A phone shows the picture before the post's text, so the board marks every move made since the
players to act last changed (the stretch the handover post's summary lists): the hexes each move
touched, its path, and the coins it struck. The state keeps those moves (``State.trail``: the ones
that touched the board, the latest last) and whether the last action handed the turn over
(``State.handed``): the first action after a handover starts a new stretch.

Every game does the same, and every view carries those moves as ``since`` (War Chest: hexes, paths, struck
units; Batailles: zones, paths, removed troops; Cry Havoc: regions, paths). The board outlines them all, draws
every path and marks each removed piece (a crossed-out token where a War Chest unit stood, a "✕n" badge in a
Batailles zone's band); ``last`` names the last of them that changed the board, with what it did
(``outcome``), so a bot's turn that closed with "ends their turn" or "finishes the action" is told by its last
move. Keeping them in the state, rather than reading the log at each post, makes them part of every view,
early boards and replays included, at no cost to a post. The line is shortened, when it must be, in the
action's words, never in what it did.
"""

from __future__ import annotations

from engine.warchest.actions import Action
from engine.warchest.board import Hex
from engine.warchest.rules import acting_seat
from engine.warchest.state import Last, State, Struck, Unit
from engine.warchest.view import public_text

TRAIL_MAX = 64
"""The most moves a stretch keeps: far more than one turn's, so that a state stays small."""


def struck_units(before: dict[Hex, Unit], after: dict[Hex, Unit]) -> tuple[Struck, ...]:
    """The units an action struck: each unit of ``before`` that lost coins where it stands, or is
    gone from the board (a seat has one unit of a type on the board at most, so a unit found on
    another hex moved rather than went), as (hex, seat, type, removed)."""
    if before == after:  # most actions leave the board as it was: this runs at every step of a playout
        return ()
    changed = [h for h, unit in before.items() if after.get(h) != unit]
    if not changed:
        return ()
    changed.sort()
    standing: set[tuple[int, str]] | None = None
    struck: list[Struck] = []
    for h in changed:
        seat, kind, height = before[h]
        now = after.get(h)
        if now is not None and now[:2] == (seat, kind):
            if now[2] < height:
                struck.append((h, seat, kind, False))
            continue
        if standing is None:
            standing = {(u[0], u[1]) for u in after.values()}
        if (seat, kind) not in standing:
            struck.append((h, seat, kind, True))
    return tuple(struck)


def remember(
    st: State,
    seat: int,
    action: Action,
    touched: tuple[Hex, ...],
    before: tuple[dict[Hex, Unit], int | None],
) -> None:
    """Record ``action``, just played on ``st`` by ``seat``, as the last action and in the stretch
    since the last handover; ``before`` is the board and the acting seat before it was played."""
    board, acting = before
    record: Last = (seat, public_text(str(action)), touched, struck_units(board, st.board))
    st.last = record
    trail = () if st.handed else st.trail
    if record[2] or record[3]:
        trail = (*trail, record)[-TRAIL_MAX:]
    st.trail = trail
    st.handed = acting_seat(st) != acting
