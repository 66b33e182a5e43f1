"""Running a league: ``/league ...`` and the league's timed work, over the table layer.

A league is created in a channel with a sign-up card (Join and Leave buttons, kept edited as players
come and go); ``/league start`` closes sign-ups and makes round one. Each round's games are made like any
table (a lobby seated and started), each in its own thread of the league's channel (a post of its forum),
their players mentioned once there; the round has an end, shown as a Discord timestamp everywhere. The
next round starts when every game of the round has ended or its time is up (``tick``, the scheduler's;
``game_ended``, the announcer's as a game's end is posted). A game still running at the round's end
goes through its table's ``on_deadline`` policy (``forfeit``: the players it waits for lose), and one
still unfinished then is closed and counted as the league says (``unfinished=draw``: a draw;
``both_lose``: nobody scores). Standings are counted from the games' stored results
(``table.leagues.standings``) and kept on a card in the league's channel, edited in place.

Everything the league knows is its document in the store (``table.leagues.book``), written only over the
revision read: a restart in the middle of a round loses nothing and starts no round twice, and of two
processes sharing the store only one writes a round's start (the other finds the revision gone). Each
league's work is done under its claim in the store (``league:<id>``), as a game's posts are.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TypedDict, Unpack

import i18n
from db import ChannelBusy, GameRecord, LeagueBusy, LeagueRecord, LeagueStatus, Seat, Store
from engine.contract import Game, Result
from engine.text import Msg, PlayerRef, msg
from table.core.clock import Clock, format_duration, parse_duration, parse_stamp, stamp
from table.core.errors import TableError
from table.core.events import decode_result, encode_msg, encode_result
from table.core.marks import channel_link, mention, moment
from table.core.options import format_options, parse_options, take_seed
from table.core.posts import Button, Ctx, Post, pictured, post_nonce
from table.core.settings import TableSettings, server_defaults, server_locale, take_settings
from table.core.tables import Table
from table.core.text import clip, find_game, game_title, mentions, pings
from table.core.wording import Wording
from table.leagues import pairing
from table.leagues.book import FORMATS, KNOCKOUT, LATE, UNFINISHED, Book, Entry, Rules
from table.leagues.book import Seat as LeagueTable
from table.leagues.places import THREAD_NAME_LIMIT, Home, Places
from table.leagues.standings import Row, Scored, standings, tiebreak_names
from table.play.commands import Commands
from table.play.lobby import adopt_engine_teams, seat_order, team_slots
from table.posting.outlet import OutletError

log = logging.getLogger(__name__)

MIN_ROUND = timedelta(hours=1)
DEFAULT_ROUND = timedelta(days=7)
NAME_LENGTH = 80
"""Characters of a league's name: it titles the card, the standings and each round's server event."""
LEAGUE_KEYS = ("unfinished", "late", "group", "advance", "best_of")
"""Options of the league itself, typed among the games' options of ``/league new``."""
PLAYING, OVER = "playing", "over"
"""The states a forum post of a league game is tagged with (catalog keys ``league.tag.<state>``)."""
LEASE = 60.0
TRIES = 5
"""Writes of a league's document tried again when another writer came first."""


def claim_key(league_id: int) -> str:
    return f"league:{league_id}"


class _Fields(TypedDict, total=False):
    """A round's table's fields beside its players, as the pairing sets them (``LeagueTable``)."""

    bye: bool
    points: dict[str, float]
    how: str
    stage: str
    match: int


class _Made(TypedDict, total=False):
    """What a table is given once its thread or game is made (``LeagueTable``)."""

    thread: str
    game: int


class Leagues:
    """The ``/league`` commands and the leagues' timed work, over ``commands``' tables and announcer."""

    def __init__(self, commands: Commands, places: Places, *, clock: Clock | None = None) -> None:
        self.commands = commands
        self.tables = commands.tables
        self.announcer = commands.announcer
        self.words: Wording = commands.words
        self.places = places
        self.clock = clock or self.announcer.clock
        self.announcer.timed.append(self.tick)
        self.announcer.ended.append(self.game_ended)
        self._locks: dict[int, asyncio.Lock] = {}
        """Each league's work in this process, one at a time (the claim keeps other processes out; this
        process's own claim it renews, so two of its tasks would both hold it)."""

    @property
    def store(self) -> Store:
        return self.tables.store

    # ---- reading ---------------------------------------------------------------------------------

    async def _open(self, ctx: Ctx) -> tuple[LeagueRecord, Book]:
        league = await self.store.open_league(ctx.channel_id)
        if league is None:
            raise TableError("league.error.none")
        return league, Book.load(league.doc)

    def _game_of(self, league: LeagueRecord) -> Game:
        return self.tables.game(league.game)

    def _title(self, league: LeagueRecord, locale: str) -> str:
        return self.words.t_value(game_title(league.game), locale)

    def _format(self, book: Book, locale: str) -> str:
        rules = book.rules
        shown = self.words.t(f"league.format.{rules.format}", locale)
        if rules.format == "round_robin" and (rules.rounds or 1) >= 2:
            shown = self.words.t("league.format.double", locale)
        return shown

    async def _locale(self, ctx: Ctx) -> str:
        return await server_locale(self.store, ctx.guild_id, ctx.channel_locale)

    # ---- /league new -----------------------------------------------------------------------------

    async def new(
        self,
        ctx: Ctx,
        game: str,
        format: str = "swiss",
        rounds: int | None = None,
        round_length: str | None = None,
        players: int | None = None,
        options: str = "",
        name: str | None = None,
    ) -> list[Post]:
        """Open a league in this channel: a sign-up card with Join and Leave buttons."""
        chosen = find_game(game, self.tables.known_games, self.tables.game)
        kind = (format or "swiss").strip().lower()
        if kind not in FORMATS:
            raise TableError("league.error.bad_format", value=format, choices=", ".join(FORMATS))
        if rounds is not None and rounds < 1:
            raise TableError("league.error.bad_rounds", rounds=rounds)
        length = DEFAULT_ROUND if not round_length else parse_duration(round_length.strip())
        if length is None or length < MIN_ROUND:
            raise TableError("league.error.bad_round_length", value=round_length or "")
        counts = tuple(chosen.player_counts)
        size = players if players is not None else min(counts)
        if size not in counts:
            raise TableError(
                "table.error.bad_player_count",
                game=game_title(chosen.name),
                players=size,
                allowed=list(counts),
            )
        if kind != "swiss" and size != 2:
            raise TableError(
                "league.error.format_needs_two",
                format=self.words.t(f"league.format.{kind}", ctx.locale),
                game=game_title(chosen.name),
                players=size,
            )
        if kind == "round_robin" and rounds is not None and rounds > 2:
            raise TableError("league.error.round_robin_cycles", rounds=rounds)
        league_values, rest = _take_league_options(options)
        rules = Rules(format=kind, rounds=rounds, round_seconds=int(length.total_seconds()), size=size)
        rules = _league_rules(rules, league_values)
        seed, rest = take_seed(rest)
        pace, rest = take_settings(rest, await server_defaults(self.store, ctx.guild_id))
        table_options = parse_options(rest, chosen.option_specs, game=game_title(chosen.name))
        chosen.new_game([f"seat-{i}" for i in range(size)], 0, dict(table_options))  # refused now, not later
        text = " ".join(filter(None, [format_options(dict(table_options)), pace.describe()]))
        rules = replace(rules, options=text, rated=pace.rated, seed=seed)
        locale = await self._locale(ctx)
        title = (name or "").strip()[:NAME_LENGTH] or self.words.t(
            "league.default_name", locale, game=game_title(chosen.name)
        )
        home = await self.places.home(ctx.channel_id)
        book = Book(rules=rules, locale=locale, home=(home.kind, home.parent))
        book = book.with_entry(Entry(ctx.user_id, ctx.user_name))
        try:
            league = await self.store.create_league(
                channel=ctx.channel_id,
                guild=ctx.guild_id,
                name=title,
                game=chosen.name,
                creator=ctx.user_id,
                doc=book.dump(),
            )
        except LeagueBusy as busy:
            raise TableError("league.error.busy", name=busy.name or "?") from None
        await self._signup_card(league, book)
        return [Post(self.words.t("league.created", ctx.locale, name=title), ephemeral=True)]

    def _signup_text(self, league: LeagueRecord, book: Book) -> str:
        loc = book.locale
        rules = book.rules
        lines = [
            self.words.t(
                "league.card.title",
                loc,
                name=league.name,
                game=self._title(league, loc),
                format=self._format(book, loc),
            ),
            self.words.t(
                "league.card.rules",
                loc,
                rounds=self._rounds_text(book, loc),
                length=format_duration(timedelta(seconds=rules.round_seconds)),
                size=rules.size,
                unfinished=self.words.t(f"league.unfinished.{rules.unfinished}", loc),
            ),
        ]
        if rules.options:
            lines.append(self.words.t("league.card.options", loc, options=rules.options))
        if not rules.rated:
            lines.append(self.words.t("rating.lobby.unrated", loc))
        names = [e.name for e in book.players]
        lines.append(self.words.t("league.card.players", loc, count=len(names), players=names or ["—"]))
        if league.status == "signup":
            lines.append(self.words.t("league.card.open", loc))
        return clip("\n".join(lines), self.tables.limits.text)

    def _rounds_text(self, book: Book, loc: str) -> str:
        rules = book.rules
        if rules.format == "swiss":
            return str(rules.rounds) if rules.rounds else self.words.t("league.rounds.auto", loc)
        if rules.format == "round_robin":
            return self.words.t("league.rounds.all", loc)
        return self.words.t("league.rounds.groups", loc, size=rules.group, advance=rules.advance)

    def _signup_buttons(self, league: LeagueRecord, book: Book) -> tuple[Button, ...]:
        if league.status != "signup":
            return ()
        loc = book.locale
        return (
            Button("join", self.words.t("league.button.join", loc), league.id, style="primary", scope="l"),
            Button("leave", self.words.t("league.button.leave", loc), league.id, scope="l"),
        )

    async def _signup_card(self, league: LeagueRecord, book: Book) -> None:
        """Post the sign-up card, or edit it in place (it lists who has joined)."""
        post = Post(
            self._signup_text(league, book),
            buttons=self._signup_buttons(league, book),
            nonce=post_nonce(f"L{league.id}", "signup", limits=self.tables.limits),
        )
        message = book.cards.get("signup")
        outlet = self.announcer.outlet
        try:
            if message is not None and await outlet.edit(league.channel, message, post):
                return
            sent = await outlet.send(league.channel, post)
        except OutletError as exc:
            log.warning("the sign-up card of league #%s: %s", league.id, exc)
            return
        await self._write(league.id, lambda lg, bk: replace(bk, cards={**bk.cards, "signup": sent}))

    # ---- writing the document --------------------------------------------------------------------

    async def _write(
        self,
        league_id: int,
        change: Callable[[LeagueRecord, Book], Book | None],
        *,
        status: LeagueStatus | Callable[[Book], LeagueStatus | None] | None = None,
    ) -> tuple[LeagueRecord, Book] | None:
        """Apply ``change`` to the stored league and write it over the revision read, reading again when
        another writer came first; None when ``change`` declines (returns None) or the league is gone."""
        for _ in range(TRIES):
            league = await self.store.get_league(league_id)
            if league is None:
                return None
            book = Book.load(league.doc)
            changed = change(league, book)
            if changed is None:
                return None
            chosen = status(changed) if callable(status) else status
            new = replace(league, doc=changed.dump(), status=chosen or league.status)
            saved = await self.store.save_league(new)
            if saved is not None:
                return saved, changed
        raise TableError("table.error.conflict")

    # ---- joining and leaving ---------------------------------------------------------------------

    async def join(self, ctx: Ctx) -> list[Post]:
        league, book = await self._open(ctx)
        return await self._join(ctx, league, book)

    async def _join(self, ctx: Ctx, league: LeagueRecord, book: Book) -> list[Post]:
        entry = book.entry(ctx.user_id)
        if entry is not None and entry.dropped is None:
            raise TableError("league.error.already_in", name=league.name)
        if entry is not None:
            raise TableError("league.error.dropped_out", name=league.name)
        late = league.status == "running"
        if late and (book.rules.format != "swiss" or book.round > 1):
            raise TableError("league.error.closed", name=league.name)

        def add(lg: LeagueRecord, bk: Book) -> Book | None:
            if bk.entry(ctx.user_id) is not None:
                raise TableError("league.error.already_in", name=lg.name)
            if lg.status == "over" or (lg.status == "running" and bk.round > 1):
                raise TableError("league.error.closed", name=lg.name)
            joined = bk.round if lg.status == "running" else 0
            bk = bk.with_entry(Entry(ctx.user_id, ctx.user_name, joined=joined))
            if lg.status == "running":
                for missed in range(1, bk.round + 1):
                    bk = bk.with_table(_missed(bk, missed, ctx.user_id))
            return bk

        written = await self._write(league.id, add)
        assert written is not None
        league, book = written
        loc = ctx.locale
        if league.status == "signup":
            await self._signup_card(league, book)
        else:
            await self._standings_card(league, book)
        key = "league.joined_late" if late else "league.joined"
        missed = self.words.t(f"league.late.{book.rules.late}", loc)
        return [Post(self.words.t(key, loc, name=league.name, missed=missed), ephemeral=True)]

    async def leave(self, ctx: Ctx) -> list[Post]:
        league, book = await self._open(ctx)
        return await self._remove(ctx, league, book, ctx.user_id, kicked=False)

    async def kick(self, ctx: Ctx, player: str) -> list[Post]:
        league, book = await self._open(ctx)
        if ctx.user_id != league.creator and not ctx.moderator:
            raise TableError("league.error.creator_only", name=league.name)
        return await self._remove(ctx, league, book, player, kicked=True)

    async def _remove(
        self, ctx: Ctx, league: LeagueRecord, book: Book, player: str, *, kicked: bool
    ) -> list[Post]:
        entry = book.entry(player)
        if entry is None or entry.dropped is not None:
            key = "league.error.not_in_player" if kicked else "league.error.not_in"
            raise TableError(key, name=league.name, player=mention(player))
        if league.status == "signup":

            def out(lg: LeagueRecord, bk: Book) -> Book | None:
                return bk.without(player)

            written = await self._write(league.id, out)
            assert written is not None
            await self._signup_card(*written)
        else:
            await self._drop(league, player)
        loc = ctx.locale
        key = "league.kicked" if kicked else "league.left"
        name = book.names.get(player, player)
        posts = [Post(self.words.t(key, loc, name=league.name, player=name), ephemeral=True)]
        if league.status == "running":
            public = await self._locale(ctx)
            text = self.words.t("league.dropped", public, player=name, name=league.name)
            posts.append(Post(text))
        return posts

    async def _drop(self, league: LeagueRecord, player: str) -> None:
        """A player leaves a running league: their unfinished games are lost by forfeit, they are paired
        no more, their results stand."""
        now_round = Book.load(league.doc).round

        def out(lg: LeagueRecord, bk: Book) -> Book | None:
            entry = bk.entry(player)
            if entry is None or entry.dropped is not None:
                return None
            bk = bk.with_entry(replace(entry, dropped=bk.round))
            for table in bk.current():
                if player in table.players and not table.done and table.game is None:
                    points = {p: 0.0 if p == player else 1.0 for p in table.players}
                    bk = bk.with_table(replace(table, points=points, how="forfeit"))
            return bk

        written = await self._write(league.id, out)
        if written is None:
            return
        league, book = written
        for table in book.in_round(now_round):
            if player in table.players and table.game is not None and not table.done:
                await self._forfeit(
                    table.game, [player], msg("league.reason.dropped", player=PlayerRef(player))
                )
        await self.step(league.id)

    # ---- starting --------------------------------------------------------------------------------

    async def start(self, ctx: Ctx) -> list[Post]:
        league, book = await self._open(ctx)
        if ctx.user_id != league.creator and not ctx.moderator:
            raise TableError("league.error.creator_only", name=league.name)
        if league.status != "signup":
            raise TableError("league.error.started", name=league.name)
        needed = _needed(book.rules)
        if len(book.players) < needed:
            raise TableError("league.error.too_few", needed=needed, count=len(book.players))
        now = self.clock()

        def begin(lg: LeagueRecord, bk: Book) -> Book | None:
            if lg.status != "signup":
                return None
            bk = replace(bk, total=_total(bk.rules, len(bk.players)))
            if bk.rules.format == "round_robin":
                bk = replace(bk, groups=(tuple(e.player for e in bk.players),))
            if bk.rules.format == "groups":
                dealt = pairing.groups([e.player for e in bk.players], bk.rules.group)
                bk = replace(bk, groups=tuple(tuple(g) for g in dealt))
            return self._paired(lg, bk, now)

        written = await self._write(league.id, begin, status="running")
        if written is None:
            raise TableError("league.error.started", name=league.name)
        league, book = written
        await self._signup_card(league, book)
        await self.step(league.id)
        return [Post(self.words.t("league.started", ctx.locale, name=league.name), ephemeral=True)]

    def _paired(self, league: LeagueRecord, book: Book, now: datetime) -> Book | None:
        """The book with the next round paired and begun at ``now``; None when the league is done."""
        number = book.round + 1
        found = self._pairing(league, book, number)
        if found is None:
            return None
        ends = now + timedelta(seconds=book.rules.round_seconds)
        book = replace(book, round=number, started=stamp(now), ends=stamp(ends))
        for board, (players, extra) in enumerate(found, start=1):
            book = book.with_table(LeagueTable(number, board, tuple(players), **extra))
        return book

    def _pairing(
        self, league: LeagueRecord, book: Book, number: int
    ) -> list[tuple[Sequence[str], _Fields]] | None:
        """Round ``number``'s tables and byes: (players, the table's other fields)."""
        rules = book.rules
        active = [e.player for e in book.active]
        bye: _Fields = {"bye": True, "points": {}, "how": "bye"}
        out: list[tuple[Sequence[str], _Fields]] = []
        if rules.format == "swiss":
            if number > book.total or len(active) < 2:
                return None
            history = _history(book)
            seeds = {e.player: i for i, e in enumerate(book.players, start=1)}
            entrants = [history.entrant(p, seeds[p]) for p in active]
            if rules.size == 2:
                found = pairing.swiss(entrants, number)
            else:
                found = pairing.multi_tables(entrants, rules.size, self._game_of(league).player_counts)
            out += [(t, {}) for t in found.tables]
            out += [((p,), {**bye, "points": {p: 1.0}}) for p in found.byes]
            return out
        if rules.format == "round_robin":
            order = list(book.groups[0]) if book.groups else active
            if number > book.total:
                return None
            found = pairing.round_robin(order, number, rules.rounds or 1)
            return self._without_dropped(found, book, bye)
        group_total = pairing.group_rounds([list(g) for g in book.groups])
        if number <= group_total:
            found = pairing.group_round([list(g) for g in book.groups], number)
            return self._without_dropped(found, book, bye, byes_score=False)
        matches = self._knockout_matches(book, number, group_total)
        if matches is None:
            return None
        for index, (a, b) in enumerate(matches, start=1):
            if b is None:
                out.append(
                    ((a,), {"bye": True, "points": {}, "how": "bye", "stage": KNOCKOUT, "match": index})
                )
            else:
                out.append(((a, b), {"stage": KNOCKOUT, "match": index}))
        return out

    def _without_dropped(
        self,
        found: pairing.Round,
        book: Book,
        bye: _Fields,
        *,
        byes_score: bool = True,
    ) -> list[tuple[Sequence[str], _Fields]]:
        """A fixed schedule's round with the dropped players left out: their opponent has a bye."""
        dropped = {e.player for e in book.players if e.dropped is not None}
        out: list[tuple[Sequence[str], _Fields]] = []
        for table in found.tables:
            kept = [p for p in table if p not in dropped]
            if len(kept) == len(table):
                out.append((table, {}))
            elif kept:
                out.append((tuple(kept), {**bye, "points": {kept[0]: 1.0}}))
        for player in found.byes:
            if player not in dropped:
                out.append(((player,), {**bye, "points": {player: 1.0} if byes_score else {}}))
        return out

    def _knockout_matches(
        self, book: Book, number: int, group_total: int
    ) -> list[tuple[str, str | None]] | None:
        """The knockout round ``number``'s matches (after ``group_total`` rounds of groups); None once a
        champion is known."""
        if number == group_total + 1:
            ranked = []
            for group in book.groups:
                rows = self._rows(book, only=set(group), stage="")
                ranked.append([r.player for r in rows if not r.dropped])
            return pairing.knockout(pairing.qualifiers(ranked, book.rules.advance))
        winners = [w for _m, w in sorted(self._match_winners(book, number - 1).items())]
        if len(winners) <= 1:
            return None
        return pairing.next_knockout(winners)

    def _match_winners(self, book: Book, number: int) -> dict[int, str]:
        """Each knockout match of round ``number`` and its winner, for the matches decided (a match of
        an earlier round, or of a round whose time is up, is decided as it stands)."""
        time_up = number < book.round or (book.ends is not None and parse_stamp(book.ends) <= self.clock())
        out: dict[int, str] = {}
        for match, games in _matches(book, number).items():
            winner = _match_winner(games, book.rules.best_of, time_up=time_up)
            if winner is not None:
                out[match] = winner
        return out

    # ---- a round begins --------------------------------------------------------------------------

    def _heading(self, key: str, league: LeagueRecord, book: Book, loc: str) -> str:
        """A round's heading: the league, the round of how many, and its end as a Discord timestamp."""
        ends = parse_stamp(book.ends or stamp(self.clock()))
        return self.words.t(
            key,
            loc,
            name=league.name,
            round=book.round,
            total=book.total,
            ends=moment(ends, "F"),
            left=moment(ends),
        )

    async def _round_begun(self, league: LeagueRecord, book: Book) -> Book:
        """The round's post in the league's channel, once its games are made (it links their threads;
        no ping: each thread calls its players), and its server event where the bot may make one."""
        loc = book.locale
        lines = [self._heading("league.round.title", league, book, loc)]
        for table in book.current():
            lines.append(self._table_line(book, table, loc))
        text = clip("\n".join(lines), self.tables.limits.text)
        nonce = post_nonce(f"L{league.id}", f"r{book.round}", limits=self.tables.limits)
        try:
            sent = await self.announcer.outlet.send(league.channel, Post(text, nonce=nonce))
        except OutletError as exc:
            log.warning("league #%s round %s post: %s", league.id, book.round, exc)
            return book
        posted = f"round.{book.round}"
        written = await self._write(league.id, lambda lg, bk: replace(bk, cards={**bk.cards, posted: sent}))
        if written is not None:
            book = written[1]
        name = clip(self.words.t("league.event", loc, name=league.name, round=book.round), THREAD_NAME_LIMIT)
        try:
            start = max(self.clock(), parse_stamp(book.started or stamp(self.clock())))
            ends = parse_stamp(book.ends or stamp(self.clock()))
            event = await self.places.schedule(league.guild, name, start, ends, channel_link(league.channel))
        except Exception:
            log.exception("league #%s: the round's event", league.id)
            event = None
        if event is not None:
            key = f"event.{book.round}"
            written = await self._write(league.id, lambda lg, bk: replace(bk, cards={**bk.cards, key: event}))
            if written is not None:
                book = written[1]
        return book

    def _table_line(self, book: Book, table: LeagueTable, loc: str) -> str:
        names = book.names
        if table.bye:
            return self.words.t("league.round.bye", loc, player=names.get(table.players[0], table.players[0]))
        players = [names.get(p, p) for p in table.players]
        where = channel_link(table.thread) if table.thread else "…"
        if table.stage == KNOCKOUT:
            return self.words.t("league.round.match", loc, players=players, where=where, number=table.number)
        return self.words.t("league.round.table", loc, players=players, where=where)

    # ---- the league's work: games made, results read, rounds ended -------------------------------

    async def tick(self, now: datetime) -> int:
        """What is due in every running league (the scheduler's tick): games to make, results to read,
        a round's end. How many leagues moved."""
        moved = 0
        for league in await self.store.leagues(("running",)):
            try:
                moved += int(await self.step(league.id))
            except OutletError as exc:
                log.warning("league #%s: %s", league.id, exc)
            except Exception:
                log.exception("league #%s: its timed work failed", league.id)
        return moved

    async def game_ended(self, record: GameRecord) -> None:
        """A game's end was posted: its league, if it has one, counts it now (the next round may
        begin at once rather than at the next tick)."""
        league = record.settings.get("league")
        if league and league.isdigit():
            await self.step(int(league))

    async def step(self, league_id: int) -> bool:
        """Bring a running league up to date, under its claim: whether this process did it."""
        key = claim_key(league_id)
        async with self._locks.setdefault(league_id, asyncio.Lock()):
            owner = self.announcer.owner
            if not await self.store.claim(key, owner, LEASE):
                return False
            try:
                await self._step(league_id)
            finally:
                await self.store.release(key, owner)
        return True

    async def _step(self, league_id: int) -> None:
        for _ in range(64):  # a round per pass at most; a bounded loop whatever the store holds
            league = await self.store.get_league(league_id)
            if league is None or league.status != "running":
                return
            book = Book.load(league.doc)
            for table in book.current():
                if not table.bye and not table.done and table.game is None:
                    book = await self._make_game(league, book, table)
            if f"round.{book.round}" not in book.cards:
                book = await self._round_begun(league, book)
            book = await self._read_results(league, book)
            now = self.clock()
            if book.ends is not None and parse_stamp(book.ends) <= now:
                book = await self._time_up(league, book)
            if book.rules.format == "groups":
                book = await self._next_match_games(league, book)
            if not self._round_done(book):
                return
            ended = await self._next_round(league.id, now)
            if not ended:
                return

    def _round_done(self, book: Book) -> bool:
        current = book.current()
        if not all(t.done for t in current):
            return False
        if any(t.stage == KNOCKOUT for t in current):
            decided = self._match_winners(book, book.round)
            return len(decided) == len(_matches(book, book.round))
        return True

    async def _next_round(self, league_id: int, now: datetime) -> bool:
        """Pair and begin the next round, or end the league; whether anything was written."""

        def advance(lg: LeagueRecord, bk: Book) -> Book | None:
            if lg.status != "running" or not self._round_done(bk):
                return None
            paired = self._paired(lg, bk, now)
            if paired is None:
                return replace(bk, winner=self._winner(bk), finished=True)
            return paired

        written = await self._write(league_id, advance, status=lambda bk: "over" if bk.finished else None)
        if written is None:
            return False
        league, book = written
        if league.status == "over":
            await self._final(league, book)
            return False
        await self._standings_card(league, book)
        return True

    def _winner(self, book: Book) -> tuple[str, ...]:
        if book.rules.format == "groups":
            last = max((t.round for t in book.tables if t.stage == KNOCKOUT), default=0)
            winners = list(self._match_winners(book, last).values())
            if len(winners) == 1:
                return (winners[0],)
        rows = self._rows(book)
        return tuple(r.player for r in rows if r.place == 1)

    async def _make_game(self, league: LeagueRecord, book: Book, table: LeagueTable) -> Book:
        """The table's thread (its players called there, once) and its game, seated and started; each
        written down as soon as made, so a restart makes neither twice."""
        loc = book.locale
        home = Home(*book.home)
        if table.thread is None:
            names = book.names
            players = [names.get(p, p) for p in table.players]
            thread_name = self.words.t("league.thread", loc, round=table.round, players=players)
            if table.stage == KNOCKOUT and table.number > 1:
                thread_name += f" ({table.number})"
            intro = self._intro(league, book, table)
            thread = await self.places.open_thread(
                home, clip(thread_name, THREAD_NAME_LIMIT), intro, self._tags(book, PLAYING)
            )
            written = await self._write(
                league.id, lambda lg, bk: _set_table(bk, table, thread=thread) if _same(bk, table) else None
            )
            if written is None:
                return book
            league, book = written
            table = next(t for t in book.tables if t.key == table.key)
        assert table.thread is not None
        record = await self._seat_game(league, book, table, table.thread)
        written = await self._write(
            league.id, lambda lg, bk: _set_table(bk, table, game=record.id) if _same(bk, table) else None
        )
        if written is None:
            return book
        self.announcer.poke(self.tables.table(record))
        return written[1]

    def _intro(self, league: LeagueRecord, book: Book, table: LeagueTable) -> Post:
        loc = book.locale
        ends = parse_stamp(book.ends or stamp(self.clock()))
        key = "league.intro.match" if table.stage == KNOCKOUT else "league.intro"
        text = self.words.t(
            key,
            loc,
            players=mentions(table.players),
            name=league.name,
            round=table.round,
            game=self._title(league, loc),
            ends=moment(ends, "F"),
            left=moment(ends),
            number=table.number,
            best_of=book.rules.best_of,
        )
        nonce = post_nonce(
            f"L{league.id}", f"r{table.round}", f"b{table.board}", table.number, limits=self.tables.limits
        )
        return Post(text, mentions=pings(table.players), nonce=nonce)

    def _tags(self, book: Book, state: str) -> list[str]:
        return [self.words.t(f"league.tag.{state}", book.locale)]

    async def _seat_game(
        self, league: LeagueRecord, book: Book, table: LeagueTable, channel: str
    ) -> GameRecord:
        """The table's game in ``channel``, made like any lobby and started at once (or found there,
        when a restart came between making it and writing it down)."""
        game = self._game_of(league)
        rules = book.rules
        _seed, rest = take_seed(rules.options)
        pace, rest = take_settings(rest, TableSettings())
        options = parse_options(rest, game.option_specs, game=game_title(game.name))
        names = book.names
        settings = {**pace.to_options(), "league": str(league.id), "label": league.name, "quiet_start": "yes"}
        if rules.seed is not None:
            digest = hashlib.blake2b(f"{rules.seed}.{table.key}.{table.number}".encode(), digest_size=7)
            game_seed = int.from_bytes(digest.digest(), "big")
        else:
            game_seed = self.tables.new_seed()
        first, *others = table.players
        try:
            record = await self.store.create_game(
                channel=channel,
                game=game.name,
                creator=Seat(first, names.get(first, first)),
                players=len(table.players),
                options=options,
                seed=game_seed,
                guild=league.guild,
                locale=book.locale,
                settings=settings,
            )
        except ChannelBusy:
            found = await self.store.open_game(channel)
            if found is None or found.settings.get("league") != str(league.id):
                raise
            record = found
        seated = {s.player for s in record.seats}
        for player in others:
            if player not in seated:
                record = await self.store.add_seat(record.id, Seat(player, names.get(player, player)))
        if record.status == "lobby":
            seats = seat_order(record.seats, team_slots(game, record.players, record.options))
            state = game.new_game([s.player for s in seats], record.seed, dict(record.options))
            seats = adopt_engine_teams(game, state, seats)
            record = await self.store.start_game(record.id, state=game.dump(state), seats=seats)
        return record

    async def _read_results(self, league: LeagueRecord, book: Book) -> Book:
        """Count the games of the round that ended."""
        scored: dict[str, LeagueTable] = {}
        for table in book.current():
            if table.done or table.game is None:
                continue
            record = await self.store.get_game(table.game)
            if record is None or record.status in ("lobby", "active"):
                continue
            scored[table.key] = _scored(table, record, book.rules.unfinished)
        if not scored:
            return book

        def count(lg: LeagueRecord, bk: Book) -> Book | None:
            for key, table in scored.items():
                now = next((t for t in bk.tables if t.key == key), None)
                if now is not None and not now.done:
                    bk = bk.with_table(
                        replace(now, points=table.points, measure=table.measure, how=table.how)
                    )
            return bk

        written = await self._write(league.id, count)
        if written is None:
            return book
        league, book = written
        home = Home(*book.home)
        if home.forum:
            for key in scored:
                table = next(t for t in book.tables if t.key == key)
                if table.thread is not None:
                    await self.places.set_tags(home, table.thread, self._tags(book, OVER))
        await self._standings_card(league, book)
        return book

    async def _time_up(self, league: LeagueRecord, book: Book) -> Book:
        """The round's time is up: a game still running goes through its table's ``on_deadline`` policy
        (``forfeit``: the players it waits for lose); one still unfinished is closed, to be counted as
        the league says."""
        for table in book.current():
            if table.done or table.game is None:
                continue
            record = await self.store.get_game(table.game)
            if record is None or record.status not in ("lobby", "active"):
                continue
            live = self.tables.table(record)
            waiting = [p for p in live.to_act()]
            if TableSettings.of(record).on_deadline == "forfeit" and waiting:
                await self._forfeit(
                    record.id, waiting, msg("svc.reason.forfeit", players=[PlayerRef(p) for p in waiting])
                )
            else:
                await self._close(record.id)
        return await self._read_results(league, book)

    async def _forfeit(self, game_id: int, losers: Sequence[str], reason: Msg) -> None:
        """The sides of ``losers`` lose the game; every other side wins."""
        record = await self.store.get_game(game_id)
        if record is None or record.status not in ("lobby", "active"):
            return
        async with self.tables.lock(record.channel):
            fresh = await self.tables.open(record.channel)
            if fresh is None or fresh.record.id != game_id or fresh.record.status != "active":
                return
            lost = {fresh.side_of(p) for p in losers}
            winners = tuple(p for p in fresh.record.player_ids if fresh.side_of(p) not in lost)
            result = Result(winners=winners, reason=reason) if winners else Result((), reason, draw=True)
            done = await self.store.finish_game(
                game_id, version=fresh.record.version, status="over", result=encode_result(result)
            )
            await self.store.add_note(done.id, done.version, None, encode_msg(reason))
        self.announcer.poke(self.tables.table(done))

    async def _close(self, game_id: int) -> None:
        """The round is over and the game is not: it is closed unfinished (unrated, its log kept)."""
        record = await self.store.get_game(game_id)
        if record is None:
            return
        async with self.tables.lock(record.channel):
            fresh = await self.tables.open(record.channel)
            if fresh is None or fresh.record.id != game_id:
                return
            reason = msg("league.reason.round_over")
            result = Result(winners=(), reason=reason)
            done = await self.store.finish_game(
                game_id, version=fresh.record.version, status="aborted", result=encode_result(result)
            )
            await self.store.add_note(done.id, done.version, None, encode_msg(reason))
        self.announcer.poke(self.tables.table(done))

    async def _next_match_games(self, league: LeagueRecord, book: Book) -> Book:
        """A knockout match not decided by its games so far gets its next game, in the same thread,
        seats swapped; a match whose time is up is decided as it stands (``_match_winner``)."""
        if book.ends is not None and parse_stamp(book.ends) <= self.clock():
            return book
        for match, games in _matches(book, book.round).items():
            if not all(g.done for g in games) or any(g.bye for g in games):
                continue
            if _match_winner(games, book.rules.best_of, time_up=False) is not None:
                continue
            last = games[-1]
            nxt = LeagueTable(
                book.round,
                max(t.board for t in book.current()) + 1,
                tuple(reversed(last.players)),
                thread=last.thread,
                stage=KNOCKOUT,
                match=match,
                number=last.number + 1,
            )

            def add(lg: LeagueRecord, bk: Book, nxt: LeagueTable = nxt, match: int = match) -> Book | None:
                games_now = _matches(bk, bk.round).get(match, [])
                if not games_now or len(games_now) >= nxt.number:
                    return None
                return bk.with_table(nxt)

            written = await self._write(league.id, add)
            if written is None:
                continue
            league, book = written
            table = next(t for t in book.current() if t.match == match and t.number == nxt.number)
            intro = self._intro(league, book, table)
            try:
                await self.announcer.outlet.send(table.thread or league.channel, intro)
            except OutletError as exc:
                log.warning("league #%s: the next game's call: %s", league.id, exc)
            book = await self._make_game(league, book, table)
        return book

    # ---- standings -------------------------------------------------------------------------------

    def _rows(self, book: Book, *, only: set[str] | None = None, stage: str | None = None) -> list[Row]:
        players = [e.player for e in book.players if only is None or e.player in only]
        scored = [
            Scored(t.round, t.players, t.points or {}, t.measure, bye=t.bye)
            for t in book.tables
            if t.done and (stage is None or t.stage == stage) and not (t.stage == KNOCKOUT and t.bye)
        ]
        measured = any(t.measure for t in book.tables)
        dropped = [e.player for e in book.players if e.dropped is not None]
        return standings(
            players, scored, swiss=book.rules.format == "swiss", measured=measured, dropped=dropped
        )

    def standings_text(self, league: LeagueRecord, book: Book, locale: str) -> str:
        """The standings as lines that read well on a phone: a line per player, tiebreaks after."""
        rows = self._rows(book)
        names = book.names
        measured = any(t.measure for t in book.tables)
        tiebreaks = tiebreak_names(book.rules.format == "swiss", measured)
        lines = [
            self.words.t(
                "league.standings.title",
                locale,
                name=league.name,
                round=book.round,
                total=book.total or "?",
            )
        ]
        for row in rows:
            lines.append(
                self.words.t(
                    "league.standings.row",
                    locale,
                    place=row.place,
                    player=names.get(row.player, row.player),
                    points=_points(row.points, locale),
                    wins=row.wins,
                    draws=row.draws,
                    losses=row.losses,
                )
                + (" " + self.words.t("league.standings.dropped", locale) if row.dropped else "")
            )
        if tiebreaks:
            shown = [self.words.t(f"league.tb.{n}", locale) for n in tiebreaks]
            lines.append(self.words.t("league.standings.tiebreaks", locale, tiebreaks=shown))
        return clip("\n".join(lines), self.tables.limits.text)

    def standings_view(self, league: LeagueRecord, book: Book, locale: str) -> dict[str, object]:
        """What the render layer draws (``render.standings``): words already in ``locale``."""
        rows = self._rows(book)
        names = book.names
        measured = any(t.measure for t in book.tables)
        tiebreaks = tiebreak_names(book.rules.format == "swiss", measured)
        return {
            "title": self.words.t(
                "league.standings.title_plain",
                locale,
                name=league.name,
                round=book.round,
                total=book.total or "?",
            ),
            "columns": [
                self.words.t(f"league.col.{c}", locale) for c in ("place", "player", "points", "record")
            ]
            + [self.words.t(f"league.tb_short.{n}", locale) for n in tiebreaks],
            "rows": [
                {
                    "place": str(row.place),
                    "name": names.get(row.player, row.player),
                    "points": _points(row.points, locale),
                    "record": self.words.t(
                        "league.standings.record", locale, wins=row.wins, draws=row.draws, losses=row.losses
                    ),
                    "tiebreaks": [_points(v, locale) for v in row.tiebreaks],
                    "dropped": row.dropped,
                }
                for row in rows
            ],
            "note": self.words.t(
                "league.standings.tiebreaks",
                locale,
                tiebreaks=[self.words.t(f"league.tb.{n}", locale) for n in tiebreaks],
            )
            if tiebreaks
            else "",
        }

    async def _standings_post(
        self, league: LeagueRecord, book: Book, locale: str, *, ephemeral: bool = False
    ) -> Post:
        view = self.standings_view(league, book, locale)
        try:
            picture = await self.tables.picture("standings", view, {}, locale)
        except Exception:
            log.exception("drawing the standings of league #%s failed", league.id)
            picture = None
        text = self.standings_text(league, book, locale)
        return Post(text, filename="standings.png", **pictured(picture), ephemeral=ephemeral)

    async def _standings_card(self, league: LeagueRecord, book: Book) -> None:
        """The standings card of the league's channel, edited in place (posted anew when it cannot be)."""
        if league.status == "signup":
            return
        post = await self._standings_post(league, book, book.locale)
        message = book.cards.get("standings")
        outlet = self.announcer.outlet
        try:
            if message is not None and await outlet.edit(league.channel, message, post):
                return
            nonce = post_nonce(
                f"L{league.id}", "standings", book.round, len(book.tables), limits=self.tables.limits
            )
            sent = await outlet.send(league.channel, replace(post, nonce=nonce))
        except OutletError as exc:
            log.warning("the standings card of league #%s: %s", league.id, exc)
            return
        await self._write(league.id, lambda lg, bk: replace(bk, cards={**bk.cards, "standings": sent}))

    async def _final(self, league: LeagueRecord, book: Book) -> None:
        """The league is over: its final standings, with the winner, in its channel."""
        loc = book.locale
        names = book.names
        winners = [names.get(p, p) for p in book.winner] or ["—"]
        text = self.words.t("league.final", loc, name=league.name, winners=winners)
        post = await self._standings_post(league, book, loc)
        post = replace(
            post,
            text=clip(text + "\n" + post.text, self.tables.limits.text),
            nonce=post_nonce(f"L{league.id}", "final", limits=self.tables.limits),
        )
        try:
            await self.announcer.outlet.send(league.channel, post)
        except OutletError as exc:
            log.warning("league #%s: its final standings: %s", league.id, exc)

    async def standings(self, ctx: Ctx) -> list[Post]:
        """The league's standings, for the caller: as text and as an image."""
        league = await self.store.open_league(ctx.channel_id)
        if league is None:
            league = await self._latest_here(ctx)
        book = Book.load(league.doc)
        return [await self._standings_post(league, book, ctx.locale, ephemeral=True)]

    async def _latest_here(self, ctx: Ctx) -> LeagueRecord:
        done = [
            lg
            for lg in await self.store.leagues(("over",), guild=ctx.guild_id)
            if lg.channel == ctx.channel_id
        ]
        if not done:
            raise TableError("league.error.none")
        return done[-1]

    # ---- /league: the round, its games, who is awaited -------------------------------------------

    async def show(self, ctx: Ctx) -> list[Post]:
        league = await self.store.open_league(ctx.channel_id)
        if league is None:
            league = await self._latest_here(ctx)
        book = Book.load(league.doc)
        loc = ctx.locale
        if league.status == "signup":
            return [Post(self._signup_text(league, book), ephemeral=True)]
        lines = [self._heading("league.status.title", league, book, loc)]
        if league.status == "over":
            winners = [book.names.get(p, p) for p in book.winner] or ["—"]
            lines = [self.words.t("league.final", loc, name=league.name, winners=winners)]
        for table in book.current():
            line = self._table_line(book, table, loc)
            state = await self._state(table, loc)
            lines.append(f"{line} — {state}" if state else line)
        return [Post(clip("\n".join(lines), self.tables.limits.text), ephemeral=True)]

    async def _state(self, table: LeagueTable, loc: str) -> str:
        if table.bye:
            return ""
        if table.done:
            return self.words.t(f"league.state.{table.how or 'played'}", loc)
        if table.game is None:
            return self.words.t("league.state.making", loc)
        record = await self.store.get_game(table.game)
        if record is None:
            return ""
        live: Table = self.tables.table(record)
        waiting = live.to_act()
        if not waiting:
            return self.words.t("league.state.making", loc)
        return self.words.t("league.state.waiting", loc, players=mentions(waiting, live.names))

    # ---- /league end and /league history ---------------------------------------------------------

    async def end(self, ctx: Ctx) -> list[Post]:
        """A moderator ends the league: standings frozen as they stand, its games left to finish."""
        league, book = await self._open(ctx)
        if not ctx.moderator:
            raise TableError("svc.error.moderator_only")
        written = await self._write(
            league.id, lambda lg, bk: replace(bk, winner=self._winner(bk), finished=True), status="over"
        )
        if written is None:
            raise TableError("league.error.none")
        league, book = written
        await self._signup_card(league, book)
        await self._final(league, book)
        return [Post(self.words.t("league.ended", ctx.locale, name=league.name), ephemeral=True)]

    async def history(self, ctx: Ctx) -> list[Post]:
        """The server's finished leagues, newest first, each with its winner."""
        done = list(reversed(await self.store.leagues(("over",), guild=ctx.guild_id)))
        loc = ctx.locale
        if not done:
            return [Post(self.words.t("league.history.none", loc), ephemeral=True)]
        lines = [self.words.t("league.history.title", loc)]
        for league in done[:20]:
            book = Book.load(league.doc)
            winners = [book.names.get(p, p) for p in book.winner] or ["—"]
            lines.append(
                self.words.t(
                    "league.history.line",
                    loc,
                    name=league.name,
                    game=self._title(league, loc),
                    players=len(book.players),
                    rounds=book.round,
                    winners=winners,
                    when=moment(parse_stamp(league.updated_at), "d"),
                )
            )
        return [Post(clip("\n".join(lines), self.tables.limits.text), ephemeral=True)]

    # ---- buttons ---------------------------------------------------------------------------------

    async def press(self, ctx: Ctx, league_id: int, action: str) -> list[Post]:
        """The sign-up card's Join and Leave."""
        league = await self.store.get_league(league_id)
        if league is None or league.status == "over":
            raise TableError("league.error.none")
        book = Book.load(league.doc)
        if action == "join":
            return await self._join(ctx, league, book)
        if action == "leave":
            return await self._remove(ctx, league, book, ctx.user_id, kicked=False)
        raise TableError("svc.error.unknown_button")


# ---- helpers ------------------------------------------------------------------------------------------


def _take_league_options(text: str) -> tuple[dict[str, str], str]:
    """The league's own options out of the options text; the rest is every game's."""
    from table.core.options import option_segments

    values: dict[str, str] = {}
    rest: list[str] = []
    for segment in option_segments(text):
        key, sep, value = segment.partition("=")
        if sep and key.strip().lower() in LEAGUE_KEYS:
            values[key.strip().lower()] = value.strip().lower()
        else:
            rest.append(segment)
    return values, " ".join(rest)


def _league_rules(rules: Rules, values: dict[str, str]) -> Rules:
    for key, choices in (("unfinished", UNFINISHED), ("late", LATE)):
        if key in values and values[key] not in choices:
            raise TableError(
                "league.error.bad_option", option=key, value=values[key], choices=", ".join(choices)
            )
    rules = replace(
        rules,
        unfinished=values.get("unfinished", rules.unfinished),
        late=values.get("late", rules.late),
    )
    numbers: dict[str, int] = {}
    for key, low, high in (("group", 2, 16), ("advance", 1, 8), ("best_of", 1, 7)):
        if key in values:
            text = values[key]
            if not text.isdigit() or not low <= int(text) <= high:
                raise TableError("league.error.bad_number", option=key, value=text, low=low, high=high)
            numbers[key] = int(text)
    rules = replace(
        rules,
        group=numbers.get("group", rules.group),
        advance=numbers.get("advance", rules.advance),
        best_of=numbers.get("best_of", rules.best_of),
    )
    if rules.best_of % 2 == 0:
        raise TableError("league.error.best_of_odd", value=rules.best_of)
    if rules.advance > rules.group:
        raise TableError("league.error.advance", advance=rules.advance, group=rules.group)
    return rules


def _needed(rules: Rules) -> int:
    """The fewest players a first round needs."""
    if rules.format == "groups":
        return max(4, rules.group)
    return max(2, rules.size)


def _total(rules: Rules, count: int) -> int:
    """How many rounds the league plays with ``count`` players (a knockout's depth included)."""
    if rules.format == "swiss":
        return rules.rounds or max(1, math.ceil(math.log2(max(2, count))))
    if rules.format == "round_robin":
        return pairing.round_robin_rounds(count, rules.rounds or 1)
    dealt = pairing.groups([str(i) for i in range(count)], rules.group)
    qualified = sum(min(rules.advance, len(g)) for g in dealt)
    return pairing.group_rounds(dealt) + max(1, math.ceil(math.log2(max(2, qualified))))


def _history(book: Book) -> pairing.History:
    history = pairing.History()
    for table in book.tables:
        if not table.done:
            continue
        if table.bye or len(table.players) == 1:
            history.bye(
                table.players[0], (table.points or {}).get(table.players[0], 0.0), pairing=table.how == "bye"
            )
        else:
            history.table(table.players, dict(table.points or {}))
    return history


def _missed(book: Book, number: int, player: str) -> LeagueTable:
    """A late join's missed round: a bye's point, or nothing, as the league was created."""
    points = 1.0 if book.rules.late == "bye" else 0.0
    board = 1000 + len([t for t in book.in_round(number)]) + 1
    return LeagueTable(number, board, (player,), points={player: points}, bye=True, how="missed")


def _same(book: Book, table: LeagueTable) -> bool:
    now = next((t for t in book.tables if t.key == table.key), None)
    return now is not None and not now.done and now.players == table.players


def _set_table(book: Book, table: LeagueTable, **fields: Unpack[_Made]) -> Book:
    now = next(t for t in book.tables if t.key == table.key)
    return book.with_table(replace(now, **fields))


def _scored(table: LeagueTable, record: GameRecord, unfinished: str) -> LeagueTable:
    """What a finished game counts for: a win 1, a draw ½, a loss 0; a game closed unfinished as the
    league says; the game's own measure from its result."""
    result = decode_result(record.result) if record.result else None
    players = table.players
    if record.status == "over" and result is not None:
        if result.draw or not result.winners:
            points = {p: 0.5 for p in players}
        else:
            points = {p: 1.0 if p in result.winners else 0.0 for p in players}
        how = "forfeit" if result.reason.key in ("league.reason.dropped", "svc.reason.forfeit") else "played"
    else:
        points = {p: 0.5 if unfinished == "draw" else 0.0 for p in players}
        how = "unfinished"
    measure = {p: float(result.scores[p]) for p in players if result is not None and p in result.scores}
    return replace(table, points=points, measure=measure, how=how)


def _matches(book: Book, number: int) -> dict[int, list[LeagueTable]]:
    out: dict[int, list[LeagueTable]] = {}
    for table in book.in_round(number):
        if table.stage == KNOCKOUT:
            out.setdefault(table.match, []).append(table)
    for games in out.values():
        games.sort(key=lambda t: t.number)
    return out


def _match_winner(games: Sequence[LeagueTable], best_of: int, *, time_up: bool) -> str | None:
    """Who won a knockout match: the first to win more than half of ``best_of`` games; once its games
    are all played (``best_of`` of them, or as many as the round's time allowed: ``time_up``), whoever
    won more, the higher seed (the first) on a tie. None while the match goes on."""
    if not games:
        return None
    if games[0].bye:
        return games[0].players[0]
    seeds = list(games[0].players)
    wins = dict.fromkeys(seeds, 0)
    for game in games:
        for player, got in (game.points or {}).items():
            if got >= 1.0 and player in wins:
                wins[player] += 1
    leader = max(seeds, key=lambda p: (wins[p], -seeds.index(p)))
    if wins[leader] >= best_of // 2 + 1:
        return leader
    if all(g.done for g in games) and (len(games) >= best_of or time_up):
        return leader
    return None


def _points(value: float, locale: str) -> str:
    """Points as players read them: 2, 2½, ½; other values (a tiebreak's sum of products) with the
    language's decimal mark."""
    doubled = value * 2
    if abs(doubled - round(doubled)) > 1e-9:
        return i18n.decimal(value, locale, digits=2)
    whole, half = divmod(round(doubled), 2)
    if not half:
        return i18n.decimal(float(whole), locale, digits=0)
    return f"{whole}½" if whole else "½"


__all__ = ["Leagues", "claim_key"]
