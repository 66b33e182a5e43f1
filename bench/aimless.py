"""Aimless moves of the computer players: steps taken back, activations that change nothing, troops
that face away from the enemy, crowded deployments, over-bolstered War Chest units and Cry Havoc
actions that score nothing when a scoring one was legal.

Usage:
    python -m bench.aimless [--games N] [--scale S] [--jobs J] [--levels normal,hard]
                            [--tables batailles,warchest,cryhavoc] [--out FILE]
    python -m bench.aimless --report FILE [--before EARLIER]

A player may win its games and still look careless to the person across the table: a cavalry troop
walking h2, h3, h2, a troop activated only to do nothing, archers facing their own back row. These
figures count such moves. Each level of ``--levels`` plays ``N`` seeded games (20 by default) of each
game against ``normal``, seats alternated (in game ``k`` seat ``s`` plays the level when ``s + k`` is
even); every searching seat is measured, so ``normal`` against itself counts both seats. Games run in
``J`` worker processes (1 by default) at the lowest priority; ``--scale`` shrinks every level's
iterations (as ``bench.ai_levels`` does) for runs that would take hours at the full budget. With
``--out``, results are appended to ``FILE`` one JSON line per game, so a run can be stopped and
resumed; the report gives each figure per game, level and opponent, and with ``--before`` (a file
written by an earlier version of the code) both versions side by side over the games both played.

The figures, each a count over a count:

- Batailles, ``undone``: troop moves taken back (the troop back in the zone it left, later in the same
  turn or in its side's next one) over troop moves (a coordinated group's move is one per troop).
- Batailles, ``null``: activations that end without moving, turning or attacking, over activations.
- Batailles, ``away``: at the end of the side's turns, troops with Attack that face away from every
  enemy (none strictly ahead of them), over such troops.
- Batailles, ``crowded``: deployments that put more than two troops in one zone, over deployments;
  ``unsupported``: troops without Attack whose command or logistics serve no troop of the line (no
  troop with Attack in their zone nor within their command's reach in a straight line), over such
  troops.
- War Chest, ``bolster``: bolsters that raise a unit above 3 coins while a location the team does not
  hold lies open within two hexes of one of its units, over bolsters.
- Cry Havoc, ``scoreless``: decisions where some legal action would gain the seat VP at once and the
  one taken gains none, over decisions where a scoring action was legal; ``stretch``: those of them
  after which the seat has gained nothing by the end of its run of decisions (an action is built in
  steps, and the step that scores may come a few decisions later).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bench import take_option

GAMES = ("batailles", "warchest", "cryhavoc")
LEVELS = ("normal", "hard")
FIGURES: dict[str, tuple[str, ...]] = {
    "batailles": ("undone", "null", "away", "crowded", "unsupported"),
    "warchest": ("bolster",),
    "cryhavoc": ("scoreless", "stretch"),
}
"""The figures of each game, as ``[hits, out of]`` pairs in a game's record."""

Counts = dict[str, list[int]]
"""A seat's figures: name -> [how many were aimless, out of how many]."""

_AHEAD = {"n": (0, 1), "s": (0, -1), "e": (1, 0), "w": (-1, 0)}


class Batailles:
    """Reads a Batailles game action by action and counts its aimless moves per seat."""

    def __init__(self) -> None:
        self.counts: dict[int, Counts] = {s: {f: [0, 0] for f in FIGURES["batailles"]} for s in (0, 1)}
        self.moves: dict[tuple[int, str], list[tuple[int, tuple[int, int], list[bool]]]] = defaultdict(list)
        """Per troop, its recent steps: (the side's turn number, the zone it left, [taken back])."""
        self.acting: dict[int, list[bool]] = {}
        """Per seat, the activation under way: [whether it changed anything]."""
        self.deployed: set[int] = set()

    def observe(self, before: Any, seat: int, action: Any, after: Any, legal: list[Any]) -> None:
        from engine.batailles.actions import Activate, Attack, EndTurn, Face, Move
        from engine.batailles.board import step
        from engine.batailles.rules import group

        del legal
        counts = self.counts[seat]
        if before.phase == "play" and before.active == seat:
            turn = before.turns[seat]
            if isinstance(action, Activate):
                self._close(seat)
                self.acting[seat] = [False]
                counts["null"][1] += 1
            elif isinstance(action, (Move, Face, Attack)) and seat in self.acting:
                self.acting[seat][0] = True
            if isinstance(action, Move) and before.activation is not None:
                for t in group(before, before.activation):
                    assert t.zone is not None
                    self._step(seat, t.name, turn, t.zone, step(t.zone, action.direction))
            if isinstance(action, EndTurn):
                self._close(seat)
                self._facing(before, seat)
        if seat in self.acting and (after.activation is None or after.phase != "play"):
            self._close(seat)
        placed = before.phase == "deploy" and all(t.zone is not None for t in after.army(seat))
        if placed and seat not in self.deployed:
            self.deployed.add(seat)
            self._deployment(after, seat)

    def _close(self, seat: int) -> None:
        changed = self.acting.pop(seat, None)
        if changed is not None and not changed[0]:
            self.counts[seat]["null"][0] += 1

    def _step(self, seat: int, name: str, turn: int, origin: tuple[int, int], dest: tuple[int, int]) -> None:
        counts = self.counts[seat]["undone"]
        recent = [m for m in self.moves[(seat, name)] if turn - m[0] <= 1]
        for _turn, left, taken_back in recent:
            if left == dest and not taken_back[0]:
                taken_back[0] = True
                counts[0] += 1
        recent.append((turn, origin, [False]))
        self.moves[(seat, name)] = recent
        counts[1] += 1

    def _facing(self, st: Any, seat: int) -> None:
        enemies = [t.zone for t in st.troops if t.seat != seat and t.on_field and t.zone is not None]
        counts = self.counts[seat]["away"]
        for t in st.army(seat):
            if not t.on_field or t.zone is None or t.attack <= 0 or not enemies:
                continue
            dx, dy = _AHEAD[t.facing]
            counts[1] += 1
            if not any((ex - t.zone[0]) * dx + (ey - t.zone[1]) * dy > 0 for ex, ey in enemies):
                counts[0] += 1

    def _deployment(self, st: Any, seat: int) -> None:
        army = [t for t in st.army(seat) if t.zone is not None]
        crowd: dict[tuple[int, int], int] = defaultdict(int)
        for t in army:
            crowd[t.zone] += 1
        self.counts[seat]["crowded"][0] += int(max(crowd.values()) > 2)
        self.counts[seat]["crowded"][1] += 1
        fighters = {t.zone for t in army if t.attack > 0}
        for t in army:
            if t.attack > 0 or (t.command == 0 and t.logistics == 0):
                continue
            assert t.zone is not None
            x, y = t.zone
            reach = 1 + t.range if t.command > 0 else 0
            served = t.zone in fighters or any(
                (fx == x and abs(fy - y) <= reach) or (fy == y and abs(fx - x) <= reach)
                for fx, fy in fighters
            )
            self.counts[seat]["unsupported"][0] += int(not served)
            self.counts[seat]["unsupported"][1] += 1


class WarChest:
    """Counts War Chest bolsters that raise a unit above 3 coins while a location lies open."""

    def __init__(self) -> None:
        self.counts: dict[int, Counts] = defaultdict(lambda: {"bolster": [0, 0]})

    def observe(self, before: Any, seat: int, action: Any, after: Any, legal: list[Any]) -> None:
        from engine.warchest.actions import Bolster

        del after, legal
        if not isinstance(action, Bolster):
            return
        counts = self.counts[seat]["bolster"]
        counts[1] += 1
        unit = before.board.get(action.hex)
        if unit is not None and unit[2] >= 3 and open_location(before, before.seats[seat].team):
            counts[0] += 1


def open_location(st: Any, team: int) -> bool:
    """Whether a location ``team`` does not hold, with no unit on it, lies within two hexes of one of
    the team's units: a place the coin could have been spent going to."""
    from engine.warchest.board import distance
    from engine.warchest.manoeuvres import bmap

    units = [h for h, (s, _kind, _height) in st.board.items() if st.seats[s].team == team]
    return any(
        st.control.get(h) != team and h not in st.board and any(distance(h, u) <= 2 for u in units)
        for h in bmap(st).locations
    )


class CryHavoc:
    """Counts Cry Havoc decisions that scored nothing when an action scoring VP at once was legal.

    A Cry Havoc action is built in small steps (a card, then each unit's step, then ``end``), so a
    step that scores nothing itself may lead to a score a few steps on: ``scoreless`` counts the
    decisions that gained nothing at once, ``stretch`` those after which the seat had gained nothing
    by the end of its run of decisions (when another seat acts next).
    """

    def __init__(self, game: Any) -> None:
        self.game = game
        self.counts: dict[int, Counts] = defaultdict(lambda: {"scoreless": [0, 0], "stretch": [0, 0]})
        self.waiting: list[tuple[int, int]] = []
        """The stretch's decisions with a scoring action legal: (seat, its VP before deciding)."""

    def observe(self, before: Any, seat: int, action: Any, after: Any, legal: list[Any]) -> None:
        del action
        self.finish(before, seat)
        if len(legal) < 2:
            return
        player = before["players"][seat]
        vp = before["vp"][seat]
        if all(self.game.apply(before, player, a)[0]["vp"][seat] <= vp for a in legal):
            return
        counts = self.counts[seat]
        counts["scoreless"][1] += 1
        counts["scoreless"][0] += int(after["vp"][seat] <= vp)
        counts["stretch"][1] += 1
        self.waiting.append((seat, vp))

    def finish(self, st: Any, acting: int | None = None) -> None:
        """Settle the decisions of a stretch once another seat acts (``acting``) or the game ended."""
        if not self.waiting or self.waiting[0][0] == acting:
            return
        for seat, vp in self.waiting:
            self.counts[seat]["stretch"][0] += int(st["vp"][seat] <= vp)
        self.waiting = []


def play(
    name: str, k: int, level: str, scale: float, options: dict[str, str] | None = None
) -> dict[str, Any]:
    """Game ``k`` of ``level`` against ``normal`` in ``name``: each searching seat's figures.
    ``options`` are the game's (a test plays short Batailles games with ``max_rounds``)."""
    import ai
    import engine
    from ai.levels import budget

    game = engine.get_game(name)
    players = ["p0", "p1"]
    seed = 1_000_003 * k + 14 + 1
    levels = [level if (s + k) % 2 == 0 else "normal" for s in range(2)]
    state = game.new_game(players, seed, options or {})
    tracker: Batailles | WarChest | CryHavoc
    tracker = Batailles() if name == "batailles" else WarChest() if name == "warchest" else CryHavoc(game)
    decisions = 0
    step, last = 0, None
    seconds: list[float] = []
    while not game.is_over(state):
        player = game.to_act(state)[0]
        seat = players.index(player)
        legal = game.legal_actions(state, player)
        step = step + 1 if seat == last else 0
        last = seat
        start = time.perf_counter()
        plan = budget(name, levels[seat], scale, step)
        action = ai.search(name, game.dump(state), seat, plan, ai.seed_for(seed, decisions, seat)).action
        seconds.append(time.perf_counter() - start)
        after, _ = game.apply(state, player, action)
        tracker.observe(state, seat, action, after, legal)
        state = after
        decisions += 1
    if isinstance(tracker, CryHavoc):
        tracker.finish(state)
    result = game.result(state)
    assert result is not None
    return {
        "game": name,
        "k": k,
        "level": level,
        "scale": scale,
        "levels": levels,
        "winners": [levels[players.index(w)] + f"@{players.index(w)}" for w in result.winners],
        "draw": bool(result.draw),
        "decisions": decisions,
        "seconds": round(sum(seconds), 3),
        "counts": {str(s): dict(tracker.counts[s]) for s in (0, 1)},
    }


def _nice() -> None:
    os.nice(19)


def _task(job: tuple[str, int, str, float]) -> dict[str, Any]:
    return play(*job)


def _load(path: Path) -> list[dict[str, Any]]:
    """The records of ``path``, each game once (two runs resuming the same file may both play one)."""
    if not path.exists():
        return []
    found: dict[tuple[str, str, int, float], dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            found.setdefault((r["game"], r["level"], r["k"], r["scale"]), r)
    return list(found.values())


def totals(rows: Iterable[dict[str, Any]]) -> dict[tuple[str, str, str], Counts]:
    """The figures summed per (game, level, opponent) over games' records."""
    found: dict[tuple[str, str, str], Counts] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for r in rows:
        for s, counts in r["counts"].items():
            mine = r["levels"][int(s)]
            other = r["levels"][1 - int(s)]
            for figure, (hits, out_of) in counts.items():
                pair = found[(r["game"], mine, other)][figure]
                pair[0] += hits
                pair[1] += out_of
    return found


def _share(pair: list[int]) -> str:
    hits, out_of = pair
    return f"{100 * hits / out_of:.1f} % ({hits} of {out_of})" if out_of else "-"


def report(rows: list[dict[str, Any]], before: list[dict[str, Any]] | None = None) -> str:
    """Each figure per game, level and opponent, as Markdown; with ``before`` (the records of an
    earlier version of the code), both side by side over the games both played."""
    if before is not None:
        played = {(r["game"], r["level"], r["k"], r["scale"]) for r in rows}
        before = [r for r in before if (r["game"], r["level"], r["k"], r["scale"]) in played]
        kept = {(r["game"], r["level"], r["k"], r["scale"]) for r in before}
        rows = [r for r in rows if (r["game"], r["level"], r["k"], r["scale"]) in kept]
    games: dict[tuple[str, str, float], int] = defaultdict(int)
    for r in rows:
        games[(r["game"], r["level"], r["scale"])] += 1
    earlier = totals(before or [])
    head = "| game | level | against | figure | " + (
        "before | after |" if before is not None else "aimless |"
    )
    lines = [head, "|---" * (head.count("|") - 1) + "|"]
    for (name, mine, other), counts in sorted(totals(rows).items()):
        for figure in FIGURES[name]:
            now = _share(counts.get(figure, [0, 0]))
            then = (
                f"{_share(earlier[(name, mine, other)].get(figure, [0, 0]))} | " if before is not None else ""
            )
            lines.append(f"| {name} | {mine} | {other} | {figure} | {then}{now} |")
    lines += ["", "| game | pairing | scale | games | seconds a game |", "|---|---|---|---|---|"]
    for (name, level, scale), count in sorted(games.items()):
        spent = [r["seconds"] for r in rows if (r["game"], r["level"], r["scale"]) == (name, level, scale)]
        lines.append(f"| {name} | {level}-normal | {scale:g} | {count} | {sum(spent) / count:.1f} |")
    return "\n".join(lines)


def run(
    names: list[str], levels: list[str], games: int, scale: float, jobs: int, out: Path | None
) -> list[dict[str, Any]]:
    """Play what ``out`` lacks of ``games`` games per game and level at ``scale`` (all of them without
    a file) and give every record, those of ``out`` included."""
    rows = [r for r in _load(out) if r["scale"] == scale] if out is not None else []
    done = {(r["game"], r["level"], r["k"]) for r in rows}
    todo = [
        (name, k, level, scale)
        for name in names
        for level in levels
        for k in range(games)
        if (name, level, k) not in done
    ]
    with ProcessPoolExecutor(max_workers=jobs, initializer=_nice) as pool:
        for row in pool.map(_task, todo):
            rows.append(row)
            if out is not None:
                with out.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
    return rows


def main(argv: list[str]) -> None:
    args = list(argv)
    shown = take_option(args, "--report")
    earlier = take_option(args, "--before")
    if shown is not None and not args:
        print(report(_load(Path(shown)), None if earlier is None else _load(Path(earlier))))
        return
    games = int(take_option(args, "--games") or "20")
    scale = float(take_option(args, "--scale") or "1")
    jobs = int(take_option(args, "--jobs") or "1")
    names = (take_option(args, "--tables") or ",".join(GAMES)).split(",")
    levels = (take_option(args, "--levels") or ",".join(LEVELS)).split(",")
    out = take_option(args, "--out")
    if args:
        print(__doc__)
        raise SystemExit(2)
    print(report(run(names, levels, games, scale, jobs, None if out is None else Path(out))))


if __name__ == "__main__":
    main(sys.argv[1:])
