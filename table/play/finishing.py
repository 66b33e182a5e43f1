"""Ending a game by its players: ``/game resign``, a draw offered and accepted, an abort voted.

The rules of the votes are ``endings``'; these handlers post the outcome or the standing vote.
"""

from __future__ import annotations

from table.core.posts import Ctx, Post
from table.core.tables import Table, Tables
from table.core.text import mentions, pings
from table.core.wording import Wording
from table.play import endings
from table.play.service import Service
from table.posting.menus import vote_buttons


class Finishing:
    """``resign``, ``draw`` and ``abort``: built from the tables, the service (the channel's language,
    the listings, the announcer) and the words."""

    def __init__(self, tables: Tables, service: Service, words: Wording) -> None:
        self.tables = tables
        self.service = service
        self.words = words

    async def resign(self, ctx: Ctx) -> list[Post]:
        """The caller's side loses; the result (with the board) is posted to the channel."""
        table, _result = await endings.resign(self.tables, ctx)
        return await self._ended(ctx, table)

    async def _ended(self, ctx: Ctx, table: Table) -> list[Post]:
        """Post the game's end in its channel; the player who ended it is told so privately."""
        await self.service.announce(ctx, table)
        return [
            Post(
                self.words.t("svc.ended_ack", ctx.locale, game=self.words.game(table, ctx.locale)),
                ephemeral=True,
            )
        ]

    async def draw(self, ctx: Ctx, *, answering: bool = False) -> list[Post]:
        """Offer or accept a draw; ``answering``, the offer's Accept button, only accepts one."""
        vote = await endings.draw(self.tables, ctx, answering=answering)
        if vote.done:
            return await self._ended(ctx, vote.table)
        loc = await self.service.public(ctx)
        text = self.words.t(
            "table.draw.offered",
            loc,
            player=vote.table.name(ctx.user_id),
            others=mentions(vote.waiting, vote.table.names),
        )
        return [Post(text, mentions=pings(vote.waiting), buttons=vote_buttons("draw", vote.table, loc))]

    async def abort(self, ctx: Ctx, *, answering: bool = False) -> list[Post]:
        """Cancel the game or vote to; ``answering``, the vote's Accept button, only agrees to one."""
        vote = await endings.abort(self.tables, ctx, answering=answering)
        loc = await self.service.public(ctx)
        game = self.words.game(vote.table, loc)
        if vote.done and vote.table.state is None:
            self.service.listed(vote.table.record)
            return [Post(self.words.t("table.abort.lobby", loc, player=ctx.user_name, game=game))]
        if vote.done:
            return await self._ended(ctx, vote.table)
        text = self.words.t(
            "table.abort.vote",
            loc,
            player=vote.table.name(ctx.user_id),
            votes=len(vote.voters),
            needed=len(vote.table.record.seats),
            waiting=mentions(vote.waiting, vote.table.names),
        )
        return [Post(text, mentions=pings(vote.waiting), buttons=vote_buttons("abort", vote.table, loc))]
