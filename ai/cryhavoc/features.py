"""What a Cry Havoc position is to the learned evaluation (``ai.learned``): a few numbers per seat.

They are what the hand-weighed evaluation (``heuristics.seat_scores``) adds up, kept apart so that
self-play (``training/``) weighs each one: VP, and VP again divided by the rounds left (a lead
counts for more as the game nears its end), the crystals of the regions a seat holds or should
win the battle for (halved for the Trogs, times the scorings to come), those regions, the Region
Control tokens of battles it should win on numbers, its units on the map and in reserve, cards in
hand, structures built, prisoners it holds (a VP per round while held) and its own units held by
others. Every seat is a side: the chance that a seat wins is its share of a softmax over the seats'
weighted features, which with two players is the logistic of their difference.
"""

from __future__ import annotations

from pathlib import Path

from ai.learned import Weights, load
from engine.cryhavoc.content import TOKENS
from engine.cryhavoc.state import St, battles_of, n_players, trog_seat

NAMES = (
    "vp",
    "late_vp",
    "crystals",
    "regions",
    "battles",
    "units",
    "reserve",
    "cards",
    "structures",
    "prisoners",
    "captives",
)
"""The features of a seat, in the order ``sides`` lists them."""
LATER = 0.25
"""A crystal's chance of being scored in each round still to come before the final scoring, which
is certain: the hand-weighed evaluation's guess, which keeps ``crystals`` on its scale."""
WEIGHTS = Path(__file__).with_name("weights.json")
"""The fitted weights (``training/``)."""


def holders(st: St) -> dict[str, tuple[int, int, bool]]:
    """Per region with a likely holder: that seat or side, the crystals it will score, and whether
    the holder takes it by a battle still to resolve (and with it a Region Control token).

    An unresolved battle goes to the side with more units there and adds the crystal of its battle
    token; the battle being fought goes to the side stronger on the board."""
    pending: dict[str, tuple[int, int]] = {}
    for _num, region, att, dfn in battles_of(st):
        pending.setdefault(region, (att, dfn))
    fight = st["fight"]
    fought: tuple[str, int] | None = None
    if fight is not None and fight["winner"] is None:
        strength = [
            fight["slots"][s][0] + fight["bonus"][s][0] + (fight["to_place"][s] if s == 1 else 0)
            for s in (0, 1)
        ]
        fought = fight["region"], int(fight["sides"][0] if strength[0] > strength[1] else fight["sides"][1])
    out: dict[str, tuple[int, int, bool]] = {}
    for rid, reg in st["regions"].items():
        holder, crystals, won = reg["control"], reg["crystals"], False
        if reg["battle"] is not None:
            att, dfn = pending.get(rid, (-1, -1))
            holder = None if att < 0 else att if reg["units"][att] > reg["units"][dfn] else dfn
            crystals, won = crystals + 1, True
        elif fought is not None and fought[0] == rid:
            holder = fought[1]
        if holder is not None:
            out[rid] = (holder, crystals, won)
    return out


def sides(st: St) -> list[list[float]]:
    """The features of every seat, in seat order, each in the order of ``NAMES``."""
    n = n_players(st)
    rows = [[0.0] * len(NAMES) for _ in range(n)]
    rounds_left = len(st["track"]) + 1
    scorings = 1.0 + LATER * (rounds_left - 1)
    trogs = trog_seat(st)
    for holder, crystals, won in holders(st).values():
        if holder >= n:
            continue
        row = rows[holder]
        row[2] += crystals * scorings / (2.0 if holder == trogs else 1.0)
        row[3] += 1.0
        if won:
            row[4] += TOKENS["control_vp"]
    for reg in st["regions"].values():
        for seat in range(n):
            rows[seat][5] += reg["units"][seat]
    for seat, s in enumerate(st["seats"]):
        row = rows[seat]
        row[0] = float(st["vp"][seat])
        row[1] = row[0] / rounds_left
        row[6] = float(s["reserve"])
        row[7] = float(len(s["hand"]))
        row[8] = float(sum(s["built"].values()))
        row[9] = float(sum(st["prisoners"][seat]) * rounds_left)
        row[10] = float(sum(held[seat] for holder, held in enumerate(st["prisoners"]) if holder != seat))
    return rows


def weights() -> Weights:
    """The shipped weights, read once."""
    return load(WEIGHTS, NAMES)


def side(st: St, seat: int) -> int:
    """Every seat plays for itself: the side its features are listed under is its own."""
    del st
    return seat
