"""The engine contract on Batailles: text forms, labels, events and errors that render in both
languages, exact dumps, no mutation, a JSON view, and random games that end."""

from __future__ import annotations

import itertools
import json

import pytest

import engine
import i18n
from engine.batailles import GAME
from engine.batailles.state import State, clone, dump, load
from engine.errors import BadInput, GameError
from engine.rng import Rng
from engine.text import Msg
from tests.engine.batailles.helpers import A, B, battle, play

SPECS = [s for s in GAME.option_specs if s.choices]
COMBOS = [
    dict(zip([s.name for s in SPECS], c, strict=True)) for c in itertools.product(*[s.choices for s in SPECS])
]


def _rendered_fully(m: Msg) -> None:
    for lang in i18n.LOCALES:
        assert m.key in i18n.catalog(lang), f"{m.key} missing in {lang}"
        wanted = i18n.fields(i18n.catalog(lang)[m.key])
        assert wanted <= set(m.params), f"{m.key}: {wanted - set(m.params)} not given"
        text = i18n.t(m, lang)
        assert "{" not in text, text
        for value in m.params.values():
            if isinstance(value, Msg):
                _rendered_fully(value)


def _random_game(index: int, options: dict[str, str], check: bool) -> object:
    state = GAME.new_game([A, B], seed=index, options={**options, "max_rounds": "3"})
    chooser = Rng(index)
    for _ in range(5000):
        if GAME.is_over(state):
            return state
        acting = GAME.to_act(state)
        player = acting[chooser.below(len(acting))]
        legal = GAME.legal_actions(state, player)
        action = legal[chooser.below(len(legal))]
        if check:
            for other in legal[:300]:
                assert GAME.parse_action(state, player, str(other)) == other
                _rendered_fully(GAME.label(state, other))
            before = json.dumps(GAME.dump(state), sort_keys=True)
            assert json.dumps(GAME.dump(GAME.load(json.loads(before))), sort_keys=True) == before
        new, events = GAME.apply(state, player, action)
        if check:
            assert json.dumps(GAME.dump(state), sort_keys=True) == before, "apply mutated its input"
            for e in events:
                _rendered_fully(e)
        state = new
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("index", range(len(COMBOS)))
def test_random_games_end_and_everything_they_show_renders(index: int) -> None:
    state = _random_game(index, COMBOS[index], check=index % 4 == 0)
    result = GAME.result(state)
    assert result is not None and (result.draw or result.winners)
    _rendered_fully(result.reason)
    json.dumps(result.to_json())
    view = GAME.view(state, A)
    json.dumps(view)
    assert view["phase"] == "over" and view["to_act"] == [] and view["result"] is not None


def test_the_view_follows_its_documented_schema() -> None:
    s = battle([(A, "axe", "1 4 0 0 0 2", "d2", "n"), (B, "foe", "1 2 2 0 0 0", "d3", "s")], rng=4)
    s, _ = play(s, A, "activate axe")
    view = GAME.view(s, None)
    json.dumps(view)
    assert view["game"] == "batailles" and view["viewer"] is None and view["private"] is None
    assert set(view) >= {
        "board",
        "troops",
        "seats",
        "phase",
        "round",
        "threshold",
        "active",
        "to_act",
        "activation",
        "combat",
        "pending",
        "hits",
        "last",
        "result",
    }
    axe = next(t for t in view["troops"] if t["name"] == "axe")
    assert axe["label"] == "d2" and axe["facing"] == "n" and axe["activated"]
    assert axe["profile"] == {
        "movement": 1,
        "attack": 4,
        "defence": 0,
        "range": 0,
        "command": 0,
        "logistics": 2,
    }
    assert view["activation"]["troops"] == ["axe"] and view["activation"]["label"] == "d2"
    assert view["board"]["width"] == 8 and view["board"]["deploy"] == {"0": [0, 1], "1": [7, 8]}
    assert view["last"] == {
        "seat": 0,
        "text": "activate axe",
        "label": {"key": "bt.did.activate", "params": {"names": "axe"}},
        "zones": [[3, 1]],
        "path": None,
        "removed": [],
        "outcome": [],
    }


@pytest.mark.parametrize(
    ("player", "text"),
    [
        (A, "attack d3 1"),
        (A, "activate nobody"),
        (A, "morale d3"),
        (B, "activate foe"),
        (A, "lose axe"),
        (A, "recruit z 1 1 1 1 1 0"),
    ],
)
def test_refusals_render_in_both_languages_and_change_nothing(player: str, text: str) -> None:
    s = battle([(A, "axe", "1 4 0 0 0 2", "d2", "n"), (B, "foe", "1 2 2 0 0 0", "d3", "s")])
    before = json.dumps(GAME.dump(s), sort_keys=True)
    with pytest.raises(GameError) as err:
        play(s, player, text)
    _rendered_fully(err.value.msg)
    assert err.value.msg.key in i18n.catalog("en")
    assert json.dumps(GAME.dump(s), sort_keys=True) == before


@pytest.mark.parametrize("text", ["", "fly n", "move northward n", "attack d3", "deploy x z9 n", "ready now"])
def test_unreadable_text_is_bad_input_quoting_it(text: str) -> None:
    s = battle([(A, "axe", "1 4 0 0 0 2", "d2", "n"), (B, "foe", "1 2 2 0 0 0", "d3", "s")])
    with pytest.raises(BadInput) as err:
        GAME.parse_action(s, A, text)
    _rendered_fully(err.value.msg)


def test_option_help_and_map_errors_render() -> None:
    for spec in GAME.option_specs:
        assert spec.help is not None
        _rendered_fully(spec.help)
    with pytest.raises(BadInput) as err:
        GAME.new_game([A, B], seed=1, options={"custom_map": "r ./. ."})
    _rendered_fully(err.value.msg)


def test_the_game_is_reachable_through_its_module() -> None:
    assert GAME.name == "batailles" and GAME.player_counts == (2,)
    assert isinstance(engine.GameError, type)


def test_every_message_key_the_engine_names_is_in_both_catalogs() -> None:
    import re
    from pathlib import Path

    source = "\n".join(p.read_text(encoding="utf-8") for p in Path("engine/batailles").glob("*.py"))
    keys = set(re.findall(r"\"(bt\.[a-z_]+\.[a-z_]+)\"", source))
    keys |= {f"bt.dir.{d}" for d in "nesw"}
    keys -= {prefix for prefix, _kind in GAME.words.catalog}  # prefixes of the typed words, not keys
    assert len(keys) > 80
    for lang in i18n.LOCALES:
        missing = sorted(k for k in keys if k not in i18n.catalog(lang))
        assert not missing, f"{lang}: {missing}"


def _mutable_parts(s: State) -> list[object]:
    """Every list, dict and troop a state holds (the board is immutable and may be shared)."""
    parts: list[object] = [s.troops, *s.troops, s.players, s.options, s.ready, s.order, s.turns]
    parts += [s.activated, s.loss_queue, s.hits, s.advantage, s.losses, s.retrained, *s.retrained]
    parts += [s.retrain_pick, s.outcome, s.last, s.activation, s.combat, s.pending]
    return [p for p in parts if p is not None]


def _close_fight() -> State:
    """Two lines of troops face to face on an open map: attacks, rerolls, losses and morale tests."""
    troops = [(A, f"a{i}", "0 3 1 0 1 0", f"{c}4", "n") for i, c in enumerate("bcdefg")]
    troops += [(B, f"b{i}", "0 2 2 0 0 1", f"{c}5", "s") for i, c in enumerate("bcdefg")]
    return battle(troops, rng=5)


def test_clone_equals_the_copy_through_the_dump_and_shares_nothing_over_playouts() -> None:
    """``clone`` copies field by field; it must give what ``load(dump(s))`` gives (the same values,
    ``hits`` in the same order) at every position of games that build, deploy, fight and retrain."""
    starts = [
        GAME.new_game([A, B], seed=i, options={**o, "max_rounds": "3"}) for i, o in enumerate(COMBOS[:6])
    ]
    seen = {"hits": 0, "combat": 0, "pending": 0}
    for index, state in enumerate([*starts, _close_fight(), _close_fight()]):
        chooser = Rng(index + 300)
        for _ in range(3000):
            if index == 0 and not state.hits and state.phase == "play":
                state.hits = {(6, 4): 1, (2, 3): 2}  # written out in another order than the dump's
            copy, through = clone(state), load(dump(state))
            assert copy == through and list(copy.hits.items()) == list(through.hits.items())
            assert not {id(p) for p in _mutable_parts(copy)} & {id(p) for p in _mutable_parts(state)}
            seen["hits"] += bool(state.hits)
            seen["combat"] += state.combat is not None
            seen["pending"] += state.pending is not None
            if GAME.is_over(state):
                break
            player = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, player)
            action = legal[chooser.below(len(legal))]
            if chooser.below(4) == 0:
                action = GAME.default_action(state, player) or action
            state, _ = GAME.apply(state, player, action)
    assert all(seen.values()), seen
