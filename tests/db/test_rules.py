"""The store's rules without a database: what a rule asks each dialect to run, and in what order.

A rule is driven here by a script that answers its statements, so what it writes and clears can be
read off the statements themselves, the same for SQLite and PostgreSQL but for the dialect's words.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import db
from db.errors import GameEnded, StaleVersion
from db.postgres import POSTGRES, numbered
from db.rules import Count, Dialect, Done, Hook, Many, Rows, Rule, advance, apply_action, lapse
from db.sqlite import SQLITE

GAME_ROW = {"status": "active", "version": 3, "players": 2, "creator": "alice"}


def statements(
    rule: Rule[Any], answer: Callable[[Rows], list[Any]], seen: list[str] | None = None
) -> tuple[list[str], Any]:
    """Every statement ``rule`` runs (a hook as its name, added to ``seen`` as they come), ``answer``
    giving the rows of each read, and the rule's answer."""
    seen = [] if seen is None else seen
    value: Any = None
    while not isinstance(step := advance(rule, value), Done):
        value = None
        if isinstance(step, Hook):
            seen.append(f"hook {step.name}")
            continue
        seen.append(step.sql)
        if isinstance(step, Rows):
            value = answer(step)
        elif isinstance(step, Count):
            value = 1
        else:
            assert isinstance(step, Many)
    return seen, step.value


def a_game(row: dict[str, Any]) -> Callable[[Rows], list[Any]]:
    """Answers for a game whose locked row is ``row`` and which reads back as a record with no seats."""

    def answer(step: Rows) -> list[Any]:
        if step.sql.startswith("SELECT status, version"):
            return [row]
        record = {
            "id": 7,
            "channel": "c",
            "game": "nim",
            "status": row["status"],
            "creator": "alice",
            "players": 2,
            "options": "{}",
            "seed": 1,
            "version": row["version"] + 1,
            "state": "{}",
            "result": None,
            "created_at": "t",
            "updated_at": "t",
            "guild": None,
            "locale": None,
            "settings": "{}",
            "seats_json": "[]",
        }
        return [record]

    return answer


def move(dialect: Dialect, status: str, version: int = 3) -> Rule[Any]:
    log = [(7, version + 1, "alice", "take 1", "[]", "t", False)]
    return apply_action(dialect, 7, version, log, "{}", status, None, "t")  # type: ignore[arg-type]


@pytest.mark.parametrize("dialect", [SQLITE, POSTGRES], ids=["sqlite", "postgres"])
def test_a_move_writes_its_log_then_its_state_and_clears_what_it_makes_stale(dialect: Dialect) -> None:
    seen, record = statements(move(dialect, "active"), a_game(GAME_ROW))
    writes = [s.split(" WHERE")[0] for s in seen if not s.startswith("SELECT")]
    assert writes == [
        "hook move",
        "INSERT INTO actions (game_id, seq, player, action, events, created_at, auto)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        "hook before_state_update",
        "UPDATE games SET version = version + ?, state = ?, status = ?, result = ?, updated_at = ?",
        "DELETE FROM votes",
        "DELETE FROM undo_requests",
    ]
    assert "DELETE FROM votes WHERE game_id = ? AND kind = ?" in seen, "only draw offers lapse"
    assert seen[0].endswith(f"WHERE id = ?{dialect.for_update}") and record.version == 4


def test_a_move_that_ends_the_game_lets_every_vote_lapse_and_one_that_does_not_only_draw_offers() -> None:
    ending, _ = statements(move(SQLITE, "over"), a_game(GAME_ROW))
    going_on, _ = statements(move(SQLITE, "active"), a_game(GAME_ROW))
    assert "DELETE FROM votes WHERE game_id = ?" in ending
    assert "DELETE FROM votes WHERE game_id = ? AND kind = ?" in going_on
    assert statements(lapse(7, "all"), a_game(GAME_ROW))[0] == ["DELETE FROM votes WHERE game_id = ?"]


@pytest.mark.parametrize(
    ("row", "refusal"),
    [({**GAME_ROW, "version": 4}, StaleVersion), ({**GAME_ROW, "status": "over"}, GameEnded)],
)
def test_a_move_on_a_game_that_moved_on_or_ended_writes_nothing(row: dict[str, Any], refusal: type) -> None:
    seen: list[str] = []
    with pytest.raises(refusal):
        statements(move(POSTGRES, "active"), a_game(row), seen)
    assert seen == [
        "SELECT status, version, players, creator FROM games WHERE id = ? FOR UPDATE",
        "hook move",
    ]


def test_postgresql_numbers_the_placeholders_in_order() -> None:
    assert numbered("SELECT * FROM t WHERE a = ? AND b = ANY(?::text[])") == (
        "SELECT * FROM t WHERE a = $1 AND b = ANY($2::text[])"
    )
    assert numbered("DELETE FROM claims") == "DELETE FROM claims"


def test_a_list_of_values_is_placeholders_in_sqlite_and_one_array_in_postgresql() -> None:
    assert SQLITE.among("player", ["a", "b"]) == ("player IN (?, ?)", ["a", "b"])
    assert POSTGRES.among("id", [1, 2], "bigint") == ("id = ANY(?::bigint[])", [[1, 2]])


@pytest.mark.parametrize("path", sorted(Path(db.__file__).parent.rglob("*.py")), ids=lambda p: p.name)
def test_the_store_layer_imports_nothing_from_the_engine(path: Path) -> None:
    """The store knows no game: its refusals are its own (``db.errors``), which the table layer turns
    into the engine's errors, so no module of ``db/`` imports the engine, not even its errors."""
    imported: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            imported.add(node.module or "")
    assert not {name for name in imported if name.split(".")[0] == "engine"}, imported
