"""Cry Havoc faction balance: how often each faction wins, per player count, under two simple players.

Usage: python -m bench.cryhavoc_factions [--greedy | --level L [--scale S] [--jobs J]] [--moves]
[--first F] [games] [players ...]

Plays ``games`` seeded games (500 by default) for each player count (2, 3 and 4 by default) and prints
each faction's games, wins, win rate, mean victory points and the mean game length in decisions. Each
faction's mean VP is broken down by where they came from (crystals scored, battles, prisoners held,
enabling scoring, actions, minus ransoms), and ``--moves`` adds what the faction did most (its
decisions' first two words, per game): what a faction wins by, when it wins too often.

- The default player chooses uniformly among its legal actions. Random play says nothing about
  skilled play, but a faction far from the others here points at a card, skill or map feature whose
  value does not depend on playing well (or that only pays when played well).
- ``--greedy`` looks one decision ahead: it tries every legal action and keeps the one that leaves
  the best position by a plain measure (VP, plus the crystals it would score, the regions it holds and
  its units on the map), breaking ties at random. It plays a faction's cards for what they obviously
  give, which is how a new player reads them.
- ``--level L`` seats the computer player of level ``L`` (``ai.search``, seeded per decision) at
  every seat, with its iterations multiplied by ``S`` (1 by default) where the full budget would take
  hours; the games run in ``J`` worker processes (2 by default) at the lowest priority. This is the
  measure that matters most: factions played well against players as good.

A faction within about ten points of the fair share (1 / players) under both players is balanced
enough for the content's purpose; seeds 0..games-1 make the numbers repeatable (``--first F``: seeds
F..F+games-1, more games to pool with an earlier run).
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import engine
from bench import take_option
from engine.cryhavoc.content import TOKENS
from engine.rng import Rng

GAME = engine.get_game("cryhavoc")

Chooser = Callable[[dict[str, Any], str, list[Any], Rng], Any]


@dataclass
class Tally:
    """Per-faction totals over the games of one player count."""

    games: Counter[str] = field(default_factory=Counter)
    wins: Counter[str] = field(default_factory=Counter)
    vp: Counter[str] = field(default_factory=Counter)
    sources: dict[str, Counter[str]] = field(default_factory=dict)
    moves: dict[str, Counter[str]] = field(default_factory=dict)
    decisions: int = 0
    rounds: int = 0


def choose_random(state: dict[str, Any], player: str, legal: list[Any], rng: Rng) -> Any:
    """Any legal action, uniformly."""
    return legal[rng.below(len(legal))]


def position(state: dict[str, Any], seat: int) -> float:
    """A plain measure of how well ``seat`` stands: VP first, then what would score VP later.

    Crystals of held regions count half (they score only in scoring rounds, halved for Trogs),
    regions a quarter (one VP for the player who enables scoring) and units on the map a tenth
    (they hold and take regions).
    """
    trogs = state["factions"][seat] == "trogs"
    held = [r for r in state["regions"].values() if r["control"] == seat]
    crystals: float = sum(r["crystals"] for r in held) * (0.25 if trogs else 0.5)
    units: int = sum(r["units"][seat] for r in state["regions"].values())
    return float(state["vp"][seat]) + crystals + 0.25 * len(held) + 0.1 * units


def choose_greedy(state: dict[str, Any], player: str, legal: list[Any], rng: Rng) -> Any:
    """The legal action whose outcome scores best by ``position``; ties broken at random."""
    if len(legal) == 1:
        return legal[0]
    seat = state["players"].index(player)
    best: list[Any] = []
    best_value = float("-inf")
    for action in legal:
        after, _ = GAME.apply(state, player, action)
        value = position(after, seat)
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif value > best_value - 1e-9:
            best.append(action)
    return best[rng.below(len(best))]


@dataclass(frozen=True)
class Searcher:
    """The computer player of ``level`` at every seat (picklable, for worker processes)."""

    level: str
    scale: float = 1.0

    def __call__(self, state: dict[str, Any], player: str, legal: list[Any], rng: Rng) -> Any:
        import ai
        from ai.levels import budget

        if len(legal) == 1:
            return legal[0]
        seat = state["players"].index(player)
        plan = budget("cryhavoc", self.level, self.scale)
        return ai.search("cryhavoc", GAME.dump(state), seat, plan, rng.next_u64()).action


#: Events that name the VP they give a player, and the source they count under.
SCORING_EVENTS = {
    "ch.ev.score_crystals": "crystals",
    "ch.ev.score_regions": "enabling",
    "ch.ev.prisoner_vp": "prisoners",
}


def vp_sources(before: dict[str, Any], after: dict[str, Any], events: list[Any]) -> list[Counter[str]]:
    """Where each seat's VP of one action came from.

    Scoring rounds, held prisoners and ransoms say how many VP they move; what is left counts under
    the phase the action was taken in: ``battle`` (Region Control, kills, battle cards) or
    ``actions`` (stars, structures, skills).
    """
    players = after["players"]
    out = [Counter[str]() for _ in players]
    for event in events:
        source = SCORING_EVENTS.get(event.key) or ("ransom" if event.key == "ch.ev.ransom" else "")
        who = event.params.get("player")
        if not source or who is None:
            continue
        n = -int(TOKENS["ransom_vp"]) if source == "ransom" else int(event.params["n"])
        out[players.index(who.id)][source] += n
    for seat, counter in enumerate(out):
        rest = after["vp"][seat] - before["vp"][seat] - sum(counter.values())
        if rest:
            counter[before["phase"] if before["phase"] in ("battle", "actions") else "other"] += rest
    return out


def playout(
    seed: int, count: int, choose: Chooser = choose_random
) -> tuple[list[str], list[int], int, int, int, list[Counter[str]], list[Counter[str]]]:
    """One game: the seats' factions, their final VP, the winning seat, decisions, rounds played,
    where each seat's VP came from and what each seat did (its actions' first two words)."""
    players = [f"p{i}" for i in range(count)]
    state = GAME.new_game(players, seed, {})
    chooser = Rng(seed ^ 0xFAC7)
    decisions = 0
    sources = [Counter[str]() for _ in players]
    moves = [Counter[str]() for _ in players]
    while not GAME.is_over(state):
        (player,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, player)
        action = choose(state, player, legal, chooser)
        if len(legal) > 1:
            moves[players.index(player)][" ".join(str(action).split()[:2])] += 1
        after, events = GAME.apply(state, player, action)
        for total, part in zip(sources, vp_sources(state, after, events), strict=True):
            total.update(part)
        state = after
        decisions += 1
    result = GAME.result(state)
    assert result is not None
    winner = players.index(result.winners[0])
    return list(state["factions"]), list(state["vp"]), winner, decisions, int(state["round"]), sources, moves


def _nice() -> None:
    os.nice(19)


def tally(games: int, count: int, choose: Chooser = choose_random, jobs: int = 1, first: int = 0) -> Tally:
    out = Tally()
    seeds = range(first, first + games)
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_nice) as pool:
            games_played = list(pool.map(playout, seeds, [count] * games, [choose] * games))
    else:
        games_played = [playout(seed, count, choose) for seed in seeds]
    for factions, vp, winner, decisions, rounds, sources, moves in games_played:
        for faction, points, source, did in zip(factions, vp, sources, moves, strict=True):
            out.moves.setdefault(faction, Counter()).update(did)
            out.games[faction] += 1
            out.vp[faction] += points
            out.sources.setdefault(faction, Counter()).update(source)
        out.wins[factions[winner]] += 1
        out.decisions += decisions
        out.rounds += rounds
    return out


def report(count: int, result: Tally, games: int, seconds: float, moves: bool = False) -> str:
    lines = [
        f"{count} players, {games} games ({seconds:.1f} s), fair share {100 / count:.0f} %, "
        f"mean {result.rounds / games:.2f} rounds, {result.decisions / games:.0f} decisions:"
    ]
    for faction in sorted(result.games, key=lambda f: -result.wins[f] / result.games[f]):
        played, won = result.games[faction], result.wins[faction]
        lines.append(
            f"  {faction:<9} {won:>4}/{played:<4} wins = {100 * won / played:5.1f} %, "
            f"mean {result.vp[faction] / played:5.1f} VP"
        )
        parts = sorted(result.sources.get(faction, Counter()).items(), key=lambda kv: -abs(kv[1]))
        lines.append("            from " + ", ".join(f"{k} {v / played:.1f}" for k, v in parts if v))
        if moves:
            did = result.moves.get(faction, Counter()).most_common(14)
            lines.append("            did " + ", ".join(f"{k} {v / played:.1f}" for k, v in did))
    return "\n".join(lines)


def _option(args: list[str], name: str, default: str) -> str:
    """Take ``name value`` out of ``args``; ``value`` (``default`` when absent)."""
    return take_option(args, name) or default


def main(argv: list[str]) -> None:
    args = [a for a in argv if a not in ("--greedy", "--moves")]
    level = _option(args, "--level", "")
    scale = float(_option(args, "--scale", "1"))
    jobs = int(_option(args, "--jobs", "2" if level else "1"))
    first = int(_option(args, "--first", "0"))
    games = int(args[0]) if args else 500
    counts = [int(a) for a in args[1:]] or list(GAME.player_counts)
    choose: Chooser = choose_greedy if "--greedy" in argv else choose_random
    if level:
        choose = Searcher(level, scale)
        print(f"every seat: level {level} at {scale:g} of its iterations", flush=True)
    for count in counts:
        start = time.perf_counter()
        result = tally(games, count, choose, jobs, first)
        print(report(count, result, games, time.perf_counter() - start, "--moves" in argv), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
