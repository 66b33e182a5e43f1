"""Setting up a game: the board, the armies (first game, random or draft) and the first round.

Two players: each commands 4 unit cards; four players: two teams of two seated alternately (seats 0
and 2 are team 0, seats 1 and 3 team 1), 3 cards each, on the larger board.

Draft for two players (the seed's advanced set-up): 8 random cards; the first picker, drawn by the
seeded generator, takes 1, then the other 2, then 2 and 2 alternately; the last card goes to the
first picker and the second picker starts with the initiative.

Draft for four players: 12 random cards; the generator draws the first team, whose first seat picks
first (``FOUR_PLAYER_DRAFT``); that player also holds the initiative and plays first.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import BadInput
from engine.rng import Rng
from engine.warchest.board import board_map
from engine.warchest.rules import equip, start_round
from engine.warchest.state import Phase, Seat, State
from engine.warchest.units import FIRST_GAME, FIRST_GAME_4, UNIT_TYPES

ARMIES = ("random", "first", "draft")
PLAYER_COUNTS = (2, 4)
CARDS_PER_SEAT = {2: 4, 4: 3}
DRAFT_POOL = {2: 8, 4: 12}

TWO_PLAYER_DRAFT = (0, 1, 1, 0, 0, 1, 1)
"""Pick order relative to the first picker (0) and the other (1); the 8th card goes to picker 0."""

FOUR_PLAYER_DRAFT = (0, 1, 2, 3, 3, 2, 1, 0, 1, 2, 3, 0)
"""Pick order as seat offsets clockwise from the first picker, read from the seed: one card each
clockwise; the last player takes a second card and the hand goes back counter-clockwise until
everyone has two; the second player takes a third card and the hand goes clockwise again."""


def options_of(options: dict[str, str] | None) -> dict[str, str]:
    """Validated options with defaults filled in; ``BadInput`` names the allowed values."""
    options = dict(options or {})
    unknown = sorted(set(options) - {"armies"})
    if unknown:
        raise BadInput("wc.error.option_name", option=unknown[0], options="armies")
    armies = str(options.get("armies") or "random").strip().lower()
    if armies not in ARMIES:
        raise BadInput("wc.error.option_value", option="armies", value=armies, choices=", ".join(ARMIES))
    return {"armies": armies}


def new_game(players: Sequence[str], seed: int, options: dict[str, str] | None = None) -> State:
    count = len(players)
    if count not in PLAYER_COUNTS:
        raise BadInput("wc.error.players", count=count)
    if len(set(players)) != len(players):
        raise BadInput("wc.error.same_player")
    st = State()
    st.players = tuple(str(p) for p in players)
    st.options = options_of(options)
    rng = Rng(seed)
    st.board_name = f"{count}p"
    bm = board_map(st.board_name)
    st.control = {h: None for h in bm.locations}
    st.markers = []
    for team, starts in enumerate(bm.start):
        for h in starts:
            st.control[h] = team
        st.markers.append(bm.markers - len(starts))
    st.ever = frozenset((t, h) for h, t in st.control.items() if t is not None)
    st.seats = [Seat(team=i % 2, units=()) for i in range(count)]
    armies = st.options["armies"]
    if armies == "draft":
        pool = list(UNIT_TYPES)
        rng.shuffle(pool)
        # with four players the generator draws the first team, whose first seat (= its team number)
        # picks first; with two the drawn seat is the first picker
        first = rng.below(2)
        st.rng = rng.state
        st.phase = Phase.DRAFT
        st.draft = {
            "pool": sorted(pool[: DRAFT_POOL[count]]),
            "picks": [[] for _ in range(count)],
            "order": draft_order(count, first),
            "first": first,
        }
        return st
    per_seat = CARDS_PER_SEAT[count]
    if armies == "first":
        cards = list(FIRST_GAME if count == 2 else FIRST_GAME_4)
    else:
        pool = list(UNIT_TYPES)
        rng.shuffle(pool)
        cards = [tuple(pool[i * per_seat : (i + 1) * per_seat]) for i in range(count)]
    # four players: any of the four seats may start, so the starting team is a fair coin too
    st.initiative = rng.below(count)
    st.rng = rng.state
    for seat, units in zip(st.seats, cards, strict=True):
        equip(seat, tuple(units))
    start_round(st, [])
    return st


def draft_order(count: int, first: int) -> list[int]:
    """The seats in picking order, ``first`` being the first picker's seat."""
    offsets = TWO_PLAYER_DRAFT if count == 2 else FOUR_PLAYER_DRAFT
    return [(first + k) % count for k in offsets]
