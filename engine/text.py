"""Language-neutral messages.

The engine never holds player-facing prose: it names a message by catalog key and
parameters, and the front end renders it in the reader's language through ``i18n``.
A parameter may itself be a ``Msg`` (a unit name, a terrain...), rendered recursively.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Msg:
    """A catalog key plus the values its template needs."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        if not self.params:
            return self.key
        inner = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.key}({inner})"


def msg(key: str, **params: object) -> Msg:
    """Shorthand used across the engine: ``msg("wc.unit.archer")``."""
    return Msg(key, params)


@dataclass(frozen=True)
class PlayerRef:
    """A player inside a message; the front end shows a name or a mention."""

    id: str

    def __str__(self) -> str:
        return f"@{self.id}"


# ---- JSON form ------------------------------------------------------------------------------------
# Parameters may be plain values, players, nested messages or lists of these; tagged objects keep
# them apart: ``{"$player": id}``, ``{"$msg": {...}}``. Events are stored this way, and a state may
# keep a message this way too (Cry Havoc's last action, drawn in the reader's language).


Encoded = str | int | float | bool | None | list["Encoded"] | dict[str, "Encoded"]
"""A parameter in its JSON form (``encode_value``): a plain value, a tagged player or message, or a
list of these."""


def encode_value(value: object) -> Encoded:
    if isinstance(value, Msg):
        return {"$msg": encode_msg(value)}
    if isinstance(value, PlayerRef):
        return {"$player": value.id}
    if isinstance(value, (list, tuple)):
        return [encode_value(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def decode_value(value: object) -> object:
    if isinstance(value, dict):
        if "$msg" in value:
            return decode_msg(value["$msg"])
        if "$player" in value:
            return PlayerRef(str(value["$player"]))
        return {k: decode_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode_value(v) for v in value]
    return value


def encode_msg(message: Msg) -> dict[str, Encoded]:
    return {"key": message.key, "params": {k: encode_value(v) for k, v in message.params.items()}}


def decode_msg(data: Mapping[str, object]) -> Msg:
    params = data.get("params") or {}
    if not isinstance(params, Mapping):
        raise TypeError(f"a message's parameters are {params!r}, not an object")
    return Msg(str(data["key"]), {k: decode_value(v) for k, v in params.items()})
