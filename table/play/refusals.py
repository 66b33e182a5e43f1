"""What players hear of channels that refuse the bot, and what the front end tells the table of its
channels (``table.posting.faults`` keeps the faults themselves).

A player with notices still to be told (a channel that refuses the bot, a game closed because its
channel was deleted) gets them privately with their next answer, wherever they are. The front end
reports a channel deleted (its game is closed as abandoned), a channel or a role changed (a channel
that refused the bot is tried again at once), and the permissions each interaction says the bot has
in its channel (when they now include what its fault named, it is tried again at once too). A try
that goes through ends the fault, and what the channel missed is posted, once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from table.core.posts import Ctx, Post

if TYPE_CHECKING:
    from table.core.tables import Tables
    from table.posting.announce import Announcer


class Refusals:
    """The table's side of channels that refuse the bot: the announcer's faults, and the channels'
    tables to announce again once a channel takes the bot."""

    def __init__(self, tables: Tables, announcer: Announcer) -> None:
        self.tables = tables
        self.announcer = announcer

    async def notices(self, ctx: Ctx) -> list[Post]:
        """What the caller is still to be told, privately, in their language, once."""
        faults = self.announcer.channels.faults
        return [Post(text, ephemeral=True) for text in await faults.notices(ctx.user_id, ctx.locale)]

    async def channel_gone(self, channel: str) -> None:
        """``channel`` (or thread) was deleted: its game is closed as abandoned, its people told."""
        await self.announcer.channels.faults.gone(channel)

    async def channel_changed(self, channel: str | None) -> None:
        """Someone changed ``channel`` (None: something of a whole server, a role): a channel that
        refused the bot is tried again now."""
        faults = self.announcer.channels.faults
        await faults.loaded()
        for each in [channel] if channel is not None else list(faults.known):
            if await faults.retry_now(each):
                await self._try_again(each)

    async def bot_may(self, ctx: Ctx, may: Iterable[str]) -> None:
        """An interaction says what the bot may do in its channel (``may``, the front end's names):
        when that covers what the channel's fault named, the channel is tried again now."""
        faults = self.announcer.channels.faults
        await faults.loaded()
        if faults.covered(ctx.channel_id, may) and await faults.retry_now(ctx.channel_id):
            await self._try_again(ctx.channel_id)

    async def _try_again(self, channel: str) -> None:
        """Announce the channel's game now: what it missed is posted, and the fault ends if it goes
        through (a game already shown waits for its next post, which is the try)."""
        table = await self.tables.open(channel)
        if table is not None and table.state is not None:
            self.announcer.poke(table)


__all__ = ["Refusals"]
