"""One conformance suite for every registered game.

Seeded random playouts to the end check the engine contract that the table layer,
the front ends and the replay logic rely on: legality comes only from
``legal_actions``, ``apply`` never mutates its input, text forms round-trip, dumps
round-trip exactly, a finished game offers no actions, and replaying the seed plus
the action log rebuilds the same state.
"""

from __future__ import annotations

import itertools
import json
import os

import pytest

import engine
from engine.rng import Rng

GAMES_PER_NAME = int(os.environ.get("CONFORMANCE_GAMES", "500"))
# Full deep checks (mutation, parse of every legal action, dump round trip at every step)
# on the first games; cheaper spot checks on the rest keep the suite within minutes.
DEEP_GAMES = 12
CHUNKS = 5
"""The playouts of each game run as this many tests, which parallel test workers share out."""
MAX_STEPS = 20_000
NEUTRAL_ODDS = 6
"""One decision in this many takes the game's neutral default, when it has one."""


def _setups(game: engine.Game) -> list[tuple[int, dict[str, str]]]:
    """Every player count with every combination of option choices; game ``i`` plays setup ``i``
    modulo their number, as it did when the games ran in one test."""
    specs = [s for s in game.option_specs if s.choices]
    combos = list(itertools.product(*[s.choices for s in specs])) or [()]
    return [
        (count, {s.name: v for s, v in zip(specs, combo, strict=True)})
        for count, combo in itertools.product(game.player_counts, combos)
    ]


def _canon(game: engine.Game, state: object) -> str:
    return json.dumps(game.dump(state), sort_keys=True)


def _play(game: engine.Game, index: int, count: int, options: dict[str, str], deep: bool) -> None:
    players = [str(1000 + i) for i in range(count)]
    seed = 7919 * index + 17
    state = game.new_game(players, seed=seed, options=options)
    chooser = Rng(index)
    log: list[tuple[str, str]] = []
    for step in range(MAX_STEPS):
        if game.is_over(state):
            break
        acting = game.to_act(state)
        assert acting, f"game {index} step {step}: nobody may act but the game is not over"
        player = acting[chooser.below(len(acting))]
        legal = game.legal_actions(state, player)
        assert legal, f"game {index} step {step}: {player} must act but has no legal action"
        action = legal[chooser.below(len(legal))]
        if chooser.below(NEUTRAL_ODDS) == 0:
            # Now and then the neutral choice (end the activation, stop building, pass): uniform play
            # alone builds Batailles armies of sixty troops, where 'ready' is one choice in hundreds.
            action = game.default_action(state, player) or action
        text = str(action)
        assert game.parse_action(state, player, text) == action, f"{text!r} does not parse back"
        if deep:
            for other in legal:
                assert game.parse_action(state, player, str(other)) == other
                assert game.label(state, other).key
            before = _canon(game, state)
            assert _canon(game, game.load(json.loads(before))) == before, "dump/load round trip"
            for outsider in set(players) - set(acting):
                assert game.legal_actions(state, outsider) == []
        state_next, events = game.apply(state, player, action)
        if deep:
            assert _canon(game, state) == before, f"apply mutated its input at step {step}"
        assert isinstance(events, list)
        log.append((player, text))
        state = state_next
    else:
        pytest.fail(f"game {index} ({count} players, {options}) did not end in {MAX_STEPS} actions")

    assert game.to_act(state) == []
    for p in players:
        assert game.legal_actions(state, p) == []
    result = game.result(state)
    assert result is not None
    assert set(result.winners) <= set(players)
    assert result.draw or result.winners
    json.dumps(game.view(state, None))
    with pytest.raises(engine.GameError):
        game.apply(state, players[0], action)

    # Replaying the seed and the log (as text, as the store keeps it) rebuilds the same state.
    replay = game.new_game(players, seed=seed, options=options)
    for player, text in log:
        replay, _ = game.apply(replay, player, game.parse_action(replay, player, text))
    assert _canon(game, replay) == _canon(game, state)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("name", engine.GAMES)
def test_random_playouts_follow_the_contract(name: str, chunk: int) -> None:
    """Games ``chunk``, ``chunk + CHUNKS``, ... of the ``GAMES_PER_NAME`` playouts of ``name``."""
    game = engine.get_game(name)
    setups = _setups(game)
    for index in range(chunk, GAMES_PER_NAME, CHUNKS):
        count, options = setups[index % len(setups)]
        _play(game, index, count, options, deep=index < DEEP_GAMES)


@pytest.mark.parametrize("name", engine.GAMES)
def test_views_hide_other_seats_private_part(name: str) -> None:
    game = engine.get_game(name)
    for count in game.player_counts:
        players = [str(2000 + i) for i in range(count)]
        state = game.new_game(players, seed=3, options={})
        assert game.view(state, None).get("private") is None
        for p in players:
            view = game.view(state, p)
            json.dumps(view)
            private = view.get("private")
            if private is not None:
                others = [q for q in players if q != p]
                assert all(game.view(state, q).get("private") != private for q in others) or not others


def test_unknown_game_is_refused_with_the_list() -> None:
    with pytest.raises(engine.BadInput) as err:
        engine.get_game("chess")
    assert err.value.msg.params["games"] == ", ".join(engine.GAMES)


@pytest.mark.parametrize("name", engine.GAMES)
def test_sides_name_what_each_seat_plays_in_words_of_both_languages(name: str) -> None:
    """``sides`` gives every seat the ids of what it plays (records count wins by them; nothing yet
    for a War Chest seat before its draft), the same after a dump and load, each named by the
    catalog in both languages."""
    import i18n
    from engine.registry import pool_of
    from table.play.standings import side_key

    game = engine.get_game(name)
    for index, (count, options) in enumerate(_setups(game)):
        players = [f"p{n}" for n in range(count)]
        state = game.new_game(players, seed=index, options=options)
        sides = game.sides(state)
        assert len(sides) == count and all(isinstance(i, str) for s in sides for i in s), sides
        assert game.sides(game.load(json.loads(_canon(game, state)))) == sides
        for side in {i for s in sides for i in s}:
            key = side_key(pool_of(name, count), side)
            for lang in ("en", "fr"):
                assert key in i18n.catalog(lang), f"{key} has no {lang} words"
