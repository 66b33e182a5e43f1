"""The command tree with the bot's single error handler.

A refused request (``engine.errors.GameError``) is the normal way a player learns
what is legal: it is answered ephemerally in the player's language. Anything else
is a bug: it is logged with its traceback and the player gets a short apology from
the catalog, never the traceback itself.

Before a command runs, the tree checks what the interaction asks for against the bot's own
commands (``cogs.inputs``): input no client of the current command list would send is refused
there, plainly, and a second delivery of the same interaction is dropped.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

import i18n
from cogs.components import OURS, first_delivery
from cogs.inputs import command_list, leaf_options, refusal
from cogs.markup import discord_text
from cogs.replies import tell
from engine import GameError

log = logging.getLogger(__name__)


def mention(user_id: str) -> str:
    """How a ``PlayerRef`` inside an error reads on Discord (an ephemeral mention pings nobody)."""
    return f"<@{user_id}>" if user_id.isdigit() else user_id


def error_text(error: BaseException, locale: str) -> str:
    """The player-facing text for ``error``; logs anything that is not a ``GameError``."""
    if isinstance(error, GameError):
        return discord_text(i18n.t(error.msg, locale, names=mention))
    return i18n.t("cmd.reply.internal_error", locale)


def unwrap(error: BaseException) -> BaseException:
    """discord.py wraps a callback's exception in ``CommandInvokeError``; look inside."""
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        inner = error.__cause__ if isinstance(error, app_commands.TransformerError) else error.original
        if inner is None:
            break
        error = inner
    return error


DELIVERIES_KEPT = 10_000
"""Interaction ids remembered to recognise a second delivery: far more than arrive in the minutes
during which Discord may deliver one again."""


class GameTree(app_commands.CommandTree[discord.Client]):
    """``CommandTree`` that checks what an interaction asks for before running it, and whose
    ``on_error`` answers the player instead of printing a traceback."""

    def __init__(self, client: discord.Client, **options: Any) -> None:
        super().__init__(client, **options)
        self._delivered: OrderedDict[int, None] = OrderedDict()

    def first_delivery(self, interaction: discord.Interaction) -> bool:
        """Whether ``interaction`` reaches the bot for the first time. Discord may deliver an
        interaction again (after a gateway resume); the first delivery is answered, the others are
        dropped without a word, since Discord takes only one answer. Buttons and menus ask too."""
        if interaction.id in self._delivered:
            log.info("interaction %s delivered again: ignored", interaction.id)
            return False
        self._delivered[interaction.id] = None
        if len(self._delivered) > DELIVERIES_KEPT:
            self._delivered.popitem(last=False)
        return True

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Run a command (or its autocomplete) only once, and only as the bot defines it: an unknown
        command or option, a missing one, or a value of the wrong type or out of bounds (a modified
        client, a stale command list) is answered with what the command takes, and nothing runs."""
        if not self.first_delivery(interaction):
            return False
        data: Mapping[str, object] = interaction.data or {}
        if data.get("type", 1) != 1:
            return True
        typing = interaction.type is discord.InteractionType.autocomplete
        locale = str(interaction.locale)
        problem = refusal(self, data, locale, guild_id=interaction.guild_id, autocomplete=typing)
        if problem is None:
            return True
        log.info("interaction %s refused before running: %s", interaction.id, problem.msg)
        if typing:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.autocomplete([])
        else:
            await tell(interaction, error_text(problem, locale))
        return False

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        cause = unwrap(error)
        locale = str(interaction.locale)
        if isinstance(cause, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            # The command list of the player's client is not the bot's (an older one).
            log.warning("interaction %s names no command of the bot: %s", interaction.id, cause)
            data: Mapping[str, object] = interaction.data or {}
            path, _options = leaf_options(data)
            cause = GameError(
                "cmd.input.unknown_command", command=" ".join(path)[:100], commands=command_list(self, locale)
            )
        elif not isinstance(cause, GameError):
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("command /%s failed", command, exc_info=cause)
        await tell(interaction, error_text(cause, locale))


class OtherComponent(
    discord.ui.DynamicItem[discord.ui.Item[discord.ui.View]],
    template=rf"(?!(?:{OURS})\Z)(?s:.*)",
):
    """Any button or menu whose custom id is none the bot makes (an older bot's, or a forged one):
    the player is told it does nothing, rather than Discord's "This interaction failed"."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[discord.ui.View], match: re.Match[str]
    ) -> OtherComponent:
        return cls(item)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return first_delivery(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        await tell(interaction, i18n.t("svc.error.unknown_button", str(interaction.locale)))
