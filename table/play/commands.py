"""Front-end-neutral command handlers: each takes a ``Ctx`` and returns ``Post`` values.

The Discord cogs and the console call these and only send what comes back. Public posts
are written in the channel's language, ephemeral replies and errors in the caller's. A
refused request raises a ``GameError`` (the front end shows its message privately) and
changes nothing.

The first ``Post`` a handler returns answers the interaction, later ones are follow-ups. A move is
answered with a private confirmation; what the channel sees of it is the announcer's
(``table.posting.announce``). ``Ctx`` also says which server a request comes from and whether the
caller moderates it; a ``Post`` may carry buttons, a menu, and ``update`` (it replaces the message
whose button was pressed).
"""

from __future__ import annotations

from table.core.marks import mention
from table.core.posts import Ctx, Post
from table.core.tables import Tables
from table.core.wording import Wording
from table.play.clicks import Clicks
from table.play.explain import Explanations
from table.play.finishing import Finishing
from table.play.looking import LOG_HEADER_ROOM, Looking, log_pages
from table.play.own_time import OwnTime
from table.play.playing import VERSION_DIGITS, Playing, split_version
from table.play.refusals import Refusals
from table.play.seating import Seating
from table.play.service import Service
from table.play.standings import Standings
from table.posting.announce import Announcer, RecordingOutlet


class Commands:
    """The commands of the bot, over a ``Tables``: the one object the front ends call.

    Each concern is an object of its own, built here from the parts it needs (the tables, the
    announcer, the one ``Wording``, and the groups whose handlers it calls): ``service`` (``/games``,
    ``/notify``, ``/settings``, moderation, and the posting every group shares), ``seating`` (the
    lobby), ``looking`` (status, board, log, rules, help), ``finishing`` (resign, draw, abort),
    ``playing`` (``/play`` and the moves), ``clicks`` (buttons, menus, undo, rematch), and
    ``explanations``, ``refusals``, ``own_times``, ``standings``. Their handlers are this object's
    too, so a front end calls every command the same way.
    """

    def __init__(self, tables: Tables, announcer: Announcer | None = None) -> None:
        self.tables = tables
        self.words = words = Wording()
        # Without a front end's announcer, posts are kept in memory, each as soon as it is due.
        self._announcer = announcer or Announcer(tables, RecordingOutlet(), coalesce=0)
        self.explanations = Explanations(tables)
        self.refusals = Refusals(tables, self._announcer)
        self.own_times = OwnTime(tables, self._announcer, words)
        self.standings = Standings(tables, words)
        self.service = Service(tables, self._announcer, self.own_times, words)
        self.seating = Seating(tables, self.service, self.own_times, words)
        self.looking = Looking(tables, self.service, self.seating, self.own_times, words)
        self.finishing = Finishing(tables, self.service, words)
        self.playing = Playing(tables, self.service, self.looking, self.own_times, words)
        self.clicks = Clicks(
            tables,
            self.service,
            words,
            seating=self.seating,
            looking=self.looking,
            finishing=self.finishing,
            playing=self.playing,
            why=self.explanations.why,
        )
        self.why, self.hint = self.explanations.why, self.explanations.hint
        self.away, self.timezone_autocomplete = self.own_times.away, self.own_times.timezone_autocomplete
        standings = self.standings
        self.leaderboard, self.history, self.stats, self.unrate = (
            standings.leaderboard,
            standings.history,
            standings.stats,
            standings.unrate,
        )
        refusals = self.refusals
        self.notices, self.bot_may = refusals.notices, refusals.bot_may
        self.channel_gone, self.channel_changed = refusals.channel_gone, refusals.channel_changed
        service = self.service
        self.games, self.notify, self.settings = service.games, service.notify, service.settings
        self.kick, self.removebot, self.end = service.kick, service.removebot, service.end
        seating = self.seating
        self.new, self.addbot, self.join, self.leave, self.start = (
            seating.new,
            seating.addbot,
            seating.join,
            seating.leave,
            seating.start,
        )
        self.options_autocomplete = seating.options_autocomplete
        looking = self.looking
        self.status, self.board, self.text_board, self.details = (
            looking.status,
            looking.board,
            looking.text_board,
            looking.details,
        )
        self.log, self.rules, self.rules_autocomplete, self.help = (
            looking.log,
            looking.rules,
            looking.rules_autocomplete,
            looking.help,
        )
        self.resign, self.draw, self.abort = self.finishing.resign, self.finishing.draw, self.finishing.abort
        playing = self.playing
        self.play, self.hand, self.legal_moves, self.autocomplete = (
            playing.play,
            playing.hand,
            playing.legal_moves,
            playing.autocomplete,
        )
        clicks = self.clicks
        self.press, self.pick, self.moves, self.decline = (
            clicks.press,
            clicks.pick,
            clicks.moves,
            clicks.decline,
        )
        self.undo, self.accept_undo, self.decline_undo = clicks.undo, clicks.accept_undo, clicks.decline_undo
        self.replay, self.final_board, self.rematch = clicks.replay, clicks.final_board, clicks.rematch

    @property
    def announcer(self) -> Announcer:
        return self._announcer

    @announcer.setter
    def announcer(self, announcer: Announcer) -> None:
        """Another announcer (a test's, with its own clock) for every concern that posts."""
        self._announcer = announcer
        self.refusals.announcer = self.own_times.announcer = self.service.announcer = announcer


__all__ = [
    "LOG_HEADER_ROOM",
    "VERSION_DIGITS",
    "Commands",
    "Ctx",
    "Post",
    "log_pages",
    "mention",
    "split_version",
]
