"""Discord's own glue of the slash commands, the one place it is written.

Every slash command is made from its entry of the command tree and answered by its handler
(``cogs.slash``, ``GameCog.command``). What Discord needs beyond the tree is here, by the names the tree
gives it:

- ``OFFERS``: the lists of choices an option names (``choices="games"``): the registered games, the
  computer players' levels, the rating pools, the league formats, the deadline policies, the catalog's
  languages, each shown under its catalog label.
- ``completers``: the autocompletes an option names (``complete="moves"``), over the cog's handlers;
  some read another option already chosen (the game whose options or rules are typed).
- ``GLUE``: the commands answered otherwise than by their handler alone: ``/game new``, which may open
  a thread first (the thread's id is the game's channel) and reads an attached map file into its
  options, and checks the bot's permissions before anything is made.
- ``ORDER``: the order of ``/game``'s subcommands in the payload Discord was sent when the commands
  were written by hand, so that the synced payload stays the one servers have (a new subcommand
  comes after them, in the tree's order).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping

import discord
from discord import app_commands

from cogs.channels import needed_for_a_table
from cogs.game import GameCog, as_choices, game_choices, level_choices, make_ctx, with_map_file
from cogs.league import format_choices
from cogs.replies import offer_choices
from cogs.slash import Complete, Offer, Run
from cogs.translator import label, offer_languages
from engine import GameError
from engine.registry import pools
from engine.text import Msg
from table.core.posts import Ctx, Post
from table.core.settings import POLICIES
from table.play.command_tree import DISCORD, Command, find

log = logging.getLogger(__name__)

Choices = list[app_commands.Choice[str]]


def _choices(made: Callable[[], Choices]) -> Offer[Callable[..., object]]:
    """Offer the choices ``made`` lists (when the commands are built: the games registered by then)."""
    return lambda parameter: app_commands.choices(**{parameter: made()})


def _pool_choices() -> Choices:
    return [app_commands.Choice(name=label(f"cmd.choice.pool.{pool}"), value=pool) for pool in pools()]


def _policy_choices() -> Choices:
    return [app_commands.Choice(name=label(f"cmd.choice.policy.{p}"), value=p) for p in POLICIES]


OFFERS: dict[str, Offer[Callable[..., object]]] = {
    "games": _choices(game_choices),
    "levels": _choices(level_choices),
    "pools": _choices(_pool_choices),
    "league_formats": _choices(format_choices),
    "policies": _choices(_policy_choices),
    "languages": offer_languages,
}


def _chosen(interaction: discord.Interaction, option: str) -> str | None:
    """The value of another option of the command being typed, when one was chosen."""
    value = getattr(interaction.namespace, option, None)
    return value if isinstance(value, str) and value else None


def completers(cog: GameCog) -> dict[str, Complete]:
    """The autocompletes the tree's options name, over ``cog``'s handlers: nothing rather than an error."""
    table = cog.table

    async def options(interaction: discord.Interaction, current: str) -> Choices:
        """The game's option names and values as typed (``armies=dr`` -> ``armies=draft``)."""
        try:
            pairs = table.options_autocomplete(
                make_ctx(interaction), _chosen(interaction, "game") or "", current
            )
        except GameError:
            pairs = []
        return await offer_choices(interaction, as_choices(pairs))

    async def topics(interaction: discord.Interaction, current: str) -> Choices:
        """The rules topics matching what the reader typed, for the game chosen in the other option."""
        try:
            pairs = await table.rules_autocomplete(
                make_ctx(interaction), current, _chosen(interaction, "game")
            )
        except Exception:
            log.exception("rules autocomplete failed for %r", current)
            pairs = []
        return await offer_choices(interaction, as_choices(pairs))

    async def moves(interaction: discord.Interaction, current: str) -> Choices:
        """The caller's legal moves matching what they typed."""
        try:
            pairs = await table.autocomplete(make_ctx(interaction), current)
        except GameError:
            pairs = []
        except Exception:
            log.exception("autocomplete failed for %r", current)
            pairs = []
        return await offer_choices(interaction, as_choices(pairs))

    async def timezones(interaction: discord.Interaction, current: str) -> Choices:
        """Time zone names matching what the player typed (a city is enough)."""
        pairs = await table.timezone_autocomplete(make_ctx(interaction), current)
        return await offer_choices(interaction, as_choices(pairs))

    return {"options": options, "topics": topics, "moves": moves, "timezones": timezones}


Glue = Callable[[GameCog, discord.Interaction, dict[str, object]], Awaitable[None]]


async def _new(cog: GameCog, interaction: discord.Interaction, values: dict[str, object]) -> None:
    """``/game new``: the bot's permissions checked first, then in a new thread or in the channel,
    with the attached map file read into the options."""
    thread = values.get("thread") is True
    missing = needed_for_a_table(interaction, new_thread=thread)
    if missing:  # refused before anything is made: no table, no thread
        raise GameError("cmd.reply.bot_needs", permissions=[Msg(f"perm.{name}") for name in missing])
    game, level, options = str(values["game"]), values.get("level"), str(values.get("options") or "")
    players, bots, map_file = values.get("players"), values.get("bots"), values.get("map_file")
    chosen_players = players if isinstance(players, int) else None
    chosen_bots = bots if isinstance(bots, int) else 0
    chosen_level = level if isinstance(level, str) else None
    attached = map_file if isinstance(map_file, discord.Attachment) else None
    if thread:
        await cog._new_in_thread(
            interaction, game, chosen_players, options, attached, chosen_bots, chosen_level
        )
        return

    async def call(ctx: Ctx) -> list[Post]:
        text = await with_map_file(options, attached)
        return await cog.table.new(ctx, game, chosen_players, text, chosen_bots, chosen_level)

    await cog._answer(interaction, call)


GLUE: dict[tuple[str, ...], Glue] = {
    find(name, DISCORD).path: glue for name, glue in {"game.new": _new}.items()
}

ORDER: Mapping[str, tuple[str, ...]] = {
    "game": (
        *("new", "join", "addbot", "leave", "start", "status", "board", "log", "resign", "abort"),
        *("removebot", "kick", "unrate", "end", "draw", "replay", "why", "hint", "undo", "rules", "help"),
    )
}


def router(cog: GameCog) -> Run:
    """Answer each slash command with its glue, if it has some, else with its handler."""

    async def run(interaction: discord.Interaction, entry: Command, values: dict[str, object]) -> None:
        glue = GLUE.get(entry.path)
        if glue is not None:
            await glue(cog, interaction, values)
        else:
            await cog.command(interaction, entry, values)

    return run


__all__ = ["GLUE", "OFFERS", "ORDER", "completers", "router"]
