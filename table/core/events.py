"""JSON form of events and results, so they survive in the database.

Events are stored as messages (catalog key plus parameters), never as rendered text, so the
log can be shown later in any language and with current display names. The messages' own JSON
form lives in ``engine.text`` (a game's state may hold one too); results are encoded here.
"""

from __future__ import annotations

from typing import Any

from engine.contract import Result
from engine.text import decode_msg, decode_value, encode_msg, encode_value

__all__ = ["decode_msg", "decode_result", "decode_value", "encode_msg", "encode_result", "encode_value"]


def encode_result(result: Result) -> dict[str, object]:
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
