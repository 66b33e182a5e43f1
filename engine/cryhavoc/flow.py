"""The round of six phases and the end of the game.

Events (reveal the next stack of event tokens, upcoming initiative becomes initiative, skills
refresh), draw four (discard down to seven), actions, battles, prisoners, scoring. The round in
which the last event stack is revealed is the final one; its scoring is automatic and counts
crystals only.
"""

from __future__ import annotations

from engine.cryhavoc import battle, turns
from engine.cryhavoc.content import TOKENS
from engine.cryhavoc.effects import reveal_event
from engine.cryhavoc.state import Decision, Phase, St, controlled, draw_cards, n_players
from engine.text import Msg, PlayerRef, msg


def _who(st: St, seat: int) -> PlayerRef:
    return PlayerRef(st["players"][seat])


def start_round(st: St, ev: list[Msg]) -> None:
    st["round"] += 1
    ev.append(msg("ch.ev.round", round=st["round"]))
    stack = st["track"].pop(0)
    for eid in stack["ids"]:
        st["revealed"].append(eid)
        reveal_event(st, eid, ev)
    st["final"] = not st["track"]
    if st["final"]:
        ev.append(msg("ch.ev.final_round"))
    st["init"] = list(st["upcoming"])
    for s in st["seats"]:
        s["exhausted"] = []
    st["scoring_by"] = None
    st["tokens_used"] = 0
    st["done"] = 0
    for seat in st["init"]:
        draw_cards(st, seat, TOKENS["draw_per_round"])
    st["phase"] = Phase.DISCARD.value
    after_discard(st, ev)


def after_discard(st: St, ev: list[Msg]) -> None:
    if st["phase"] == Phase.DISCARD and turns.over_limit(st) is None:
        st["phase"] = Phase.ACTIONS.value
        after_action(st, ev)


def after_action(st: St, ev: list[Msg]) -> None:
    """Move on to the battles once everyone has taken their three actions."""
    if (
        st["phase"] == Phase.ACTIONS
        and st["pending"] is None
        and st["done"] >= TOKENS["actions_per_round"] * n_players(st)
    ):
        st["phase"] = Phase.BATTLE.value
        ev.append(msg("ch.ev.battle_phase", count=len(st["battles"])))
        after_battle(st, ev)


def after_battle(st: St, ev: list[Msg]) -> None:
    if st["phase"] == Phase.BATTLE and battle.advance(st, ev):
        start_prisoners(st, ev)


def acting_seat(st: St) -> int | None:
    phase = st["phase"]
    if phase == Phase.DISCARD:
        return turns.over_limit(st)
    if phase == Phase.ACTIONS:
        p: Decision | None = st["pending"]
        return int(p["seat"]) if p is not None else int(st["init"][st["done"] % n_players(st)])
    if phase == Phase.BATTLE:
        return battle.acting(st)
    if phase == Phase.PRISONERS:
        return int(st["init"][st["ransom"]])
    return None


# ---------------------------------------------------------------- prisoners


def holders_of(st: St, owner: int) -> list[int]:
    """Sides (seats or the neutral index) holding prisoners of ``owner``."""
    return [h for h, row in enumerate(st["prisoners"]) if row[owner] > 0]


def can_ransom(st: St, seat: int) -> bool:
    return st["vp"][seat] >= TOKENS["ransom_vp"] and bool(holders_of(st, seat))


def start_prisoners(st: St, ev: list[Msg]) -> None:
    st["phase"] = Phase.PRISONERS.value
    n = n_players(st)
    for holder in range(n):
        held = sum(st["prisoners"][holder])
        if held:
            st["vp"][holder] += held
            ev.append(msg("ch.ev.prisoner_vp", player=_who(st, holder), n=held))
    for holder in range(n + 1):
        st["neutral"] += st["prisoners"][holder][n]
        st["prisoners"][holder][n] = 0
    st["ransom"] = 0
    _next_ransom(st, ev)


def _next_ransom(st: St, ev: list[Msg]) -> None:
    while st["ransom"] < n_players(st) and not can_ransom(st, st["init"][st["ransom"]]):
        st["ransom"] += 1
    if st["ransom"] >= n_players(st):
        scoring(st, ev)


def ransom(st: St, seat: int, holder: int, ev: list[Msg]) -> None:
    st["vp"][seat] -= TOKENS["ransom_vp"]
    st["prisoners"][holder][seat] -= 1
    st["seats"][seat]["reserve"] += 1
    ev.append(msg("ch.ev.ransom", player=_who(st, seat)))
    _next_ransom(st, ev)


def ransom_done(st: St, ev: list[Msg]) -> None:
    st["ransom"] += 1
    _next_ransom(st, ev)


# ---------------------------------------------------------------- scoring and the end


def crystal_score(st: St, seat: int) -> int:
    total: int = sum(st["regions"][r]["crystals"] for r in controlled(st, seat))
    if st["factions"][seat] == "trogs":
        total = (total + 1) // 2
    return total


def scoring(st: St, ev: list[Msg]) -> None:
    st["phase"] = Phase.SCORING.value
    enabler = st["scoring_by"]
    if st["final"] or enabler is not None:
        if enabler is not None and not st["final"]:
            regions = len(controlled(st, enabler))
            st["vp"][enabler] += regions
            ev.append(msg("ch.ev.score_regions", player=_who(st, enabler), n=regions))
        for seat in st["init"]:
            pts = crystal_score(st, seat)
            st["vp"][seat] += pts
            ev.append(msg("ch.ev.score_crystals", player=_who(st, seat), n=pts))
    if st["final"]:
        end_game(st, ev)
        return
    stack_events(st, ev)
    start_round(st, ev)


def stack_events(st: St, ev: list[Msg]) -> None:
    """A score beyond the next event token moves that token onto the following one."""
    track = st["track"]
    while len(track) >= 2 and max(st["vp"]) > track[0]["pos"]:
        first = track.pop(0)
        track[0]["ids"] = first["ids"] + track[0]["ids"]
        ev.append(msg("ch.ev.stacked", left=len(track)))


def ranking(st: St) -> list[int]:
    """Seats best first: most VP, then most prisoners held, then later on the initiative track."""
    init = st["init"]

    def key(seat: int) -> tuple[int, int, int]:
        return (st["vp"][seat], sum(st["prisoners"][seat]), init.index(seat))

    return sorted(range(n_players(st)), key=key, reverse=True)


def end_game(st: St, ev: list[Msg]) -> None:
    st["phase"] = Phase.OVER.value
    order = ranking(st)
    st["result"] = {"winners": [order[0]], "order": order}
    ev.append(msg("ch.ev.game_over", player=_who(st, order[0]), vp=st["vp"][order[0]]))


PHASES = tuple(Phase)
