"""The lobby: open a table, take and leave seats, start the game.

A table is opened by /game new with its creator seated; players join in turn (join order
becomes seat order, the engine's player order) and any seated player starts the game once
the number of seats matches the count chosen at creation.
"""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from db import ChannelBusy, Conflict, GameRecord, Seat
from engine.contract import Game
from table.errors import NoGame, NotSeated, TableError
from table.options import parse_options, take_seed
from table.posts import Ctx
from table.tables import Table, Tables
from table.text import game_title

MAX_TEAMS = 2
"""Teams are numbered 1..MAX_TEAMS by players (stored 0-based); every game here has two sides."""


async def require_open(tables: Tables, channel: str) -> Table:
    table = await tables.open(channel)
    if table is None:
        raise NoGame()
    return table


def require_lobby(table: Table) -> None:
    if table.record.status != "lobby":
        raise TableError("table.error.already_started", game=game_title(table.record.game))


def require_seated(table: Table, player: str) -> None:
    if table.record.seat_of(player) is None:
        raise NotSeated()


async def create(
    tables: Tables, ctx: Ctx, game_name: str, players: int | None = None, options: str = ""
) -> Table:
    """Open a lobby for ``game_name`` in the caller's channel, with the caller seated."""
    game = tables.game(game_name.strip().lower())
    counts = tuple(game.player_counts)
    if players is None:
        players = min(counts)
    elif players not in counts:
        raise TableError(
            "table.error.bad_player_count",
            game=game_title(game.name),
            players=players,
            allowed=", ".join(str(c) for c in counts),
        )
    seed, options = take_seed(options)
    chosen = parse_options(options, game.option_specs, game=game.name)
    async with tables.lock(ctx.channel_id):
        try:
            record = await tables.store.create_game(
                channel=ctx.channel_id,
                game=game.name,
                creator=Seat(ctx.user_id, ctx.user_name),
                players=players,
                options=chosen,
                seed=tables.new_seed() if seed is None else seed,
            )
        except ChannelBusy as busy:
            raise TableError("table.error.channel_busy", game=game_title(busy.game)) from None
    return tables.table(record)


async def join(tables: Tables, ctx: Ctx, team: int | None = None) -> Table:
    """Seat the caller; ``team`` is 1-based as players type it."""
    async with tables.lock(ctx.channel_id):
        table = await require_open(tables, ctx.channel_id)
        record = table.record
        require_lobby(table)
        if record.seat_of(ctx.user_id) is not None:
            raise TableError("table.error.already_seated")
        if len(record.seats) >= record.players:
            raise TableError("table.error.table_full", players=record.players)
        if team is not None and not 1 <= team <= MAX_TEAMS:
            raise TableError("table.error.bad_team", team=team, teams=MAX_TEAMS)
        if team is not None:
            size = len(range(team - 1, record.players, MAX_TEAMS))
            if sum(1 for s in record.seats if s.team == team - 1) >= size:
                raise TableError("table.error.team_full", team=team, size=size)
        seat = Seat(ctx.user_id, ctx.user_name, None if team is None else team - 1)
        record = await guard(tables.store.add_seat(record.id, seat))
        return tables.table(record)


@dataclass(frozen=True)
class Left:
    table: Table
    closed: bool  # the last player left: the lobby is gone
    new_creator: str | None  # the creator left and handed the table on


async def leave(tables: Tables, ctx: Ctx) -> Left:
    async with tables.lock(ctx.channel_id):
        table = await require_open(tables, ctx.channel_id)
        if table.record.status != "lobby":
            raise TableError("table.error.leave_running")
        require_seated(table, ctx.user_id)
        record = await guard(tables.store.remove_seat(table.record.id, ctx.user_id))
        closed = record.status == "aborted"
        handed = record.creator if record.creator != table.record.creator and not closed else None
        return Left(tables.table(record), closed, handed)


async def start(tables: Tables, ctx: Ctx) -> Table:
    """Deal the game: the engine builds the first state from the seats, seed and options."""
    async with tables.lock(ctx.channel_id):
        table = await require_open(tables, ctx.channel_id)
        record = table.record
        require_lobby(table)
        require_seated(table, ctx.user_id)
        if len(record.seats) != record.players:
            raise TableError(
                "table.error.wrong_seat_count",
                game=game_title(record.game),
                players=record.players,
                seated=len(record.seats),
            )
        seats = seat_order(record.seats)
        state = table.game.new_game([s.player for s in seats], record.seed, dict(record.options))
        seats = adopt_engine_teams(table.game, state, seats)
        record = await guard(tables.store.start_game(record.id, state=table.game.dump(state), seats=seats))
        return tables.table(record)


def seat_order(seats: Sequence[Seat]) -> list[Seat]:
    """The engine's player order: join order, unless players chose teams.

    Team games seat their teams alternately (War Chest: seats 0 and 2 against 1 and 3), so
    team k (0-based) takes seats k, k + MAX_TEAMS, ...; players without a team fill the
    remaining seats in join order.
    """
    if all(s.team is None for s in seats):
        return list(seats)
    slots: list[Seat | None] = [None] * len(seats)
    for team in range(MAX_TEAMS):
        members = [s for s in seats if s.team == team]
        positions = range(team, len(seats), MAX_TEAMS)
        if len(members) > len(positions):
            raise TableError("table.error.team_full", team=team + 1, size=len(positions))
        for pos, seat in zip(positions, members, strict=False):
            slots[pos] = seat
    free = iter([s for s in seats if s.team is None])
    return [slot if slot is not None else next(free) for slot in slots]


def adopt_engine_teams(game: Game, state: Any, seats: list[Seat]) -> list[Seat]:
    """Record the teams the engine formed, when it shows some team with several players.

    Resignation and draw offers count sides, so a teammate must share a side even when
    nobody chose a team at join time. Games without teams keep one player per side.
    """
    shown = game.view(state, None).get("seats")
    if not isinstance(shown, list) or len(shown) != len(seats):
        return seats
    teams = [s.get("team") if isinstance(s, dict) else None for s in shown]
    if not all(isinstance(t, int) for t in teams) or len(set(teams)) == len(teams):
        return seats
    return [replace(seat, team=team) for seat, team in zip(seats, teams, strict=True)]


async def guard(write: Awaitable[GameRecord]) -> GameRecord:
    """Await a store write, turning a concurrent change into a 'try again' refusal."""
    try:
        return await write
    except Conflict:
        raise TableError("table.error.conflict") from None
