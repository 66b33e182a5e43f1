"""How every store writes JSON values and times, and why a versioned write was refused.

Both stores keep JSON columns as the same canonical text (sorted keys, no spaces, UTF-8 kept as
written) and times as ISO 8601 text in UTC to the millisecond: a game decodes to the same values
whichever store holds it, and a dump of one store loads into the other unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime

from db.errors import Conflict, GameEnded, StaleVersion
from db.ratings import Change, Place, Rating, Standing
from db.records import (
    ActionRecord,
    Announcement,
    Announcing,
    Away,
    ChannelFault,
    GameRecord,
    LeagueRecord,
    Listing,
    Note,
    Notice,
    ResultRecord,
    Seat,
    UndoRequest,
)
from db.values import JSON, Param, Row


def now_text() -> str:
    """The current time as the stores write it (``2026-12-01T09:30:00.123+00:00``)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def dumps(value: JSON) -> str:
    """The canonical JSON text of ``value``."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def refusal(game_id: int, status: str | None, current: int, given: int) -> Exception:
    """Why a write against version ``given`` was refused: no such game, the game ended, or it moved on
    (a lobby game counts as version 0, which no move may be applied to). The table layer shows the
    last two to the player as the engine's ``GameOver`` and ``StaleAction``."""
    if status is None:
        return Conflict(f"no game #{game_id}")
    if status in ("over", "aborted"):
        return GameEnded(game_id)
    return StaleVersion(game_id, given=given, current=current)


def game_from_row(row: Row, seats: tuple[Seat, ...]) -> GameRecord:
    """The record of a ``games`` row (read by column name, from either store) and its seats."""
    return GameRecord(
        id=row["id"],
        channel=row["channel"],
        game=row["game"],
        status=row["status"],
        creator=row["creator"],
        players=row["players"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        version=row["version"],
        state=None if row["state"] is None else json.loads(row["state"]),
        result=None if row["result"] is None else json.loads(row["result"]),
        seats=seats,
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        guild=row["guild"],
        locale=row["locale"],
        settings=json.loads(row["settings"] or "{}"),
    )


def heir_of(record: GameRecord, heir: str | None) -> str:
    """Who a departing creator hands the lobby of ``record`` (seats already without them) to:
    ``heir`` when seated there, else the first seat."""
    seated = [seat.player for seat in record.seats]
    return heir if heir in seated else seated[0]


def action_from_row(row: Row) -> ActionRecord:
    """The record of an ``actions`` row, from either store (``events`` is JSON text)."""
    return ActionRecord(
        row["game_id"],
        row["seq"],
        row["player"],
        row["action"],
        json.loads(row["events"]),
        row["created_at"],
        row["kind"],
        bool(row["undone"]),
        bool(row["auto"]),
    )


def listing_from_row(row: Row) -> Listing:
    """The record of a ``listings`` row, from either store."""
    return Listing(
        row["owner"],
        row["channel"],
        row["locale"],
        row["message"],
        int(row["changed"]),
        int(row["shown"]),
        row["updated_at"],
    )


def note_from_row(row: Row) -> Note:
    return Note(row["game_id"], row["version"], row["actor"], json.loads(row["event"]), row["created_at"])


def league_from_row(row: Row) -> LeagueRecord:
    """The record of a ``leagues`` row, from either store."""
    return LeagueRecord(
        id=row["id"],
        channel=row["channel"],
        guild=row["guild"],
        name=row["name"],
        game=row["game"],
        status=row["status"],
        creator=row["creator"],
        doc=json.loads(row["doc"] or "{}"),
        rev=row["rev"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def fault_from_row(row: Row) -> ChannelFault:
    """The record of a ``channel_faults`` row, from either store."""
    missing = tuple(str(m) for m in json.loads(row["missing"]))
    return ChannelFault(row["channel"], row["kind"], missing, row["since"], row["tries"], row["next_try"])


def fault_values(fault: ChannelFault) -> tuple[Param, ...]:
    """A fault's columns in the order both stores write them: kind, missing, since, tries, next_try,
    channel."""
    return (fault.kind, dumps(list(fault.missing)), fault.since, fault.tries, fault.next_try, fault.channel)


def merged_settings(stored: str | None, changes: Mapping[str, str | None]) -> dict[str, str]:
    """A player's settings (``stored``, JSON text, or None) with ``changes`` made: a None forgets its name."""
    settings = {} if stored is None else dict(json.loads(stored))
    for key, value in changes.items():
        if value is None:
            settings.pop(key, None)
        else:
            settings[key] = value
    return settings


def away_from_row(row: Row) -> Away:
    return Away(row["id"], row["player"], row["guild"], row["since"], row["until"])


def notice_from_row(row: Row) -> Notice:
    return Notice(row["id"], row["player"], row["channel"], json.loads(row["event"]), row["created_at"])


def announcing_from_rows(
    game: GameRecord,
    shown: Announcement | None,
    after: int,
    log: Iterable[Row],
    notes: Iterable[Row],
    settings: str | None,
) -> Announcing:
    """``Store.announcing``'s answer from its rows (both stores read the same columns)."""
    return Announcing(
        game,
        shown,
        after,
        tuple(action_from_row(r) for r in log),
        tuple(note_from_row(r) for r in notes),
        {} if settings is None else dict(json.loads(settings)),
    )


def undo_request_from_row(row: Row) -> UndoRequest:
    """The record of an ``undo_requests`` row, from either store (``accepted`` is JSON text)."""
    accepted = tuple(json.loads(row["accepted"]))
    return UndoRequest(row["game_id"], row["player"], row["first"], row["version"], accepted)


def announcement_from_row(row: Row) -> Announcement:
    """The record of an ``announcements`` row, from either store."""
    return Announcement(
        game_id=row["game_id"],
        version=row["version"],
        status=row["status"],
        since=row["since"],
        summary_from=row["summary_from"],
        to_act=tuple(json.loads(row["to_act"])),
        message=row["message"],
        posted_at=row["posted_at"],
        waiting_since=row["waiting_since"],
        reminders=row["reminders"],
        next_reminder=row["next_reminder"],
        deadline=row["deadline"],
        deadline_done=bool(row["deadline_done"]),
        rev=row["rev"],
        timing=json.loads(row["timing"] or "{}"),
    )


def announcement_values(new: Announcement) -> tuple[Param, ...]:
    """The columns an announcement write sets, in the order both stores' statements name them:
    version, status, message, since, summary_from, to_act, posted_at, waiting_since, reminders,
    next_reminder, deadline, deadline_done, timing, then the game id."""
    return (
        new.version,
        new.status,
        new.message,
        new.since,
        new.summary_from,
        dumps(list(new.to_act)),
        new.posted_at,
        new.waiting_since,
        new.reminders,
        new.next_reminder,
        new.deadline,
        new.deadline_done,
        dumps(new.timing),
        new.game_id,
    )


def result_from_row(row: Row, changes: Iterable[Row] = ()) -> ResultRecord:
    """The record of a ``results`` row and its ``rating_changes`` rows, from either store (``places``
    is JSON text); the changes come in the order of the places."""
    places = tuple(Place.from_json(p) for p in json.loads(row["places"]))
    by_player = {
        c["player"]: Change(
            c["player"], Rating(c["mu_before"], c["sigma_before"]), Rating(c["mu"], c["sigma"])
        )
        for c in changes
    }
    return ResultRecord(
        id=row["id"],
        game_id=row["game_id"],
        guild=row["guild"],
        pool=row["pool"],
        rated=bool(row["rated"]),
        places=places,
        finished_at=row["finished_at"],
        changes=tuple(by_player[p.player] for p in places if p.player in by_player),
        sides=sides_from(row["sides"]),
    )


def standing_from_row(row: Row) -> Standing:
    """A ``ratings`` row as the player's standing in its pool."""
    return Standing(row["player"], Rating(row["mu"], row["sigma"]), row["games"], row["wins"], row["draws"])


def places_text(places: Iterable[Place]) -> str:
    """The ``places`` column of a result: its places as canonical JSON."""
    return dumps([p.to_json() for p in places])


def sides_text(sides: Mapping[str, Sequence[str]]) -> str:
    """The ``sides`` column of a result (``db.sides``): player id -> list of ids, canonical JSON."""
    return dumps({p: list(s) for p, s in sides.items()})


def sides_from(value: JSON) -> dict[str, tuple[str, ...]] | None:
    """The ``sides`` column read back (JSON text in both stores); None while it is not known yet."""
    if value is None:
        return None
    return {str(p): tuple(map(str, s)) for p, s in json.loads(value).items()}
