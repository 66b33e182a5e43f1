"""What an interaction asks for, checked against the bot's own commands before anything runs.

Discord's client only sends what the synced command list allows, but a modified client, a client
still showing an older command list, or a forged request can send anything the API carries: a
command or subcommand the bot does not have, options it does not know, a required option left out,
a value of the wrong JSON type (``page: "abc"``, ``action: 5``), out of its bounds or choices.
discord.py hands such values to the commands as they are, where they would fail deep inside;
``refusal`` finds them first and says, in the player's language, what the command takes.

``GameTree.interaction_check`` runs it before any handler: a command or option the bot does not have, a
missing required option, or a value of the wrong type, out of its bounds or choices gets an ephemeral answer
saying what the command takes, and nothing runs. The tree remembers the last 10,000 interaction ids, so a
second delivery of one (commands, buttons and menus alike) is dropped without a word.
``tests/discord/test_fuzz.py`` sends 2,400 such seeded payloads through the fake Discord: each is answered, no
traceback is logged and the store does not change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

import discord
from discord import AppCommandOptionType, app_commands

from cogs.translator import translate
from engine import GameError
from engine.text import Msg

SNOWFLAKE_DIGITS = 20
"""A Discord id has at most 20 digits (64 bits)."""

RESOLVED = {
    AppCommandOptionType.user: ("users", "members"),
    AppCommandOptionType.mentionable: ("users", "members", "roles"),
    AppCommandOptionType.role: ("roles",),
    AppCommandOptionType.channel: ("channels",),
    AppCommandOptionType.attachment: ("attachments",),
}
"""Where the payload's ``resolved`` block describes the object an option names."""

SUBCOMMANDS = (AppCommandOptionType.subcommand.value, AppCommandOptionType.subcommand_group.value)


class _Named(Protocol):
    """A command, group or option: what has a name to show."""

    @property
    def name(self) -> str: ...


class _Placed(_Named, Protocol):
    """A command or group, under its group if any."""

    @property
    def parent(self) -> _Placed | None: ...


class _Leaf(_Placed, Protocol):
    """A command a player runs, with its options."""

    @property
    def parameters(self) -> list[app_commands.Parameter]: ...


def local_name(item: _Named, locale: str) -> str:
    """A command's, group's or option's name as the player's client shows it."""
    string = getattr(item, "locale_name", None) or getattr(item, "_locale_name", None)
    translated = translate(string, locale) if isinstance(string, app_commands.locale_str) else None
    return translated or str(getattr(item, "display_name", None) or item.name)


def command_path(command: _Placed, locale: str) -> str:
    """``game log`` (``partie historique`` in French): the words a player types after the slash."""
    words = []
    step: _Placed | None = command
    while step is not None:
        words.append(local_name(step, locale))
        step = step.parent
    return " ".join(reversed(words))


def command_list(tree: app_commands.CommandTree[discord.Client], locale: str) -> str:
    return ", ".join(f"/{local_name(command, locale)}" for command in tree.get_commands())


def leaf_options(data: Mapping[str, object]) -> tuple[list[str], list[object]]:
    """The (sub)command names the payload walks down, and the options it gives the last one."""
    path = [str(data.get("name", ""))]
    options: object = data.get("options") or []
    while isinstance(options, list) and options:
        first = options[0]
        if not (isinstance(first, dict) and first.get("type") in SUBCOMMANDS):
            break
        path.append(str(first.get("name", "")))
        options = first.get("options") or []
    return path, options if isinstance(options, list) else [options]


def find_command(
    tree: app_commands.CommandTree[discord.Client], path: list[str], guild_id: int | None
) -> _Leaf | None:
    """The command the path names, or None: unknown, or a group where a command must be."""
    command: object = tree.get_command(path[0], guild=None if guild_id is None else _Guild(guild_id))
    if command is None and guild_id is not None:
        command = tree.get_command(path[0])
    for name in path[1:]:
        if not isinstance(command, app_commands.Group):
            return None
        command = command.get_command(name)
    if not isinstance(command, app_commands.Command):
        return None
    return command


class _Guild:
    """The ``discord.abc.Snowflake`` that ``CommandTree.get_command`` takes for a guild."""

    def __init__(self, guild_id: int) -> None:
        self.id = guild_id


def refusal(
    tree: app_commands.CommandTree[discord.Client],
    data: Mapping[str, object],
    locale: str,
    *,
    guild_id: int | None,
    autocomplete: bool = False,
) -> GameError | None:
    """Why the command ``data`` asks for cannot run as sent, or None when it can.

    For an autocomplete, the option being typed holds text whatever its type, and required options
    may still be missing.
    """
    path, options = leaf_options(data)
    command = find_command(tree, path, guild_id)
    if command is None:
        return GameError(
            "cmd.input.unknown_command", command=" ".join(path)[:100], commands=command_list(tree, locale)
        )
    where = command_path(command, locale)
    parameters = {p.display_name: p for p in command.parameters}
    given: dict[str, object] = {}
    for entry in options:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            return GameError("cmd.input.unknown_command", command=where, commands=command_list(tree, locale))
        name = entry["name"]
        if name not in parameters:
            if not parameters:
                return GameError("cmd.input.no_options", command=where)
            known = ", ".join(local_name(p, locale) for p in parameters.values())
            return GameError("cmd.input.unknown_option", command=where, option=name[:40], options=known)
        if autocomplete and entry.get("focused"):
            if not isinstance(entry.get("value"), str):
                return _wrong_type(parameters[name], where, locale)
            continue
        given[name] = entry.get("value")
    found = data.get("resolved")
    resolved: Mapping[object, object] = found if isinstance(found, dict) else {}
    for name, parameter in parameters.items():
        if name not in given:
            if parameter.required and not autocomplete:
                option = local_name(parameter, locale)
                return GameError("cmd.input.missing_option", command=where, option=option)
            continue
        if autocomplete:
            # The other options of a command being typed are read as they are (the autocomplete
            # handlers check them); only an id that is no number would stop discord.py itself.
            value = given[name]
            if parameter.type in RESOLVED and not _snowflake(value):
                return _wrong_type(parameter, where, locale)
            continue
        problem = _value_problem(parameter, given[name], resolved, where, locale)
        if problem is not None:
            return problem
    return None


def _value_problem(
    parameter: app_commands.Parameter,
    value: object,
    resolved: Mapping[object, object],
    where: str,
    locale: str,
) -> GameError | None:
    kind = parameter.type
    option = local_name(parameter, locale)
    if not _fits(kind, value, resolved):
        return _wrong_type(parameter, where, locale)
    choices = parameter.choices
    if choices and value not in [c.value for c in choices]:
        names = ", ".join(str(c.value) for c in choices)
        return GameError("cmd.input.not_a_choice", command=where, option=option, choices=names)
    low, high = parameter.min_value, parameter.max_value
    if kind is AppCommandOptionType.string and isinstance(value, str):
        size = len(value)
        if (low is not None and size < low) or (high is not None and size > high):
            return GameError(
                "cmd.input.length", command=where, option=option, low=low or 0, high=high or size
            )
    elif (
        kind in (AppCommandOptionType.integer, AppCommandOptionType.number)
        and isinstance(value, int | float)
        and ((low is not None and value < low) or (high is not None and value > high))
    ):
        return GameError("cmd.input.out_of_range", command=where, option=option, low=low, high=high)
    return None


def _wrong_type(parameter: app_commands.Parameter, where: str, locale: str) -> GameError:
    kind = Msg(f"cmd.input.kind.{parameter.type.name}")
    return GameError("cmd.input.wrong_type", command=where, option=local_name(parameter, locale), kind=kind)


def _fits(kind: AppCommandOptionType, value: object, resolved: Mapping[object, object]) -> bool:
    """Whether ``value`` is what Discord sends for an option of type ``kind``."""
    if kind is AppCommandOptionType.string:
        return isinstance(value, str)
    if kind is AppCommandOptionType.integer:
        # Discord's integers lie within +-2^53
        return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53
    if kind is AppCommandOptionType.number:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind is AppCommandOptionType.boolean:
        return isinstance(value, bool)
    if kind in RESOLVED:
        if not _snowflake(value):
            return False
        return any(
            isinstance(group := resolved.get(block), dict) and value in group for block in RESOLVED[kind]
        )
    return False


def _snowflake(value: object) -> bool:
    """Whether ``value`` is a Discord id as payloads carry them: a string of at most 20 digits."""
    return isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= SNOWFLAKE_DIGITS
