"""Reading console lines: the same commands and options as the slash commands."""

from __future__ import annotations

import pytest

from console.parse import LineError, commands, parse_line


def test_group_command_with_options() -> None:
    line = parse_line("alice: /game new game:warchest players:2 options:armies=first")
    assert line.user == "alice"
    assert line.path == ("game", "new")
    assert line.options == {"game": "warchest", "players": 2, "options": "armies=first"}


def test_values_run_to_the_next_option_token() -> None:
    line = parse_line("bob: /play action:move archer e1 e2")
    assert line.path == ("play",)
    assert line.options == {"action": "move archer e1 e2"}
    line = parse_line("bob: /game new game:warchest options:armies=draft  other=x  players:2")
    assert line.options == {"game": "warchest", "options": "armies=draft  other=x", "players": 2}


def test_first_option_may_be_positional_and_version_prefix_is_kept() -> None:
    assert parse_line("bob: /play v12:move archer e1 e2").options == {"action": "v12:move archer e1 e2"}
    assert parse_line("bob: /game log 3").options == {"page": 3}
    assert parse_line("carol: /game new warchest").options == {"game": "warchest"}


def test_french_names_map_to_the_same_command() -> None:
    line = parse_line("alice: /partie nouvelle jeu:warchest joueurs:2")
    assert line.path == ("game", "new")
    assert line.options == {"game": "warchest", "players": 2}
    assert parse_line("bob: /jouer action:pass royal").path == ("play",)
    assert parse_line("bob: /main").path == ("hand",)
    assert parse_line("bob: /partie rejoindre équipe:1").options == {"team": 1}


def test_names_are_case_insensitive_and_spaces_forgiven() -> None:
    line = parse_line("  Alice :  /GAME  Join  ")
    assert (line.user, line.path, line.options) == ("Alice", ("game", "join"), {})


def test_optional_flags_and_missing_options() -> None:
    assert parse_line("a: /game new game:warchest thread:oui").options["thread"] is True
    assert parse_line("a: /game new game:warchest thread:no").options["thread"] is False
    assert parse_line("a: /play").options == {}
    assert parse_line("a: /game rules").options == {}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("hello there", "console.bad_line"),
        ("alice /game new", "console.bad_line"),
        ("alice: game new", "console.bad_line"),
        ("alice: /dance", "console.unknown_command"),
        ("alice: /game fly", "console.unknown_command"),
        ("alice: /game new", "console.missing_option"),
        ("alice: /game new game:warchest players:two", "console.bad_number"),
        ("alice: /game new game:warchest thread:maybe", "console.bad_bool"),
        ("alice: /game new gmae:warchest", "console.unknown_option"),
        ("alice: /game join tem:1", "console.unknown_option"),
        ("alice: /hand now", "console.no_options"),
    ],
)
def test_bad_lines_name_what_is_wrong(text: str, key: str) -> None:
    with pytest.raises(LineError) as caught:
        parse_line(text)
    assert caught.value.msg.key == key


def test_every_console_command_has_catalog_names() -> None:
    import i18n

    for path, specs in commands().items():
        base = "cmd." + ".".join(path)
        assert i18n.catalog("en")[base + ".name"] == path[-1]
        for spec in specs:
            assert i18n.catalog("en")[f"{base}.{spec.name}.name"] == spec.name


def test_a_user_name_may_contain_spaces() -> None:
    line = parse_line("Anne Marie: /game join team:2")
    assert (line.user, line.options) == ("Anne Marie", {"team": 2})
