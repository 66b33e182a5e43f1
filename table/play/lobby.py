"""The lobby: open a table, take and leave seats, start the game.

A table is opened by /game new with its creator seated; players join in turn (join order
becomes seat order, the engine's player order) and any seated player starts the game once
the number of seats matches the count chosen at creation.

Teams: the engine decides which seat belongs to which team (War Chest for four: seats 1 and 3
against 2 and 4). A player may ask for a team when joining; players who do not are placed at
the start, in join order, in the seats the chosen teams left free, so the teams always come
out full and even. Games without teams accept a "team" only at two seats, where it picks the
first or the second seat.
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, replace

from db import ChannelBusy, Conflict, GameRecord, Seat
from engine.contract import Game
from engine.errors import GameError
from table.bots.players import MAX_BOTS, bot_id, bot_name, bot_number, parse_level
from table.core.errors import NoGame, NotSeated, TableError, player_facing
from table.core.options import parse_options, take_seed
from table.core.posts import Ctx, is_bot
from table.core.settings import KEYS as SETTING_KEYS
from table.core.settings import public_locale, server_defaults, server_locale, take_settings
from table.core.tables import Table, Tables, stored
from table.core.text import find_game, game_title

FIXED_SEED = "fixed_seed"
"""Marks, in a table's settings, a seed its creator chose: everyone sees it before joining, since
whoever knows the seed knows every draw to come."""

MAX_TEAMS = 2
"""The most teams a table can have; players number them 1..MAX_TEAMS, the store 0-based."""

_PROBE_SEED = 0


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
    tables: Tables,
    ctx: Ctx,
    game_name: str,
    players: int | None = None,
    options: str = "",
    bots: int = 0,
    level: str | None = None,
) -> Table:
    """Open a lobby for ``game_name`` in the caller's channel, with the caller seated, and ``bots``
    computer players of ``level`` after them (without a player count, the smallest that seats all)."""
    game = find_game(game_name, tables.known_games, tables.game)
    counts = tuple(game.player_counts)
    chosen_level = parse_level(level)
    if bots < 0 or bots > MAX_BOTS:
        raise TableError("table.error.bad_bots", bots=bots, most=MAX_BOTS)
    if players is None:
        if bots >= max(counts):  # no table of this game seats them all and the caller
            raise TableError(
                "table.error.bots_beyond_game",
                game=game_title(game.name),
                most=max(counts),
                fewer=max(counts) - 1,
            )
        players = min(c for c in counts if c > bots)
    elif players not in counts:
        raise TableError(
            "table.error.bad_player_count", game=game_title(game.name), players=players, allowed=list(counts)
        )
    seed, options = take_seed(options)
    pace, options = take_settings(options, await server_defaults(tables.store, ctx.guild_id))
    chosen = parse_options(
        options, game.option_specs, game=game_title(game.name), table_options=("seed", *SETTING_KEYS)
    )
    # Deal a game with placeholder seats now, so that an option only the rules can judge (a custom
    # map) is refused when the table is opened, not when it is due to start.
    game.new_game([f"seat-{i}" for i in range(players)], _PROBE_SEED, dict(chosen))
    if bots >= players:
        raise TableError("table.error.too_many_bots", bots=bots, players=players)
    async with tables.lock(ctx.channel_id):
        try:
            record = await tables.store.create_game(
                channel=ctx.channel_id,
                game=game.name,
                creator=Seat(ctx.user_id, ctx.user_name),
                players=players,
                options=chosen,
                seed=tables.new_seed() if seed is None else seed,
                guild=ctx.guild_id,
                locale=await server_locale(tables.store, ctx.guild_id, ctx.channel_locale),
                settings={**pace.to_options(), **({FIXED_SEED: "yes"} if seed is not None else {})},
            )
        except ChannelBusy as busy:
            raise await _busy(tables, ctx.channel_id, busy) from None
        for _ in range(bots):
            record = await _seat_bot(tables, record, chosen_level)
    return tables.table(record)


async def add_bot(tables: Tables, ctx: Ctx, level: str | None = None) -> tuple[Table, Seat]:
    """Seat a computer player in the lobby: its creator or a moderator may."""
    chosen = parse_level(level)
    async with tables.lock(ctx.channel_id):
        table = await require_open(tables, ctx.channel_id)
        record = table.record
        require_lobby(table)
        if ctx.user_id != record.creator and not ctx.moderator:
            raise TableError("table.error.addbot_who", creator=table.name(record.creator))
        if len(record.seats) >= record.players:
            raise TableError("table.error.table_full", players=record.players)
        record = await _seat_bot(tables, record, chosen)
        return tables.table(record), record.seats[-1]


async def _seat_bot(tables: Tables, record: GameRecord, level: str) -> GameRecord:
    """The next bot (numbered after the table's bots) sits down, named in the table's language."""
    number = max((n for s in record.seats if (n := bot_number(s.player)) is not None), default=0) + 1
    locale = await public_locale(tables.store, record)
    return await guard(
        tables.store.add_seat(record.id, Seat(bot_id(number, level), bot_name(number, level, locale)))
    )


async def _busy(tables: Tables, channel: str, busy: ChannelBusy) -> TableError:
    """The refusal for a channel that has a game: a lobby is an open table, not a game in progress."""
    table = await tables.open(channel)
    if table is not None and table.record.status == "lobby":
        return TableError(
            "table.error.channel_busy_lobby",
            game=game_title(table.record.game),
            creator=table.name(table.record.creator),
        )
    return TableError("table.error.channel_busy", game=game_title(busy.game))


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
        if team is not None:
            check_team_choice(table, team)
        seat = Seat(ctx.user_id, ctx.user_name, None if team is None else team - 1)
        record = await guard(tables.store.add_seat(record.id, seat))
        return tables.table(record)


@dataclass(frozen=True)
class Left:
    table: Table
    closed: bool  # the last player left: the lobby is gone
    new_creator: str | None  # the creator left and handed the table on


def human_heir(record: GameRecord, leaving: str) -> str | None:
    """The player a departing ``leaving`` creator hands the lobby to: the first other person in
    join order, never a computer player (a bot cannot start the table or seat anyone)."""
    return next((s.player for s in record.seats if s.player != leaving and not is_bot(s.player)), None)


async def leave(tables: Tables, ctx: Ctx) -> Left:
    async with tables.lock(ctx.channel_id):
        table = await require_open(tables, ctx.channel_id)
        if table.record.status != "lobby":
            raise TableError("table.error.leave_running")
        require_seated(table, ctx.user_id)
        heir = human_heir(table.record, ctx.user_id)
        record = await guard(tables.store.remove_seat(table.record.id, ctx.user_id, heir=heir))
        while record.status != "aborted" and all(is_bot(s.player) for s in record.seats):
            # nobody is left to start it: the bots leave with the last player
            record = await guard(tables.store.remove_seat(record.id, record.seats[-1].player))
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
        seats = seat_order(record.seats, team_slots(table.game, record.players, record.options))
        state = table.game.new_game([s.player for s in seats], record.seed, dict(record.options))
        seats = adopt_engine_teams(table.game, state, seats)
        # the first decisions the rules leave no choice in; one that would end the game before anyone
        # chose anything is left to its player (a start is stored as a running game)
        forced = tables.forced(record, table.game, state)
        while forced and table.game.is_over(forced[-1].after):
            forced.pop()
        if forced:
            state = forced[-1].after
        record = await guard(
            tables.store.start_game(
                record.id, state=table.game.dump(state), seats=seats, forced=stored(forced)
            )
        )
        return tables.table(record)


def team_slots(game: Game, players: int, options: Mapping[str, str]) -> list[int] | None:
    """The team (0-based) of each seat at a table of ``players``, or None if teams make no sense.

    The engine is the authority: a state dealt to placeholder players shows each seat's team in
    its view. A game that forms no teams still has one side per seat when two play, so a team
    there is a seat; with more players and no teams, nobody can choose a team.
    """
    placeholders = [f"seat-{i}" for i in range(players)]
    try:
        shown = game.view(game.new_game(placeholders, _PROBE_SEED, dict(options)), None).get("seats")
    except GameError:
        shown = None
    teams = [s.get("team") if isinstance(s, dict) else None for s in shown] if isinstance(shown, list) else []
    if len(teams) == players and all(isinstance(t, int) and 0 <= t < MAX_TEAMS for t in teams):
        return [int(t) for t in teams if t is not None]
    return list(range(players)) if players <= MAX_TEAMS else None


def check_team_choice(table: Table, team: int) -> None:
    """Refuse a team (1-based, as typed) that does not exist or already has all its members."""
    record = table.record
    slots = team_slots(table.game, record.players, record.options)
    if slots is None:
        raise TableError("table.error.no_teams", game=game_title(record.game), players=record.players)
    count = max(slots) + 1
    if not 1 <= team <= count:
        raise TableError("table.error.bad_team", team=team, teams=count)
    size = slots.count(team - 1)
    if sum(1 for s in record.seats if s.team == team - 1) >= size:
        raise TableError("table.error.team_full", team=team, size=size)


def seat_order(seats: Sequence[Seat], slots: Sequence[int] | None) -> list[Seat]:
    """The engine's player order: join order, unless players chose teams.

    ``slots`` gives each seat's team (see ``team_slots``). Players who chose a team take its
    seats in join order; the others fill the seats left, in join order, which balances the
    teams whatever was chosen. In a team game every seat then carries its team; where each
    player is a side alone, a team asked for only picked the seat and is not kept.
    """
    if slots is None or len(slots) != len(seats):
        return list(seats)
    if all(s.team is None for s in seats) and len(set(slots)) == len(slots):
        return list(seats)  # one player per side and no wishes: join order stands
    placed: list[Seat | None] = [None] * len(slots)
    for team in sorted(set(slots)):
        members = [s for s in seats if s.team == team]
        positions = [i for i, t in enumerate(slots) if t == team]
        if len(members) > len(positions):
            raise TableError("table.error.team_full", team=team + 1, size=len(positions))
        for pos, seat in zip(positions, members, strict=False):
            placed[pos] = seat
    chosen = {s.player for s in placed if s is not None}
    free = iter([s for s in seats if s.player not in chosen])
    ordered = [slot if slot is not None else next(free) for slot in placed]
    if len(set(slots)) == len(slots):
        # teams of one: the wish was a seat; each player is a side of their own
        return [replace(seat, team=None) for seat in ordered]
    return [replace(seat, team=team) for seat, team in zip(ordered, slots, strict=True)]


def adopt_engine_teams(game: Game, state: object, seats: list[Seat]) -> list[Seat]:
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
        return await player_facing(write)
    except Conflict:
        raise TableError("table.error.conflict") from None
