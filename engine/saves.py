"""Saved states across versions of the bot: a numbered save format per game and its upgrade path.

A game may last weeks while the bot is upgraded under it, so ``load`` must read every save an
older version wrote. Each game numbers the layout of its saved state (``FORMAT``) and keeps a table
of upgrade functions, one per step: ``UPGRADES[n]`` turns a save of format ``n`` into one of format
``n + 1`` (setting the new number itself). Loading runs the steps one after the other from the
save's format to the current one, so a change of layout only ever writes the one step from the
format before it. A save of a newer format than this version knows is refused, never guessed at:
the game stays stored as it is until a bot that knows its format reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import BadInput

Save = dict[str, Any]
Upgrade = Callable[[Save], Save]


def upgraded(data: Save, field: str, current: int, steps: Mapping[int, Upgrade], prefix: str) -> Save:
    """``data`` brought to format ``current`` through ``steps``; its format number is ``data[field]``.

    Raises ``BadInput`` with ``<prefix>.error.save_newer`` for a format above ``current`` and with
    ``<prefix>.error.save_unknown`` for anything that is not a format number.
    """
    found = data.get(field)
    if not isinstance(found, int) or isinstance(found, bool) or found < 1:
        raise BadInput(f"{prefix}.error.save_unknown", found=repr(found))
    if found > current:
        raise BadInput(f"{prefix}.error.save_newer", found=found, known=current)
    while data[field] < current:
        step = steps.get(data[field])
        if step is None:
            raise BadInput(f"{prefix}.error.save_unknown", found=repr(data[field]))
        before = data[field]
        data = step(data)
        if data.get(field) != before + 1:
            raise AssertionError(f"the upgrade from save format {before} did not write format {before + 1}")
    return data
