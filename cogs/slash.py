"""Slash commands named, described and localised from the command tree.

``table.play.command_tree`` says which commands there are and which options each takes, in which
order; their names and descriptions, in every catalog language, follow from its catalog keys. A cog
method therefore carries only ``@command("game.new")`` and its typed signature (Discord's types,
ranges, choices, autocomplete and permissions stay the cog's business): the decorator finds the
tree's entry, checks that the method's parameters are that entry's Discord options in the same
order, and gives the command, and each option, its catalog name and description. A command the
tree does not describe, or a parameter it does not know, fails when the cog is imported instead of
reaching Discord.

A parameter whose option name is a Python keyword ends with ``_`` (``for_`` is the option ``for``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import Any

from discord import app_commands

from cogs.translator import label
from table.play.command_tree import DISCORD, GROUPS, find

Callback = Callable[..., Coroutine[Any, Any, None]]
"""A cog's command method: ``(self, interaction, *options)``."""

_GROUPS: dict[str, app_commands.Group] = {}
"""The groups of subcommands made by ``group``, by their English name, for ``command`` to add to."""


def group(name: str, **settings: Any) -> app_commands.Group:
    """The group of subcommands ``/<name>`` (``/game``), named and described from the catalog;
    ``settings`` are discord.py's (``guild_only``)."""
    if name not in GROUPS:
        raise LookupError(f"/{name} is no group of Discord commands in the command tree")
    made = app_commands.Group(
        name=label(f"cmd.{name}.name"), description=label(f"cmd.{name}.desc"), **settings
    )
    _GROUPS[name] = made
    return made


def option_of(parameter: str) -> str:
    """The tree's option a parameter of a command method stands for."""
    return parameter.removesuffix("_")


def command(path: str) -> Callable[[Callback], app_commands.Command[Any, ..., None]]:
    """Make the decorated method the Discord command of the tree's entry ``path`` (``"game.new"``):
    a subcommand of the ``group`` of its first word, or a top-level command."""
    entry = find(path, DISCORD)
    options = [option.name for option in entry.options_for(DISCORD)]

    def decorate(method: Callback) -> app_commands.Command[Any, ..., None]:
        parameters = list(inspect.signature(method).parameters)[2:]  # after self and the interaction
        if [option_of(p) for p in parameters] != options:
            raise TypeError(f"/{' '.join(entry.path)} takes {options} in the command tree, not {parameters}")
        app_commands.rename(**{p: label(entry.key(f"{option_of(p)}.name")) for p in parameters})(method)
        app_commands.describe(**{p: label(entry.key(f"{option_of(p)}.desc")) for p in parameters})(method)
        name, description = label(entry.key("name")), label(entry.key("desc"))
        extras = {"path": entry.path}
        if len(entry.path) == 1:
            return app_commands.command(name=name, description=description, extras=extras)(method)
        parent = _GROUPS[entry.path[0]]
        return parent.command(name=name, description=description, extras=extras)(method)

    return decorate


def path_of(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> tuple[str, ...] | None:
    """The tree path a registered command was made from, None for one ``command`` did not make."""
    path = command.extras.get("path")
    return path if isinstance(path, tuple) else None


__all__ = ["command", "group", "option_of", "path_of"]
