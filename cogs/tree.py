"""The command tree with the bot's single error handler.

A refused request (``engine.errors.GameError``) is the normal way a player learns
what is legal: it is answered ephemerally in the player's language. Anything else
is a bug: it is logged with its traceback and the player gets a short apology from
the catalog, never the traceback itself.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

import i18n
from engine import GameError

log = logging.getLogger(__name__)


def mention(user_id: str) -> str:
    """How a ``PlayerRef`` inside an error reads on Discord (an ephemeral mention pings nobody)."""
    return f"<@{user_id}>" if user_id.isdigit() else user_id


def error_text(error: BaseException, locale: str) -> str:
    """The player-facing text for ``error``; logs anything that is not a ``GameError``."""
    if isinstance(error, GameError):
        return i18n.t(error.msg, locale, names=mention)
    return i18n.t("cmd.reply.internal_error", locale)


def unwrap(error: BaseException) -> BaseException:
    """discord.py wraps a callback's exception in ``CommandInvokeError``; look inside."""
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        inner = error.__cause__ if isinstance(error, app_commands.TransformerError) else error.original
        if inner is None:
            break
        error = inner
    return error


class GameTree(app_commands.CommandTree[discord.Client]):
    """``CommandTree`` whose ``on_error`` answers the player instead of printing a traceback."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        from cogs.game import responder_for

        cause = unwrap(error)
        if not isinstance(cause, GameError):
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("command /%s failed", command, exc_info=cause)
        text = error_text(cause, str(interaction.locale))
        try:
            await responder_for(interaction).send_text(text, ephemeral=True)
        except discord.HTTPException:
            log.exception("could not report an error to the user of interaction %s", interaction.id)
