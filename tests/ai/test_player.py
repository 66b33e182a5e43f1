"""The computer player's entry point: legal and reproducible choices, levels, seeds, deadlines."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

import pytest

import ai
import engine
from ai.levels import LEVELS, budget
from ai.search import Budget
from engine.rng import Rng
from tests.ai.support import TABLES, decision, players

TINY = Budget(iterations=24, rollout=3)


@pytest.mark.parametrize(("name", "count"), TABLES)
def test_every_choice_is_a_legal_action_text(name: str, count: int) -> None:
    game = engine.get_game(name)
    for seed in (1, 2, 3):
        state, seat = decision(name, count, seed, steps=15 * seed)
        player = players(count)[seat]
        text = str(ai.search(name, game.dump(state), seat, TINY, seed).action)
        action = game.parse_action(state, player, text)
        assert action in game.legal_actions(state, player)
        assert str(action) == text


@pytest.mark.parametrize(("name", "count"), TABLES)
def test_the_same_seed_gives_the_same_choice(name: str, count: int) -> None:
    state, seat = decision(name, count, seed=4, steps=40)
    dump = engine.get_game(name).dump(state)
    first = ai.search(name, dump, seat, TINY, seed=77)
    again = ai.search(name, dump, seat, TINY, seed=77)
    assert str(first.action) == str(again.action)
    assert first.visits == again.visits


def test_choose_reads_the_level_and_answers_text() -> None:
    state, seat = decision("warchest", 2, seed=5, steps=20)
    dump = engine.get_game("warchest").dump(state)
    text = ai.choose("warchest", dump, seat, "easy", seed=3)
    assert isinstance(text, str)
    assert text == ai.choose("warchest", dump, seat, "easy", seed=3)
    with pytest.raises(ValueError, match="unknown level"):
        ai.choose("warchest", dump, seat, "expert", seed=3)


def test_levels_search_more_the_harder_they_are() -> None:
    for name in ("warchest", "batailles", "cryhavoc"):
        plans = [budget(name, level) for level in LEVELS]
        assert [p.iterations for p in plans] == sorted(p.iterations for p in plans)
        assert plans[0].iterations < plans[-1].iterations


def test_a_seat_that_is_not_to_act_is_refused() -> None:
    state, seat = decision("cryhavoc", 3, seed=2, steps=10)
    dump = engine.get_game("cryhavoc").dump(state)
    with pytest.raises(ValueError, match="no decision"):
        ai.choose("cryhavoc", dump, (seat + 1) % 3, "easy", seed=1)


def test_a_single_legal_action_is_played_without_searching() -> None:
    game = engine.get_game("warchest")
    state = game.new_game(players(2), 3, {})
    chooser = Rng(3)
    while True:
        player = game.to_act(state)[0]
        legal = game.legal_actions(state, player)
        if len(legal) == 1:
            break
        state, _ = game.apply(state, player, legal[chooser.below(len(legal))])
    outcome = ai.search("warchest", game.dump(state), players(2).index(player), TINY, seed=1)
    assert outcome.iterations == 0
    assert outcome.action == legal[0]


def test_a_deadline_already_past_still_gives_a_legal_action() -> None:
    state, seat = decision("batailles", 2, seed=3, steps=80)
    game = engine.get_game("batailles")
    outcome = ai.search(
        "batailles", game.dump(state), seat, Budget(iterations=10_000, rollout=4), 5, deadline=0.0
    )
    assert outcome.iterations < 10_000
    assert outcome.action in game.legal_actions(state, players(2)[seat])


def test_seeds_differ_by_decision_and_seat_and_repeat_exactly() -> None:
    seeds = {ai.seed_for(12345, version, seat) for version in range(50) for seat in range(4)}
    assert len(seeds) == 200
    assert ai.seed_for(12345, 7, 1) == ai.seed_for(12345, 7, 1)
    assert ai.seed_for(12345, 7, 1) != ai.seed_for(12346, 7, 1)


def test_a_worker_process_gives_the_same_answer() -> None:
    """A table runs the player in another process: only JSON-safe arguments cross, and a fresh
    interpreter (another string hash seed) must still give the same answer."""
    jobs = []
    for name, count in TABLES:
        state, seat = decision(name, count, seed=6, steps=30)
        jobs.append((name, engine.get_game(name).dump(state), seat, "easy", ai.seed_for(6, 30, seat)))
    here = [ai.choose(*job) for job in jobs]
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        there = list(pool.map(ai.choose, *zip(*jobs, strict=True)))
    assert there == here


@pytest.mark.parametrize(("name", "count"), TABLES)
def test_a_slipping_level_searches_alike_and_plays_a_visited_action(name: str, count: int) -> None:
    """``Budget.slip`` changes what is played, never what was searched: the same visits, the played
    action one the search visited, the favourite when no slip is drawn; the same seed slips alike."""
    game = engine.get_game(name)
    slipped = 0
    for seed in range(1, 9):
        state, seat = decision(name, count, seed, steps=10 + 3 * seed)
        dump = game.dump(state)
        steady = ai.search(name, dump, seat, TINY, seed)
        loose = ai.search(name, dump, seat, replace(TINY, slip=1.0), seed)
        assert loose.visits == steady.visits
        assert loose.visits[str(loose.action)] > 0 or sum(loose.visits.values()) == 0
        assert str(ai.search(name, dump, seat, replace(TINY, slip=1.0), seed).action) == str(loose.action)
        assert str(ai.search(name, dump, seat, replace(TINY, slip=0.0), seed).action) == str(steady.action)
        slipped += str(loose.action) != str(steady.action)
    assert slipped > 0


def test_only_easy_slips() -> None:
    for name in ("warchest", "batailles", "cryhavoc"):
        assert [budget(name, level).slip > 0 for level in LEVELS] == [True, False, False]
