"""Settings from the environment, as documented in README.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from launch import Settings


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


def test_a_database_url_chooses_postgresql_and_the_file_stays_the_default() -> None:
    assert Settings.from_env({}).database == Path("data/bot.sqlite3")
    url = "postgresql://bot:secret@db:5432/bot"
    settings = Settings.from_env({"DATABASE_URL": f" {url} ", "DATABASE_PATH": "/data/bot.sqlite3"})
    assert settings.database_url == url and settings.database == url
    assert Settings.from_env({"DATABASE_URL": "postgres://u@h/d"}).database == "postgres://u@h/d"
    with pytest.raises(ValueError, match="DATABASE_URL must be a PostgreSQL URL"):
        Settings.from_env({"DATABASE_URL": "mysql://u@h/d"})


def test_the_loop_health_and_shutdown_settings() -> None:
    default = Settings.from_env({"DATABASE_PATH": "/data/bot.sqlite3"})
    assert default.tick_seconds == 60.0 and default.shutdown_grace == 8.0
    assert default.heartbeat == Path("/data/heartbeat"), "beside the games, in the container's volume"
    assert default.heartbeat_limit == 180.0, "three missed ticks"
    tuned = Settings.from_env(
        {
            "TICK_SECONDS": "5",
            "HEARTBEAT_PATH": "/run/bot/beat",
            "HEARTBEAT_MAX_AGE": "40",
            "SHUTDOWN_GRACE": "20",
        }
    )
    assert (tuned.tick_seconds, tuned.heartbeat, tuned.heartbeat_limit) == (5.0, Path("/run/bot/beat"), 40.0)
    assert tuned.shutdown_grace == 20.0
    assert Settings.from_env({"TICK_SECONDS": "5"}).heartbeat_limit == 15.0
    for bad in ("0", "-3", "soon"):
        with pytest.raises(ValueError, match="TICK_SECONDS must be a number of seconds above 0"):
            Settings.from_env({"TICK_SECONDS": bad})


def test_shards_are_a_count_and_the_ones_this_process_runs() -> None:
    from bot import ShardedTabletopBot, TabletopBot, build_bot

    plain = Settings.from_env({})
    assert (plain.shard_count, plain.shard_ids, plain.lease_seconds) == (None, None, 60.0)
    assert type(build_bot(plain)) is TabletopBot, "without shards the bot is one unsharded process"
    settings = Settings.from_env({"SHARD_COUNT": "4", "SHARD_IDS": " 3, 1 ", "LEASE_SECONDS": "15"})
    assert (settings.shard_count, settings.shard_ids, settings.lease_seconds) == (4, (1, 3), 15.0)
    sharded = build_bot(settings)
    assert isinstance(sharded, ShardedTabletopBot)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [1, 3])
    every = Settings.from_env({"SHARD_COUNT": "2"})
    assert (every.shard_count, every.shard_ids) == (2, None), "one process running every shard"
    with pytest.raises(ValueError, match="SHARD_IDS needs SHARD_COUNT"):
        Settings.from_env({"SHARD_IDS": "0"})
    for count in ("0", "two", "-1"):
        with pytest.raises(ValueError, match="SHARD_COUNT must be"):
            Settings.from_env({"SHARD_COUNT": count})
    for ids in ("2", "0,x", "0,,1"):
        with pytest.raises(ValueError, match="SHARD_IDS must list shard numbers from 0 to 1"):
            Settings.from_env({"SHARD_COUNT": "2", "SHARD_IDS": ids})
