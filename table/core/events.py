"""JSON form of events and results, so they survive in the database.

Events are stored as messages (catalog key plus parameters), never as rendered text, so the
log can be shown later in any language and with current display names. The messages' own JSON
form lives in ``engine.text`` (a game's state may hold one too); results are encoded here.
"""

from __future__ import annotations

from collections.abc import Mapping

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


def decode_result(data: Mapping[str, object]) -> Result:
    """The result ``encode_result`` (or ``Result.to_json``) wrote, as the store hands it back."""
    winners, reason, scores = data.get("winners", ()), data["reason"], data.get("scores") or {}
    if (
        not isinstance(winners, (list, tuple))
        or not isinstance(reason, Mapping)
        or not isinstance(scores, Mapping)
    ):
        raise TypeError(f"not a stored result: {data!r}")
    return Result(
        winners=tuple(str(w) for w in winners),
        reason=decode_msg(reason),
        draw=bool(data.get("draw", False)),
        scores={str(k): int(v) for k, v in scores.items()},
    )
