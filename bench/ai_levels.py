"""How strong the computer players are: level against level, in every game and table size.

Usage:
    python -m bench.ai_levels [--decided N[,key=N...]] [--scale S[,key=S...]] [--jobs J] [--out FILE]
                              [--tables warchest:2,cryhavoc:4,...] [--pairings hard-normal,baselines,...]
                              [--docs docs/computer-players.md]
    python -m bench.ai_levels --report FILE [--docs docs/computer-players.md]

Each pairing ``A-B`` plays seeded games until ``N`` of them (100 by default) are decided (draws are
counted apart), seats alternated: in game ``k`` a seat ``s`` plays ``A`` when ``s + k`` is even, so
both levels sit in every position equally often (with three players each level holds two seats in
half of the games). War Chest with four players is two teams: the team of seats 0 and 2 plays one
level, the other team the other. A level "wins" a game when the winner sits at one of its seats.

By default the pairings are the ladder: each level against the one below and ``hard`` against ``easy``
(``hard-normal``, ``normal-easy``, ``hard-easy``), the claim a player reads in the docs. ``--pairings
baselines`` plays ``normal`` against ``random`` and ``greedy`` instead, the check that the search plays
at all.

Players: ``random`` (uniform over the legal actions), ``greedy`` (``bench.greedy``, one step ahead on a
plain measure) and the levels ``easy``, ``normal`` and ``hard`` of ``ai.choose``, whose seeds come from
``ai.seed_for(game seed, decision number, seat)``; a level with ``+hand`` after its name
(``hard+hand``) scores its rollouts with the game's hand-weighed evaluation instead of the learned
one. ``--scale`` multiplies every level's iterations, for runs that would take hours at the full
budget; ``--scale 0.25,cryhavoc=0.1`` gives one game its own (a Cry Havoc game is slower), and a key
may also be a pairing (``normal-easy=1``: the cheap pairings at the full budget, where a tenth of
``easy``'s few iterations would no longer be the level a player meets) or both (``cryhavoc/hard-easy``).
``--decided`` takes the same keys (``30,hard-easy=12``). The report says which scale each row used.

Games run in ``J`` worker processes (2 by default) at the lowest priority (``os.nice(19)``); results
are appended to ``FILE`` as one JSON line per game, so a long run can be stopped, resumed and reported
(``--report``) at any time. The report gives, per pairing, A's share of the decided games with its 95 %
interval, and the decision time of each level (median and 99th percentile, searched decisions only).

``--docs FILE`` writes the ladder's table into ``FILE`` between the comments ``<!-- ai_levels:begin -->``
and ``<!-- ai_levels:end -->``, from the games of this run (its tables, pairings and scales) and in
the same run that measured them (after every game, so a run stopped early has published what it
played), so that the published figures are never pasted by hand nor older than the budgets they
describe. Every row carries its scale, games, draws, share, interval and both
levels' decision times.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

TABLES = (
    ("warchest", 2),
    ("warchest", 4),
    ("batailles", 2),
    ("cryhavoc", 2),
    ("cryhavoc", 3),
    ("cryhavoc", 4),
)
PAIRINGS = (("hard", "normal"), ("normal", "easy"), ("hard", "easy"))
BASELINES = (("normal", "random"), ("normal", "greedy"))
NAMES = {"warchest": "War Chest", "batailles": "Batailles", "cryhavoc": "Cry Havoc"}
BEGIN, END = "<!-- ai_levels:begin -->", "<!-- ai_levels:end -->"
SEARCHING = ("easy", "normal", "hard")
HAND = "+hand"
"""A level named with this suffix (``hard+hand``) scores its rollouts with the game's hand-weighed
evaluation (``hand_evaluate`` in its heuristics), to measure what the learned one bought."""


def levels_of(name: str, count: int, k: int, a: str, b: str) -> list[str]:
    """The level of each seat in game ``k`` of pairing ``a``-``b`` (see the module docstring)."""
    if name == "warchest" and count == 4:
        first = a if k % 2 == 0 else b
        second = b if first == a else a
        return [first, second, first, second]
    return [a if (s + k) % 2 == 0 else b for s in range(count)]


def play(name: str, count: int, k: int, a: str, b: str, scale: float) -> dict[str, Any]:
    """One game of pairing ``a``-``b``: who won, and how long each searched decision took."""
    import ai
    import engine
    from ai.levels import budget
    from bench.greedy import choose_greedy
    from engine.rng import Rng

    game = engine.get_game(name)
    players = [f"p{i}" for i in range(count)]
    seed = 1_000_003 * k + 7 * count + 1
    levels = levels_of(name, count, k, a, b)
    state = game.new_game(players, seed, {})
    chooser = Rng(seed ^ 0xB07)
    times: dict[str, list[float]] = defaultdict(list)
    decisions = 0
    step, last = 0, None  # decisions of the seat to act in a row (the turn's share, ai.levels.TurnBudget)
    while not game.is_over(state):
        acting = game.to_act(state)
        player = acting[0]
        seat = players.index(player)
        level = levels[seat]
        legal = game.legal_actions(state, player)
        step = step + 1 if seat == last else 0
        last = seat
        if level == "random":
            action = legal[chooser.below(len(legal))]
        elif level == "greedy":
            action = choose_greedy(name, state, seat, chooser)
        else:
            start = time.perf_counter()
            base, hand = level.removesuffix(HAND), level.endswith(HAND)
            plan = budget(name, base, scale, step)
            evaluation = "hand_evaluate" if hand else "evaluate"
            seeded = ai.seed_for(seed, decisions, seat)
            outcome = ai.search(name, game.dump(state), seat, plan, seeded, evaluation=evaluation)
            if outcome.iterations:
                times[level].append(time.perf_counter() - start)
            action = outcome.action
        state, _ = game.apply(state, player, action)
        decisions += 1
    result = game.result(state)
    assert result is not None
    winners = sorted({levels[players.index(w)] for w in result.winners}) if not result.draw else []
    return {
        "game": name,
        "players": count,
        "pairing": f"{a}-{b}",
        "k": k,
        "scale": scale,
        "levels": levels,
        "winner": winners[0] if len(winners) == 1 else None,
        "decisions": decisions,
        "times": dict(times),
    }


def _nice() -> None:
    os.nice(19)


def _task(args: tuple[str, int, int, str, str, float]) -> dict[str, Any]:
    return play(*args)


def _load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _key(row: dict[str, Any]) -> tuple[str, int, str, float]:
    return (row["game"], row["players"], row["pairing"], row["scale"])


def run(
    tables: list[tuple[str, int]],
    pairings: list[tuple[str, str]],
    decided: int | dict[str, float],
    scales: dict[str, float],
    jobs: int,
    out: Path,
    docs: Path | None = None,
) -> None:
    """Play until every (table, pairing) has ``decided`` decided games (a number, or one per key as
    ``parse_scales`` reads them) at its scale (``scales``, read the same way); with ``docs``, its
    table is rewritten there after every game, so a run stopped at any time has published what it
    measured, and nothing else."""
    done = _load(out)
    wanted_of = decided if isinstance(decided, dict) else {"": float(decided)}
    measured = {(n, c, f"{a}-{b}", scale_of(scales, n, f"{a}-{b}")) for n, c in tables for a, b in pairings}
    with ProcessPoolExecutor(max_workers=jobs, initializer=_nice) as pool:
        while True:
            todo: list[tuple[str, int, int, str, str, float]] = []
            for name, count in tables:
                for a, b in pairings:
                    scale = scale_of(scales, name, f"{a}-{b}")
                    target = round(scale_of(wanted_of, name, f"{a}-{b}"))
                    rows = [
                        r
                        for r in done
                        if (r["game"], r["players"], r["pairing"], r["scale"])
                        == (name, count, f"{a}-{b}", scale)
                    ]
                    have = sum(1 for r in rows if r["winner"] is not None)
                    if have >= target:
                        continue
                    played = {r["k"] for r in rows}
                    # a few more than missing, in case of draws; even numbers keep the seats balanced
                    wanted = target - have + (target - have) % 2
                    ks = [k for k in range(len(played) + wanted + 2) if k not in played][:wanted]
                    todo += [(name, count, k, a, b, scale) for k in ks]
            if not todo:
                return
            # game k of every row before game k + 1 of any: a run stopped early still has every row
            todo.sort(key=lambda task: task[2])
            with out.open("a", encoding="utf-8") as f:
                for row in pool.map(_task, todo):
                    done.append(row)
                    f.write(json.dumps(row) + "\n")
                    f.flush()
                    if docs is not None:
                        ours = [
                            r for r in done if (r["game"], r["players"], r["pairing"], r["scale"]) in measured
                        ]
                        write_docs(docs, docs_table(ours))


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(rows: list[dict[str, Any]]) -> str:
    """The level-versus-level table and the decision times, as Markdown."""
    groups: dict[tuple[str, int, str, float], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[(r["game"], r["players"], r["pairing"], r["scale"])].append(r)
    lines = [
        "| game | players | A-B | scale | decided (draws) | A wins | A share | 95 % interval |",
        "|---|---|---|---|---|---|---|---|",
    ]
    times: dict[tuple[str, int, str, float], list[float]] = defaultdict(list)
    for key in sorted(groups):
        name, count, pairing, scale = key
        a = pairing.split("-")[0]
        group = groups[key]
        decided = [r for r in group if r["winner"] is not None]
        wins = sum(1 for r in decided if r["winner"] == a)
        low, high = wilson(wins, len(decided))
        share = 100 * wins / len(decided) if decided else 0.0
        lines.append(
            f"| {name} | {count} | {pairing} | {scale:g} | {len(decided)} ({len(group) - len(decided)}) "
            f"| {wins} | {share:.0f} % | {100 * low:.0f}-{100 * high:.0f} % |"
        )
        for r in group:
            for level, ts in r["times"].items():
                times[(name, count, level, scale)] += ts
    lines += [
        "",
        "| game | players | level | scale | decisions | p50 | p99 |",
        "|---|---|---|---|---|---|---|",
    ]
    for (name, count, level, scale), ts in sorted(times.items()):
        if ts:
            lines.append(
                f"| {name} | {count} | {level} | {scale:g} | {len(ts)} | {statistics.median(ts):.2f} s "
                f"| {_percentile(ts, 0.99):.2f} s |"
            )
    return "\n".join(lines)


def parse_scales(text: str, default: float = 1.0) -> dict[str, float]:
    """``"0.25,cryhavoc=0.1,normal-easy=1"`` as ``{"": 0.25, "cryhavoc": 0.1, "normal-easy": 1.0}``:
    the default under ``""``, then values by game, by pairing or by both (``cryhavoc/hard-easy``)."""
    scales = {"": default}
    for part in text.split(","):
        key, _, value = part.rpartition("=")
        scales[key] = float(value)
    return scales


def scale_of(scales: dict[str, float], game: str, pairing: str = "") -> float:
    """The value of ``parse_scales``' mapping for ``game``'s ``pairing``: the most precise key given
    (the game and the pairing, then the pairing, then the game, then the default)."""
    for key in (f"{game}/{pairing}", pairing, game):
        if key and key in scales:
            return scales[key]
    return scales[""]


def _times(group: list[dict[str, Any]], level: str) -> str:
    found = [t for r in group for t in r["times"].get(level, [])]
    if not found:
        return "-"
    return f"{statistics.median(found):.2f} / {_percentile(found, 0.99):.2f} s"


def docs_table(rows: list[dict[str, Any]]) -> str:
    """The ladder as the docs publish it: a row per table and pairing, in the order of ``TABLES``."""
    groups: dict[tuple[str, int, str, float], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[(r["game"], r["players"], r["pairing"], r["scale"])].append(r)
    order = {table: at for at, table in enumerate(TABLES)}
    lines = [
        "| game | players | pairing | scale | games | draws | first level's share of decided games "
        "| 95 % interval | first level's decision p50 / p99 | second level's decision p50 / p99 |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key in sorted(groups, key=lambda k: (order.get((k[0], k[1]), len(order)), k[0], k[1], k[3])):
        name, count, pairing, scale = key
        group = groups[key]
        a, b = pairing.split("-")
        decided = [r for r in group if r["winner"] is not None]
        wins = sum(1 for r in decided if r["winner"] == a)
        low, high = wilson(wins, len(decided))
        share = f"{100 * wins / len(decided):.0f} %" if decided else "-"
        lines.append(
            f"| {NAMES.get(name, name)} | {count} | {a} - {b} | {scale:g} | {len(group)} "
            f"| {len(group) - len(decided)} | {share} | {100 * low:.0f}-{100 * high:.0f} "
            f"| {_times(group, a)} | {_times(group, b)} |"
        )
    return "\n".join(lines)


def write_docs(path: Path, table: str) -> None:
    """Put ``table`` between the markers of ``path``, leaving the rest of the file as it was."""
    text = path.read_text(encoding="utf-8")
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"{path} has no {BEGIN} ... {END} section")
    head = text[: start + len(BEGIN)]
    path.write_text(f"{head}\n{table}\n{text[end:]}", encoding="utf-8")


def _pairings(text: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for part in text.split(","):
        found += BASELINES if part == "baselines" else [(part.split("-")[0], part.split("-")[1])]
    return found


def _option(argv: list[str], name: str, default: str) -> str:
    if name in argv:
        return argv[argv.index(name) + 1]
    return default


OPTIONS = ("--decided", "--scale", "--jobs", "--out", "--tables", "--pairings", "--report", "--docs")


def main(argv: list[str]) -> None:
    names = argv[0::2]
    if len(argv) % 2 or any(name not in OPTIONS for name in names):
        # a run takes hours: a mistyped option (or --help) shows the usage rather than starting one
        print(__doc__)
        raise SystemExit(2)
    docs = _option(argv, "--docs", "")
    if "--report" in argv:
        rows = _load(Path(_option(argv, "--report", "")))
        print(report(rows))
        if docs:
            write_docs(Path(docs), docs_table(rows))
        return
    tables = [
        (t.split(":")[0], int(t.split(":")[1]))
        for t in _option(argv, "--tables", ",".join(f"{n}:{c}" for n, c in TABLES)).split(",")
    ]
    pairings = _pairings(_option(argv, "--pairings", ",".join(f"{a}-{b}" for a, b in PAIRINGS)))
    decided = parse_scales(_option(argv, "--decided", "100"), default=100)
    scales = parse_scales(_option(argv, "--scale", "1"))
    jobs = int(_option(argv, "--jobs", "2"))
    out = Path(_option(argv, "--out", "ai_levels.jsonl"))
    run(tables, pairings, decided, scales, jobs, out, Path(docs) if docs else None)
    print(report(_load(out)))


if __name__ == "__main__":
    main(sys.argv[1:])
