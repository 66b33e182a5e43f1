"""What one seat knows of a Cry Havoc game, and full states drawn consistent with it.

Hidden from a seat: the other seats' hands, every deck's order (its own too) and which cards the
decks hold beyond what can be counted, the terrain decks, the two cards another player is choosing
between, the face-down exploration tokens, which War Party lies under each War Party token, the
event stacks still to come, and the generator that decides every future shuffle. ``observation``
keeps the seat's view (``view.py``: counts, discards, its own hand and drawn cards) and the public
record the view does not draw (the action or battle under way, the battle tokens placed...), with
all of those parts taken out.

``determinize`` deals them back at random, consistent with the counts the seat sees:

- A faction's own cards never leave its owner (they go round hand, deck and discard), so those not
  in the discard are in the hand or the deck; the seat's own hand is known, the rest of its faction
  cards are in its deck.
- Terrain cards kept from draws are anonymous: a seat holding more cards than its faction cards
  left holds that many terrain cards, drawn from the terrain cards nobody can see, once every
  terrain deck has been dealt its count from the cards of its own terrain.
- Exploration tokens, War Parties and events are drawn from the box's tokens of their kind.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TypedDict, cast

from engine.cryhavoc.actions import Action
from engine.cryhavoc.content import FACTIONS, TERRAIN_DECKS, TERRAINS, TOKENS, deck_cards, kind_of
from engine.cryhavoc.flow import acting_seat
from engine.cryhavoc.game import play, public_record, remember
from engine.cryhavoc.state import Decision, Seat, St, Stack, Structure, clone
from engine.cryhavoc.view import CryHavocView, view
from engine.rng import Rng


class PublicStack(TypedDict):
    """A stack of event tokens still to come, as a seat sees it: its place and how many."""

    pos: int
    count: int


class PublicSeat(TypedDict):
    """A seat's part without its hand and deck."""

    discard: list[str]
    reserve: int
    skills: list[str]
    exhausted: list[str]
    built: dict[str, int]


class PublicToken(TypedDict):
    """A Trog token face down: a War Party's ``id`` is ``None`` (which one is hidden)."""

    kind: str
    id: str | None


class PublicRegion(TypedDict):
    """A region with its Trog token face down and its exploration token, if any, as ``?``."""

    units: list[int]
    control: int | None
    crystals: int
    token: PublicToken | None
    explore: str | None
    tunnel: bool
    structures: list[Structure]
    battle: int | None


class Public(TypedDict):
    """The state without the generator and the terrain decks, its hidden parts taken out: the
    parts a rule of the search reads before ``sample`` deals them back."""

    players: list[str]
    factions: list[str]
    revealed: list[str]
    track: list[PublicStack]
    seats: list[PublicSeat]
    regions: dict[str, PublicRegion]
    pending: Decision | None


HIDDEN = frozenset({"rng", "terrain"})
"""Keys of the state a seat's public part leaves out."""


class Observation(TypedDict):
    """What a seat knows (``observation``): its view and the state without the generator, the
    terrain decks, the other seats' hands and every deck's order."""

    seat: int
    view: CryHavocView
    public: Public


def observation(st: St, seat: int) -> Observation:
    """What ``seat`` knows: ``{"seat", "view", "public"}``, JSON-safe and free of hidden parts."""
    full = clone(st)
    seats: list[PublicSeat] = [
        {
            "discard": s["discard"],
            "reserve": s["reserve"],
            "skills": s["skills"],
            "exhausted": s["exhausted"],
            "built": s["built"],
        }
        for s in full["seats"]
    ]
    regions: dict[str, PublicRegion] = {}
    for rid, reg in full["regions"].items():
        token = reg["token"]
        seen: PublicToken | None = None
        if token is not None:
            seen = {"kind": token["kind"], "id": None if token["kind"] == "war_party" else token["id"]}
        regions[rid] = {**reg, "token": seen, "explore": None if reg["explore"] is None else "?"}
    p = full["pending"]
    if p is not None and p["seat"] != seat:
        p["cards"] = [""] * len(p["cards"])
    shared = {key: value for key, value in full.items() if key not in HIDDEN}
    track = [{"pos": t["pos"], "count": len(t["ids"])} for t in full["track"]]
    # The state's other keys as they are, in their order (a rule reads them once ``sample`` deals
    # the hidden parts back), so only the typed ones are checked here.
    public = cast("Public", {**shared, "track": track, "seats": seats, "regions": regions})
    return {"seat": seat, "view": view(st, st["players"][seat], None), "public": public}


class _Pool:
    """The cards nobody in particular can see, by kind, dealt in random order."""

    def __init__(self, by_kind: dict[str, list[str]], rng: Rng) -> None:
        self.rng = rng
        self.by_kind = {kind: cards[:] for kind, cards in by_kind.items()}

    def take(self, kind: str) -> str:
        cards = self.by_kind[kind]
        return cards.pop(self.rng.below(len(cards)))

    def deal(self, kinds: list[str], n: int) -> list[str]:
        """``n`` cards drawn at random among the kinds ``kinds`` (fewer if there are not enough)."""
        left = [c for k in kinds for c in self.by_kind.get(k, [])]
        n = min(n, len(left))
        for i in range(n):  # the first n steps of a Fisher-Yates shuffle: a random ordered sample
            j = i + self.rng.below(len(left) - i)
            left[i], left[j] = left[j], left[i]
        out = left[:n]
        for card in out:
            self.by_kind[kind_of(card)].remove(card)
        return out


def _terrain_kinds(terrain: str) -> list[str]:
    return [c["kind"] for c in TERRAIN_DECKS[terrain]]


@dataclass(frozen=True)
class Template:
    """One observation worked out once: the public state as JSON text, and the unseen cards.

    A search samples thousands of states from one observation; ``sample`` only parses the text and
    deals the cards, instead of copying the observation and sorting out which cards are unseen.
    """

    obs: Observation
    public: str
    unseen: dict[str, list[str]]
    """The cards in nobody's sight, by kind, in the order the box lists them."""


def prepare(obs: Observation) -> Template:
    """The parts of ``obs`` every sample shares (see ``Template``)."""
    public = obs["public"]
    pending = public["pending"]
    seen = {c for s in public["seats"] for c in s["discard"]}
    if pending is not None and pending["seat"] == obs["seat"]:
        seen |= set(pending["cards"])
    every = [c for f in public["factions"] for c in deck_cards(FACTIONS[f]["deck"])]
    every += [c for t in TERRAINS for c in deck_cards(TERRAIN_DECKS[t])]
    unseen: dict[str, list[str]] = {}
    for c in every:
        if c not in seen:
            unseen.setdefault(kind_of(c), []).append(c)
    return Template(obs, json.dumps(public), unseen)


def determinize(obs: Observation, rng: Rng) -> St:
    """A full state that shows ``obs["seat"]`` exactly its view, hidden parts dealt from ``rng``."""
    return sample(prepare(obs), rng)


def sample(template: Template, rng: Rng) -> St:
    """A full state consistent with the template's observation, hidden parts dealt from ``rng``."""
    obs = template.obs
    me: int = obs["seat"]
    v = obs["view"]
    public: Public = json.loads(template.public)
    pending = public["pending"]
    pool = _Pool(template.unseen, rng)
    private = v["private"]
    assert private is not None, "a seat's own view shows its hand"
    own_hand = [pool.take(k) for k in private["hand"]]
    faction_left = [pool.deal([c["kind"] for c in FACTIONS[f]["deck"]], 99) for f in public["factions"]]
    # terrain decks first, each from its own terrain; the pending draw of another seat likewise
    terrain = {t: pool.deal(_terrain_kinds(t), v["terrain_decks"][t]) for t in TERRAINS}
    drawn: list[str] = []
    if pending is not None and pending["seat"] != me and pending["source"] in TERRAINS:
        drawn = pool.deal(_terrain_kinds(pending["source"]), len(pending["cards"]))
    terrain_left = [k for t in TERRAINS for k in _terrain_kinds(t)]
    seats: list[Seat] = []
    for i, s in enumerate(public["seats"]):
        seat_view = v["seats"][i]
        others_draw = pending is not None and pending["seat"] == i != me and pending["source"] == "deck"
        extra = len(pending["cards"]) if others_draw and pending is not None else 0
        held = seat_view["deck"] if i == me else seat_view["hand"] + seat_view["deck"] + extra
        cards = faction_left[i] + pool.deal(terrain_left, max(0, held - len(faction_left[i])))
        rng.shuffle(cards)
        if i == me:
            seats.append({**s, "hand": sorted(own_hand), "deck": cards})
            continue
        h = seat_view["hand"]
        if others_draw:
            drawn = cards[h : h + extra]
        seats.append({**s, "hand": sorted(cards[:h]), "deck": cards[h + extra :]})
    if pending is not None and pending["seat"] != me:
        pending["cards"] = drawn
    events = [e["id"] for e in TOKENS["events"] if e["id"] not in public["revealed"]]
    rng.shuffle(events)
    track: list[Stack] = []
    for t in public["track"]:
        track.append({"pos": t["pos"], "ids": events[: t["count"]]})
        events = events[t["count"] :]
    parties = [t["id"] for t in TOKENS["war_party"]]
    explores = [t["id"] for t in TOKENS["exploration"] for _ in range(t["copies"])]
    rng.shuffle(parties)
    rng.shuffle(explores)
    for reg in public["regions"].values():
        if reg["token"] is not None and reg["token"]["kind"] == "war_party" and parties:
            reg["token"] = {"kind": "war_party", "id": parties.pop()}
        if reg["explore"] is not None and explores:
            reg["explore"] = explores.pop()
    # Every hidden part is dealt back: the regions' tokens in place, the rest in its own key.
    dealt = {**public, "terrain": terrain, "seats": seats, "track": track, "rng": rng.next_u64()}
    return cast("St", dealt)


def step(st: St, seat: int, action: Action) -> St:
    """``apply`` on a state the caller owns and will not look at again: ``st`` itself moves on.

    A search plays thousands of actions on its sampled states, each taken from ``legal_actions``;
    skipping the copy (a JSON round trip) and the legality check of ``apply`` makes it several times
    faster. The result is the state ``apply`` would return (a test checks it).
    """
    last, acting = public_record(st, seat, action), acting_seat(st)
    play(st, seat, action)
    remember(st, last, acting)
    return st
