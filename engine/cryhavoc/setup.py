"""Setting up a game: map side, factions, HQs, tokens on the map, decks, skills, initiative.

Factions are dealt at random: with 2 players two of Humans, Machines and Pilgrims; with 3 all three;
with 4 all four, the Trogs' HQ being the Hive in the middle of the map. The other HQs go to random
HQ slots. Skills: ``basic`` gives each faction its default skill, ``random`` adds one or two (the count
drawn too) from its four others, ``all`` gives all five.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cryhavoc import flow
from engine.cryhavoc.content import BOARDS, FACTIONS, TERRAIN_DECKS, TERRAINS, TOKENS, deck_cards, side_for
from engine.cryhavoc.state import FORMAT, Phase, Region, Seat, St, Stack
from engine.errors import BadInput
from engine.rng import Rng

SKILL_CHOICES = ("basic", "random", "all")
PLAYER_COUNTS = (2, 3, 4)


def _options(options: dict[str, str] | None) -> str:
    opts = dict(options or {})
    skills = opts.pop("skills", "basic") or "basic"
    if opts:
        name = next(iter(opts))
        raise BadInput("ch.error.option_name", option=name, options="skills")
    if skills not in SKILL_CHOICES:
        raise BadInput(
            "ch.error.option_value", value=skills, option="skills", choices=", ".join(SKILL_CHOICES)
        )
    return skills


def new_game(players: Sequence[str], seed: int, options: dict[str, str] | None = None) -> St:
    skills_opt = _options(options)
    n = len(players)
    if n not in PLAYER_COUNTS:
        raise BadInput("ch.error.players", count=n)
    if len(set(players)) != n:
        raise BadInput("ch.error.same_player")
    side = side_for(n)
    bd = BOARDS[side]
    # The generator is the state's (``rng``) once the state is made: each draw here moves it as
    # ``state.shuffle`` would.
    rng = Rng(seed & ((1 << 64) - 1))
    if n == 4:
        factions = ["humans", "machines", "pilgrims", "trogs"]
    else:
        factions = ["humans", "machines", "pilgrims"]
        rng.shuffle(factions)
        factions = factions[:n]
    rng.shuffle(factions)
    slots = list(bd.hq_slots)
    rng.shuffle(slots)
    hq: list[str] = []
    for f in factions:
        hq.append(bd.hive if f == "trogs" else slots.pop(0))
    regions: dict[str, Region] = {}
    for rid, r in bd.regions.items():
        regions[rid] = {
            "units": [0] * (n + 1),
            "control": None,
            "crystals": 0 if (r.get("hq") or r.get("hive")) else r["crystals"],
            "token": None,
            "explore": None,
            "tunnel": bool(r.get("tunnel")) and n == 4,
            "structures": [],
            "battle": None,
        }
    wps = [t["id"] for t in TOKENS["war_party"]]
    rng.shuffle(wps)
    explores = [t["id"] for t in TOKENS["exploration"] for _ in range(t["copies"])]
    rng.shuffle(explores)
    for rid, r in bd.regions.items():
        if r.get("war_party") and wps:
            regions[rid]["token"] = {"kind": "war_party", "id": wps.pop(0)}
        if r.get("explore") and explores:
            regions[rid]["explore"] = explores.pop(0)
    seats: list[Seat] = []
    for i, f in enumerate(factions):
        fd = FACTIONS[f]
        deck = deck_cards(fd["deck"])
        rng.shuffle(deck)
        others = [s for s in fd["skills"] if s != fd["default_skill"]]
        if skills_opt == "basic":
            skills = [fd["default_skill"]]
        elif skills_opt == "all":
            skills = [fd["default_skill"], *others]
        else:
            # The seed: one's pool grows by one or two random skills.
            rng.shuffle(others)
            skills = [fd["default_skill"], *sorted(others[: 1 + rng.below(2)])]
        regions[hq[i]]["units"][i] = fd["start_units"]
        regions[hq[i]]["control"] = i
        if f == "trogs":
            regions[hq[i]]["tunnel"] = True
        seats.append(
            {
                "hand": [],
                "deck": deck,
                "discard": [],
                "reserve": fd["units"] - fd["start_units"],
                "skills": skills,
                "exhausted": [],
                "built": {s: 0 for s in fd["structures"]},
            }
        )
    terrain = {}
    for t in TERRAINS:
        cards = deck_cards(TERRAIN_DECKS[t])
        rng.shuffle(cards)
        terrain[t] = cards
    events = [e["id"] for e in TOKENS["events"]]
    rng.shuffle(events)
    track: list[Stack] = [
        {"pos": p, "ids": [e]} for p, e in zip(TOKENS["event_positions"], events, strict=False)
    ]
    order = list(range(n))
    rng.shuffle(order)
    st: St = {
        "fmt": FORMAT,
        "players": list(players),
        "side": side,
        "rng": rng.state,
        "factions": factions,
        "hq": hq,
        "skills_opt": skills_opt,
        "round": 0,
        "phase": Phase.SETUP.value,
        "final": False,
        "track": track[: TOKENS["events_used"]],
        "revealed": [],
        "init": order,
        "upcoming": list(order),
        "vp": [0] * n,
        "seats": seats,
        "regions": regions,
        "neutral": TOKENS["neutral_trogs"],
        "terrain": terrain,
        "done": 0,
        "pending": None,
        "scoring_by": None,
        "battles": [],
        "tokens_used": 0,
        "fight": None,
        "prisoners": [[0] * (n + 1) for _ in range(n + 1)],
        "ransom": 0,
        "result": None,
        "last": None,
        "trail": [],
        "handed": True,
    }
    flow.start_round(st, [])
    return st
