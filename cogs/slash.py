"""Slash commands generated from the command tree.

``table.play.command_tree`` says which commands there are, with which options (their kinds, ranges,
choices, completion and defaults), how each is answered and which handler runs it; their names and
descriptions, in every catalog language, follow from its catalog keys. ``build`` makes every Discord
command from its entry, with no method written per command: a callback whose signature (read by
discord.py through ``inspect.signature``) holds one parameter per option of the entry, annotated with
the Discord type the option asks for (a picked user, an attached file, a channel, a ranged number or
text), named and described from the catalog, offered its choices and its completion by their names in
the tree. Every callback hands the interaction, the entry and the option values to one ``Run`` (the
game cog's), which answers it with the entry's handler (``cogs.glue`` for the few that need Discord's
own glue).

A parameter whose option name is a Python keyword ends with ``_`` (``for_`` is the option ``for``).
"""

from __future__ import annotations

import inspect
import keyword
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import TypeVar

import discord
from discord import app_commands

from cogs.translator import label
from table.play.command_tree import CHANNEL, DISCORD, FILE, PLAYER, Command, Option, commands_for

F = TypeVar("F", bound=Callable[..., object])

Run = Callable[[discord.Interaction, Command, dict[str, object]], Awaitable[None]]
"""What answers a command: the interaction, the tree's entry, and the option values by option name."""
Complete = Callable[[discord.Interaction, str], Coroutine[object, object, list[app_commands.Choice[str]]]]
"""An autocomplete: what the user typed so far -> the choices offered."""
Offer = Callable[[str], Callable[[F], F]]
"""A list of choices offered on the parameter it is given (a decorator of the callback)."""

Made = app_commands.Command[app_commands.Group, ..., None]
Top = Made | app_commands.Group


def parameter_of(option: str) -> str:
    """The callback's parameter of a tree option (Python's keywords take a ``_``)."""
    return option + "_" if keyword.iskeyword(option) else option


def option_of(parameter: str) -> str:
    """The tree's option a parameter of a command callback stands for."""
    return parameter.removesuffix("_")


def annotation(option: Option) -> object:
    """The Discord type an option asks for, as discord.py reads it from an annotation."""
    if option.picks == PLAYER:
        return discord.User
    if option.picks == FILE:
        return discord.Attachment
    if option.picks == CHANNEL:
        return discord.TextChannel | discord.Thread
    kind = option.typed_as or option.kind
    if kind is bool or (option.least is None and option.most is None):
        return kind
    ranged: object = app_commands.Range.__class_getitem__((kind, option.least, option.most))  # type: ignore[attr-defined]
    return ranged


def _signature(options: Sequence[Option]) -> inspect.Signature:
    """``(interaction, <one parameter per option>)``, each option left out having its default."""
    positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [inspect.Parameter("interaction", positional, annotation=discord.Interaction)]
    for option in options:
        default = inspect.Parameter.empty if option.required else option.default
        parameters.append(
            inspect.Parameter(
                parameter_of(option.name), positional, annotation=annotation(option), default=default
            )
        )
    return inspect.Signature(parameters)


def slash_command(
    entry: Command,
    run: Run,
    *,
    offers: Mapping[str, Offer[Callable[..., object]]],
    completers: Mapping[str, Complete],
    parent: app_commands.Group | None = None,
) -> Made:
    """The Discord command of one tree entry, a subcommand of ``parent`` or a top-level command."""
    options = entry.options_for(DISCORD)

    async def callback(interaction: discord.Interaction, **values: object) -> None:
        await run(interaction, entry, {option_of(name): value for name, value in values.items()})

    callback.__name__ = callback.__qualname__ = "_".join(entry.path)  # not a method: no ``self``
    setattr(callback, "__signature__", _signature(options))  # noqa: B010 (read by discord.py)
    made: Callable[..., object] = callback
    names = {parameter_of(o.name): o for o in options}
    if names:
        made = app_commands.rename(**{p: label(entry.key(f"{o.name}.name")) for p, o in names.items()})(made)
        made = app_commands.describe(**{p: label(entry.key(f"{o.name}.desc")) for p, o in names.items()})(
            made
        )
    for parameter, option in names.items():
        if option.choices:
            made = offers[option.choices](parameter)(made)
        if option.complete:
            made = app_commands.autocomplete(**{parameter: completers[option.complete]})(made)
    if entry.server_only and parent is None:
        made = app_commands.guild_only()(made)
    if entry.managers:
        made = app_commands.default_permissions(manage_guild=True)(made)
    name, description = label(entry.key("name")), label(entry.key("desc"))
    return app_commands.Command(
        name=name, description=description, callback=callback, parent=parent, extras={"path": entry.path}
    )


def build(
    run: Run,
    *,
    offers: Mapping[str, Offer[Callable[..., object]]],
    completers: Mapping[str, Complete],
    order: Mapping[str, Sequence[str]] | None = None,
    tree: Sequence[Command] | None = None,
) -> list[Top]:
    """Every Discord command of ``tree`` (the bot's by default), top-level ones in the tree's order,
    each group's subcommands in ``order`` (the names it lists first, then the others in the tree's
    order): the commands ``install`` adds to the bot's command tree."""
    entries = [c for c in (tree if tree is not None else commands_for(DISCORD)) if DISCORD in c.fronts]
    top: dict[str, Top] = {}
    children: dict[str, list[Command]] = {}
    for entry in entries:
        first = entry.path[0]
        if len(entry.path) == 1:
            top[first] = slash_command(entry, run, offers=offers, completers=completers)
            continue
        if first not in top:
            subcommands = [c for c in entries if c.path[0] == first and len(c.path) > 1]
            top[first] = app_commands.Group(
                name=label(f"cmd.{first}.name"),
                description=label(f"cmd.{first}.desc"),
                guild_only=all(c.server_only for c in subcommands),
            )
        children.setdefault(first, []).append(entry)
    for first, subcommands in children.items():
        group = top[first]
        assert isinstance(group, app_commands.Group)
        listed = list((order or {}).get(first, ()))
        ranked = sorted(
            subcommands, key=lambda c: listed.index(c.path[1]) if c.path[1] in listed else len(listed)
        )
        for entry in ranked:
            group.add_command(slash_command(entry, run, offers=offers, completers=completers, parent=group))
    return list(top.values())


def path_of(
    command: app_commands.Command[app_commands.Group, ..., None] | app_commands.Group,
) -> tuple[str, ...] | None:
    """The tree path a registered command was made from, None for one ``build`` did not make."""
    path = command.extras.get("path")
    return path if isinstance(path, tuple) else None


__all__ = [
    "Complete",
    "Offer",
    "Run",
    "annotation",
    "build",
    "option_of",
    "parameter_of",
    "path_of",
    "slash_command",
]
