"""Setting up a game: the board, the armies (first game, random or draft) and the first round.

Draft for two players (the seed's advanced set-up): 8 random cards; the first picker, drawn by the
seeded generator, takes 1, then the other 2, then 2 and 2 alternately; the last card goes to the
first picker and the second picker starts with the initiative.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import BadInput
from engine.rng import Rng
from engine.text import Msg, msg
from engine.warchest.actions import Pick
from engine.warchest.board import board_map
from engine.warchest.rules import player, start_round, unit_name
from engine.warchest.state import Seat, State
from engine.warchest.units import COINS, FIRST_GAME, ROYAL, UNIT_TYPES

ARMIES = ("random", "first", "draft")
CARDS_PER_SEAT = 4
DRAFT_POOL = 8


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
    if len(players) != 2:
        raise BadInput("wc.error.players", count=len(players))
    if len(set(players)) != len(players):
        raise BadInput("wc.error.same_player")
    st = State()
    st.players = tuple(str(p) for p in players)
    st.options = options_of(options)
    rng = Rng(seed)
    bm = board_map(st.board_name)
    st.control = {h: None for h in bm.locations}
    st.markers = []
    for team, starts in enumerate(bm.start):
        for h in starts:
            st.control[h] = team
        st.markers.append(bm.markers - len(starts))
    st.ever = frozenset((t, h) for h, t in st.control.items() if t is not None)
    st.seats = [Seat(team=i, units=()) for i in range(len(players))]
    armies = st.options["armies"]
    if armies == "draft":
        pool = list(UNIT_TYPES)
        rng.shuffle(pool)
        first = rng.below(2)
        second = 1 - first
        st.rng = rng.state
        st.phase = "draft"
        st.draft = {
            "pool": sorted(pool[:DRAFT_POOL]),
            "picks": [[], []],
            "order": [first, second, second, first, first, second, second],
            "first": first,
        }
        return st
    if armies == "first":
        cards = [FIRST_GAME[0], FIRST_GAME[1]]
    else:
        pool = list(UNIT_TYPES)
        rng.shuffle(pool)
        cards = [tuple(pool[i * CARDS_PER_SEAT : (i + 1) * CARDS_PER_SEAT]) for i in range(2)]
    st.initiative = rng.below(2)
    st.rng = rng.state
    for seat, units in zip(st.seats, cards, strict=True):
        _equip(seat, tuple(units))
    start_round(st, [])
    return st


def _equip(seat: Seat, units: tuple[str, ...]) -> None:
    """Two coins of each unit type and the Royal Coin in the bag, the rest in the supply."""
    seat.units = units
    bag = [ROYAL]
    for u in units:
        bag.extend([u, u])
        seat.supply[u] = COINS[u] - 2
    seat.bag = sorted(bag)


def draft_pick(st: State, si: int, action: Pick, ev: list[Msg]) -> None:
    """Take one card from the pool; after the last pick, hand out the remaining card and start."""
    assert st.draft is not None
    pool = [u for u in st.draft["pool"] if u != action.unit]
    picks = [list(p) for p in st.draft["picks"]]
    picks[si].append(action.unit)
    order = list(st.draft["order"][1:])
    ev.append(msg("wc.ev.pick", player=player(st, si), unit=unit_name(action.unit)))
    first = int(st.draft["first"])
    if order:
        st.draft = {"pool": pool, "picks": picks, "order": order, "first": first}
        return
    last = pool[0]
    picks[first].append(last)
    ev.append(msg("wc.ev.pick_last", player=player(st, first), unit=unit_name(last)))
    st.draft = None
    st.phase = "play"
    for seat, units in zip(st.seats, picks, strict=True):
        _equip(seat, tuple(units))
    st.initiative = 1 - first
    start_round(st, ev)
