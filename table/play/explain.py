"""``/game why`` and ``/game hint``: a computer player's reasons, told privately in the reader's words.

``why`` tells the last decision a computer player made in the channel's game (of the moves not taken
back), from the note kept with its move (``table.bots.explain``): what it played and the moves it
weighed most, with its estimated chance of winning and its share of the search; a move that would
name a coin or card of its hand, or a troop's place while the armies deploy unseen, is told without
it until the game reveals it.

``hint`` runs the same search for the caller's own seat, at the level of the table's computer
players, in their worker pool, and tells its answer the same way (the caller's own hand is theirs to
know). It is given only at a table where every other seat is a computer player, a game that is never
rated; anywhere else it is refused, saying where hints are given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import i18n
from table.bots.explain import explanation, latest, lines
from table.bots.players import decision, table_level
from table.bots.thinkers import shared_thinker
from table.core.errors import NoGame, TableError, Unreadable
from table.core.posts import Ctx, Post, is_bot
from table.core.tables import Choice
from table.core.text import clip, game_title

if TYPE_CHECKING:
    from table.core.tables import Table, Tables


class Explanations:
    """The table's answers to ``/game why`` and ``/game hint``: they read the channel's game and its
    computer players' notes, and change nothing, so the channels' tables are all they need."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    async def _explained_table(self, ctx: Ctx) -> Table:
        table = await self.tables.latest(ctx.channel_id)
        if table is None or (table.record.status == "aborted" and table.state is None):
            raise NoGame()
        if table.unreadable:
            raise Unreadable(game=game_title(table.record.game))
        return table

    async def why(self, ctx: Ctx, upto: int | None = None) -> list[Post]:
        """The last decision of a computer player in the channel's game, privately; ``upto``: the
        last made by that version (the "Why?" button of the post that showed it)."""
        table = await self._explained_table(ctx)
        store, game_id = self.tables.store, table.record.id
        event = None
        if table.state is not None:
            live = {
                a.seq
                for a in await store.actions(game_id)
                if a.kind == "move" and not a.undone and (upto is None or a.seq <= upto)
            }
            event = latest(await store.notes(game_id), live)
        if event is None:
            raise TableError("why.error.none")
        return [
            Post(clip("\n".join(lines(event, table, ctx.locale)), self.tables.limits.text), ephemeral=True)
        ]

    async def hint(self, ctx: Ctx) -> list[Post]:
        """The move the table's computer players would play in the caller's place, privately; only at
        a table where every other seat is a computer player."""
        table = await self._explained_table(ctx)
        record = table.record
        others = [p for p in record.player_ids if p != ctx.user_id]
        if ctx.user_id not in record.player_ids:
            if others and all(is_bot(p) for p in others):
                raise TableError("hint.error.seated")
            raise TableError("hint.error.where")
        if not others or not all(is_bot(p) for p in others):
            raise TableError("hint.error.where")
        if record.status != "active" or table.state is None or ctx.user_id not in table.to_act():
            raise TableError("hint.error.turn")
        level = table_level(record)
        asked = await decision(self.tables.store, table, ctx.user_id, level)
        thinker = self.tables.thinker or shared_thinker()
        choice = Choice.of(await thinker.think(asked))
        event = explanation(table, ctx.user_id, choice)
        if event is None:
            raise TableError("hint.error.turn")
        level_name = i18n.t(f"table.bot.level.{level}", ctx.locale)
        head = i18n.t("hint.head", ctx.locale, level=level_name)
        said = lines(event, table, ctx.locale, hidden=False, head=head, play="hint")
        return [Post(clip("\n".join(said), self.tables.limits.text), ephemeral=True)]


__all__ = ["Explanations"]
