"""The options parser and the JSON form of events and results."""

from __future__ import annotations

import json

import pytest

from engine.contract import OptionSpec, Result
from engine.text import Msg, PlayerRef, msg
from table.core.errors import BadOptions
from table.core.events import decode_msg, decode_result, encode_msg, encode_result
from table.core.options import format_options, parse_options

SPECS = (OptionSpec("armies", ("random", "first", "draft"), "random"), OptionSpec("name", (), "x"))


def test_options_fill_defaults_and_accept_any_case() -> None:
    assert parse_options("", SPECS, game="g") == {"armies": "random", "name": "x"}
    assert parse_options("  ARMIES=First  name=Bob ", SPECS, game="g") == {"armies": "first", "name": "Bob"}


def test_formatted_options_parse_back() -> None:
    chosen = {"armies": "draft", "name": "y"}
    assert parse_options(format_options(chosen), SPECS, game="g") == chosen


@pytest.mark.parametrize(
    ("text", "key", "param"),
    [
        ("armies", "table.error.bad_option_syntax", ("text", "armies")),
        ("armies=", "table.error.bad_option_syntax", ("text", "armies=")),
        ("army=first", "table.error.unknown_option", ("options", "armies, name")),
        ("armies=best", "table.error.bad_option_value", ("choices", "random, first, draft")),
        ("name=a name=b", "table.error.duplicate_option", ("option", "name")),
    ],
)
def test_option_mistakes_name_the_word_and_the_alternatives(
    text: str, key: str, param: tuple[str, str]
) -> None:
    with pytest.raises(BadOptions) as err:
        parse_options(text, SPECS, game="g")
    assert err.value.msg.key == key
    assert err.value.msg.params[param[0]] == param[1]


def test_a_free_text_value_keeps_its_spaces_and_line_breaks_up_to_the_next_option() -> None:
    text = "name=. . f/. rr .\n. . . armies=first"
    assert parse_options(text, SPECS, game="g") == {"armies": "first", "name": ". . f/. rr .\n. . ."}
    from table.core.options import take_seed

    assert take_seed("name=. .\n. . seed=7 armies=draft") == (7, "name=. .\n. . armies=draft")


def test_an_option_with_choices_takes_one_word() -> None:
    with pytest.raises(BadOptions) as err:
        parse_options("armies=first heap", SPECS, game="g")
    assert err.value.msg.key == "table.error.bad_option_syntax" and err.value.msg.params["text"] == "heap"
    with pytest.raises(BadOptions) as err:
        parse_options("heap name=a", SPECS, game="g")
    assert err.value.msg.params["text"] == "heap"


def test_a_game_without_options_refuses_any() -> None:
    with pytest.raises(BadOptions) as err:
        parse_options("x=1", (), game="g")
    assert err.value.msg.key == "table.error.no_options"


def test_messages_round_trip_through_json() -> None:
    event = msg(
        "wc.ev.attack",
        player=PlayerRef("111"),
        unit=msg("wc.unit.archer"),
        targets=[PlayerRef("222"), "c4"],
        n=2,
        ok=True,
        none=None,
    )
    stored = json.loads(json.dumps(encode_msg(event)))
    back = decode_msg(stored)
    assert back.key == event.key
    assert back.params["player"] == PlayerRef("111")
    assert back.params["unit"] == Msg("wc.unit.archer")
    assert back.params["targets"] == [PlayerRef("222"), "c4"]
    assert (back.params["n"], back.params["ok"], back.params["none"]) == (2, True, None)


def test_results_keep_players_in_the_reason() -> None:
    result = Result(winners=("1",), reason=msg("r", player=PlayerRef("2")), scores={"1": 3})
    back = decode_result(json.loads(json.dumps(encode_result(result))))
    assert back == result


def test_a_seed_option_is_taken_by_the_table_and_checked() -> None:
    from table.core.errors import BadOptions
    from table.core.options import take_seed

    assert take_seed("armies=draft seed=42") == (42, "armies=draft")
    assert take_seed("armies=draft") == (None, "armies=draft")
    with pytest.raises(BadOptions) as err:
        take_seed("seed=abc")
    assert err.value.msg.key == "table.error.bad_seed"


@pytest.mark.parametrize("typed", ["9" * 400, "9223372036854775808", "²", "-1", "4e3"])
def test_a_seed_out_of_range_or_not_in_digits_is_refused_with_the_range(typed: str) -> None:
    from table.core.errors import BadOptions
    from table.core.options import MAX_SEED, take_seed

    with pytest.raises(BadOptions) as err:
        take_seed(f"seed={typed}")
    assert err.value.msg.key == "table.error.bad_seed"
    assert err.value.msg.params["max"] == MAX_SEED == 2**63 - 1
    assert len(err.value.msg.params["value"]) <= 40, "a pasted page is not echoed back whole"
    assert take_seed(f"seed={MAX_SEED}") == (MAX_SEED, "")
