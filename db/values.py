"""The shapes of what the stores read and write: rows, the values of their columns, JSON values.

Both drivers hand back rows read by column name (``sqlite3.Row``, asyncpg's ``Record``), and the code
that builds records from them (``db.encoding``) reads both the same way through ``Row``. A column's value
and a decoded JSON value keep the checker's ``Any`` behind a name: what a column holds is its column's
type, which the reading code knows and the checker cannot, and a game's state is each game's own shape
(the engine's ``JSON`` is the same alias, which the store does not import).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeAlias

JSON: TypeAlias = Any
"""A value of a JSON column once decoded: dict, list, str, int, float, bool or None."""

Cell: TypeAlias = Any
"""A column's value as a driver hands it back: text, integer, real, boolean or None."""

Param: TypeAlias = str | int | float | Sequence[str | int] | None
"""A value bound to a statement's placeholder: a column's value, or (PostgreSQL) an array of them."""


class Row(Protocol):
    """A row read by column name or by position, as both drivers' rows are."""

    def __getitem__(self, key: str | int, /) -> Cell: ...


Answer: TypeAlias = Sequence[Row] | int | None
"""What a store sends a rule (``db.rules``) back for its last step: a read's rows, a write's count, or
nothing."""

__all__ = ["JSON", "Answer", "Cell", "Param", "Row"]
