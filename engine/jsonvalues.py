"""Helpers for the JSON form that every game's ``dump`` and ``load`` produce and read."""

from __future__ import annotations

from typing import Any

_SCALARS = frozenset({str, int, bool, float, type(None)})
"""Types of the values that are copied by sharing them, checked before a call: most of a state's
values are scalars, and skipping the call for each halves the time of a copy."""


def copy_json(value: Any) -> Any:
    """A copy of nested dicts and lists that shares no container with ``value``: a state's JSON-shaped
    parts (results, drafts, last moves) are copied on dump and load so that neither side can change
    the other afterwards, and a Cry Havoc state is copied whole by every move. Scalars are immutable
    and are shared."""
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in _SCALARS else copy_json(v) for v in value]
    return value
