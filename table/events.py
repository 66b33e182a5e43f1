"""JSON form of ``Msg`` values, so events and results survive in the database.

Events are stored as messages (catalog key plus parameters), never as rendered text, so the
log can be shown later in any language and with current display names. Parameters may be
plain values, players (``PlayerRef``), nested messages or lists of these; tagged objects
keep them apart: ``{"$player": id}``, ``{"$msg": {...}}``.
"""

from __future__ import annotations

from typing import Any

from engine.contract import Result
from engine.text import Msg, PlayerRef


def encode_value(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"$msg": encode_msg(value)}
    if isinstance(value, PlayerRef):
        return {"$player": value.id}
    if isinstance(value, (list, tuple)):
        return [encode_value(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def decode_value(value: Any) -> Any:
    if isinstance(value, dict):
        if "$msg" in value:
            return decode_msg(value["$msg"])
        if "$player" in value:
            return PlayerRef(str(value["$player"]))
        return {k: decode_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode_value(v) for v in value]
    return value


def encode_msg(message: Msg) -> dict[str, Any]:
    return {"key": message.key, "params": {k: encode_value(v) for k, v in message.params.items()}}


def decode_msg(data: dict[str, Any]) -> Msg:
    return Msg(str(data["key"]), {k: decode_value(v) for k, v in dict(data.get("params") or {}).items()})


def encode_result(result: Result) -> dict[str, Any]:
    """Like ``Result.to_json`` but keeps players in the reason as players, not as text."""
    return {
        "winners": list(result.winners),
        "draw": result.draw,
        "scores": dict(result.scores),
        "reason": encode_msg(result.reason),
    }


def decode_result(data: dict[str, Any]) -> Result:
    return Result(
        winners=tuple(str(w) for w in data.get("winners", ())),
        reason=decode_msg(data["reason"]),
        draw=bool(data.get("draw", False)),
        scores={str(k): int(v) for k, v in dict(data.get("scores") or {}).items()},
    )
