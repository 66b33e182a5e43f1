"""The battle phase: battles resolve one at a time in battle-token order.

Per battle: a crystal value is added to the region; the attacker then the defender put each of
their units in the battle on an objective; tactics cards alternate, attacker first, until both
have folded (folding is final); then the objectives resolve top to bottom (Region Control, Take
Prisoners, Attrition) unless a card reversed the order. Neutral Trogs decide by fixed rules and
never play cards. The fight under way lives in ``st["fight"]``; ``sides`` are ``[attacker,
defender]`` as seats, the neutral index standing for neutral Trogs.
"""

from __future__ import annotations

from engine.cryhavoc.actions import (
    FOLD,
    Action,
    Play,
    capture,
    kill,
    place,
    play,
    retreat,
)
from engine.cryhavoc.content import CARDS, OBJECTIVES, STRUCTURES, TOKENS
from engine.cryhavoc.effects import region_name
from engine.cryhavoc.state import (
    Fight,
    St,
    Step,
    add_crystals,
    battle_parts,
    below,
    board,
    discard_from_hand,
    enemies_in,
    fight_of,
    hand_kinds,
    n_players,
    structure_parts,
)
from engine.cryhavoc.state import neighbours as next_to
from engine.text import Msg, PlayerRef, msg

NEUTRAL_PLACEMENT = ("control", "attrition", "prisoners")
"""Neutral Trogs fill the objectives in this rotation."""
NEUTRAL_TAKES = ("attrition", "prisoners", "control")
"""Where neutral Trogs (and any automatic choice) take prisoners or kill first."""


def _side_ref(st: St, side: int) -> Msg | PlayerRef:
    if side >= n_players(st):
        return msg("ch.trogs_neutral")
    return PlayerRef(st["players"][side])


def _is_player(st: St, side: int) -> bool:
    return side < n_players(st)


def _sides(st: St) -> dict[str, Msg | PlayerRef]:
    """The fight's attacker and defender, for messages that give each side's strength."""
    att, dfn = fight_of(st)["sides"]
    return {"attacker": _side_ref(st, att), "defender": _side_ref(st, dfn)}


def _trog_key(st: St, key: str, actor: int, target: int) -> str:
    """``key``, or its variant when the neutral Trogs act or suffer (their verbs agree in the plural)."""
    if not _is_player(st, actor):
        return f"{key}_by_trogs"
    return key if _is_player(st, target) else f"{key}_of_trogs"


def _start(st: St, ev: list[Msg]) -> None:
    st["battles"].sort()
    num, rid, att, dfn = battle_parts(st["battles"].pop(0))
    reg = st["regions"][rid]
    add_crystals(st, rid, 1)
    counts = [reg["units"][att], reg["units"][dfn]]
    reg["units"][att] = 0
    reg["units"][dfn] = 0
    fight: Fight = {
        "num": num,
        "region": rid,
        "sides": [att, dfn],
        "step": Step.PLACE.value,
        "place_side": 0,
        "to_place": counts,
        "slots": [[0, 0, 0], [0, 0, 0]],
        "bonus": [[0, 0, 0], [0, 0, 0]],
        "turn": 0,
        "passed": [False, False],
        "reversed": False,
        "queue": [],
        "winner": None,
        "capturer": None,
        "kills": None,
        "kill_side": 0,
    }
    st["fight"] = fight
    ev.append(
        msg(
            "ch.ev.battle_start",
            number=num,
            region=region_name(rid),
            attacker=_side_ref(st, att),
            defender=_side_ref(st, dfn),
            a=counts[0],
            d=counts[1],
        )
    )


def playable(st: St, seat: int) -> list[Action]:
    f = fight_of(st)
    me = f["sides"].index(seat)
    terrain = board(st).terrain(f["region"])
    out: list[Action] = []
    for k in hand_kinds(st, seat):
        c = CARDS[k]
        e = c.get("battle")
        if e is None or (c["terrain"] is not None and c["terrain"] != terrain):
            continue
        do = e["do"]
        if do == "bonus":
            objs = OBJECTIVES if e["objective"] == "any" else (e["objective"],)
            out += [play(k, (o,)) if e["objective"] == "any" else play(k) for o in objs]
        elif do == "shift":
            for i, src in enumerate(OBJECTIVES):
                if f["slots"][me][i] > 0:
                    out += [play(k, (src, dst)) for dst in OBJECTIVES if dst != src]
        elif do == "reinforce":
            if st["seats"][seat]["reserve"] > 0:
                out += [play(k, (o,)) for o in OBJECTIVES]
        elif do == "strike":
            out += [play(k, (o,)) for i, o in enumerate(OBJECTIVES) if f["slots"][1 - me][i] > 0]
        elif do == "reverse":
            if not f["reversed"]:
                out.append(play(k))
        elif do == "vp":
            out.append(play(k))
    return out


def _set(side: int | None) -> int:
    """A side the battle sets before the step that reads it (``winner``, ``capturer``)."""
    assert side is not None, "read before the battle set it"
    return side


def _owed(f: Fight) -> list[int]:
    """The kills each side still owes: counted when the Attrition objective starts resolving."""
    kills = f["kills"]
    assert kills is not None, "read before the kills were counted"
    return kills


def acting(st: St) -> int | None:
    f: Fight | None = st["fight"]
    if f is None:
        return None
    step = f["step"]
    if step == Step.PLACE:
        return int(f["sides"][f["place_side"]])
    if step == Step.CARDS:
        return int(f["sides"][f["turn"]])
    if step == Step.CAPTURE:
        return int(f["sides"][_set(f["capturer"])])
    if step == Step.KILL:
        return int(f["sides"][f["kill_side"]])
    if step == Step.RETREAT:
        return int(f["sides"][1 - _set(f["winner"])])
    return None


def legal(st: St, seat: int) -> list[Action]:
    f = fight_of(st)
    step = f["step"]
    if step == Step.PLACE:
        return [place(o) for o in OBJECTIVES]
    if step == Step.CARDS:
        return [*playable(st, seat), FOLD]
    if step == Step.CAPTURE:
        loser = 1 - _set(f["capturer"])
        return [capture(o) for i, o in enumerate(OBJECTIVES) if f["slots"][loser][i] > 0]
    if step == Step.KILL:
        other = 1 - f["kill_side"]
        return [kill(o) for i, o in enumerate(OBJECTIVES) if f["slots"][other][i] > 0]
    if step == Step.RETREAT:
        return [retreat(r) for r in retreat_options(st, seat, f["region"])]
    return []


def retreat_options(st: St, seat: int, rid: str) -> list[str]:
    """Adjacent regions the seat controls, not in battle, free of enemies, and not someone else's HQ."""
    out = []
    for r in next_to(st, rid, seat):
        reg = st["regions"][r]
        if (
            reg["control"] == seat
            and reg["battle"] is None
            and not enemies_in(st, r, seat)
            and (r not in st["hq"] or st["hq"][seat] == r)
        ):
            out.append(r)
    return out


def apply(st: St, seat: int, a: Action, ev: list[Msg]) -> None:
    f = fight_of(st)
    who = PlayerRef(st["players"][seat])
    if a.verb == "place":
        side = f["place_side"]
        f["slots"][side][OBJECTIVES.index(a.objective)] += 1
        f["to_place"][side] -= 1
        ev.append(msg("ch.ev.place", player=who, objective=msg(f"ch.objective.{a.objective}")))
    elif a.verb == "play":
        _play(st, seat, a, ev)
        f["turn"] = 1 - f["turn"]
    elif a.verb == "fold":
        f["passed"][f["turn"]] = True
        ev.append(msg("ch.ev.fold", player=who))
        f["turn"] = 1 - f["turn"]
    elif a.verb == "capture":
        _capture(st, _set(f["capturer"]), a.objective, ev)
        f["queue"].pop(0)
        f["step"] = Step.RESOLVE.value
    elif a.verb == "kill":
        _kill(st, f["kill_side"], a.objective, ev)
        f["step"] = Step.RESOLVE.value
    elif a.verb == "retreat":
        _retreat_to(st, seat, a.region, ev)
        _finish(st, ev)


def _play(st: St, seat: int, a: Play, ev: list[Msg]) -> None:
    f = fight_of(st)
    me = f["sides"].index(seat)
    kind = a.card
    objectives = a.objectives
    discard_from_hand(st, seat, kind)
    e = CARDS[kind]["battle"]
    assert e is not None, "a card played in battle has a battle effect"
    ev.append(msg("ch.ev.play", player=PlayerRef(st["players"][seat]), card=msg(f"ch.card.{kind}")))
    do = e["do"]
    if do == "bonus":
        obj = objectives[0] if e["objective"] == "any" else e["objective"]
        f["bonus"][me][OBJECTIVES.index(obj)] += e["n"]
    elif do == "shift":
        f["slots"][me][OBJECTIVES.index(objectives[0])] -= 1
        f["slots"][me][OBJECTIVES.index(objectives[1])] += 1
    elif do == "reinforce":
        k = min(e["n"], st["seats"][seat]["reserve"])
        st["seats"][seat]["reserve"] -= k
        f["slots"][me][OBJECTIVES.index(objectives[0])] += k
    elif do == "strike":
        _remove(st, 1 - me, objectives[0])
    elif do == "reverse":
        f["reversed"] = True
    elif do == "vp":
        st["vp"][seat] += e["n"]


def _remove(st: St, side: int, obj: str) -> None:
    """A unit leaves the battle board, killed: back to its owner's reserve (or the neutral pool)."""
    f = fight_of(st)
    f["slots"][side][OBJECTIVES.index(obj)] -= 1
    owner = f["sides"][side]
    if _is_player(st, owner):
        st["seats"][owner]["reserve"] += 1
    else:
        st["neutral"] += 1


def _capture(st: St, capturer: int, obj: str, ev: list[Msg]) -> None:
    f = fight_of(st)
    loser = 1 - capturer
    f["slots"][loser][OBJECTIVES.index(obj)] -= 1
    st["prisoners"][f["sides"][capturer]][f["sides"][loser]] += 1
    ev.append(
        msg(
            _trog_key(st, "ch.ev.capture", f["sides"][capturer], f["sides"][loser]),
            side=_side_ref(st, f["sides"][capturer]),
            owner=_side_ref(st, f["sides"][loser]),
            objective=msg(f"ch.objective.{obj}"),
        )
    )


def _kill(st: St, side: int, obj: str, ev: list[Msg]) -> None:
    f = fight_of(st)
    _remove(st, 1 - side, obj)
    _owed(f)[side] -= 1
    owner = f["sides"][side]
    if _is_player(st, owner):
        st["vp"][owner] += 1
    ev.append(
        msg(
            _trog_key(st, "ch.ev.kill", owner, f["sides"][1 - side]),
            side=_side_ref(st, owner),
            victim=_side_ref(st, f["sides"][1 - side]),
            objective=msg(f"ch.objective.{obj}"),
        )
    )


def _strength(st: St, side: int, obj: int) -> int:
    f = fight_of(st)
    s = int(f["slots"][side][obj] + f["bonus"][side][obj])
    if obj == 0:
        owner = f["sides"][side]
        reg = st["regions"][f["region"]]
        s += sum(STRUCTURES[t]["guard"] for t, o in map(structure_parts, reg["structures"]) if o == owner)
    return s


def _auto_choice(f: Fight, side: int) -> str:
    for o in NEUTRAL_TAKES:
        if f["slots"][side][OBJECTIVES.index(o)] > 0:
            return o
    raise AssertionError("no unit to take")


def _choice_matters(f: Fight, side: int) -> bool:
    """Picking where to take a unit from matters only while another objective is still to resolve."""
    pending = f["queue"][1:]
    return bool(pending) and sum(1 for x in f["slots"][side] if x > 0) > 1


def _resolve_control(st: St, ev: list[Msg]) -> None:
    f = fight_of(st)
    rid = f["region"]
    reg = st["regions"][rid]
    s0, s1 = _strength(st, 0, 0), _strength(st, 1, 0)
    win = 0 if s0 > s1 else 1
    f["winner"] = win
    owner = f["sides"][win]
    if _is_player(st, owner):
        reg["control"] = owner
        st["vp"][owner] += TOKENS["control_vp"]
        ev.append(
            msg(
                "ch.ev.control_won",
                player=PlayerRef(st["players"][owner]),
                region=region_name(rid),
                a=s0,
                d=s1,
                **_sides(st),
            )
        )
    else:
        # The seed: a Trog horde token is put in place of a Trog control token.
        reg["control"] = None
        party = spare_war_party(st) if reg["token"] is None else None
        if party is None:
            ev.append(msg("ch.ev.control_trogs_no_token", region=region_name(rid), a=s0, d=s1, **_sides(st)))
        else:
            reg["token"] = {"kind": "war_party", "id": party}
            ev.append(msg("ch.ev.control_trogs", region=region_name(rid), a=s0, d=s1, **_sides(st)))


def spare_war_party(st: St) -> str | None:
    """A War Party token drawn at random from those of the box not on the map, or ``None``."""
    spare: list[str] = [t["id"] for t in TOKENS["war_party"]]
    for reg in st["regions"].values():
        tok = reg["token"]
        if tok is not None and tok["kind"] == "war_party" and tok["id"] in spare:
            spare.remove(tok["id"])
    if not spare:
        return None
    return spare[below(st, len(spare))]


def advance(st: St, ev: list[Msg]) -> bool:
    """Run every automatic step; True once no battle is left, False when a player must decide."""
    while True:
        f = st["fight"]
        if f is None:
            if not st["battles"]:
                return True
            _start(st, ev)
            continue
        step = f["step"]
        if step == Step.PLACE:
            side = f["place_side"]
            if f["to_place"][side] > 0 and _is_player(st, f["sides"][side]):
                return False
            i = 0
            while f["to_place"][side] > 0:
                f["slots"][side][OBJECTIVES.index(NEUTRAL_PLACEMENT[i % 3])] += 1
                f["to_place"][side] -= 1
                i += 1
            if side == 0:
                f["place_side"] = 1
            else:
                f["step"] = Step.CARDS.value
            continue
        if step == Step.CARDS:
            if all(f["passed"]):
                f["step"] = Step.RESOLVE.value
                order = list(OBJECTIVES)
                f["queue"] = order[::-1] if f["reversed"] else order
                continue
            turn = f["turn"]
            if f["passed"][turn]:
                f["turn"] = 1 - turn
                continue
            seat = f["sides"][turn]
            if not _is_player(st, seat) or not playable(st, seat):
                f["passed"][turn] = True
                f["turn"] = 1 - turn
                continue
            return False
        if step == Step.RESOLVE:
            if not f["queue"]:
                if _end_battle(st, ev):
                    continue
                return False
            obj = f["queue"][0]
            if obj == "control":
                _resolve_control(st, ev)
                f["queue"].pop(0)
            elif obj == "prisoners":
                s0, s1 = _strength(st, 0, 1), _strength(st, 1, 1)
                if s0 == s1:
                    ev.append(msg("ch.ev.no_prisoner", a=s0, d=s1, **_sides(st)))
                    f["queue"].pop(0)
                    continue
                cap_side = 0 if s0 > s1 else 1
                loser = 1 - cap_side
                if sum(f["slots"][loser]) == 0:
                    f["queue"].pop(0)
                    continue
                f["capturer"] = cap_side
                if _is_player(st, f["sides"][cap_side]) and _choice_matters(f, loser):
                    f["step"] = Step.CAPTURE.value
                    return False
                _capture(st, cap_side, _auto_choice(f, loser), ev)
                f["queue"].pop(0)
            else:
                if f["kills"] is None:
                    f["kills"] = [_strength(st, 0, 2), _strength(st, 1, 2)]
                    f["kill_side"] = 0
                side = f["kill_side"]
                if side > 1:
                    f["kills"] = None
                    f["queue"].pop(0)
                    continue
                if _owed(f)[side] <= 0 or sum(f["slots"][1 - side]) == 0:
                    f["kill_side"] += 1
                    continue
                if _is_player(st, f["sides"][side]) and _choice_matters(f, 1 - side):
                    f["step"] = Step.KILL.value
                    return False
                _kill(st, side, _auto_choice(f, 1 - side), ev)
            continue
        return False


def _end_battle(st: St, ev: list[Msg]) -> bool:
    """Survivors return; the loser of Region Control retreats. False if the loser must pick where."""
    f = fight_of(st)
    rid = f["region"]
    reg = st["regions"][rid]
    n = n_players(st)
    win = f["winner"]
    for side in (0, 1):
        owner = f["sides"][side]
        left = sum(f["slots"][side])
        f["slots"][side] = [0, 0, 0]
        if not _is_player(st, owner):
            st["neutral"] += left
            if side != win and left > 0 and reg["token"] is None:
                # The seed: in a game of two or three players, Nests are placed when the Trogs must
                # retreat after the battle.
                reg["token"] = {"kind": "nest", "id": "nest"}
                ev.append(msg("ch.ev.trogs_retreat", region=region_name(rid)))
        elif side == win:
            reg["units"][owner] += left
        else:
            f["retreating"] = left
    loser = f["sides"][1 - _set(win)]
    if loser < n and f.get("retreating", 0) > 0:
        options = retreat_options(st, loser, rid)
        if len(options) > 1:
            f["step"] = Step.RETREAT.value
            return False
        if options:
            _retreat_to(st, loser, options[0], ev)
        else:
            st["seats"][loser]["reserve"] += f["retreating"]
            ev.append(msg("ch.ev.retreat_reserve", player=PlayerRef(st["players"][loser]), n=f["retreating"]))
    _finish(st, ev)
    return True


def _retreat_to(st: St, seat: int, dst: str, ev: list[Msg]) -> None:
    f = fight_of(st)
    st["regions"][dst]["units"][seat] += f["retreating"]
    ev.append(
        msg(
            "ch.ev.retreat", player=PlayerRef(st["players"][seat]), n=f["retreating"], region=region_name(dst)
        )
    )


def _finish(st: St, ev: list[Msg]) -> None:
    f = fight_of(st)
    st["regions"][f["region"]]["battle"] = None
    ev.append(msg("ch.ev.battle_end", number=f["num"], region=region_name(f["region"])))
    st["fight"] = None
