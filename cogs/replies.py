"""Turning the table layer's ``Post`` values into Discord messages.

The table layer is front-end neutral: it returns a list of posts (text, optional
PNG, mentions, ephemeral flag). This module is the one place that knows how an
interaction is answered on Discord: the first post is the interaction response
(or, after a deferral, the first follow-up), later ones are follow-ups; images
are attachments; only the users a post names are pinged; long texts are split
to respect Discord's length of a message (``DISCORD_LIMITS.message``).

A private answer that cannot be delivered once the work is done (the token expired, Discord refused the
follow-up) is kept in memory (``Undelivered``, a few per player) and given privately with that player's next
answer: their move went through. A restart forgets it; the channel's handover post, which names every stored
move, still shows it. Choices Discord refuses as too late (10062: the player has typed on) are one warning in
the log (``offer_choices``), not an error with a traceback.
"""

from __future__ import annotations

import io
import logging
from collections import OrderedDict
from collections.abc import Sequence
from datetime import timedelta
from typing import Protocol

import discord
from discord import app_commands
from discord.utils import MISSING

import i18n
from cogs.components import view_for
from cogs.markup import WHOLE, discord_text
from launch import DISCORD_LIMITS
from table.core.text import split

log = logging.getLogger(__name__)

GONE = (10062, 40060, 10015)
"""Discord's codes for an interaction that can no longer be answered: unknown (too late, or a second
delivery of one answered elsewhere), already acknowledged, and unknown webhook (its token expired,
15 minutes after it was sent: no follow-up any more)."""


def attachment(post: PostLike) -> discord.File | None:
    """The post's image as a file, with its alt text as the attachment's description (read aloud by
    screen readers); None when the post has no image."""
    if post.image is None:
        return None
    alt = (post.alt or "")[: DISCORD_LIMITS.alt] or None
    return discord.File(io.BytesIO(post.image), filename=post.filename or "board.png", description=alt)


class PostLike(Protocol):
    """The fields of ``table.play.commands.Post`` this module reads."""

    @property
    def text(self) -> str: ...

    @property
    def image(self) -> bytes | None: ...

    @property
    def filename(self) -> str: ...

    @property
    def alt(self) -> str: ...

    @property
    def mentions(self) -> tuple[str, ...]: ...

    @property
    def ephemeral(self) -> bool: ...


def split_text(text: str, limit: int = DISCORD_LIMITS.message) -> list[str]:
    """``text`` in Discord's markup (``discord_text``), cut into messages of at most ``limit``
    characters, at line ends when possible, never inside a mention or a timestamp (``split``).

    Always returns at least one piece (possibly empty) so an image-only post still
    produces a message.
    """
    return split(discord_text(text), limit, whole=WHOLE)


def allowed_mentions(user_ids: Sequence[str]) -> discord.AllowedMentions:
    """Ping exactly the listed users: never @everyone, roles or reply authors."""
    users = [discord.Object(id=int(u)) for u in user_ids if str(u).isdigit()]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users or False)


UNDELIVERED_PLAYERS = 10_000
"""Players whose undelivered answers are kept at once (the oldest are forgotten first)."""
UNDELIVERED_EACH = 5
"""Undelivered answers kept per player: the latest ones."""


class Undelivered:
    """Private answers that could not be delivered (a move stored after its interaction's token
    expired, Discord refusing the follow-up), kept per player until their next answer: the move
    went through, and its player learns so from the bot rather than by looking at the board.

    Held in memory: after a restart the channel's handover post, which names every stored move, is
    what tells them. Bounded: ``UNDELIVERED_EACH`` per player, ``UNDELIVERED_PLAYERS`` players."""

    def __init__(self) -> None:
        self._waiting: OrderedDict[str, list[tuple[str, str]]] = OrderedDict()

    def keep(self, player: str, channel: str, texts: Sequence[str]) -> None:
        if not texts:
            return
        kept = self._waiting.setdefault(player, [])
        kept.extend((channel, text) for text in texts)
        del kept[:-UNDELIVERED_EACH]
        self._waiting.move_to_end(player)
        while len(self._waiting) > UNDELIVERED_PLAYERS:
            self._waiting.popitem(last=False)

    def take(self, player: str) -> list[tuple[str, str]]:
        """The player's undelivered answers as (channel, text), oldest first; forgotten here."""
        return self._waiting.pop(player, [])

    def __len__(self) -> int:
        return sum(len(kept) for kept in self._waiting.values())


class Responder:
    """Sends the posts of one interaction in order, whatever was done before.

    Tracks whether the interaction was deferred (publicly or privately) so that a
    post's ephemeral flag is honoured even when it disagrees with the deferral:
    Discord gives the first follow-up after a deferral the deferral's visibility,
    so in that case the "thinking" message is deleted first and the post is sent
    as an independent follow-up.
    """

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.deferred_ephemeral: bool | None = None  # None: not deferred
        self.sent = 0  # messages sent
        self.posted = 0  # posts sent whole

    async def defer(self, *, ephemeral: bool = False) -> None:
        """Acknowledge now (Discord's 3-second window) and answer with follow-ups later."""
        if self.interaction.response.is_done():
            return
        await self.interaction.response.defer(ephemeral=ephemeral, thinking=True)
        self.deferred_ephemeral = ephemeral

    async def send_posts(self, posts: Sequence[PostLike]) -> None:
        """Send every post; an empty answer still acknowledges the interaction."""
        for post in posts:
            await self.send_post(post)
            self.posted += 1
        if self.sent == 0:
            locale = str(self.interaction.locale)
            await self.send_text(i18n.t("cmd.reply.done", locale), ephemeral=True)

    async def send_post(self, post: PostLike) -> None:
        mentions = allowed_mentions(post.mentions)
        view = view_for(post)
        update = bool(getattr(post, "update", False))
        pieces = split_text(post.text or "")
        for index, piece in enumerate(pieces):
            file = attachment(post) if index == 0 else None
            last = index == len(pieces) - 1
            if piece or file is not None:
                await self._send(
                    piece,
                    file,
                    mentions,
                    post.ephemeral,
                    view=view if last else None,
                    update=update and index == 0,
                )

    async def send_text(self, text: str, *, ephemeral: bool) -> None:
        for piece in split_text(text):
            await self._send(piece, None, discord.AllowedMentions.none(), ephemeral)

    async def _send(
        self,
        content: str,
        file: discord.File | None,
        mentions: discord.AllowedMentions,
        ephemeral: bool,
        *,
        view: discord.ui.View | None = None,
        update: bool = False,
    ) -> None:
        text = content or None
        response = self.interaction.response
        components = MISSING if view is None else view  # MISSING: discord.py's "not given"
        if update and self.sent == 0 and self.interaction.message is not None:
            # A button or menu's answer that replaces the message it sits on (the lobby's seats,
            # the next step of a menu): text, image and components together.
            attachments = [file] if file is not None else []
            if not response.is_done():
                await response.edit_message(content=text, attachments=attachments, view=view)
            else:
                await self.interaction.edit_original_response(
                    content=text, attachments=attachments, view=view
                )
        elif self.sent == 0 and not response.is_done():
            if file is None:
                await response.send_message(
                    text, ephemeral=ephemeral, allowed_mentions=mentions, view=components
                )
            else:
                await response.send_message(
                    text, file=file, ephemeral=ephemeral, allowed_mentions=mentions, view=components
                )
        else:
            if self.sent == 0 and self.deferred_ephemeral not in (None, ephemeral):
                await self._drop_thinking()
            followup = self.interaction.followup
            body = content or MISSING
            if file is None:
                await followup.send(body, ephemeral=ephemeral, allowed_mentions=mentions, view=components)
            else:
                await followup.send(
                    body, file=file, ephemeral=ephemeral, allowed_mentions=mentions, view=components
                )
        self.sent += 1

    async def _drop_thinking(self) -> None:
        """Remove the deferral's placeholder so the next follow-up keeps its own visibility."""
        try:
            await self.interaction.delete_original_response()
        except discord.HTTPException:
            log.warning("could not delete the deferred response of interaction %s", self.interaction.id)


def responder_for(interaction: discord.Interaction) -> Responder:
    """The interaction's responder, shared with the tree's error handler."""
    responder = interaction.extras.get("responder")
    if not isinstance(responder, Responder):
        responder = Responder(interaction)
        interaction.extras["responder"] = responder
    return responder


async def tell(interaction: discord.Interaction, text: str) -> None:
    """Answer ``text`` privately; an interaction Discord no longer takes is only noted in the log."""
    try:
        await responder_for(interaction).send_text(text, ephemeral=True)
    except discord.HTTPException as exc:
        if exc.code in GONE:
            log.warning("interaction %s could no longer be answered: %s", interaction.id, exc)
        else:
            log.exception("could not report an error to the user of interaction %s", interaction.id)


LATENESS_SHOWN = timedelta(minutes=15)
"""How late an answer may be and still have its lateness logged: past that, the interaction's time
(read from its id) is not this machine's clock's to compare with."""


async def offer_choices(
    interaction: discord.Interaction, choices: list[app_commands.Choice[str]]
) -> list[app_commands.Choice[str]]:
    """Answer an autocomplete with ``choices`` here rather than leave the answer to discord.py.

    A keystroke's choices that come after Discord's 3 seconds (a busy moment) are refused (10062):
    the player typed on, and a later keystroke is answered. That is one warning in the log, not
    discord.py's error and traceback for each such keystroke, which would bury real failures. The
    interaction is then marked answered, so discord.py does not send the choices again (discord.py
    has no public way to say an answer was given up). Returns ``choices``, what discord.py expects."""
    try:
        await interaction.response.autocomplete(choices)
    except discord.HTTPException as exc:
        if exc.code not in GONE:
            raise
        command = interaction.command.qualified_name if interaction.command else "?"
        late = discord.utils.utcnow() - interaction.created_at
        shown = timedelta(0) <= late < LATENESS_SHOWN
        when = f"{late.total_seconds():.1f} s after the keystroke" if shown else "late"
        log.warning("choices for /%s came %s, and Discord refused them (%s)", command, when, exc.code)
        interaction.response._response_type = discord.InteractionResponseType.autocomplete_result
    return choices
