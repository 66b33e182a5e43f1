"""Ending a running game outside the rules: resignation, agreed draw, abort by vote.

These change the game's status and result but not the engine state, so they are not
actions in the log and do not bump the version.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.contract import Result
from engine.errors import GameOver
from engine.text import PlayerRef, msg
from table.core.errors import NoGame, TableError, Unreadable, player_facing
from table.core.events import encode_msg, encode_result
from table.core.posts import Ctx
from table.core.tables import Table, Tables
from table.core.text import game_title, pings
from table.play.lobby import guard, require_seated


async def _require_running(tables: Tables, channel: str) -> Table:
    table = await tables.open(channel)
    if table is None:
        latest = await tables.store.latest_game(channel)
        if latest is not None and latest.status in ("over", "aborted"):
            raise GameOver()
        raise NoGame()
    if table.record.status != "active":
        raise TableError(
            "table.error.not_started", seated=len(table.record.seats), players=table.record.players
        )
    if table.unreadable:
        raise Unreadable(game=game_title(table.record.game))
    return table


async def resign(tables: Tables, ctx: Ctx) -> tuple[Table, Result]:
    """The caller's side loses; every other seated player wins."""
    async with tables.lock(ctx.channel_id):
        table = await _require_running(tables, ctx.channel_id)
        require_seated(table, ctx.user_id)
        side = table.side_of(ctx.user_id)
        winners = tuple(p for p in table.record.player_ids if table.side_of(p) != side)
        result = Result(winners=winners, reason=msg("table.reason.resigned", player=PlayerRef(ctx.user_id)))
        record = await guard(
            tables.store.finish_game(
                table.record.id, version=table.record.version, status="over", result=encode_result(result)
            )
        )
        return tables.table(record), result


@dataclass(frozen=True)
class Vote:
    """A draw offer or abort vote, and whether it settled the game."""

    table: Table
    voters: tuple[str, ...]  # players who voted, in order
    waiting: tuple[str, ...]  # players whose agreement is still needed
    result: Result | None  # set when the game ended (draw agreed)
    done: bool


async def draw(tables: Tables, ctx: Ctx, *, answering: bool = False) -> Vote:
    """Offer a draw, or accept the standing offer; it is agreed once every side has offered.

    A move by anyone withdraws standing offers (the store clears them with the move). ``answering``
    is the offer's Accept button: it accepts the offer it was posted with and makes none, so a press
    once the offer was declined is refused rather than offering a draw in the presser's name.
    """
    async with tables.lock(ctx.channel_id):
        table = await _require_running(tables, ctx.channel_id)
        require_seated(table, ctx.user_id)
        record = table.record
        sides = table.sides()
        before = await tables.store.votes(record.id, "draw")
        if answering and not before:
            raise TableError("svc.error.no_draw_offer")
        mine = table.side_of(ctx.user_id)
        agreed = {table.side_of(p) for p in before}
        if mine in agreed:
            others = [p for side, players in sides.items() if side not in agreed for p in players]
            raise TableError("table.error.draw_already_offered", waiting=[table.name(p) for p in others])
        votes = await player_facing(
            tables.store.add_vote(record.id, "draw", ctx.user_id, version=record.version)
        )
        agreed = {table.side_of(p) for p in votes}
        # computer players agree to what the people at the table agree on
        waiting = pings(p for side, players in sides.items() if side not in agreed for p in players)
        if waiting:
            return Vote(table, tuple(votes), waiting, None, False)
        result = Result(winners=(), reason=msg("table.reason.draw_agreed"), draw=True)
        record = await guard(
            tables.store.finish_game(
                record.id, version=record.version, status="over", result=encode_result(result)
            )
        )
        return Vote(tables.table(record), tuple(votes), (), result, True)


async def abort(tables: Tables, ctx: Ctx, *, answering: bool = False) -> Vote:
    """Cancel the game: the creator alone in the lobby; every seated player in a running game.

    ``answering`` is the vote's Accept button: it agrees to the vote under way and starts none, so a
    press once the vote was declined is refused (a moderator's too) rather than voting anew."""
    async with tables.lock(ctx.channel_id):
        table = await tables.open(ctx.channel_id)
        if table is None:
            raise NoGame()
        record = table.record
        if record.status == "lobby":
            if ctx.user_id != record.creator and not ctx.moderator:
                raise TableError("table.error.abort_creator_only", creator=table.name(record.creator))
            return await _close(tables, table, ctx, "svc.reason.closed")
        seated = record.seat_of(ctx.user_id) is not None
        if not ctx.moderator:
            require_seated(table, ctx.user_id)
        if answering and not await tables.store.votes(record.id, "abort"):
            raise TableError("svc.error.no_abort_vote")
        if not seated:  # a moderator with no seat
            return await _close(tables, table, ctx, "svc.reason.moderator_abort")
        if table.unreadable:
            # Nobody can play it, so nobody's vote is needed to close it.
            return await _close(tables, table, ctx, "svc.reason.unreadable")
        if ctx.moderator:
            return await _close(tables, table, ctx, "svc.reason.moderator_abort")
        before = await tables.store.votes(record.id, "abort")
        if ctx.user_id in before:
            others = [p for p in record.player_ids if p not in before]
            raise TableError("table.error.already_voted_abort", waiting=[table.name(p) for p in others])
        votes = await player_facing(
            tables.store.add_vote(record.id, "abort", ctx.user_id, version=record.version)
        )
        waiting = pings(p for p in record.player_ids if p not in votes)
        if waiting:
            return Vote(table, tuple(votes), waiting, None, False)
        return await _close(tables, table, ctx, "svc.reason.abort_voted", voters=tuple(votes))


async def _close(
    tables: Tables, table: Table, ctx: Ctx, reason: str, *, voters: tuple[str, ...] | None = None
) -> Vote:
    """Abort the table now, storing why (shown in the closing post and in /game status)."""
    record = table.record
    why = Result(winners=(), reason=msg(reason, player=PlayerRef(ctx.user_id)))
    record = await guard(
        tables.store.finish_game(
            record.id, version=record.version, status="aborted", result=encode_result(why)
        )
    )
    if reason == "svc.reason.moderator_abort":
        await tables.store.add_note(record.id, record.version, ctx.user_id, encode_msg(why.reason))
    return Vote(tables.table(record), voters or (ctx.user_id,), (), why, True)
