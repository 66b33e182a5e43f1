"""The battlefield: labels, terrain places, the map text format and the preset maps."""

from __future__ import annotations

import pytest

from engine.batailles import GAME
from engine.batailles.board import GAP, PRESET_MAPS, label, parse_label, parse_map, preset_map
from engine.errors import BadInput
from tests.engine.batailles.helpers import documented_maps


def test_labels_read_like_a_chessboard() -> None:
    assert label((2, 0)) == "c1"
    assert label((7, 8)) == "h9"
    assert parse_label("C1") == (2, 0)
    assert parse_label("z1") is None
    assert parse_label("a0") is None


@pytest.mark.parametrize("name", PRESET_MAPS)
def test_presets_leave_five_zones_between_the_armies(name: str) -> None:
    board = preset_map(name)
    south = max(y for _, y in board.deploy_zones(0))
    north = min(y for _, y in board.deploy_zones(1))
    assert north - south - 1 >= GAP
    assert len(board.deploy_zones(0)) >= 12
    assert parse_map(board.to_text()) == board


def test_zone_tokens_give_terrain_places_and_dice() -> None:
    board = parse_map("hbb3 ffff rr f ./" + "/".join([". . . . ."] * 6))
    village = board.at((0, 6))
    assert village.hill and village.building == 2 and village.advantage == 3
    assert village.places == 2 and village.defence_bonus == 5 and village.cover == 4
    wood = board.at((1, 6))
    assert wood.impassable and wood.cover == 3
    river = board.at((2, 6))
    assert river.places == 2 and river.cover == 0 and not river.impassable
    assert board.at((3, 6)).cover == 1
    assert board.advantage_zones() == [((0, 6), 3)]


def test_rows_are_read_north_first_and_may_use_newlines_or_commas() -> None:
    text = "f,.,.\n.,.,.\n.,.,.\n.,.,.\n.,.,.\n.,.,.\n.,.,b"
    board = parse_map(text)
    assert board.at((0, 6)).forest == 1
    assert board.at((2, 0)).building == 1


def test_spaces_and_commas_read_alike_and_stray_separators_are_ignored() -> None:
    spaced = "/".join(["f . rr"] + [". . ."] * 5 + [". b2 ."])
    commas = "/".join(["f,.,rr,"] + [",.,.,."] * 5 + [".,  b2 , ."])
    assert parse_map(spaced) == parse_map(commas) == parse_map(spaced.replace("/", "\r\n") + "\n")


def test_the_rules_document_shows_spaces_commas_and_a_map_file() -> None:
    examples = documented_maps()
    assert len(examples) >= 3
    assert any(" " in m and "," not in m for m in examples)
    assert any("," in m for m in examples)
    assert any("\n" in m for m in examples)
    for text in examples:
        parse_map(text)


@pytest.mark.parametrize(
    ("text", "key", "params"),
    [
        ("x . ./" + "/".join([". . ."] * 6), "bt.err.map_zone", {"zone": "a7", "line": 1, "column": 1}),
        (". . .\n. . .\n. q .\n" + "\n".join([". . ."] * 4), "bt.err.map_zone", {"line": 3, "column": 2}),
        (". . .\n. .\n" + "\n".join([". . ."] * 5), "bt.err.map_row", {"line": 2, "row": 6, "count": 2}),
    ],
)
def test_a_refused_map_names_the_line_and_zone(text: str, key: str, params: dict[str, object]) -> None:
    with pytest.raises(BadInput) as err:
        parse_map(text)
    assert err.value.msg.key == key
    assert params.items() <= err.value.msg.params.items()


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("r . ./" + "/".join([". . ."] * 6), "bt.err.map_river"),
        ("fffff . ./" + "/".join([". . ."] * 6), "bt.err.map_full"),
        ("x . ./" + "/".join([". . ."] * 6), "bt.err.map_zone"),
        (". ./" + "/".join([". . ."] * 6), "bt.err.map_row"),
        ("/".join([". . ."] * 6), "bt.err.map_size"),
        ("/".join(["ffff ffff"] * 2 + [". ."] * 5), "bt.err.map_no_deploy"),
    ],
)
def test_bad_maps_are_refused_with_the_rule_they_break(text: str, key: str) -> None:
    with pytest.raises(BadInput) as err:
        parse_map(text)
    assert err.value.msg.key == key


def test_custom_map_option_replaces_the_preset() -> None:
    text = "/".join([". . . . 2"] + [". . . . ."] * 6)
    state = GAME.new_game(["a", "b"], seed=1, options={"custom_map": text})
    assert state.board.width == 5 and state.board.height == 7
    assert state.board.deploy_depth == 1
    assert GAME.view(state, None)["board"]["zones"][0]["advantage"] == 2


def test_unknown_option_values_are_refused_with_the_choices() -> None:
    with pytest.raises(BadInput) as err:
        GAME.new_game(["a", "b"], seed=1, options={"map": "moon"})
    assert err.value.msg.key == "bt.err.option_value"
    assert "forest_river" in err.value.msg.params["choices"]
    with pytest.raises(BadInput):
        GAME.new_game(["a", "b", "c"], seed=1)
    with pytest.raises(BadInput):
        GAME.new_game(["a", "b"], seed=1, options={"max_rounds": "0"})
