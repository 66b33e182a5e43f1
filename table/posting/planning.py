"""What one announcement holds: a new post or an edit, whom it pings, its words and their length.

A plan is read from what is stored (the game, what its channel was shown, its log and notes), never
from the command that caused it. A new post begins when the players to act change or the game ends;
an edit keeps to the post of the turn in progress. A post's words are its opening (the game's first
post says it begins), the summary of every action since the previous handover began, those of the
turn in progress in an edit, and its closing: who acts now, or how the game ended and the new ratings.
A long summary loses its oldest lines first (``fit``); a new post may run over several messages
(``SPILL``), the board and the ping with the last.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import timedelta

import i18n
from db import ActionRecord, Announcement, Announcing, Note
from engine.text import Msg
from table.bots.explain import is_explanation
from table.core.clock import Clock, parse_stamp
from table.core.events import decode_msg
from table.core.limits import Limits
from table.core.posts import Post, post_nonce
from table.core.tables import Table
from table.core.text import shorten
from table.core.wording import Wording
from table.posting.channels import spill

SPILL = 4
"""Messages a new post may take when its summary is longer than one (``channels.spill``)."""
EDIT_AGE_LIMIT = timedelta(hours=1)
"""Older posts are not edited (Discord rate-limits those edits hard): a new post is made instead."""


@dataclass(frozen=True)
class Plan:
    """What one announcement does: a new post (pinging ``ping``) or an edit of the handover post."""

    new_post: bool
    handover: bool  # the players to act changed (or the game ended): a new wait begins
    ping: tuple[str, ...]
    fresh: tuple[str, ...] = ()
    """Those of ``ping`` whose turn it is anew: not already asked to act by the handover before (a
    Batailles player still deploying when the other is done). Only they get a direct message, but
    for one that says the game now waits for them alone."""


class Planner:
    """Plans each announcement and writes its words, in the words of ``words``, cut to the front end's
    ``limits``."""

    def __init__(self, words: Wording, clock: Clock, limits: Limits) -> None:
        self.words = words
        self.clock = clock
        self.limits = limits

    def plan(self, table: Table, current: Announcement | None, read: Announcing | None = None) -> Plan:
        record = table.record
        to_act = tuple(table.to_act())
        if record.status != "active":
            return Plan(new_post=True, handover=True, ping=tuple(record.player_ids))
        if current is None and record.settings.get("quiet_start") == "yes":
            # its players were called where the game was made (a league's thread): not pinged again
            return Plan(new_post=True, handover=True, ping=())
        if current is None or current.status != "active" or set(to_act) != set(current.to_act):
            asked = set(current.to_act) if current is not None and current.status == "active" else set()
            fresh = tuple(p for p in to_act if p not in asked)
            return Plan(new_post=True, handover=True, ping=to_act, fresh=fresh)
        if read is not None and _turn_went_round(read, current, record.version):
            return Plan(new_post=True, handover=True, ping=to_act, fresh=to_act)
        too_old = current.posted_at is None or self.clock() - parse_stamp(current.posted_at) > EDIT_AGE_LIMIT
        return Plan(new_post=current.message is None or too_old, handover=False, ping=())

    @staticmethod
    def since(plan: Plan, current: Announcement | None, version: int) -> int:
        """The version the wait the post asks for began at (a handover's is its own)."""
        return version if plan.handover else (current.since if current else 0)

    @staticmethod
    def summary_from(plan: Plan, current: Announcement | None) -> int:
        """The version after which the post's summary begins: the previous handover's, for a new one."""
        if plan.handover:
            return current.since if current else 0
        return current.summary_from if current else 0

    def limit(self, plan: Plan, message: str | None) -> int:
        """The characters the post may take: a new post may run over several messages (moves folded
        into it while it waited for room in its channel's rate); an edit keeps to one."""
        return self.limits.text * SPILL if plan.new_post or message is None else self.limits.text

    def pieces(self, post: Post) -> list[Post]:
        """A new post as the messages it is sent as: one longer than a message goes as several, the
        board and the ping with the last (the handover post, edited later), each lead one with a
        nonce of its own, derived from the post's."""
        *lead, last = spill(post.text, self.limits.text)
        sent = [
            Post(
                piece,
                nonce=None if post.nonce is None else post_nonce(post.nonce, "s", index, limits=self.limits),
            )
            for index, piece in enumerate(lead)
        ]
        return [*sent, replace(post, text=last)]

    def fitted(self, lines: PostLines, locale: str, limit: int) -> Fitted:
        """The post's ``lines`` within ``limit``, in as many messages as the limit counts: a long
        post cut between lines needs a little more room than its characters, so it is fitted tighter
        until it goes in those messages."""
        fitted = fit(lines, locale, limit)
        text = self.limits.text
        messages = max(1, limit // text)
        while limit > text and len(spill(fitted.text, text)) > messages:
            limit -= text // 4  # messages are cut between lines, which wastes some of their room
            fitted = fit(lines, locale, limit)
        return fitted

    def lines(
        self,
        table: Table,
        read: Announcing,
        plan: Plan,
        locale: str,
        summary_from: int,
        extra: Sequence[str],
    ) -> PostLines:
        """What the post says, each line marked as one that stays or one of the summary that may be
        left out when the post is too long (``fit``); ``extra`` closes it (who is away, the last
        one, the new ratings)."""
        record, current, notes = table.record, read.announcement, read.notes
        words = self.words
        opening: list[str] = []
        first_post = current is None if plan.handover else current is not None and current.since == 0
        if first_post:
            game, seats = words.game(table, locale), words.seats(table, locale)
            opening.append(words.t("table.started", locale, game=game, seats=seats))
        in_turn: list[str] = []
        if plan.handover:
            logged = read.actions(summary_from, record.version)
            summary = self.summary(table, summary_from, record.version, locale, logged, notes)
        else:
            assert current is not None
            before = read.actions(summary_from, current.since)
            summary = self.summary(table, summary_from, current.since, locale, before, notes)
            logged = read.actions(current.since, record.version)
            in_turn = self.summary(table, current.since, record.version, locale, logged, notes)
        closing = (words.closing(table, locale), *extra)
        return PostLines(tuple(opening), tuple(summary), tuple(in_turn), closing)

    def summary(
        self,
        table: Table,
        after: int,
        upto: int,
        locale: str,
        entries: Sequence[ActionRecord],
        noted: Sequence[Note],
    ) -> list[str]:
        """One line per action of ``entries`` (the log in ``(after, upto]``), with the table notes
        (``noted``: the game's, read once per post) made at those versions."""
        if upto <= after:
            return []
        notes: dict[int, list[Msg]] = {}
        for note in noted:
            if after < note.version <= upto and not is_explanation(note.event):
                notes.setdefault(note.version, []).append(decode_msg(note.event))
        line = self.words.action_line
        return ["• " + line(table, entry, locale, notes.get(entry.seq, [])) for entry in entries]


def _turn_went_round(read: Announcing, current: Announcement, version: int) -> bool:
    """Whether someone the handover post did not ask to act moved since it began: the turn went to
    others and came back while the post waited for room in its channel's rate (moves folded into one
    announcement). The same players act again, but in a new turn: a new post, not an edit of the old
    turn's. A forced move played for another player is no turn of theirs: the post is edited, and
    whoever it asked is not pinged again for the decision they were already asked for."""
    asked = set(current.to_act)
    return any(entry.player not in asked and not entry.auto for entry in read.actions(current.since, version))


@dataclass(frozen=True)
class PostLines:
    """The lines of a handover post, by what each is for. ``opening`` (the game's first post says it
    begins) and ``closing`` (who acts now, or how the game ended and the new ratings) always stay
    whole: they are what the post is for, and the closing line holds the mentions that ping.
    ``summary`` (the actions since the previous handover began) and ``in_turn`` (those of the turn
    in progress, under their header, in an edit) are oldest first, and the oldest are the ones a
    long post leaves out."""

    opening: tuple[str, ...] = ()
    summary: tuple[str, ...] = ()
    in_turn: tuple[str, ...] = ()
    closing: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fitted:
    """A post's text within its limit: how many summary lines were left out for it, and whether
    even the lines that stay had to be shortened (lines no game writes that long)."""

    text: str
    left_out: int = 0
    squeezed: bool = False


SHORTEST_KEPT = 16
"""The fewest characters the newest summary line is shortened to rather than left out too."""


def fit(lines: PostLines, locale: str, limit: int) -> Fitted:
    """The post's text in at most ``limit`` characters. The oldest summary lines are left out first,
    replaced where they stood by the catalog's note of how many (its length counted as rendered for
    that number); the newest one is shortened rather than left out; the lines that stay whole are
    only touched when they alone are longer than the limit, and then lose plain words, never a
    mention or a timestamp (``shorten``)."""
    header = (i18n.t("svc.turn_in_progress", locale),) if lines.in_turn else ()
    rows = [
        (text, droppable)
        for part, droppable in (
            (lines.opening, False),
            (lines.summary, True),
            (header, False),
            (lines.in_turn, True),
            (lines.closing, False),
        )
        for text in part
        if text
    ]
    summary = [place for place, (_, droppable) in enumerate(rows) if droppable]

    def compose(left_out: int, newest: str | None = None) -> str:
        gone = set(summary[:left_out])
        shown = []
        for place, (text, _) in enumerate(rows):
            if place in gone:
                if place == summary[0]:
                    shown.append(i18n.t("svc.summary_more", locale, count=left_out))
            elif newest is not None and place == summary[-1]:
                shown.append(newest)
            else:
                shown.append(text)
        return "\n".join(shown)

    whole = compose(0)
    if len(whole) <= limit:
        return Fitted(whole)
    size = len(whole)
    for left_out in range(1, len(summary)):
        size -= len(rows[summary[left_out - 1]][0]) + 1
        if size + len(i18n.t("svc.summary_more", locale, count=left_out)) + 1 <= limit:
            return Fitted(compose(left_out), left_out)
    if summary:
        left_out = len(summary) - 1
        newest = rows[summary[-1]][0]
        room = len(newest) - (len(compose(left_out)) - limit)
        if room >= SHORTEST_KEPT:
            return Fitted(compose(left_out, shorten(newest, room)), left_out)
    text = compose(len(summary))
    fitted = shorten(text, limit)
    return Fitted(fitted, len(summary), squeezed=fitted != text)
