"""The store's rules, written once for SQLite and PostgreSQL.

What a move writes and clears, which votes lapse, what a lobby allows, how a result is folded into
the ratings, how the records are read back: all of it is here, as rules that say which statements to
run and decide on what they return, without running anything. A rule is a generator: it yields a
statement (``Rows``, ``Count``, ``Many``) and is sent back its rows or row count, then returns its
answer. Each store runs the rules its own way (``db.sqlite``: every statement of a transaction in one
trip to its connection's thread; ``db.postgres``: awaited on a connection of its pool, the
placeholders numbered), inside the transaction it opens, and keeps to itself what only its database
has: connections, transactions, migrations, the quick read path, and the few statements whose SQL
differs beyond what a ``Dialect`` names (claims on the database's clock, counters kept as text).

The statements are written with ``?`` placeholders; a ``Dialect`` supplies what the two databases
spell differently: locking a row (SQLite's writer holds the whole file from ``BEGIN IMMEDIATE``),
lists of values (``IN (?, ...)`` or an array), JSON aggregates, null-safe comparison, advisory locks.

``RulesStore`` is the part of ``db.Store`` both stores share, every method one rule or one statement;
a store built on it supplies ``_run`` (a rule in one transaction), ``_read`` (one reading statement)
and the methods only it can write.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeAlias, TypeVar

from db import ratings
from db.encoding import (
    action_from_row,
    announcement_from_row,
    announcement_values,
    announcing_from_rows,
    away_from_row,
    dumps,
    fault_from_row,
    fault_values,
    game_from_row,
    heir_of,
    league_from_row,
    listing_from_row,
    merged_settings,
    note_from_row,
    notice_from_row,
    now_text,
    places_text,
    refusal,
    result_from_row,
    sides_text,
    standing_from_row,
    undo_request_from_row,
)
from db.errors import ChannelBusy, Conflict, GameEnded, LeagueBusy
from db.ratings import Place, Standing
from db.records import (
    ActionRecord,
    Announcement,
    Announcing,
    Away,
    ChannelFault,
    Forced,
    GameLength,
    GameRecord,
    LeagueRecord,
    LeagueStatus,
    Listing,
    Note,
    Notice,
    ResultRecord,
    Seat,
    Status,
    UndoRequest,
    VoteKind,
)
from db.sides import sides_played
from db.values import JSON, Answer, Param, Row

T = TypeVar("T")

FILL_BATCH = 200
"""Results given their sides per transaction by ``fill_sides`` (about 0.1 s of engine loads), so that
moves and results being recorded are not held up behind all of them."""


# ---- statements a rule asks for ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rows:
    """Run one statement; the rule is sent its rows (by column name or position)."""

    sql: str
    params: Sequence[Param] = ()


@dataclass(frozen=True, slots=True)
class Count:
    """Run one writing statement; the rule is sent the number of rows it changed."""

    sql: str
    params: Sequence[Param] = ()


@dataclass(frozen=True, slots=True)
class Many:
    """Run one statement once per row of parameters; the rule is sent None."""

    sql: str
    rows: Sequence[Sequence[Param]]


@dataclass(frozen=True, slots=True)
class Hook:
    """A point inside a write where tests step in: ``"before_state_update"`` (a move, between its log
    rows and its state), or once a writer holds its row (``"seat"``, ``"move"``, ``"announcement"``)."""

    name: str


Step: TypeAlias = Rows | Count | Many | Hook
Rule: TypeAlias = Generator[Step, Any, T]


@dataclass(frozen=True, slots=True)
class Done(Generic[T]):
    """A rule's answer, once it has asked for its last statement."""

    value: T


def advance(rule: Rule[T], value: Answer) -> Step | Done[T]:
    """Send ``rule`` what its last statement gave; the next statement it asks for, or its answer."""
    try:
        return rule.send(value)
    except StopIteration as done:
        return Done(done.value)


def one(sql: str, params: Sequence[Param] = ()) -> Rule[list[Row]]:
    """The rule of a single statement: its rows."""
    rows: list[Row] = yield Rows(sql, params)
    return rows


# ---- what the two databases spell differently ----------------------------------------------------------


@dataclass(frozen=True)
class Dialect:
    """The pieces of SQL the rules take from their database."""

    for_update: str
    """Appended to the SELECT that reads a game before a write decides on it: ``" FOR UPDATE"`` where
    writers run side by side, nothing where the transaction holds the only writer's lock already."""
    arrays: bool
    """Whether a list of values is passed as one array parameter (``= ANY(?::text[])``) rather than as
    one placeholder each (``IN (?, ?)``)."""
    no_limit: int | None
    """The ``LIMIT`` that means none."""
    same: str
    """Null-safe equality: ``IS`` or ``IS NOT DISTINCT FROM``."""
    greatest: str
    """The larger of two values: ``max`` or ``greatest``."""
    seats: str
    """A game's seats as a JSON array of ``[id, player, name, team]``, correlated to ``games``."""
    player_in_places: str
    """The condition that a result's ``places`` name the player ``?``."""
    ratings_lock: str | None = None
    """A statement that records results one at a time, where transactions run side by side."""
    settings_lock: str | None = None
    """A statement that changes one player's own settings one change at a time (``?``: the player)."""

    def among(self, column: str, values: Sequence[str | int], kind: str = "text") -> tuple[str, list[Param]]:
        """The condition that ``column`` is one of ``values`` (of SQL type ``kind``), and its parameters."""
        if self.arrays:
            return f"{column} = ANY(?::{kind}[])", [list(values)]
        return f"{column} IN ({', '.join('?' for _ in values)})", [*values]


GAME_COLUMNS = (
    "id, channel, game, status, creator, players, options, seed, version, state, result,"
    " created_at, updated_at, guild, locale, settings"
)
ACTION_COLUMNS = "game_id, seq, player, action, events, created_at, kind, undone, auto"
NOTE_COLUMNS = "game_id, version, actor, event, created_at"
OPEN_GAME = "status IN ('lobby', 'active')"
OPEN_LEAGUE = "status IN ('signup', 'running')"
INSERT_ACTION = (
    "INSERT INTO actions (game_id, seq, player, action, events, created_at, auto)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
INSERT_SEAT = "INSERT INTO seats (game_id, player, name, team) VALUES (?, ?, ?, ?)"
ANNOUNCEMENT_COLUMNS = (
    "version, status, message, since, summary_from, to_act, posted_at, waiting_since, reminders,"
    " next_reminder, deadline, deadline_done, timing"
)


# ---- games and their seats --------------------------------------------------------------------------


def game_query(d: Dialect, where: str, order: str = "id DESC LIMIT 1") -> str:
    """Games matching ``where`` with their seats, in one statement (one snapshot, one trip)."""
    return f"SELECT {GAME_COLUMNS}, {d.seats} AS seats_json FROM games WHERE {where} ORDER BY {order}"


def record_of(row: Row) -> GameRecord:
    """The record of a row of ``game_query``."""
    seats = tuple(Seat(p, n, t) for _i, p, n, t in sorted(json.loads(row["seats_json"] or "[]")))
    return game_from_row(row, seats)


def find_game(d: Dialect, where: str, params: Sequence[Param]) -> Rule[GameRecord | None]:
    """The newest game matching ``where``."""
    rows = yield Rows(game_query(d, where), params)
    return record_of(rows[0]) if rows else None


def require(d: Dialect, game_id: int) -> Rule[GameRecord]:
    rec = yield from find_game(d, "id = ?", (game_id,))
    if rec is None:
        raise Conflict(f"no game #{game_id}")
    return rec


def games(d: Dialect, where: str, params: Sequence[Param], order: str = "id") -> Rule[list[GameRecord]]:
    """Every game matching ``where``, in ``order``."""
    rows = yield Rows(game_query(d, where, order), params)
    return [record_of(r) for r in rows]


def with_waits(
    d: Dialect, where: str, params: Sequence[Param]
) -> Rule[list[tuple[GameRecord, Announcement | None]]]:
    """Every game matching ``where``, oldest first, each with its announcement."""
    found = yield from games(d, where, params)
    among, values = d.among("game_id", [g.id for g in found], "bigint")
    rows = yield Rows(f"SELECT * FROM announcements WHERE {among}", values)
    waits = {r["game_id"]: announcement_from_row(r) for r in rows}
    return [(g, waits.get(g.id)) for g in found]


def lock(d: Dialect, game_id: int) -> Rule[Row | None]:
    """The game's row as a writer decides on it; other writers of the game wait until this one ends."""
    rows = yield Rows(
        f"SELECT status, version, players, creator FROM games WHERE id = ?{d.for_update}", (game_id,)
    )
    return rows[0] if rows else None


def refused(row: Row | None, game_id: int, version: int) -> Exception:
    """Why a write against ``version`` of the game whose locked row is ``row`` is refused."""
    return refusal(game_id, None if row is None else row["status"], row["version"] if row else 0, version)


def forced_rows(game_id: int, after: int, forced: Sequence[Forced], now: str) -> list[tuple[Param, ...]]:
    """The log rows of ``forced`` actions played one after the other from version ``after``."""
    return [
        (game_id, after + n, f.player, f.action, dumps(list(f.events)), now, True)
        for n, f in enumerate(forced, start=1)
    ]


# ---- the lobby ---------------------------------------------------------------------------------------


def create_game(d: Dialect, values: Sequence[Param], creator: Seat, channel: str) -> Rule[GameRecord]:
    rows = yield Rows(
        "INSERT INTO games (channel, game, status, creator, players, options, seed, created_at, updated_at,"
        " guild, locale, settings) VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT DO NOTHING RETURNING id",
        values,
    )
    if not rows:  # the channel's open game stands in the way (the partial unique index)
        busy = yield from find_game(d, f"channel = ? AND {OPEN_GAME}", (channel,))
        raise ChannelBusy(channel, busy.id if busy else None, busy.game if busy else None)
    game_id = rows[0][0]
    yield Count(INSERT_SEAT, (game_id, creator.player, creator.name, creator.team))
    return (yield from require(d, game_id))


def lock_lobby(d: Dialect, game_id: int) -> Rule[Row]:
    """Lock a game that must be in the lobby, and mark it changed."""
    row = yield from lock(d, game_id)
    if row is None or row["status"] != "lobby":
        raise Conflict(f"game #{game_id} is not in the lobby")
    yield Count("UPDATE games SET updated_at = ? WHERE id = ?", (now_text(), game_id))
    return row


def add_seat(d: Dialect, game_id: int, seat: Seat) -> Rule[GameRecord]:
    row = yield from lock_lobby(d, game_id)
    yield Hook("seat")
    seated = yield Rows("SELECT count(*) FROM seats WHERE game_id = ?", (game_id,))
    if seated[0][0] >= row["players"]:
        raise Conflict(f"game #{game_id} is full")
    added = yield Count(
        INSERT_SEAT + " ON CONFLICT (game_id, player) DO NOTHING",
        (game_id, seat.player, seat.name, seat.team),
    )
    if added != 1:
        raise Conflict(f"{seat.player} is already seated in game #{game_id}")
    return (yield from require(d, game_id))


def remove_seat(d: Dialect, game_id: int, player: str, heir: str | None) -> Rule[GameRecord]:
    """Unseat ``player``; a departing creator hands the lobby to ``heir`` when it is seated, else to
    the next seat, or closes it."""
    row = yield from lock_lobby(d, game_id)
    if (yield Count("DELETE FROM seats WHERE game_id = ? AND player = ?", (game_id, player))) != 1:
        raise Conflict(f"{player} is not seated in game #{game_id}")
    rec = yield from require(d, game_id)
    if row["creator"] != player:
        return rec
    if rec.seats:
        yield Count("UPDATE games SET creator = ? WHERE id = ?", (heir_of(rec, heir), game_id))
    else:
        yield Count("UPDATE games SET status = 'aborted' WHERE id = ?", (game_id,))
    return (yield from require(d, game_id))


def start_game(
    d: Dialect,
    game_id: int,
    state: Mapping[str, JSON],
    seats: Sequence[Seat] | None,
    forced: Sequence[Forced],
) -> Rule[GameRecord]:
    """Lobby -> active at version 0, or at the version of the ``forced`` actions played at once;
    ``seats``, when given, is the final seat order and teams."""
    now = now_text()
    row = yield from lock(d, game_id)
    if row is None or row["status"] != "lobby":
        raise Conflict(f"game #{game_id} is not in the lobby")
    yield Count(
        "UPDATE games SET status = 'active', state = ?, version = ?, updated_at = ? WHERE id = ?",
        (dumps(dict(state)), len(forced), now, game_id),
    )
    yield Many(INSERT_ACTION, forced_rows(game_id, 0, forced, now))
    if seats is not None:
        current = yield from require(d, game_id)
        if sorted(current.player_ids) != sorted(s.player for s in seats):
            raise Conflict(f"the seats of game #{game_id} changed")
        yield Count("DELETE FROM seats WHERE game_id = ?", (game_id,))
        yield Many(INSERT_SEAT, [(game_id, s.player, s.name, s.team) for s in seats])
    return (yield from require(d, game_id))


# ---- moves, endings, votes and undo ------------------------------------------------------------------


def apply_action(
    d: Dialect,
    game_id: int,
    version: int,
    log: Sequence[tuple[Param, ...]],
    state_text: str,
    status: Status,
    result_text: str | None,
    now: str,
) -> Rule[GameRecord]:
    """A move: its log rows (the action, then the forced ones), the game at ``version + len(log)``,
    and what a move clears: a standing draw offer lapses (every vote, when the move ends the game),
    and so does a request to undo."""
    row = yield from lock(d, game_id)
    yield Hook("move")
    if row is None or row["status"] != "active" or row["version"] != version:
        raise refused(row, game_id, version)
    yield Many(INSERT_ACTION, log)
    yield Hook("before_state_update")
    yield Count(
        "UPDATE games SET version = version + ?, state = ?, status = ?, result = ?, updated_at = ?"
        " WHERE id = ?",
        (len(log), state_text, status, result_text, now, game_id),
    )
    yield from lapse(game_id, "all" if status == "over" else "draw")
    yield Count("DELETE FROM undo_requests WHERE game_id = ?", (game_id,))
    return (yield from require(d, game_id))


def lapse(game_id: int, kind: VoteKind | str) -> Rule[None]:
    """The votes of ``kind`` lapse (``"all"``: every vote)."""
    if kind == "all":
        yield Count("DELETE FROM votes WHERE game_id = ?", (game_id,))
    else:
        yield Count("DELETE FROM votes WHERE game_id = ? AND kind = ?", (game_id, kind))


def finish_game(
    d: Dialect, game_id: int, version: int, status: Status, result: Mapping[str, JSON] | None
) -> Rule[GameRecord]:
    """End a lobby or running game outside the engine (resign, agreed draw, abort): every vote lapses."""
    row = yield from lock(d, game_id)
    if row is None or row["status"] not in ("lobby", "active") or row["version"] != version:
        raise refused(row, game_id, version)
    yield Count(
        "UPDATE games SET status = ?, result = ?, updated_at = ? WHERE id = ?",
        (status, None if result is None else dumps(dict(result)), now_text(), game_id),
    )
    yield from lapse(game_id, "all")
    return (yield from require(d, game_id))


VOTES = "SELECT player, version FROM votes WHERE game_id = ? AND kind = ? ORDER BY created_at, player"


def add_vote(d: Dialect, game_id: int, kind: VoteKind, player: str, version: int) -> Rule[dict[str, int]]:
    row = yield from lock(d, game_id)
    if row is None:
        raise Conflict(f"no game #{game_id}")
    if row["status"] != "active":
        raise GameEnded(game_id) if row["status"] in ("over", "aborted") else Conflict("game not started")
    yield Count(
        "INSERT INTO votes (game_id, kind, player, version, created_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (game_id, kind, player) DO UPDATE SET version = excluded.version,"
        " created_at = excluded.created_at",
        (game_id, kind, player, version, now_text()),
    )
    rows = yield Rows(VOTES, (game_id, kind))
    return {r["player"]: r["version"] for r in rows}


def request_undo(d: Dialect, game_id: int, player: str, first: int, version: int) -> Rule[UndoRequest]:
    """Record ``player``'s request to take back actions ``first``..``version`` (replacing any)."""
    row = yield from lock(d, game_id)
    if row is None:
        raise Conflict(f"no game #{game_id}")
    if row["status"] != "active":
        raise GameEnded(game_id)
    if row["version"] != version:
        raise refusal(game_id, row["status"], row["version"], version)
    yield Count(
        "INSERT INTO undo_requests (game_id, player, first, version, accepted, created_at)"
        " VALUES (?, ?, ?, ?, '[]', ?) ON CONFLICT (game_id) DO UPDATE SET player = excluded.player,"
        " first = excluded.first, version = excluded.version, accepted = excluded.accepted,"
        " created_at = excluded.created_at",
        (game_id, player, first, version, now_text()),
    )
    return UndoRequest(game_id, player, first, version)


def accept_undo(d: Dialect, game_id: int, player: str, version: int) -> Rule[UndoRequest]:
    """Add ``player``'s agreement to the standing request made at ``version``."""
    rows = yield Rows(f"SELECT * FROM undo_requests WHERE game_id = ?{d.for_update}", (game_id,))
    if not rows or rows[0]["version"] != version:
        raise Conflict(f"no undo request of game #{game_id} at version {version}")
    row = rows[0]
    accepted = tuple(sorted({*json.loads(row["accepted"]), player}))
    yield Count("UPDATE undo_requests SET accepted = ? WHERE game_id = ?", (dumps(list(accepted)), game_id))
    return UndoRequest(game_id, row["player"], row["first"], row["version"], accepted)


def apply_undo(
    d: Dialect,
    game_id: int,
    version: int,
    player: str,
    undone: Sequence[int],
    events: Sequence[JSON],
    state: Mapping[str, JSON],
) -> Rule[GameRecord]:
    """Take back the moves ``undone``: they stay in the log marked undone, an 'undo' row records the
    taking back at ``version + 1``, the state becomes ``state``; the request and a draw offer lapse."""
    now = now_text()
    row = yield from lock(d, game_id)
    if row is None or row["status"] != "active" or row["version"] != version:
        raise refused(row, game_id, version)
    yield Count(
        "INSERT INTO actions (game_id, seq, player, action, events, created_at, kind)"
        " VALUES (?, ?, ?, ?, ?, ?, 'undo')",
        (game_id, version + 1, player, "undo " + " ".join(map(str, undone)), dumps(list(events)), now),
    )
    among, values = d.among("seq", undone, "int")
    yield Count(
        f"UPDATE actions SET undone = TRUE WHERE game_id = ? AND {among} AND kind = 'move'",
        [game_id, *values],
    )
    yield Count(
        "UPDATE games SET version = version + 1, state = ?, updated_at = ? WHERE id = ?",
        (dumps(dict(state)), now, game_id),
    )
    yield Count("DELETE FROM undo_requests WHERE game_id = ?", (game_id,))
    yield from lapse(game_id, "draw")
    return (yield from require(d, game_id))


# ---- announcements -----------------------------------------------------------------------------------


def announcement(game_id: int) -> Rule[Announcement | None]:
    rows = yield Rows("SELECT * FROM announcements WHERE game_id = ?", (game_id,))
    return announcement_from_row(rows[0]) if rows else None


def game_and_announcement(d: Dialect, game_id: int) -> Rule[tuple[GameRecord | None, Announcement | None]]:
    game = yield from find_game(d, "id = ?", (game_id,))
    return game, (yield from announcement(game_id))


def announcing(d: Dialect, game_id: int) -> Rule[Announcing]:
    """All a post reads: the game, its announcement, its log from the announcement's ``summary_from``,
    its notes and its server's settings."""
    game, shown = yield from game_and_announcement(d, game_id)
    if game is None:
        return Announcing(None, shown)
    after = 0 if shown is None else shown.summary_from
    log = yield Rows(
        f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq LIMIT ? OFFSET ?",
        (game_id, d.no_limit, after),
    )
    notes = yield Rows(f"SELECT {NOTE_COLUMNS} FROM notes WHERE game_id = ? ORDER BY version, id", (game_id,))
    text = None
    if game.guild is not None:
        found = yield Rows("SELECT settings FROM guild_settings WHERE guild = ?", (game.guild,))
        text = found[0][0] if found else None
    return announcing_from_rows(game, shown, after, log, notes, text)


def save_announcement(new: Announcement) -> Rule[Announcement | None]:
    """Write ``new`` over the stored row's revision ``new.rev`` (0: none yet); the row as stored, or
    None when another writer came first."""
    values = announcement_values(new)
    if new.rev == 0:
        rows = yield Rows(
            f"INSERT INTO announcements ({ANNOUNCEMENT_COLUMNS}, game_id, rev)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)"
            " ON CONFLICT (game_id) DO NOTHING RETURNING *",
            values,
        )
    else:
        sets = ", ".join(f"{c.strip()} = ?" for c in ANNOUNCEMENT_COLUMNS.split(","))
        rows = yield Rows(
            f"UPDATE announcements SET {sets}, rev = rev + 1 WHERE game_id = ? AND rev = ? RETURNING *",
            (*values, new.rev),
        )
    if not rows:
        return None
    yield Hook("announcement")
    return announcement_from_row(rows[0])


def due(d: Dialect, now: str) -> Rule[list[tuple[GameRecord, Announcement]]]:
    rows = yield Rows(
        "SELECT a.* FROM announcements a JOIN games g ON g.id = a.game_id"
        " WHERE g.status = 'active' AND a.version = g.version AND (a.next_reminder <= ?"
        " OR (a.deadline <= ? AND a.deadline_done = FALSE)) ORDER BY a.game_id",
        (now, now),
    )
    found = [announcement_from_row(r) for r in rows]
    among, values = d.among("id", [a.game_id for a in found], "bigint")
    records = {g.id: g for g in (yield from games(d, among, values))}
    return [(records[a.game_id], a) for a in found if a.game_id in records]


# ---- results and ratings -----------------------------------------------------------------------------


def results_where(d: Dialect, where: str, params: Sequence[Param]) -> Rule[list[ResultRecord]]:
    """The results matching ``where`` with their rating changes."""
    rows = yield Rows(f"SELECT * FROM results WHERE {where}", params)
    if not rows:
        return []
    changes: dict[int, list[Row]] = {r["id"]: [] for r in rows}
    among, values = d.among("result_id", list(changes), "bigint")
    for ch in (yield Rows(f"SELECT * FROM rating_changes WHERE {among}", values)):
        changes[ch["result_id"]].append(ch)
    return [result_from_row(r, changes[r["id"]]) for r in rows]


def write_changes(result_id: int, changes: Sequence[ratings.Change]) -> Rule[None]:
    yield Many(
        "INSERT INTO rating_changes (result_id, player, mu_before, sigma_before, mu, sigma)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [
            (result_id, ch.player, ch.before.mu, ch.before.sigma, ch.after.mu, ch.after.sigma)
            for ch in changes
        ],
    )


def write_standings(guild: str, pool: str, standings: Sequence[Standing]) -> Rule[None]:
    yield Many(
        "INSERT INTO ratings (guild, pool, player, mu, sigma, games, wins, draws)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild, pool, player) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, wins = excluded.wins,"
        " draws = excluded.draws",
        [(guild, pool, s.player, s.rating.mu, s.rating.sigma, s.games, s.wins, s.draws) for s in standings],
    )


def ratings_turn(d: Dialect) -> Rule[None]:
    """Wait for this transaction's turn to record results or rebuild ratings: the order of results'
    ids is then the order their updates were made in, the order a rebuild replays them in."""
    if d.ratings_lock is not None:
        yield Rows(d.ratings_lock)


def record_result(
    d: Dialect,
    game_id: int,
    guild: str,
    pool: str,
    rated: bool,
    places: Sequence[Place],
    finished_at: str,
    sides: Mapping[str, Sequence[str]] | None,
) -> Rule[ResultRecord]:
    """How a game ended and, when it is rated, its players' ratings folded forward; a game recorded
    already keeps its stored result."""
    yield from ratings_turn(d)
    found = yield from results_where(d, "game_id = ?", (game_id,))
    if found:
        return found[0]
    rows = yield Rows(
        "INSERT INTO results (game_id, guild, pool, rated, places, finished_at, sides)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            game_id,
            guild,
            pool,
            rated,
            places_text(places),
            finished_at,
            None if sides is None else sides_text(sides),
        ),
    )
    result_id = rows[0][0]
    if rated:
        among, values = d.among("player", [p.player for p in places])
        rows = yield Rows(
            f"SELECT * FROM ratings WHERE guild = ? AND pool = ? AND {among}", (guild, pool, *values)
        )
        standings = {r["player"]: standing_from_row(r) for r in rows}
        changes = ratings.apply(standings, places)
        yield from write_changes(result_id, changes)
        yield from write_standings(guild, pool, [standings[ch.player] for ch in changes])
    return (yield from results_where(d, "id = ?", (result_id,)))[0]


def fill_sides(d: Dialect, limit: int | None) -> Rule[int]:
    """Give results without ``sides`` (at most ``limit``, None: all) those of their games' stored
    states (``db.sides``); how many."""
    rows = yield Rows(
        "SELECT r.id, g.id AS game_id, g.game, g.state FROM results r JOIN games g ON g.id = r.game_id"
        " WHERE r.sides IS NULL ORDER BY r.id LIMIT ?",
        (d.no_limit if limit is None else limit,),
    )
    for row in rows:
        seats = yield Rows("SELECT player FROM seats WHERE game_id = ? ORDER BY id", (row["game_id"],))
        state = None if row["state"] is None else json.loads(row["state"])
        sides = sides_played(row["game"], state, [s[0] for s in seats])
        yield Count("UPDATE results SET sides = ? WHERE id = ?", (sides_text(sides), row["id"]))
    return len(rows)


def recompute(d: Dialect) -> Rule[int]:
    """Rebuild every rating and rating change from the rated results, in their recorded order (and
    fill the sides still missing); how many rated results there were."""
    yield from fill_sides(d, None)
    rated = [
        ratings.Rated(
            r["id"], r["guild"], r["pool"], tuple(Place.from_json(p) for p in json.loads(r["places"]))
        )
        for r in (yield Rows("SELECT * FROM results WHERE rated = TRUE ORDER BY id"))
    ]
    done = ratings.replay(rated)
    yield Count("DELETE FROM rating_changes")
    yield Count("DELETE FROM ratings")
    for result_id, changes in done.changes.items():
        yield from write_changes(result_id, changes)
    for (guild, pool), standings in done.standings.items():
        yield from write_standings(guild, pool, list(standings.values()))
    return len(rated)


def unrate(d: Dialect, game_id: int) -> Rule[ResultRecord | None]:
    """Take a game out of the ratings, rebuilt without it; the result as it now stands."""
    yield from ratings_turn(d)
    if (yield Count("UPDATE results SET rated = FALSE WHERE game_id = ?", (game_id,))) != 1:
        return None
    yield from recompute(d)
    return (yield from results_where(d, "game_id = ?", (game_id,)))[0]


# ---- the shared store --------------------------------------------------------------------------------


class RulesStore:
    """Every method of ``db.Store`` that both databases answer with the same rules.

    A store built on it sets ``dialect`` and supplies ``_run`` (a rule in one transaction: a writing
    one, or a reading one that sees one snapshot) and ``_read`` (one reading statement, needing no
    transaction of its own)."""

    dialect: Dialect

    async def _run(self, rule: Rule[T], *, write: bool = True) -> T:
        raise NotImplementedError

    async def _read(self, sql: str, params: Sequence[Param] = ()) -> list[Row]:
        raise NotImplementedError

    def _before_state_update(self) -> None:
        """Runs inside a move's transaction between the action rows and the state update.

        Does nothing; it exists so tests can inject a failure at the most awkward moment.
        """

    async def _write(self, sql: str, params: Sequence[Param] = ()) -> list[Row]:
        """One writing statement as a transaction of its own; the rows it returns."""
        return await self._run(one(sql, params))

    # ---- games -----------------------------------------------------------------------------------

    async def _game(self, where: str, params: Sequence[Param]) -> GameRecord | None:
        rows = await self._read(game_query(self.dialect, where), params)
        return record_of(rows[0]) if rows else None

    async def get_game(self, game_id: int) -> GameRecord | None:
        return await self._game("id = ?", (game_id,))

    async def open_game(self, channel: str) -> GameRecord | None:
        return await self._game(f"channel = ? AND {OPEN_GAME}", (channel,))

    async def latest_game(self, channel: str) -> GameRecord | None:
        return await self._game("channel = ?", (channel,))

    async def actions(self, game_id: int, *, offset: int = 0, limit: int | None = None) -> list[ActionRecord]:
        rows = await self._read(
            f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq LIMIT ? OFFSET ?",
            (game_id, self.dialect.no_limit if limit is None else limit, offset),
        )
        return [action_from_row(r) for r in rows]

    async def count_actions(self, game_id: int) -> int:
        rows = await self._read("SELECT count(*) FROM actions WHERE game_id = ?", (game_id,))
        return int(rows[0][0])

    async def game_lengths(self, game_ids: Sequence[int]) -> dict[int, GameLength]:
        """Each game's moves (taken-back ones left out) and the times of its first and last move."""
        if not game_ids:
            return {}
        among, values = self.dialect.among("game_id", game_ids, "bigint")
        rows = await self._read(
            "SELECT game_id, count(*) AS moves, min(created_at) AS first, max(created_at) AS last"
            f" FROM actions WHERE {among} AND kind = 'move' AND undone = FALSE GROUP BY game_id",
            values,
        )
        return {r["game_id"]: GameLength(r["moves"], r["first"], r["last"]) for r in rows}

    # ---- the lobby -------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        channel: str,
        game: str,
        creator: Seat,
        players: int,
        options: Mapping[str, str],
        seed: int,
        guild: str | None = None,
        locale: str | None = None,
        settings: Mapping[str, str] | None = None,
    ) -> GameRecord:
        now = now_text()
        values = (
            channel,
            game,
            creator.player,
            players,
            dumps(dict(options)),
            seed,
            now,
            now,
            guild,
            locale,
            dumps(dict(settings or {})),
        )
        return await self._run(create_game(self.dialect, values, creator, channel))

    async def add_seat(self, game_id: int, seat: Seat) -> GameRecord:
        return await self._run(add_seat(self.dialect, game_id, seat))

    async def remove_seat(self, game_id: int, player: str, *, heir: str | None = None) -> GameRecord:
        return await self._run(remove_seat(self.dialect, game_id, player, heir))

    async def start_game(
        self,
        game_id: int,
        *,
        state: Mapping[str, JSON],
        seats: Sequence[Seat] | None = None,
        forced: Sequence[Forced] = (),
    ) -> GameRecord:
        return await self._run(start_game(self.dialect, game_id, state, seats, forced))

    # ---- moves, votes, undo ----------------------------------------------------------------------

    async def apply_action(
        self,
        game_id: int,
        *,
        version: int,
        player: str,
        action: str,
        events: Sequence[JSON],
        state: Mapping[str, JSON],
        status: Status,
        result: Mapping[str, JSON] | None = None,
        forced: Sequence[Forced] = (),
    ) -> GameRecord:
        """Record one action against ``version``, and the ``forced`` actions it led to (played at
        once, marked automatic); the game moves to ``version + 1 + len(forced)`` atomically, ``state``
        being the position after all of them.

        Raises ``StaleVersion`` when the game is no longer at ``version`` and ``GameEnded``
        when it has ended; in both cases nothing is written. A standing draw offer lapses.
        """
        if status not in ("active", "over"):
            raise ValueError(f"an action leaves a game active or over, not {status}")
        now = now_text()
        log = [
            (game_id, version + 1, player, action, dumps(list(events)), now, False),
            *forced_rows(game_id, version + 1, forced, now),
        ]
        result_text = None if result is None else dumps(dict(result))
        rule = apply_action(self.dialect, game_id, version, log, dumps(dict(state)), status, result_text, now)
        return await self._run(rule)

    async def finish_game(
        self, game_id: int, *, version: int, status: Status, result: Mapping[str, JSON] | None
    ) -> GameRecord:
        if status not in ("over", "aborted"):
            raise ValueError(f"a game finishes over or aborted, not {status}")
        return await self._run(finish_game(self.dialect, game_id, version, status, result))

    async def add_vote(self, game_id: int, kind: VoteKind, player: str, *, version: int) -> dict[str, int]:
        """Record ``player``'s draw offer or abort vote; returns all votes of that kind."""
        return await self._run(add_vote(self.dialect, game_id, kind, player, version))

    async def votes(self, game_id: int, kind: VoteKind) -> dict[str, int]:
        return {r["player"]: r["version"] for r in await self._read(VOTES, (game_id, kind))}

    async def clear_votes(self, game_id: int, kind: VoteKind) -> None:
        await self._run(lapse(game_id, kind))

    async def request_undo(self, game_id: int, player: str, *, first: int, version: int) -> UndoRequest:
        return await self._run(request_undo(self.dialect, game_id, player, first, version))

    async def undo_request(self, game_id: int) -> UndoRequest | None:
        rows = await self._read("SELECT * FROM undo_requests WHERE game_id = ?", (game_id,))
        return undo_request_from_row(rows[0]) if rows else None

    async def accept_undo(self, game_id: int, player: str, *, version: int) -> UndoRequest:
        return await self._run(accept_undo(self.dialect, game_id, player, version))

    async def clear_undo(self, game_id: int) -> None:
        await self._write("DELETE FROM undo_requests WHERE game_id = ?", (game_id,))

    async def apply_undo(
        self,
        game_id: int,
        *,
        version: int,
        player: str,
        undone: Sequence[int],
        events: Sequence[JSON],
        state: Mapping[str, JSON],
    ) -> GameRecord:
        return await self._run(apply_undo(self.dialect, game_id, version, player, undone, events, state))

    # ---- announcements, waits and notes ----------------------------------------------------------

    async def set_guild(self, game_id: int, guild: str) -> None:
        """Record the server of a game opened before servers were stored (no effect once set)."""
        await self._write("UPDATE games SET guild = ? WHERE id = ? AND guild IS NULL", (guild, game_id))

    async def set_locale(self, game_id: int, locale: str) -> None:
        """The language of the game's public posts as the front end now gives it."""
        await self._write("UPDATE games SET locale = ? WHERE id = ?", (locale, game_id))

    async def announcement(self, game_id: int) -> Announcement | None:
        rows = await self._read("SELECT * FROM announcements WHERE game_id = ?", (game_id,))
        return announcement_from_row(rows[0]) if rows else None

    async def game_and_announcement(self, game_id: int) -> tuple[GameRecord | None, Announcement | None]:
        return await self._run(game_and_announcement(self.dialect, game_id), write=False)

    async def announcing(self, game_id: int) -> Announcing:
        # One trip for the whole read: a post of every move makes it.
        return await self._run(announcing(self.dialect, game_id), write=False)

    async def save_announcement(self, new: Announcement) -> Announcement | None:
        return await self._run(save_announcement(new))

    async def unannounced(self) -> list[GameRecord]:
        """Started games whose stored version or status is ahead of what their channel was shown."""
        return await self._run(
            games(
                self.dialect,
                # NOT EXISTS keyed on the game's id: a lookup in the announcements' key per game,
                # where a NOT IN over a subquery that reads the game's columns scans them per game
                "state IS NOT NULL AND NOT EXISTS (SELECT 1 FROM announcements a"
                " WHERE a.game_id = games.id AND a.version = games.version AND a.status = games.status)",
                (),
            ),
            write=False,
        )

    async def due(self, now: str) -> list[tuple[GameRecord, Announcement]]:
        """Running games whose next reminder or deadline has come (``now`` in ISO 8601, UTC)."""
        return await self._run(due(self.dialect, now), write=False)

    async def games_of(self, player: str, guild: str | None) -> list[tuple[GameRecord, Announcement | None]]:
        """The open games ``player`` sits in on server ``guild``, oldest first."""
        where = (
            f"{OPEN_GAME} AND guild {self.dialect.same} ?"
            " AND id IN (SELECT s.game_id FROM seats s WHERE s.player = ?)"
        )
        return await self._run(with_waits(self.dialect, where, (guild, player)), write=False)

    async def open_games(
        self, *, player: str | None = None, guild: str | None = None
    ) -> list[tuple[GameRecord, Announcement | None]]:
        if player is not None:
            where, param = "id IN (SELECT s.game_id FROM seats s WHERE s.player = ?)", player
        else:
            where, param = "coalesce(guild, '') = ?", guild or ""
        return await self._run(with_waits(self.dialect, f"{OPEN_GAME} AND {where}", (param,)), write=False)

    async def running_with(self, prefix: str) -> list[GameRecord]:
        """Running games with a seat, or a note's actor, whose id starts with ``prefix``, oldest first."""
        pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        where = (
            "status = 'active' AND (EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id"
            " AND s.player LIKE ? ESCAPE '\\') OR EXISTS (SELECT 1 FROM notes n"
            " WHERE n.game_id = games.id AND n.actor LIKE ? ESCAPE '\\'))"
        )
        return await self._run(games(self.dialect, where, (pattern, pattern)), write=False)

    async def add_note(
        self, game_id: int, version: int, actor: str | None, event: Mapping[str, JSON]
    ) -> None:
        await self._write(
            "INSERT INTO notes (game_id, version, actor, event, created_at) VALUES (?, ?, ?, ?, ?)",
            (game_id, version, actor, dumps(dict(event)), now_text()),
        )

    async def notes(self, game_id: int) -> list[Note]:
        rows = await self._read(
            f"SELECT {NOTE_COLUMNS} FROM notes WHERE game_id = ? ORDER BY version, id", (game_id,)
        )
        return [note_from_row(r) for r in rows]

    # ---- settings, time off and the store's own values ---------------------------------------------

    async def guild_settings(self, guild: str) -> dict[str, str]:
        rows = await self._read("SELECT settings FROM guild_settings WHERE guild = ?", (guild,))
        return dict(json.loads(rows[0][0])) if rows else {}

    async def set_guild_settings(self, guild: str, settings: Mapping[str, str]) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild, settings, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild) DO UPDATE SET settings = excluded.settings,"
            " updated_at = excluded.updated_at",
            (guild, dumps(dict(settings)), now_text()),
        )

    async def _notify_flag(self, column: str, player: str) -> bool:
        rows = await self._read(f"SELECT {column} FROM notify WHERE player = ?", (player,))
        return bool(rows and rows[0][0])

    async def notify(self, player: str) -> bool:
        """Whether ``player`` asked for a direct message when it becomes their turn."""
        return await self._notify_flag("dm", player)

    async def set_notify(self, player: str, dm: bool) -> None:
        await self._write(
            "INSERT INTO notify (player, dm, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (player) DO UPDATE SET dm = excluded.dm, updated_at = excluded.updated_at",
            (player, dm, now_text()),
        )

    async def text_board(self, player: str) -> bool:
        """Whether ``player`` asked for the position as text with every board they are given."""
        return await self._notify_flag("text_board", player)

    async def set_text_board(self, player: str, on: bool) -> None:
        await self._write(
            "INSERT INTO notify (player, dm, text_board, updated_at) VALUES (?, FALSE, ?, ?)"
            " ON CONFLICT (player) DO UPDATE SET text_board = excluded.text_board,"
            " updated_at = excluded.updated_at",
            (player, on, now_text()),
        )

    async def player_settings(self, players: Sequence[str]) -> dict[str, dict[str, str]]:
        wanted = list(dict.fromkeys(players))
        if not wanted:
            return {}
        among, values = self.dialect.among("player", wanted)
        rows = await self._read(f"SELECT player, settings FROM player_settings WHERE {among}", values)
        return {str(r[0]): dict(json.loads(r[1])) for r in rows}

    async def set_player_settings(self, player: str, changes: Mapping[str, str | None]) -> dict[str, str]:
        def write() -> Rule[dict[str, str]]:
            if self.dialect.settings_lock is not None:  # the row may not exist yet to be locked
                yield Rows(self.dialect.settings_lock, (player,))
            rows = yield Rows("SELECT settings FROM player_settings WHERE player = ?", (player,))
            settings = merged_settings(rows[0][0] if rows else None, changes)
            yield Count(
                "INSERT INTO player_settings (player, settings, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (player) DO UPDATE SET settings = excluded.settings,"
                " updated_at = excluded.updated_at",
                (player, dumps(settings), now_text()),
            )
            return settings

        return await self._run(write())

    async def add_away(self, player: str, guild: str, since: str, until: str) -> Away:
        def write() -> Rule[Away]:
            yield Count(
                "UPDATE away SET until = ? WHERE player = ? AND guild = ? AND since <= ? AND until > ?",
                (since, player, guild, since, since),
            )
            rows = yield Rows(
                "INSERT INTO away (player, guild, since, until) VALUES (?, ?, ?, ?) RETURNING *",
                (player, guild, since, until),
            )
            return away_from_row(rows[0])

        return await self._run(write())

    async def end_away(self, player: str, guild: str, at: str) -> Away | None:
        rows = await self._write(
            "UPDATE away SET until = ? WHERE player = ? AND guild = ? AND since <= ? AND until > ?"
            " RETURNING *",
            (at, player, guild, at, at),
        )
        return away_from_row(rows[0]) if rows else None

    async def away(self, guild: str, players: Sequence[str], after: str) -> list[Away]:
        wanted = list(dict.fromkeys(players))
        if not wanted:
            return []
        among, values = self.dialect.among("player", wanted)
        rows = await self._read(
            f"SELECT * FROM away WHERE guild = ? AND {among} AND until > ? ORDER BY since, id",
            (guild, *values, after),
        )
        return [away_from_row(r) for r in rows]

    async def meta(self, key: str) -> str | None:
        rows = await self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # ---- claims --------------------------------------------------------------------------------------

    async def release(self, key: str, owner: str) -> None:
        await self._write("DELETE FROM claims WHERE key = ? AND owner = ?", (key, owner))

    async def claim_owners(self) -> list[str]:
        rows = await self._read("SELECT DISTINCT owner FROM claims ORDER BY owner")
        return [str(r[0]) for r in rows]

    async def release_owner(self, owner: str) -> int:
        return len(await self._write("DELETE FROM claims WHERE owner = ? RETURNING key", (owner,)))

    # ---- channels that refuse the bot, and what players are still to be told -------------------------

    async def channel_faults(self) -> list[ChannelFault]:
        rows = await self._read("SELECT * FROM channel_faults ORDER BY channel")
        return [fault_from_row(r) for r in rows]

    async def add_fault(self, fault: ChannelFault) -> bool:
        rows = await self._write(
            "INSERT INTO channel_faults (kind, missing, since, tries, next_try, channel)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (channel) DO NOTHING RETURNING channel",
            fault_values(fault),
        )
        return bool(rows)

    async def update_fault(self, fault: ChannelFault) -> None:
        await self._write(
            "UPDATE channel_faults SET kind = ?, missing = ?, since = ?, tries = ?, next_try = ?"
            " WHERE channel = ?",
            fault_values(fault),
        )

    async def drop_fault(self, channel: str) -> bool:
        def write() -> Rule[bool]:
            yield Count("DELETE FROM notices WHERE channel = ?", (channel,))
            return bool((yield Count("DELETE FROM channel_faults WHERE channel = ?", (channel,))))

        return await self._run(write())

    async def add_notices(self, players: Sequence[str], channel: str, event: Mapping[str, JSON]) -> None:
        text, now = dumps(dict(event)), now_text()

        def write() -> Rule[None]:
            yield Many(
                "INSERT INTO notices (player, channel, event, created_at) VALUES (?, ?, ?, ?)",
                [(player, channel, text, now) for player in players],
            )

        await self._run(write())

    async def take_notices(self, player: str) -> list[Notice]:
        rows = await self._write("DELETE FROM notices WHERE player = ? RETURNING *", (player,))
        return sorted((notice_from_row(r) for r in rows), key=lambda n: n.id)

    async def noticed_players(self) -> list[str]:
        rows = await self._read("SELECT DISTINCT player FROM notices ORDER BY player")
        return [str(r[0]) for r in rows]

    # ---- kept listings: a player's card, a server's list of games -------------------------------------

    async def listings(self, owners: Sequence[str]) -> list[Listing]:
        if not owners:
            return []
        among, values = self.dialect.among("owner", owners)
        rows = await self._read(f"SELECT * FROM listings WHERE {among} ORDER BY owner", values)
        return [listing_from_row(r) for r in rows]

    async def listings_behind(self) -> list[Listing]:
        rows = await self._read("SELECT * FROM listings WHERE changed > shown ORDER BY owner")
        return [listing_from_row(r) for r in rows]

    async def put_listing(self, owner: str, *, channel: str | None, locale: str) -> Listing:
        """Keep a listing for ``owner`` (in ``channel``, in ``locale``), due to be shown; one kept already
        stays with its message when its channel is the same, and starts a new message otherwise."""
        rows = await self._write(
            "INSERT INTO listings (owner, channel, locale, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (owner) DO UPDATE SET channel = excluded.channel, locale = excluded.locale,"
            f" message = CASE WHEN listings.channel {self.dialect.same} excluded.channel"
            " THEN listings.message END,"
            " changed = listings.changed + 1, updated_at = excluded.updated_at RETURNING *",
            (owner, channel, locale, now_text()),
        )
        return listing_from_row(rows[0])

    async def drop_listing(self, owner: str) -> Listing | None:
        rows = await self._write("DELETE FROM listings WHERE owner = ? RETURNING *", (owner,))
        return listing_from_row(rows[0]) if rows else None

    async def mark_listings(self, owners: Sequence[str]) -> list[Listing]:
        if not owners:
            return []
        among, values = self.dialect.among("owner", owners)
        rows = await self._write(
            f"UPDATE listings SET changed = changed + 1 WHERE {among} RETURNING *", values
        )
        return sorted((listing_from_row(r) for r in rows), key=lambda listing: listing.owner)

    async def listing_shown(
        self, owner: str, *, channel: str | None, message: str, shown: int
    ) -> Listing | None:
        """The listing's message now shows its changes up to ``shown``; None when it is no longer kept
        there (stopped, or moved to another channel meanwhile)."""
        rows = await self._write(
            f"UPDATE listings SET message = ?, shown = {self.dialect.greatest}(shown, ?), updated_at = ?"
            f" WHERE owner = ? AND channel {self.dialect.same} ? RETURNING *",
            (message, shown, now_text(), owner, channel),
        )
        return listing_from_row(rows[0]) if rows else None

    # ---- leagues ---------------------------------------------------------------------------------

    async def create_league(
        self,
        *,
        channel: str,
        guild: str | None,
        name: str,
        game: str,
        creator: str,
        doc: Mapping[str, JSON],
    ) -> LeagueRecord:
        now = now_text()

        def write() -> Rule[LeagueRecord]:
            rows = yield Rows(
                "INSERT INTO leagues (channel, guild, name, game, status, creator, doc, created_at,"
                " updated_at)"
                " VALUES (?, ?, ?, ?, 'signup', ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING *",
                (channel, guild, name, game, creator, dumps(dict(doc)), now, now),
            )
            if rows:
                return league_from_row(rows[0])
            busy = yield Rows(f"SELECT * FROM leagues WHERE channel = ? AND {OPEN_LEAGUE}", (channel,))
            found = league_from_row(busy[0]) if busy else None
            raise LeagueBusy(channel, *((found.id, found.name) if found else (None, None)))

        return await self._run(write())

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        rows = await self._read("SELECT * FROM leagues WHERE id = ?", (league_id,))
        return league_from_row(rows[0]) if rows else None

    async def open_league(self, channel: str) -> LeagueRecord | None:
        rows = await self._read(f"SELECT * FROM leagues WHERE channel = ? AND {OPEN_LEAGUE}", (channel,))
        return league_from_row(rows[0]) if rows else None

    async def leagues(
        self, statuses: Sequence[LeagueStatus], *, guild: str | None = None
    ) -> list[LeagueRecord]:
        where, params = self.dialect.among("status", statuses)
        if guild is not None:
            where += " AND guild = ?"
            params.append(guild)
        rows = await self._read(f"SELECT * FROM leagues WHERE {where} ORDER BY id", params)
        return [league_from_row(r) for r in rows]

    async def save_league(self, league: LeagueRecord) -> LeagueRecord | None:
        rows = await self._write(
            "UPDATE leagues SET name = ?, status = ?, doc = ?, rev = rev + 1, updated_at = ?"
            " WHERE id = ? AND rev = ? RETURNING *",
            (league.name, league.status, dumps(league.doc), now_text(), league.id, league.rev),
        )
        return league_from_row(rows[0]) if rows else None

    # ---- results and ratings ------------------------------------------------------------------------

    async def record_result(
        self,
        game_id: int,
        *,
        guild: str,
        pool: str,
        rated: bool,
        places: Sequence[Place],
        finished_at: str,
        sides: Mapping[str, Sequence[str]] | None = None,
    ) -> ResultRecord:
        rule = record_result(self.dialect, game_id, guild, pool, rated, places, finished_at, sides)
        return await self._run(rule)

    async def unrecorded(self) -> list[GameRecord]:
        """Ended games that were started and have no result yet (ended before results were kept, or
        a crash before their end was announced), in the order they ended."""
        where = (
            "status IN ('over', 'aborted') AND state IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = games.id)"
        )
        return await self._run(games(self.dialect, where, (), "updated_at, id"), write=False)

    async def result_of(self, game_id: int) -> ResultRecord | None:
        found = await self._run(results_where(self.dialect, "game_id = ?", (game_id,)), write=False)
        return found[0] if found else None

    async def results(
        self,
        guild: str,
        *,
        pool: str | None = None,
        player: str | None = None,
        offset: int = 0,
        limit: int | None = None,
    ) -> list[ResultRecord]:
        """The server's results, newest first; only ``pool``'s, only those ``player`` played, when given."""
        where, params = "guild = ?", list[Param]([guild])
        if pool is not None:
            where += " AND pool = ?"
            params.append(pool)
        if player is not None:
            where += f" AND {self.dialect.player_in_places}"
            params.append(player)
        where += " ORDER BY id DESC LIMIT ? OFFSET ?"
        params += [self.dialect.no_limit if limit is None else limit, offset]
        return await self._run(results_where(self.dialect, where, params), write=False)

    async def standings(self, guild: str, pool: str) -> list[Standing]:
        """Every rated player of the pool, best conservative rating first."""
        rows = await self._read("SELECT * FROM ratings WHERE guild = ? AND pool = ?", (guild, pool))
        return ratings.ranked(standing_from_row(r) for r in rows)

    async def recompute_ratings(self) -> int:
        """Rebuild every rating and rating change from the rated results; the number of results."""

        def write() -> Rule[int]:
            yield from ratings_turn(self.dialect)
            return (yield from recompute(self.dialect))

        return await self._run(write())

    async def unrate(self, game_id: int) -> ResultRecord | None:
        return await self._run(unrate(self.dialect, game_id))

    async def player_names(self, guild: str, players: Sequence[str]) -> dict[str, str]:
        """The display name each player last sat down with at a table of the server."""
        if not players:
            return {}
        among, values = self.dialect.among("s.player", players)
        rows = await self._read(
            "SELECT s.player, s.name FROM seats s JOIN games g ON g.id = s.game_id"
            f" WHERE coalesce(g.guild, '') = ? AND {among} ORDER BY s.id",
            (guild, *values),
        )
        return {r["player"]: r["name"] for r in rows}

    async def fill_sides(self) -> int:
        """Give the results recorded without ``sides`` those of their games' states; how many. A
        transaction per ``FILL_BATCH`` results, so that moves are not held up behind all of them."""

        def batch() -> Rule[int]:
            yield from ratings_turn(self.dialect)
            return (yield from fill_sides(self.dialect, FILL_BATCH))

        filled = 0
        while done := await self._run(batch()):
            filled += done
        return filled
