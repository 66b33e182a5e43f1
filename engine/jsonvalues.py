"""Helpers for the JSON form that every game's ``dump`` and ``load`` produce and read."""

from __future__ import annotations

from typing import Any


def copy_json(value: Any) -> Any:
    """A copy of nested dicts and lists that shares no container with ``value``: a state's JSON-shaped
    parts (results, drafts, last moves) are copied on dump and load so that neither side can change
    the other afterwards. Scalars are immutable and are shared."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value
