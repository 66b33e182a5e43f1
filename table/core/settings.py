"""Table settings that are not a game's own options: reminder pace, deadline, deadline policy, what
the table does while a player it waits for is away (``away``, ``away_max``: ``table.core.away``), and
whether forced moves play themselves.

They are typed among the options of ``/game new`` (``remind=12h deadline=3d on_deadline=skip away=bot
auto=off``),
take their defaults from the server's ``/settings``, and are stored with the game, so a change of
the server's defaults never alters a game already under way. A server's settings also choose the
language of its public posts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Protocol, TypedDict

import i18n
from db import Announcement, GameRecord
from table.core import away as time_off
from table.core.clock import format_duration, parse_duration, stamp
from table.core.errors import BadOptions
from table.core.options import option_segments

POLICIES = ("wait", "skip", "forfeit", "bot")
"""What happens at a deadline: keep reminding; play the pending decision's neutral default where
the game has one; the absent side loses; or a computer player plays for the absent player until
they return."""
DEFAULT_REMIND = timedelta(hours=24)
OFF = ("off", "none", "no", "non", "aucun", "aucune")
YES = ("yes", "on", "oui", "true")
KEYS = ("remind", "deadline", "on_deadline", "rated", "away", "away_max", "auto")
LANGUAGE = "language"
MIN_REMIND = timedelta(hours=1)


class WaitFields(TypedDict):
    """An announcement's wait, as a new one starts (``TableSettings.new_wait``)."""

    waiting_since: str | None
    reminders: int
    next_reminder: str | None
    deadline: str | None
    deadline_done: bool


class SettingsStore(Protocol):
    async def guild_settings(self, guild: str) -> dict[str, str]: ...


@dataclass(frozen=True)
class TableSettings:
    """A table's pace: a reminder every ``remind`` (None: never), an optional ``deadline``."""

    remind: timedelta | None = DEFAULT_REMIND
    deadline: timedelta | None = None
    on_deadline: str = "wait"
    rated: bool = True
    """Whether the game counts for ratings when it ends (it never does with a computer player)."""
    away: str = time_off.DEFAULT_POLICY
    """What the table does while a player it waits for is away (``table.core.time_off.POLICIES``)."""
    away_max: timedelta = time_off.DEFAULT_MAX
    """How long each player may pause the table's deadline in all (``away=pause``)."""
    auto: bool = True
    """Whether an action the rules leave a player no choice in is played for them at once
    (``engine.forced``); ``auto=off`` has every player make every move themselves."""

    @classmethod
    def parse(cls, values: Mapping[str, str], base: TableSettings | None = None) -> TableSettings:
        """Settings from stored or typed ``key: value`` texts, over ``base`` (default: built in)."""
        out = base or cls()
        if "remind" in values:
            out = replace(out, remind=_duration("remind", values["remind"]))
            if out.remind is not None and out.remind < MIN_REMIND:
                raise BadOptions("svc.error.remind_too_often", value=values["remind"])
        if "deadline" in values:
            out = replace(out, deadline=_duration("deadline", values["deadline"]))
        if "on_deadline" in values:
            policy = values["on_deadline"].strip().lower()
            if policy not in POLICIES:
                raise BadOptions(
                    "svc.error.bad_policy", value=values["on_deadline"], choices=", ".join(POLICIES)
                )
            out = replace(out, on_deadline=policy)
        if "rated" in values:
            flag = values["rated"].strip().lower()
            if flag not in YES + OFF:
                raise BadOptions("svc.error.bad_rated", value=values["rated"])
            out = replace(out, rated=flag in YES)
        if "away" in values:
            policy = values["away"].strip().lower()
            if policy not in time_off.POLICIES:
                raise BadOptions("svc.error.bad_away_policy", value=values["away"])
            out = replace(out, away=policy)
        if "away_max" in values:
            out = replace(out, away_max=_duration("away_max", values["away_max"]) or timedelta(0))
        if "auto" in values:
            flag = values["auto"].strip().lower()
            if flag not in YES + OFF:
                raise BadOptions("svc.error.bad_auto", value=values["auto"])
            out = replace(out, auto=flag in YES)
        return out

    @classmethod
    def of(cls, record: GameRecord) -> TableSettings:
        try:
            return cls.parse(record.settings)
        except BadOptions:
            return cls()

    def to_options(self) -> dict[str, str]:
        """The stored (and displayed) form, which ``parse`` reads back."""
        out = {
            "remind": "off" if self.remind is None else format_duration(self.remind),
            "deadline": "none" if self.deadline is None else format_duration(self.deadline),
            "on_deadline": self.on_deadline,
        }
        if not self.rated:
            out["rated"] = "no"
        if self.away != time_off.DEFAULT_POLICY:
            out["away"] = self.away
        if self.away_max != time_off.DEFAULT_MAX:
            out["away_max"] = format_duration(self.away_max) if self.away_max else "off"
        if not self.auto:
            out["auto"] = "off"
        return out

    def describe(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.to_options().items())

    def new_wait(self, now: datetime, *, active: bool) -> WaitFields:
        """The wait fields of an announcement when new players start waiting (or nobody does)."""
        if not active:
            return {
                "waiting_since": None,
                "reminders": 0,
                "next_reminder": None,
                "deadline": None,
                "deadline_done": False,
            }
        return {
            "waiting_since": stamp(now),
            "reminders": 0,
            "next_reminder": None if self.remind is None else stamp(now + self.remind),
            "deadline": None if self.deadline is None else stamp(now + self.deadline),
            "deadline_done": False,
        }

    def activity(self, now: datetime, current: Announcement) -> dict[str, str]:
        """A player still on turn just acted: the next reminder counts from now, the deadline stays."""
        if self.remind is None or current.next_reminder is None:
            return {}
        return {"next_reminder": stamp(now + self.remind)}


def _duration(key: str, text: str) -> timedelta | None:
    if text.strip().lower() in OFF:
        return None
    delta = parse_duration(text)
    if delta is None or delta <= timedelta(0):
        raise BadOptions("svc.error.bad_duration", option=key, value=text)
    return delta


def take_settings(text: str, base: TableSettings) -> tuple[TableSettings, str]:
    """Pull the table settings out of ``/game new``'s options text; the rest is the game's."""
    values: dict[str, str] = {}
    rest: list[str] = []
    for segment in option_segments(text):
        key, sep, value = segment.partition("=")
        if sep and key.strip().lower() in KEYS:
            values[key.strip().lower()] = value.strip()
        else:
            rest.append(segment)
    return TableSettings.parse(values, base), " ".join(rest)


async def server_defaults(store: SettingsStore, guild: str | None) -> TableSettings:
    """The server's default table settings (its ``/settings``), else the built-in ones."""
    if guild is None:
        return TableSettings()
    return TableSettings.parse({k: v for k, v in (await store.guild_settings(guild)).items() if k in KEYS})


async def public_locale(store: SettingsStore, record: GameRecord, fallback: str | None = None) -> str:
    """The language of a game's public posts: the server's setting, else the game's, else English."""
    guild = {} if record.guild is None else await store.guild_settings(record.guild)
    return locale_of(record, guild, fallback)


def locale_of(record: GameRecord, guild: Mapping[str, str], fallback: str | None = None) -> str:
    """``public_locale`` from the server's settings already read (``guild``: those of the game's
    server, empty when it has none)."""
    if record.guild is not None:
        chosen = guild.get(LANGUAGE)
        if chosen:
            return chosen
    return record.locale or fallback or i18n.DEFAULT


async def server_locale(store: SettingsStore, guild: str | None, fallback: str) -> str:
    """The language of public posts in a server: its setting, else what Discord says (``fallback``)."""
    if guild is None:
        return fallback
    return (await store.guild_settings(guild)).get(LANGUAGE) or fallback
