"""What one seat knows of a Batailles game, and full states drawn consistent with it.

Batailles hides little on the table: both armies, their profiles and the dice already rolled are
public (``view.py``). A player cannot know the dice still to come, which the state's generator
decides, nor, while both armies deploy, where the other army's troops were placed (each side's
deployment is hidden from the other until both are done). ``observation`` therefore keeps the
seat's view and the whole saved state except the generator and those placements (the other army's
troops placed so far are named, their zones left out), and ``determinize`` gives that state a
generator drawn at random and places those troops at random where the rules let them stand, so
that a computer player never plans on knowing how its next attack will roll, nor on where its
opponent deployed.
"""

from __future__ import annotations

from typing import Any, TypedDict

from engine.batailles import rules
from engine.batailles.actions import Action
from engine.batailles.board import FACINGS, label
from engine.batailles.state import State, dump, load
from engine.batailles.view import BataillesView, build_view, hidden_seats
from engine.rng import Rng


class Observation(TypedDict):
    """What a seat knows (``observation``): its view, the save it could write down from the moves
    it saw, and the troops of the other army whose places it does not know."""

    seat: int
    view: BataillesView
    public: dict[str, Any]
    hidden: list[str]


def observation(st: State, seat: int) -> Observation:
    """What ``seat`` knows: ``{"seat", "view", "public", "hidden"}``; ``public`` is the save without
    the dice and without the places of the troops ``seat`` may not see (``hidden``: their names, in
    army order; each is put back as a troop still to deploy), nor the places its deployments were
    told with."""
    public = dump(st)
    del public["rng"]
    unseen = hidden_seats(st, st.players[seat])
    hidden: list[str] = []
    for troop in public["troops"]:
        if troop["seat"] in unseen and troop["zone"] is not None:
            hidden.append(troop["name"])
            troop["zone"], troop["facing"] = None, "n"
    for record in [*public["trail"], public["last"]]:
        if record is not None and record["seat"] in unseen and str(record["text"]).startswith("deploy "):
            record["text"], record["zones"] = " ".join(str(record["text"]).split()[:2]), []
    return {"seat": seat, "view": build_view(st, st.players[seat], None), "public": public, "hidden": hidden}


def determinize(obs: Observation, rng: Rng) -> State:
    """The observed state with a random generator (the same position, unknown dice to come), the
    troops whose places it does not know each placed at random where the rules let it deploy."""
    st = load({**obs["public"], "rng": rng.next_u64()})
    for name in obs.get("hidden") or []:
        troop = next(t for t in st.troops if t.name == name and t.seat != obs["seat"])
        zones = rules.deploy_zones_with_room(st, troop.seat)
        troop.zone, troop.facing = zones[rng.below(len(zones))], FACINGS[rng.below(len(FACINGS))]
    placed = {(t.seat, t.name): t for t in st.troops}
    for record in [*st.trail, st.last]:  # the deployments the observation told without their places
        words = str(record["text"]).split() if record is not None else []
        if record is not None and words[0] == "deploy" and len(words) == 2:
            troop = placed[(record["seat"], words[1])]
            assert troop.zone is not None
            record["text"] = f"deploy {troop.name} {label(troop.zone)} {troop.facing}"
            record["zones"] = [list(troop.zone)]
    return st


def step(st: State, seat: int, action: Action) -> State:
    """``apply`` on a state the caller owns and will not look at again: ``st`` itself moves on.

    A search plays thousands of actions on its sampled states, each taken from ``legal_actions``;
    skipping the copy and the legality check of ``apply`` makes it several times faster. The result
    is the state ``apply`` would return (a test checks it).
    """
    rules.play(st, seat, action, [])
    return st
