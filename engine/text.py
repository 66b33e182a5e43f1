"""Language-neutral messages.

The engine never holds player-facing prose: it names a message by catalog key and
parameters, and the front end renders it in the reader's language through ``i18n``.
A parameter may itself be a ``Msg`` (a unit name, a terrain...), rendered recursively.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Msg:
    """A catalog key plus the values its template needs."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        if not self.params:
            return self.key
        inner = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.key}({inner})"


def msg(key: str, **params: Any) -> Msg:
    """Shorthand used across the engine: ``msg("wc.unit.archer")``."""
    return Msg(key, params)


@dataclass(frozen=True)
class PlayerRef:
    """A player inside a message; the front end shows a name or a mention."""

    id: str

    def __str__(self) -> str:
        return f"@{self.id}"
