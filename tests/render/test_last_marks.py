"""The last action is marked on every board, for every action kind of every game.

For each game, seeded games are played through the engine, choosing at each step an action of a
kind not yet seen whenever one is legal, until every kind has been played once. For each kind, the
position before, the action and the position after are kept; the test works out from the two
positions and the action's own words which places the action touched (where the troops stood and
where they went, the hex a coin went to, the region a step left and the one it reached...) and
checks that the engine's record of the action holds exactly those places and that the board's
marker draws them (with the marks of the moves before it since the last handover, ``since``). Kinds
that touch no place on the board are listed with the reason, and add no mark to the board. A kind
added to a game without a line here fails the completeness tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

import engine
from engine.batailles.actions import _PARSERS as BATAILLES_VERBS
from engine.cryhavoc.actions import VERBS as CRYHAVOC_VERBS
from engine.rng import Rng
from engine.warchest import actions as wc_actions
from render.batailles import board as bt_board
from render.cryhavoc import board as ch_board
from render.warchest import board as wc_board
from tests.render import test_batailles_images as bt_images

View = dict[str, Any]


@dataclass(frozen=True)
class Sample:
    """One action of a kind, with the public views of the positions before and after it, and the
    state after it (whose ``last`` is the engine's record of the action itself)."""

    before: View
    action: Any
    after: View
    state: Any


def _zone(label: str) -> tuple[int, int]:
    return ("abcdefghijklmnop".index(label[0]), int(label[1:]) - 1)


def _hex(label: str) -> tuple[int, int]:
    return ("abcdefg".index(label[0]), int(label[1:]) - 1)


Table = tuple[list[str], dict[str, str], int]
"""Players, options and seed of one game."""


def cover(
    game_name: str,
    tables: list[Table],
    kind_of: Callable[[Any, View], str],
    wanted: set[str],
    policy: Callable[[Any, str, list[Any], Rng], Any] | None = None,
    max_steps: int = 3000,
) -> dict[str, Sample]:
    """Seeded games of ``game_name`` played until every kind of ``wanted`` was played once: the
    first sample of each kind. An unseen kind is played as soon as one is legal; otherwise
    ``policy`` (or a seeded random choice) picks."""
    game = engine.get_game(game_name)
    found: dict[str, Sample] = {}
    for players, options, seed in tables:
        state = game.new_game(players, seed=seed, options=options)
        chooser = Rng(seed)
        for step in range(max_steps):
            if game.is_over(state) or wanted <= found.keys():
                break
            acting = game.to_act(state)
            player = acting[step % len(acting)]
            legal = game.legal_actions(state, player)
            before = game.view(state, None)
            fresh = [a for a in legal if kind_of(a, before) in wanted - found.keys()]
            if fresh:
                action = fresh[chooser.below(len(fresh))]
            elif policy is not None:
                action = policy(state, player, legal, chooser)
            else:
                action = legal[chooser.below(len(legal))]
            state, _events = game.apply(state, player, action)
            kind = kind_of(action, before)
            if kind in wanted and kind not in found:
                found[kind] = Sample(before, action, game.view(state, None), state)
        if wanted <= found.keys():
            return found
    raise AssertionError(f"{game_name}: never played {sorted(wanted - found.keys())}")


# --------------------------------------------------------------------------- Batailles


def _acting_zone(view: View) -> tuple[int, int]:
    activation = view["activation"]
    return (int(activation["zone"][0]), int(activation["zone"][1]))


def _troop_zone(view: View, seat: int, name: str) -> tuple[int, int]:
    troop = next(t for t in view["troops"] if t["seat"] == seat and t["name"] == name)
    return (int(troop["zone"][0]), int(troop["zone"][1]))


def _bt_moved_to(s: Sample) -> list[tuple[int, int]]:
    seat, name = s.before["active"], s.before["activation"]["troops"][0]
    start, end = _acting_zone(s.before), _troop_zone(s.after, seat, name)
    assert start != end
    return [start, end]


def _bt_lost(s: Sample) -> list[tuple[int, int]]:
    seat = s.before["pending"]["seat"]
    return [_troop_zone(s.before, seat, str(s.action).split()[1])]


def _bt_activated(s: Sample) -> list[tuple[int, int]]:
    return [_troop_zone(s.after, s.after["active"], str(s.action).split()[1].split("+")[0])]


def _bt_pending(s: Sample) -> list[tuple[int, int]]:
    return [(int(s.before["pending"]["zone"][0]), int(s.before["pending"]["zone"][1]))]


def _bt_combat(s: Sample) -> list[tuple[int, int]]:
    c = s.before["combat"]
    return [(int(c["origin"][0]), int(c["origin"][1])), (int(c["target"][0]), int(c["target"][1]))]


BATAILLES_MARKED: dict[str, Callable[[Sample], list[tuple[int, int]]]] = {
    "deploy": lambda s: [_zone(str(s.action).split()[2])],
    "activate": _bt_activated,
    "coordinate": _bt_activated,
    "move": _bt_moved_to,
    "face": lambda s: [_acting_zone(s.before)],
    "attack": lambda s: [_acting_zone(s.before), _zone(str(s.action).split()[1])],
    "reroll": _bt_combat,
    "done": lambda s: [_acting_zone(s.before)],
    "morale": lambda s: [_zone(str(s.action).split()[1])],
    "hold": _bt_pending,
    "lose": _bt_lost,
}
"""Per kind, the zones it touched: worked out from the positions around it and its words."""

BATAILLES_UNMARKED = {
    "recruit": "army building happens before any troop stands on the battlefield",
    "dismiss": "army building happens before any troop stands on the battlefield",
    "ready": "says the army (or its characteristics) is final: nothing moves",
    "retrain": "hardcore: picks a troop off the battlefield whose characteristics change",
    "profile": "hardcore: the new characteristics of a troop, nothing on the battlefield",
    "end": "ends the turn: no troop acts",
}


def _bt_kind(action: Any, _view: View) -> str:
    return str(action).split()[0]


def _bt_policy(state: Any, player: str, legal: list[Any], chooser: Rng) -> Any:
    return bt_images._choose(state, player, chooser)


def _bt_clash(state: Any, player: str, legal: list[Any], chooser: Rng) -> Any:
    """Heavy troops deployed in clusters on a small map: a zone soon has to choose its losses."""
    return bt_images._choose(state, player, chooser, bt_images.HEAVY, cluster=True)


@cache
def batailles_samples() -> dict[str, Sample]:
    battles = [
        (bt_images.PLAYERS, options, seed)
        for seed in range(1, 4)
        for options in ({"map": "open_field", "armies": "raiders"}, {"map": "default"})
    ]
    battle = cover("batailles", battles, _bt_kind, set(BATAILLES_MARKED) - {"lose"} | {"end"}, _bt_policy)
    clash = [(bt_images.PLAYERS, {"custom_map": bt_images.SMALL_MAP, "armies": "build"}, 1)]
    loss = cover("batailles", clash, _bt_kind, {"lose"}, _bt_clash)
    built = [(bt_images.PLAYERS, {"armies": "build", "hardcore": "on"}, seed) for seed in range(1, 6)]
    building = cover("batailles", built, _bt_kind, {"recruit", "dismiss", "ready", "retrain", "profile"})
    return {**battle, **building, **loss}


def test_every_batailles_action_kind_is_listed() -> None:
    kinds = set(BATAILLES_VERBS)
    assert set(BATAILLES_MARKED) | set(BATAILLES_UNMARKED) == kinds
    assert not set(BATAILLES_MARKED) & set(BATAILLES_UNMARKED)


def _since(view: View, key: str) -> list[Any]:
    """The places the view's moves since the last handover touched, each once."""
    out: list[Any] = []
    for marked in view["since"]:
        for p in marked[key]:
            place = tuple(p) if isinstance(p, list) else p
            if place not in out:
                out.append(place)
    return out


@pytest.mark.parametrize("kind", sorted(BATAILLES_MARKED))
def test_batailles_marks_the_zones_an_action_touched(kind: str) -> None:
    s = batailles_samples()[kind]
    expected = BATAILLES_MARKED[kind](s)
    record = s.state.last
    assert record["text"] == str(s.action)
    assert [tuple(z) for z in record["zones"]] == expected
    board = s.after["board"]
    marked = bt_board.marked_zones(s.after, board["width"], board["height"])
    if kind == "deploy":  # both armies deploy unseen: the public board names the troop, not its place
        assert s.after["last"]["zones"] == [] and not set(expected) & set(marked)
        assert s.after["last"]["text"] == " ".join(str(s.action).split()[:2])
        return
    if kind not in ("activate", "coordinate", "done"):  # these change nothing: the line names the move before
        assert s.after["last"]["text"] == str(s.action) and s.after["since"][-1]["text"] == str(s.action)
    assert set(expected) <= set(marked), (kind, expected, marked)


@pytest.mark.parametrize("kind", sorted(BATAILLES_UNMARKED))
def test_batailles_kinds_without_a_zone_mark_none(kind: str) -> None:
    s = batailles_samples()[kind]
    assert s.state.last["zones"] == []
    assert all(m["text"] != str(s.action) or not m["zones"] for m in s.after["since"])


def test_the_move_of_the_issue_frames_its_zones() -> None:
    """ "Move north, then face west", the activation ending with it: the zones the troops left and
    reached are framed though no troop is acting any more."""
    s = batailles_samples()["move"]
    after = dict(s.after, activation=None, pending=None, combat=None)
    board = after["board"]
    marked = bt_board.marked_zones(after, board["width"], board["height"])
    assert set(_bt_moved_to(s)) <= set(marked) and set(marked) <= set(_since(after, "zones"))


# --------------------------------------------------------------------------- War Chest


def _wc_kind(action: Any, _view: View) -> str:
    if isinstance(action, wc_actions.Tactic) and action.src is None:
        return "tactic footman"
    return str(action.verb)


def _wc_named(s: Sample) -> list[tuple[int, int]]:
    return [_hex(w) for w in str(s.action).split()[2:]]


def _wc_footmen(s: Sample) -> list[tuple[int, int]]:
    seat = s.before["to_act"][0]
    feet = [u["hex"] for u in s.before["units"] if u["seat"] == seat and u["type"] == "footman"]
    return sorted((int(h[0]), int(h[1])) for h in feet)


def _wc_guard(s: Sample) -> list[tuple[int, int]]:
    """The Royal Guard struck by the action before: the last hex that action touched."""
    struck = s.before["last"]["hexes"][-1]
    assert any(u["hex"] == struck and u["type"] == "royal_guard" for u in s.before["units"])
    return [(int(struck[0]), int(struck[1]))]


WARCHEST_MARKED: dict[str, Callable[[Sample], list[tuple[int, int]]]] = {
    "deploy": _wc_named,
    "bolster": _wc_named,
    "move": _wc_named,
    "control": _wc_named,
    "attack": _wc_named,
    "tactic": _wc_named,
    "tactic footman": _wc_footmen,
    "guard": _wc_guard,
}

WARCHEST_UNMARKED = {
    "initiative": "a coin played face down to take the initiative marker: off the board",
    "recruit": "a coin taken from the supply into the bag: off the board",
    "pass": "a coin played face down to do nothing: off the board",
    "skip": "declines a follow-up manoeuvre: nothing on the board changes",
    "pick": "a draft pick, before the board is in play",
}


def _wc_policy(state: Any, player: str, legal: list[Any], chooser: Rng) -> Any:
    """Picks the Footman and the Royal Guard when drafting, then plays at random (passing last)."""
    for unit in ("footman", "royal_guard"):
        picks = [a for a in legal if isinstance(a, wc_actions.Pick) and a.unit == unit]
        if picks:
            return picks[0]
    attacks = [a for a in legal if isinstance(a, wc_actions.Attack)]
    if attacks:
        return attacks[chooser.below(len(attacks))]
    useful = [a for a in legal if not isinstance(a, wc_actions.Pass | wc_actions.Skip)] or legal
    return useful[chooser.below(len(useful))]


@cache
def warchest_samples() -> dict[str, Sample]:
    tables = [(["111", "222"], {"armies": "draft"}, seed) for seed in range(1, 40)]
    return cover("warchest", tables, _wc_kind, set(WARCHEST_MARKED) | set(WARCHEST_UNMARKED), _wc_policy)


def test_every_warchest_action_kind_is_listed() -> None:
    verbs = {cls.verb for cls in wc_actions.Action.__args__}  # type: ignore[attr-defined]
    assert set(WARCHEST_MARKED) | set(WARCHEST_UNMARKED) == verbs | {"tactic footman"}
    assert not set(WARCHEST_MARKED) & set(WARCHEST_UNMARKED)


@pytest.mark.parametrize("kind", sorted(WARCHEST_MARKED))
def test_warchest_outlines_the_hexes_an_action_touched(kind: str) -> None:
    s = warchest_samples()[kind]
    expected = WARCHEST_MARKED[kind](s)
    assert expected
    assert list(s.state.last[2]) == expected
    assert [tuple(h) for h in s.after["last"]["hexes"]] == expected
    outlined = wc_board.outlined_hexes(s.after)
    assert set(expected) <= set(outlined) and outlined == _since(s.after, "hexes")


@pytest.mark.parametrize("kind", sorted(WARCHEST_UNMARKED))
def test_warchest_kinds_without_a_hex_outline_none(kind: str) -> None:
    s = warchest_samples()[kind]
    assert s.state.last[2] == ()
    assert wc_board.outlined_hexes(s.after) == _since(s.after, "hexes")


# --------------------------------------------------------------------------- Cry Havoc


def _ch_kind(action: Any, view: View) -> str:
    verb = str(action.verb)
    pending = view.get("pending") or {}
    if verb == "pay":
        return "pay recruit" if pending.get("kind") == "recruit" else "pay"
    if verb == "skill":
        return "skill in a region" if action.region is not None else "skill"
    return verb


def _ch_recruited(s: Sample) -> list[str]:
    """The region where the acting seat has more units after the action than before."""
    seat = str(s.before["to_act"][0])

    def units(view: View) -> dict[str, int]:
        return {str(r["id"]): int(r["units"].get(seat, 0)) for r in view["regions"]}

    gained = [rid for rid, n in units(s.after).items() if n > units(s.before)[rid]]
    assert len(gained) == 1, gained
    return gained


def _ch_battle(s: Sample) -> list[str]:
    return [str(s.before["battle"]["region"])]


CRYHAVOC_MARKED: dict[str, Callable[[Sample], list[str]]] = {
    "go": lambda s: [s.action.origin, s.action.to],
    "recruit": _ch_recruited,
    "pay recruit": _ch_recruited,
    "construct": lambda s: [s.action.region],
    "activate": lambda s: [s.action.region],
    "skill in a region": lambda s: [s.action.region],
    "place": _ch_battle,
    "play": _ch_battle,
    "fold": _ch_battle,
    "capture": _ch_battle,
    "kill": _ch_battle,
    "retreat": lambda s: [*_ch_battle(s), s.action.region],
}

CRYHAVOC_UNMARKED = {
    "discard": "a card from the hand to the discard pile: off the map",
    "move": "starts a move by paying a card: the steps that follow are marked each",
    "build": "starts a construction by paying a card: the structure is marked when built",
    "pay": "one more card for a move or a construction: points, not a place",
    "draw": "draws two cards: off the map",
    "keep": "keeps one of two cards, hidden: off the map",
    "score": "plays the Enable Scoring card: off the map",
    "skill": "a skill without a target region (cards, points, victory points)",
    "end": "finishes the action under way: its steps were marked each",
    "pass": "spends an action doing nothing",
    "ransom": "buys a prisoner back for victory points: off the map",
    "done": "stops buying prisoners back",
}


@cache
def cryhavoc_samples() -> dict[str, Sample]:
    wanted = set(CRYHAVOC_MARKED) | set(CRYHAVOC_UNMARKED)
    tables = [
        ([str(111 * (i + 1)) for i in range(count)], {}, seed) for seed in range(1, 6) for count in (2, 3, 4)
    ]
    return cover("cryhavoc", tables, _ch_kind, wanted)


def test_every_cryhavoc_action_kind_is_listed() -> None:
    kinds = set(CRYHAVOC_VERBS) | {"pay recruit", "skill in a region"}
    assert set(CRYHAVOC_MARKED) | set(CRYHAVOC_UNMARKED) == kinds
    assert not set(CRYHAVOC_MARKED) & set(CRYHAVOC_UNMARKED)


@pytest.mark.parametrize("kind", sorted(CRYHAVOC_MARKED))
def test_cryhavoc_rings_the_regions_an_action_touched(kind: str) -> None:
    s = cryhavoc_samples()[kind]
    expected = CRYHAVOC_MARKED[kind](s)
    assert s.state["last"]["regions"] == expected
    assert s.after["last"]["regions"] == expected
    rings = ch_board.highlight_rings(s.after)
    assert all(rings.get(r, 0) > 0 for r in expected), (kind, expected, rings)


@pytest.mark.parametrize("kind", sorted(CRYHAVOC_UNMARKED))
def test_cryhavoc_kinds_without_a_region_ring_none(kind: str) -> None:
    s = cryhavoc_samples()[kind]
    assert s.state["last"]["regions"] == []
    battle = (s.after.get("battle") or {}).get("region")
    assert set(ch_board.highlight_rings(s.after)) <= {battle, *_since(s.after, "regions")}


# --------------------------------------------------------------------------- move paths

PATHS: list[tuple[str, Callable[[], dict[str, Sample]], set[str], str, Callable[[View], Any]]] = [
    ("batailles", batailles_samples, {"move"}, "zones", lambda v: bt_board.move_path(v, 16, 16)),
    ("warchest", warchest_samples, {"move"}, "hexes", wc_board.move_path),
    ("cryhavoc", cryhavoc_samples, {"go", "retreat"}, "regions", ch_board.move_path),
]
"""Per game: the kinds that take pieces from one place to another, where the view keeps the
places, and the board's reading of the arrow it draws."""


@pytest.mark.parametrize(("game", "samples", "moves", "key", "drawn"), PATHS, ids=[p[0] for p in PATHS])
def test_a_move_draws_its_path_from_where_it_left_to_where_it_went(
    game: str,
    samples: Callable[[], dict[str, Sample]],
    moves: set[str],
    key: str,
    drawn: Callable[[View], Any],
) -> None:
    """A move's path goes from the place left to the place reached, the first and second places
    the action touched; no other kind draws one."""
    for kind, s in samples().items():
        last = s.after["last"]
        if kind in moves:
            start, end = (tuple(p) if isinstance(p, list) else p for p in last[key])
            assert [tuple(p) if isinstance(p, list) else p for p in last["path"]] == [start, end]
            assert drawn(s.after) == (start, end), kind
        elif last["text"] == str(s.action):  # the board's line names this action: no arrow
            assert last["path"] is None and drawn(s.after) is None, kind
