"""The words every public post is built from: game names, seats, whose turn, results.

The command handlers and the announcer (which posts handovers, reminders and catch-ups with no
command behind them) speak of a table the same way, so both take these helpers from here. A
``Wording`` is an object its users hold (``self.words``): it keeps nothing of its own, and holding
it, rather than inheriting it, keeps its names apart from theirs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

import i18n
from db import ActionRecord, Announcement
from engine.contract import Result
from engine.text import Msg
from table.core.clock import parse_stamp
from table.core.events import decode_msg, decode_result
from table.core.marks import moment
from table.core.options import option_words
from table.core.posts import Post
from table.core.tables import Table, describe, text_board
from table.core.text import game_title, has_key, mentions


class Wording:
    """Text helpers over a table, in a given language. It holds no state: one is as good as another."""

    @staticmethod
    def t(key: str | Msg, locale: str, /, *, names: i18n.Names = None, **params: object) -> str:
        return i18n.t(key, locale, names=names, **params)

    def game(self, table: Table, locale: str) -> str:
        return self.t_value(game_title(table.record.game), locale)

    def t_value(self, value: Msg | str, locale: str) -> str:
        return self.t(value, locale) if isinstance(value, Msg) else value

    def seats(self, table: Table, locale: str) -> str:
        parts = []
        for seat in table.record.seats:
            if seat.team is None:
                parts.append(seat.name)
            else:
                parts.append(self.t("table.seat.team", locale, name=seat.name, team=seat.team + 1))
        return ", ".join(parts) or "—"

    def options(self, table: Table, locale: str) -> str:
        """The table's options in words ("standard battlefield, classic armies, at most 15 rounds"):
        players read what they will play, not the ``key=value`` text typed to choose it. An option
        left empty, or set aside by another one given (a preset map by a map of one's own), is not
        told."""
        words = option_words(table.record.game, table.game.option_specs, table.record.options, locale)
        return words or self.t("table.options.none", locale)

    def progress(self, table: Table, locale: str) -> str:
        """The game and how far it has come, as its players count: "Batailles, round 3", "War Chest,
        set-up" before the first round; the game alone when it counts no rounds. The number of stored
        moves says nothing to a player (a Batailles turn is a dozen of them)."""
        game = self.game(table, locale)
        view = table.game.view(table.state, None) if table.state is not None else {}
        number = view.get("round")
        key = f"table.progress.round.{table.record.game}"
        if not isinstance(number, int) or not has_key(key):
            return self.t("table.progress", locale, game=game)
        if number < 1:
            return self.t("table.progress.setup", locale, game=game)
        return self.t(key, locale, game=game, round=number)

    def turn(self, table: Table, locale: str) -> str:
        acting = table.to_act()
        return self.t("table.turn", locale, players=mentions(acting, table.names)) if acting else ""

    def closing(self, table: Table, locale: str) -> str:
        """The line a handover post ends with, the one that pings: who acts now, or, once the game
        is over, how it ended and every player of it."""
        if table.record.status == "active":
            return self.turn(table, locale)
        ending = self.result_text(table, self.stored_result(table), locale)
        players = mentions(table.record.player_ids, table.names)
        return ending + " " + self.t("svc.over.players", locale, players=players)

    def result_text(self, table: Table, result: Result | None, locale: str) -> str:
        if table.record.status == "aborted" or result is None:
            aborted = self.t("table.result.aborted", locale)
            if result is None:
                return aborted
            return f"{aborted} {self.t(result.reason, locale, names=table.named)}"
        reason = self.t(result.reason, locale, names=table.named)
        if result.draw or not result.winners:
            return self.t("table.result.draw", locale, reason=reason)
        return self.t(
            "table.result.win", locale, winners=mentions(result.winners, table.names), reason=reason
        )

    def action_line(
        self,
        table: Table,
        entry: ActionRecord,
        locale: str,
        extra: Sequence[Msg] = (),
        *,
        numbered: bool = False,
    ) -> str:
        """One action of the log as a line: what it did (its events, then ``extra``: the table's
        notes made at it), after its number when ``numbered``, marked automatic when it was played for
        its player (a forced move) and struck through when it was taken back."""
        said = [self.t(decode_msg(e), locale, names=table.named) for e in entry.events]
        said += [self.t(m, locale, names=table.named) for m in extra]
        line = " ".join(said) or self.t(
            "table.log.silent", locale, player=table.name(entry.player), action=entry.action
        )
        if numbered:
            line = f"{entry.seq}. {line}"
        if entry.auto:
            line = self.t("svc.log.auto", locale, line=line)
        return self.t("svc.log.undone", locale, line=line) if entry.undone else line

    def game_line(
        self,
        table: Table,
        shown: Announcement | None,
        locale: str,
        *,
        where: str,
        reader: str | None = None,
        away: Mapping[str, datetime] | None = None,
    ) -> str:
        """One open game in a list of games (``/games``, a player's card, a server's list): where it
        is, then whose turn it is since when (``reader``'s own, in bold; those ``away`` with when they
        are back) and its deadline, or how many are seated at a table still open. Times are Discord
        timestamps: each reader sees their own."""
        record = table.record
        game = self.game(table, locale)
        if record.status == "lobby":
            seated = len(record.seats)
            return self.t(
                "svc.games.lobby", locale, game=game, where=where, seated=seated, players=record.players
            )
        since = shown.waiting_since if shown else None
        when = moment(parse_stamp(since)) if since else "—"
        acting = table.to_act()
        if reader is not None and reader in acting:
            line = self.t("svc.games.yours", locale, game=game, where=where, since=when)
        else:
            waiting = self.waiting_names(table, acting, away or {}, locale)
            line = self.t("svc.games.waiting", locale, game=game, where=where, waiting=waiting, since=when)
        if shown is not None and shown.deadline is not None and not shown.deadline_done:
            deadline = moment(parse_stamp(shown.deadline))
            line += " " + self.t("svc.list.deadline", locale, deadline=deadline)
        return line

    def waiting_names(
        self, table: Table, players: Iterable[str], away: Mapping[str, datetime], locale: str
    ) -> str:
        """Players a game waits for by name, each away one with when they are back."""
        shown = []
        for p in players:
            name = table.name(p)
            if p in away:
                name += " (" + self.t("svc.away.until", locale, until=moment(away[p], "f")) + ")"
            shown.append(name)
        return ", ".join(shown) or "—"

    def stored_result(self, table: Table) -> Result | None:
        data = table.record.result
        return None if data is None else decode_result(data)

    def text_board_post(self, table: Table, player: str, locale: str) -> Post:
        """``table``'s position as lines (``render.text_board``) in ``locale``, privately for
        ``player``: the public view, then the player's own hand or bag where the game hides one."""
        assert table.state is not None
        loc = locale
        head = self.t("table.text_board", loc, progress=self.progress(table, loc))
        lines = [head, text_board(table.view(), table.names, loc)]
        if table.record.seat_of(player) is not None:
            own = table.view(player)
            if own.get("private"):
                lines.append(describe("private", own, table.names, loc))
        return Post("\n".join(line for line in lines if line), ephemeral=True)
