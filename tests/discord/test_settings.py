"""Settings from the environment, as documented in README.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import Settings


def test_defaults_without_a_token_mean_the_console() -> None:
    settings = Settings.from_env({})
    assert settings.token is None
    assert settings.database_path == Path("data/bot.sqlite3")
    assert settings.console_out == Path("out")
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.sync_commands


def test_every_variable_is_read() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": " abc ",
            "DATABASE_PATH": "/var/lib/bot/games.sqlite3",
            "DEV_GUILD_ID": "123456789012345678",
            "CONSOLE_OUT": "/tmp/boards",
            "LOG_LEVEL": "debug",
            "CONSOLE_LOCALE": "fr",
        }
    )
    assert settings.token == "abc"
    assert settings.database_path == Path("/var/lib/bot/games.sqlite3")
    assert settings.dev_guild_id == 123456789012345678
    assert settings.console_out == Path("/tmp/boards")
    assert settings.log_level == "DEBUG"
    assert settings.console_locale == "fr"


def test_blank_token_is_no_token_and_a_bad_guild_id_is_refused() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "  "}).token is None
    with pytest.raises(ValueError, match="DEV_GUILD_ID"):
        Settings.from_env({"DEV_GUILD_ID": "my-server"})
