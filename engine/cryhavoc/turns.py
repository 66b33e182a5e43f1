"""The actions phase: three actions each, one at a time in initiative order, and the hand limit.

An action that pays with cards (move, recruit, build) or draws (draw two, keep one) stays under way
in ``st["pending"]`` while its owner makes the next small choice, so any legal combination can be
picked from short lists. Skills are free: they start no action of the three, and a skill granting
movement or build points opens a pending action that takes no more cards.
"""

from __future__ import annotations

from engine.cryhavoc.actions import (
    END,
    PASS,
    SCORE,
    Action,
    Discard,
    UseSkill,
    activate,
    build,
    construct,
    discard,
    draw,
    go,
    keep,
    move,
    pay,
    recruit,
    use_skill,
)
from engine.cryhavoc.content import (
    CARDS,
    EXPLORATION,
    SKILLS,
    STRUCTURES,
    TERRAINS,
    TOKENS,
    WAR_PARTIES,
    Effect,
    kind_of,
)
from engine.cryhavoc.effects import apply_simple, region_name
from engine.cryhavoc.state import (
    Decision,
    PendingKind,
    St,
    add_crystals,
    battles_of,
    can_draw,
    decision_of,
    discard_from_hand,
    draw_cards,
    enemies_in,
    hand_kinds,
    move_up,
    n_players,
    neighbours,
    occupant_sides,
    place_units,
    take_from_deck,
    trog_seat,
    trog_side,
)
from engine.text import Msg, PlayerRef, msg


def _who(st: St, seat: int) -> PlayerRef:
    return PlayerRef(st["players"][seat])


def card_name(kind: str) -> Msg:
    return msg(f"ch.card.{kind}")


# ---------------------------------------------------------------- hand limit


def over_limit(st: St) -> int | None:
    limit = TOKENS["hand_limit"]
    return next((s for s in st["init"] if len(st["seats"][s]["hand"]) > limit), None)


def legal_discard(st: St, seat: int) -> list[Action]:
    return [discard(k) for k in hand_kinds(st, seat)]


def apply_discard(st: St, seat: int, a: Discard, ev: list[Msg]) -> None:
    discard_from_hand(st, seat, a.card)
    ev.append(msg("ch.ev.discard", player=_who(st, seat), card=card_name(a.card)))


# ---------------------------------------------------------------- movement


def step_ok(st: St, seat: int, dst: str, battles: list[str]) -> bool:
    """May one unit of ``seat`` step into ``dst`` during a move that started ``battles``?"""
    if dst in st["hq"] and st["hq"][seat] != dst:
        return False
    reg = st["regions"][dst]
    if reg["battle"] is not None:
        return dst in battles
    if st["tokens_used"] < TOKENS["battle_tokens"]:
        return True  # a fight may start here, or none does: either way the step is open
    fights = enemies_in(st, dst, seat) or (reg["token"] is not None and seat != trog_seat(st))
    return not fights


def may_leave(st: St, seat: int, src: str) -> bool:
    """Units leave a battle region only as its defender, with the units beyond twice the attacker's."""
    reg = st["regions"][src]
    if reg["battle"] is None:
        return bool(reg["units"][seat] > 0)
    for _num, rid, att, dfn in battles_of(st):
        if rid == src and dfn == seat:
            return bool(reg["units"][seat] > 2 * reg["units"][att])
    return False


def steps(st: St, seat: int, battles: list[str]) -> list[tuple[str, str]]:
    out = []
    for src in st["regions"]:
        if may_leave(st, seat, src):
            out += [(src, dst) for dst in neighbours(st, src, seat) if step_ok(st, seat, dst, battles)]
    return out


def has_step(st: St, seat: int, battles: list[str]) -> bool:
    """Whether ``steps`` is not empty, found without listing them all: the turn's action list only
    asks whether a move card could be used."""
    return any(
        step_ok(st, seat, dst, battles)
        for src in st["regions"]
        if may_leave(st, seat, src)
        for dst in neighbours(st, src, seat)
    )


def _start_battle(st: St, rid: str, attacker: int, defender: int, ev: list[Msg]) -> None:
    st["tokens_used"] += 1
    num = st["tokens_used"]
    st["regions"][rid]["battle"] = num
    st["battles"].append([num, rid, attacker, defender])
    decision_of(st)["battles"].append(rid)
    ev.append(msg("ch.ev.battle", number=num, region=region_name(rid)))


def _resolve_token(st: St, rid: str, ev: list[Msg]) -> int:
    """Bring out the Trogs and crystals of the Trog token in ``rid``; returns how many Trogs came."""
    reg = st["regions"][rid]
    tok = reg["token"]
    assert tok is not None, "no Trog token here"
    spec = WAR_PARTIES[tok["id"]] if tok["kind"] == "war_party" else TOKENS["nest"]
    side = trog_side(st)
    n = n_players(st)
    if side == n:
        k: int = min(spec["trogs"], st["neutral"])
        st["neutral"] -= k
        reg["units"][n] += k
    else:
        k = place_units(st, side, rid, spec["trogs"])
    add_crystals(st, rid, spec["crystals"])
    reg["token"] = None
    ev.append(msg(f"ch.ev.token_{tok['kind']}", region=region_name(rid), trogs=k, crystals=spec["crystals"]))
    return k


def _go(st: St, seat: int, src: str, dst: str, ev: list[Msg]) -> None:
    p = decision_of(st)
    regs = st["regions"]
    regs[src]["units"][seat] -= 1
    regs[dst]["units"][seat] += 1
    p["points"] -= 1
    arrived: dict[str, int] = p["arrived"]
    if arrived.get(src, 0) > 0:
        arrived[src] -= 1
    reg = regs[dst]
    ev.append(msg("ch.ev.step", player=_who(st, seat), src=region_name(src), dst=region_name(dst)))
    if reg["battle"] is not None:
        return
    others = [s for s in occupant_sides(st, dst) if s != seat]
    if others:
        _start_battle(st, dst, seat, others[0], ev)
        return
    if reg["token"] is not None:
        trogs = _resolve_token(st, dst, ev)
        if seat == trog_seat(st):
            # The Trogs that came out join this move: they may go on, or end it here.
            arrived[dst] = arrived.get(dst, 0) + 1 + trogs
        elif trogs > 0:
            _start_battle(st, dst, seat, trog_side(st), ev)
        else:
            reg["units"][seat] -= 1
            st["seats"][seat]["reserve"] += 1
            ev.append(msg("ch.ev.turned_back", player=_who(st, seat), region=region_name(dst)))
        return
    arrived[dst] = arrived.get(dst, 0) + 1


def _end_move(st: St, seat: int, ev: list[Msg]) -> None:
    """Control and exploration resolve only where movement ended."""
    arrived = decision_of(st)["arrived"]
    for rid in sorted(arrived):
        reg = st["regions"][rid]
        if arrived[rid] <= 0 or reg["units"][seat] <= 0 or reg["battle"] is not None:
            continue
        if reg["control"] != seat:
            reg["control"] = seat
            ev.append(msg("ch.ev.control", player=_who(st, seat), region=region_name(rid)))
        if reg["explore"] is not None:
            tok = reg["explore"]
            reg["explore"] = None
            ev.append(msg("ch.ev.explore", player=_who(st, seat), token=msg(f"ch.explore.{tok}")))
            apply_simple(st, seat, EXPLORATION[tok], rid, ev)


# ---------------------------------------------------------------- building


def build_options(st: St, seat: int, points: int, activated: list[list[str]]) -> list[Action]:
    out: list[Action] = []
    fac = st["factions"][seat]
    built = st["seats"][seat]["built"]
    for sid, sd in STRUCTURES.items():
        if sd["faction"] != fac:
            continue
        if sd["build"] <= points and built[sid] < TOKENS["structure_tokens"]:
            for rid, reg in st["regions"].items():
                if (
                    reg["control"] == seat
                    and rid not in st["hq"]
                    and reg["battle"] is None
                    and all(s[0] != sid for s in reg["structures"])
                ):
                    out.append(construct(sid, rid))
        if sd["activate"] <= points:
            for rid, reg in st["regions"].items():
                if (
                    [sid, seat] in reg["structures"]
                    and [sid, rid] not in activated
                    and not enemies_in(st, rid, seat)
                    and reg["battle"] is None
                ):
                    out.append(activate(sid, rid))
    return out


# ---------------------------------------------------------------- skills


def _useful(st: St, seat: int, e: Effect) -> bool:
    """Would this untargeted effect do anything now?"""
    do = e["do"]
    if do == "recruit":
        return bool(st["seats"][seat]["reserve"] > 0)
    if do == "draw":
        return can_draw(st, seat)
    if do == "initiative":
        return bool(st["upcoming"][0] != seat)
    if do == "move":
        return has_step(st, seat, [])
    if do == "build":
        return bool(build_options(st, seat, e["n"], []))
    return bool(do == "vp")


def skill_targets(st: St, seat: int, sid: str) -> list[Action] | None:
    """The ways to use skill ``sid`` now (``[]`` if none); ``None`` means it needs no target."""
    effects = SKILLS[sid]
    e = effects[0]
    do = e["do"]
    s = st["seats"][seat]
    regs = st["regions"]
    if do not in ("crystal", "tunnel_spawn", "nest"):
        return None if any(_useful(st, seat, x) for x in effects) else []
    if do == "crystal":
        return [
            use_skill(sid, rid)
            for rid, reg in regs.items()
            if reg["control"] == seat
            and reg["units"][seat] > 0
            and rid not in st["hq"]
            and reg["battle"] is None
            and reg["crystals"] == 0
        ]
    if do == "tunnel_spawn":
        if s["reserve"] <= 0:
            return []
        return [
            use_skill(sid, rid)
            for rid, reg in regs.items()
            if reg["tunnel"]
            and reg["battle"] is None
            and not enemies_in(st, rid, seat)
            and (rid not in st["hq"] or st["hq"][seat] == rid)
        ]
    if do == "nest":
        return [
            use_skill(sid, rid)
            for rid, reg in regs.items()
            if reg["control"] == seat
            and not occupant_sides(st, rid)
            and reg["token"] is None
            and rid not in st["hq"]
        ]
    return []


def _apply_skill(st: St, seat: int, a: UseSkill, ev: list[Msg]) -> None:
    sid, rid = a.skill, a.region
    st["seats"][seat]["exhausted"].append(sid)
    ev.append(msg("ch.ev.skill", player=_who(st, seat), skill=msg(f"ch.skill.{sid}")))
    for e in SKILLS[sid]:
        do = e["do"]
        if do in ("move", "build"):
            st["pending"] = _new_pending(PendingKind(do), seat, e["n"], paid=False)
        elif do == "crystal" and rid is not None:
            add_crystals(st, rid, 1)
            value = st["regions"][rid]["crystals"]
            ev.append(msg("ch.ev.crystal", region=region_name(rid), value=value))
        elif do == "tunnel_spawn" and rid is not None:
            got = place_units(st, seat, rid, 1)
            ev.append(msg("ch.ev.units_here", player=_who(st, seat), n=got, region=region_name(rid)))
        elif do == "nest" and rid is not None:
            st["regions"][rid]["token"] = {"kind": "nest", "id": "nest"}
            ev.append(msg("ch.ev.nest", region=region_name(rid)))
        else:
            apply_simple(st, seat, [e], None, ev)


# ---------------------------------------------------------------- the actions phase


def _new_pending(kind: PendingKind, seat: int, points: int, paid: bool) -> Decision:
    return {
        "kind": kind.value,
        "seat": seat,
        "points": points,
        "paid": paid,
        "arrived": {},
        "battles": [],
        "activated": [],
        "drew_one": False,
        "cards": [],
        "source": "",
    }


def _cards_with(st: St, seat: int, ptype: str, kinds: list[str] | None = None) -> list[str]:
    """The kinds of card in the hand (``kinds`` when the caller already has them) with points of
    ``ptype``."""
    return [
        k for k in (hand_kinds(st, seat) if kinds is None else kinds) if CARDS[k]["points"].get(ptype, 0) > 0
    ]


def legal_actions(st: St, seat: int) -> list[Action]:
    p: Decision | None = st["pending"]
    if p is not None:
        return _legal_pending(st, seat, p)
    s = st["seats"][seat]
    kinds = hand_kinds(st, seat)
    out: list[Action] = []
    if has_step(st, seat, []):
        out += [move(k) for k in _cards_with(st, seat, "move", kinds)]
    if s["reserve"] > 0:
        out += [recruit(k) for k in _cards_with(st, seat, "recruit", kinds)]
    out += [build(k) for k in _cards_with(st, seat, "build", kinds)]
    if can_draw(st, seat):
        out.append(draw("deck"))
    out += [draw(t) for t in TERRAINS if st["terrain"][t]]
    if st["scoring_by"] is None and not st["final"] and any(CARDS[k].get("scoring") for k in kinds):
        out.append(SCORE)
    for sid in s["skills"]:
        if sid in s["exhausted"]:
            continue
        targets = skill_targets(st, seat, sid)
        out += [use_skill(sid)] if targets is None else targets
    out.append(PASS)
    return out


def _legal_pending(st: St, seat: int, p: Decision) -> list[Action]:
    kind = p["kind"]
    out: list[Action] = []
    if kind == PendingKind.KEEP:
        return [keep(k) for k in sorted({kind_of(c) for c in p["cards"]})]
    if p["paid"] and (kind != PendingKind.RECRUIT or st["seats"][seat]["reserve"] > 0):
        out += [pay(k) for k in _cards_with(st, seat, kind)]
    if kind == PendingKind.MOVE and p["points"] > 0:
        out += [go(a, b) for a, b in steps(st, seat, p["battles"])]
    if kind == PendingKind.BUILD:
        out += build_options(st, seat, p["points"], p["activated"])
    out.append(END)
    return out


def _pay(st: St, seat: int, kind: str, ptype: str, ev: list[Msg]) -> None:
    """Discard one card for its points of ``ptype`` and resolve its rarer symbols."""
    p = decision_of(st)
    card = CARDS[kind]
    discard_from_hand(st, seat, kind)
    pts = int(card["points"].get(ptype, 0))
    ev.append(
        msg("ch.ev.pay", player=_who(st, seat), card=card_name(kind), n=pts, kind=msg(f"ch.points.{ptype}"))
    )
    for sym in card["symbols"]:
        if sym == "initiative":
            move_up(st, seat)
            ev.append(msg("ch.ev.initiative", player=_who(st, seat)))
        elif sym == "draw" or (sym == "draw_one" and not p["drew_one"]):
            p["drew_one"] = p["drew_one"] or sym == "draw_one"
            ev.append(msg("ch.ev.draws", player=_who(st, seat), n=draw_cards(st, seat, 1)))
        elif sym == "star":
            st["vp"][seat] += 1
            ev.append(msg("ch.ev.vp", player=_who(st, seat), n=1))
    if ptype == "recruit":
        got = place_units(st, seat, st["hq"][seat], pts)
        ev.append(msg("ch.ev.recruits", player=_who(st, seat), n=got))
    else:
        p["points"] += pts


def apply(st: St, seat: int, a: Action, ev: list[Msg]) -> bool:
    """Play ``a``; returns True when one of the player's three actions is complete. The verb tells
    the kinds apart (see ``actions``), the most frequent first."""
    if a.verb == "go":
        _go(st, seat, a.origin, a.to, ev)
        return False
    if a.verb == "pay":
        _pay(st, seat, a.card, decision_of(st)["kind"], ev)
        return False
    who = _who(st, seat)
    if a.verb == "end":
        p = decision_of(st)
        ev.append(msg("ch.ev.end", player=who, kind=msg(f"ch.points.{p['kind']}")))
        if p["kind"] == PendingKind.MOVE:
            _end_move(st, seat, ev)
        st["pending"] = None
        return bool(p["paid"])
    if a.verb == "move" or a.verb == "recruit" or a.verb == "build":
        st["pending"] = _new_pending(PendingKind(a.verb), seat, 0, paid=True)
        _pay(st, seat, a.card, a.verb, ev)
        return False
    if a.verb == "draw":
        return _draw_two(st, seat, a.source, ev)
    if a.verb == "keep":
        _keep(st, seat, a.card)
        ev.append(msg("ch.ev.keep", player=who))
        return True
    if a.verb == "construct":
        sid, rid = a.structure, a.region
        decision_of(st)["points"] -= STRUCTURES[sid]["build"]
        st["regions"][rid]["structures"].append([sid, seat])
        st["seats"][seat]["built"][sid] += 1
        ev.append(_structure_event("ch.ev.construct", who, sid, rid))
        return False
    if a.verb == "activate":
        sid, rid = a.structure, a.region
        p = decision_of(st)
        p["points"] -= STRUCTURES[sid]["activate"]
        p["activated"].append([sid, rid])
        ev.append(_structure_event("ch.ev.activate", who, sid, rid))
        apply_simple(st, seat, STRUCTURES[sid]["effect"], rid, ev)
        return False
    if a.verb == "skill":
        _apply_skill(st, seat, a, ev)
        return False
    if a.verb == "score":
        kind = next(k for k in hand_kinds(st, seat) if CARDS[k].get("scoring"))
        discard_from_hand(st, seat, kind)
        st["scoring_by"] = seat
        ev.append(msg("ch.ev.score", player=who))
        return True
    if a.verb == "pass":
        ev.append(msg("ch.ev.pass", player=who))
        return True
    raise AssertionError(a)


def _structure_event(key: str, who: PlayerRef, sid: str, rid: str) -> Msg:
    return msg(key, player=who, structure=msg(f"ch.structure.{sid}"), region=region_name(rid))


def _draw_two(st: St, seat: int, src: str, ev: list[Msg]) -> bool:
    """Draw two from ``src`` to keep one; True when only one card came (kept: the action is done)."""
    if src == "deck":
        cards = take_from_deck(st, seat, 2)
    else:
        deck = st["terrain"][src]
        cards, st["terrain"][src] = deck[:2], deck[2:]
    ev.append(msg("ch.ev.draw_two", player=_who(st, seat), source=msg(f"ch.source.{src}")))
    if len(cards) == 1:
        st["seats"][seat]["hand"] = sorted([*st["seats"][seat]["hand"], cards[0]])
        return True
    pend = _new_pending(PendingKind.KEEP, seat, 0, paid=True)
    pend["cards"] = cards
    pend["source"] = src
    st["pending"] = pend
    return False


def _keep(st: St, seat: int, kind: str) -> None:
    """Keep the drawn card of ``kind``; the other goes where it came from."""
    p = decision_of(st)
    cards = list(p["cards"])
    kept = next(c for c in cards if kind_of(c) == kind)
    cards.remove(kept)
    s = st["seats"][seat]
    s["hand"] = sorted([*s["hand"], kept])
    if p["source"] == "deck":
        s["discard"].extend(cards)
    else:
        st["terrain"][p["source"]].extend(cards)
    st["pending"] = None
