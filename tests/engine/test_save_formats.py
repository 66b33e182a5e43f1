"""Saved games across versions of the bot: a save written by an older version loads (upgraded step by
step through the game's table) and plays on; a save of an unknown or newer format is refused with a
message that says why.

``tests/engine/<game>/save_format1.json`` are mid-game states dumped by the bot when format 1 was
the current one; they stay as they are when the format moves on, so they keep testing the upgrade
from format 1.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import i18n
from engine import BadInput, get_game
from engine.cryhavoc import game as ch_game
from engine.cryhavoc import state as ch_state
from engine.rng import Rng
from engine.saves import Save, upgraded
from engine.warchest import game as wc_game
from engine.warchest import state as wc_state

HERE = Path(__file__).parent
GAMES = {
    # game: (its save's format field, catalog prefix, the modules that read FORMAT and UPGRADES)
    "cryhavoc": ("fmt", "ch", (ch_game, ch_state)),
    "warchest": ("format", "wc", (wc_game, wc_state)),
}


def saved(name: str) -> Save:
    data: Save = json.loads((HERE / name / "save_format1.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", GAMES)
def test_a_mid_game_save_of_format_1_loads_and_plays_to_the_end(name: str) -> None:
    game = get_game(name)
    field = GAMES[name][0]
    data = saved(name)
    assert data[field] == 1, "the file keeps the format it was written in"
    state = game.load(json.loads(json.dumps(data)))
    if GAMES[name][2][1].FORMAT == 1:
        assert game.dump(state) == data, "nothing is lost or changed on the way in"
    assert not game.is_over(state) and game.to_act(state)
    rng = Rng(1)
    for _ in range(5000):
        if game.is_over(state):
            break
        player = game.to_act(state)[0]
        legal = game.legal_actions(state, player)
        action = legal[rng.below(len(legal))]
        assert game.parse_action(state, player, str(action)) == action
        state, _events = game.apply(state, player, action)
    assert game.is_over(state) and game.result(state) is not None
    assert game.load(json.loads(json.dumps(game.dump(state)))) is not None


@pytest.mark.parametrize("name", GAMES)
def test_every_older_format_has_its_upgrade_step(name: str) -> None:
    module = GAMES[name][2][1]
    assert set(module.UPGRADES) == set(range(1, module.FORMAT))


@pytest.mark.parametrize("name", GAMES)
def test_a_save_from_a_newer_version_is_refused_and_says_so(name: str) -> None:
    field, prefix, (_, module) = GAMES[name]
    data = dict(saved(name), **{field: module.FORMAT + 1})
    with pytest.raises(BadInput) as refused:
        get_game(name).load(data)
    assert refused.value.msg.key == f"{prefix}.error.save_newer"
    for lang in ("en", "fr"):
        text = i18n.t(refused.value.msg, lang)
        assert f"{module.FORMAT + 1}" in text and f"1 {'to' if lang == 'en' else 'à'} {module.FORMAT}" in text
    assert data[field] == module.FORMAT + 1, "the save itself is left alone"


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("found", [0, -1, "1", None, True, 1.5])
def test_a_save_without_a_known_format_is_refused(name: str, found: Any) -> None:
    field, prefix, _ = GAMES[name]
    data = dict(saved(name), **{field: found})
    with pytest.raises(BadInput) as refused:
        get_game(name).load(data)
    assert refused.value.msg.key == f"{prefix}.error.save_unknown"
    del data[field]
    with pytest.raises(BadInput):
        get_game(name).load(data)


def _patch_format(monkeypatch: pytest.MonkeyPatch, modules: tuple[ModuleType, ...], value: int) -> None:
    for module in modules:
        monkeypatch.setattr(module, "FORMAT", value)


@pytest.mark.parametrize("name", GAMES)
def test_load_upgrades_an_older_save_one_step_at_a_time(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two future layout changes, as their upgrade steps would be written: load runs both, in order."""
    field, _prefix, modules = GAMES[name]
    now = modules[1].FORMAT
    ran: list[int] = []

    def step(data: Save) -> Save:
        ran.append(data[field])
        return {**data, field: data[field] + 1}

    _patch_format(monkeypatch, modules, now + 2)
    monkeypatch.setitem(modules[1].UPGRADES, now, step)
    monkeypatch.setitem(modules[1].UPGRADES, now + 1, step)
    data = saved(name)
    game = get_game(name)
    state = game.load(data)
    assert ran == [now, now + 1] and data[field] == 1, "each step once, the caller's data untouched"
    assert game.dump(state)[field] == now + 2
    assert game.to_act(state)


def test_the_upgrade_path_refuses_a_step_that_writes_the_wrong_format() -> None:
    with pytest.raises(AssertionError):
        upgraded({"v": 1}, "v", 2, {1: lambda d: d}, "wc")
    assert upgraded({"v": 1}, "v", 3, {1: lambda d: {"v": 2, "a": 1}, 2: lambda d: {**d, "v": 3}}, "wc") == {
        "v": 3,
        "a": 1,
    }
