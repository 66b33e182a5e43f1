"""What a wait holds for each player it waits for: their next reminder, a ping held back by their
quiet hours, the channel told they are away; and, for the whole game, how long each player paused it.

It is stored with the game's announcement (``db.Announcement.timing``, JSON), written under the game's
claim by the announcer at a handover and by the timed loop when a reminder or a held ping goes out, so
that a restart finds every reminder and ping held back where it stood: none is lost, none sent twice.
The announcement's ``next_reminder`` is the earliest of them all, which the store's ``due`` looks at.

A wait stored before players had times of their own has no entries: every player of it is then
reminded at the table's pace from the announcement's ``next_reminder``, as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from db.records import PlayerWaitJson, TimingJson
from table.core.clock import parse_stamp, stamp


@dataclass(frozen=True)
class PlayerWait:
    """One player's part of a wait. Times are stored stamps (ISO 8601, UTC)."""

    next: str | None = None
    """When they are reminded next; None: never in this wait."""
    ping: str | None = None
    """When the handover's ping, held back by their quiet hours, goes out (their end)."""
    pace: int | None = None
    """Seconds between their reminders, as chosen when the wait began (None: not reminded)."""
    reminded: int = 0
    told: str | None = None
    """The end of the away period the channel was told of in this wait (told once)."""

    def to_json(self) -> PlayerWaitJson:
        out: PlayerWaitJson = {}
        if self.next is not None:
            out["next"] = self.next
        if self.ping is not None:
            out["ping"] = self.ping
        if self.pace is not None:
            out["pace"] = self.pace
        if self.told is not None:
            out["told"] = self.told
        if self.reminded:
            out["reminded"] = self.reminded
        return out

    @classmethod
    def from_json(cls, data: PlayerWaitJson) -> PlayerWait:
        pace = data.get("pace")
        return cls(
            data.get("next"),
            data.get("ping"),
            None if pace is None else int(pace),
            int(data.get("reminded", 0)),
            data.get("told"),
        )

    def paced(self, now: datetime) -> PlayerWait:
        """Reminded (or pinged) at ``now``: the next reminder comes a pace later."""
        nxt = None if self.pace is None else stamp(now + timedelta(seconds=self.pace))
        return replace(self, next=nxt)


@dataclass(frozen=True)
class Timing:
    """The per-player part of a game's announcement (see the module's description)."""

    players: dict[str, PlayerWait] = field(default_factory=dict)
    paused: dict[str, int] = field(default_factory=dict)
    """Seconds each player has paused the table's deadline in this game, in all."""
    raw: str | None = None
    """The deadline if its clock runs from ``accounted`` on (``table.core.away``); None: the
    announcement's own ``deadline`` is it."""
    accounted: str | None = None
    """Up to when the pauses of this wait were charged; None: since the wait began."""
    last: bool = False
    """The players of this wait are the last of a phase everyone acted in at once: the others acted."""

    @classmethod
    def of(cls, data: TimingJson | None) -> Timing:
        data = data or TimingJson()
        return cls(
            {str(p): PlayerWait.from_json(w) for p, w in (data.get("players") or {}).items()},
            {str(p): int(s) for p, s in (data.get("paused") or {}).items()},
            data.get("raw"),
            data.get("accounted"),
            bool(data.get("last", False)),
        )

    def to_json(self) -> TimingJson:
        out: TimingJson = {}
        if self.players:
            out["players"] = {p: w.to_json() for p, w in sorted(self.players.items())}
        if self.paused:
            out["paused"] = dict(sorted(self.paused.items()))
        if self.raw is not None:
            out["raw"] = self.raw
        if self.accounted is not None:
            out["accounted"] = self.accounted
        if self.last:
            out["last"] = True
        return out

    def wait_of(self, player: str, fallback: str | None = None) -> PlayerWait:
        """``player``'s part; a wait stored without one reminds them at ``fallback`` (the
        announcement's ``next_reminder``)."""
        return self.players.get(player) or PlayerWait(next=fallback)

    def with_player(self, player: str, wait: PlayerWait) -> Timing:
        return replace(self, players={**self.players, player: wait})

    def charge(self, charged: Mapping[str, timedelta]) -> Timing:
        """Add each player's pause to what they paused the table before."""
        paused = dict(self.paused)
        for player, spent in charged.items():
            paused[player] = paused.get(player, 0) + int(spent.total_seconds())
        return replace(self, paused=paused)

    def left(self, players: Iterable[str], allowance: timedelta) -> dict[str, timedelta]:
        """What each of ``players`` may still pause the table for."""
        return {p: allowance - timedelta(seconds=self.paused.get(p, 0)) for p in players}

    def next_due(self, players: Iterable[str] | None = None) -> str | None:
        """The earliest reminder or held ping of ``players`` (all when None), as a stamp."""
        chosen = self.players
        if players is not None:
            chosen = {p: self.players[p] for p in players if p in self.players}
        times = [t for w in chosen.values() for t in (w.next, w.ping) if t is not None]
        return min(times, key=parse_stamp) if times else None


__all__ = ["PlayerWait", "Timing"]
