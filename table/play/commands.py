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

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine import registry
from engine.errors import BadInput, GameError, GameOver, IllegalAction
from table.bots.explain import is_explanation
from table.bots.players import away_stand_ins, may_have_bots, returned_note, stand_ins_in
from table.core.errors import NoGame, NotSeated, TableError, Unreadable
from table.core.events import decode_msg, encode_msg
from table.core.marks import mention
from table.core.posts import Ctx, Post, is_bot, pictured, post_nonce
from table.core.settings import TableSettings
from table.core.tables import Table, Tables
from table.core.text import (
    clip,
    game_title,
    has_key,
    lexicon,
    mentions,
    name_players_in,
    named,
    pings,
    shorten,
)
from table.core.wording import Wording
from table.play import command_tree, endings, listing, lobby
from table.play.clicks import ClickCommands
from table.play.explain import Explanations
from table.play.own_time import OwnTime
from table.play.refusals import Refusals
from table.play.standings import Standings
from table.posting.announce import Announcer, OutletError, RecordingOutlet
from table.posting.menus import vote_buttons
from table.rules import reference

log = logging.getLogger(__name__)

LOG_HEADER_ROOM = 200
"""Characters of a log page kept for its heading; its lines fill the rest of a message."""

VERSION_DIGITS = 18
"""No game reaches a version of more digits (the store keeps versions as 64-bit integers)."""
_VERSIONED = re.compile(r"^\s*v(\d+)\s*:\s*(.*)$", re.IGNORECASE | re.DOTALL)


def split_version(text: str) -> tuple[int | None, str]:
    """``"v12:move archer c3 d4"`` -> ``(12, "move archer c3 d4")``; no prefix -> ``(None, text)``.

    A number of more than ``VERSION_DIGITS`` digits is read as its first ``VERSION_DIGITS + 1``:
    still beyond any version a game reaches, and never the thousands of digits Python refuses to read.
    """
    m = _VERSIONED.match(text or "")
    if m is None:
        return None, (text or "").strip()
    digits = m.group(1).lstrip("0") or "0"
    return int(digits[: VERSION_DIGITS + 1]), m.group(2).strip()


def log_pages(lines: Sequence[str], room: int) -> list[list[str]]:
    """``lines`` in pages of at most ``room`` characters each, the newest page first, each page's lines
    in the order they happened: a page holds as many whole entries as fit a message (a Batailles game
    logs many short ones, a Cry Havoc battle a few long ones), and a line is never cut but when it
    alone is longer than a page, then between words."""
    pages: list[list[str]] = []
    page: list[str] = []
    used = 0
    for line in reversed(lines):
        line = line if len(line) <= room else shorten(line, room)
        if page and used + len(line) + 1 > room:
            pages.append(page[::-1])
            page, used = [], 0
        page.append(line)
        used += len(line) + 1
    if page or not pages:
        pages.append(page[::-1])
    return pages


class Commands(ClickCommands):
    """The commands of the bot, over a ``Tables``: the one object the front ends call.

    A concern that needs only some of the table's parts is an object of its own, built here from them
    (``explanations`` and ``standings`` from the tables, ``refusals`` and ``own_times`` from the tables
    and the announcer); its handlers are this object's too, so a front end calls every command the
    same way.
    """

    def __init__(self, tables: Tables, announcer: Announcer | None = None) -> None:
        self.tables = tables
        self.words = Wording()
        # Without a front end's announcer, posts are kept in memory, each as soon as it is due.
        self._announcer = announcer or Announcer(tables, RecordingOutlet(), coalesce=0)
        self.explanations = Explanations(tables)
        self.refusals = Refusals(tables, self._announcer)
        self.why, self.hint = self.explanations.why, self.explanations.hint
        self.own_times = OwnTime(tables, self._announcer, self.words)
        self.away, self.timezone_autocomplete = self.own_times.away, self.own_times.timezone_autocomplete
        self.standings = Standings(tables, self.words)
        self.leaderboard, self.history = self.standings.leaderboard, self.standings.history
        self.stats, self.unrate = self.standings.stats, self.standings.unrate
        refusals = self.refusals
        self.notices, self.bot_may = refusals.notices, refusals.bot_may
        self.channel_gone, self.channel_changed = refusals.channel_gone, refusals.channel_changed

    @property
    def announcer(self) -> Announcer:
        return self._announcer

    @announcer.setter
    def announcer(self, announcer: Announcer) -> None:
        """Another announcer (a test's, with its own clock) for every concern that posts."""
        self._announcer = self.refusals.announcer = self.own_times.announcer = announcer

    def _pace(self, table: Table, locale: str) -> str:
        """The lobby's line on reminders and the deadline, so players know before they join."""
        pace = TableSettings.of(table.record)
        shown = pace.to_options()
        remind = (
            self.words.t("svc.remind.off", locale)
            if pace.remind is None
            else self.words.t("svc.remind.every", locale, every=shown["remind"])
        )
        deadline = (
            self.words.t("svc.deadline.none", locale)
            if pace.deadline is None
            else self.words.t(
                "svc.deadline.after",
                locale,
                after=shown["deadline"],
                policy=self.words.t(f"svc.policy.{pace.on_deadline}", locale),
            )
        )
        lines = [self.words.t("svc.lobby.pace", locale, remind=remind, deadline=deadline)]
        if not pace.rated:
            lines.append(self.words.t("rating.lobby.unrated", locale))
        if not pace.auto:
            lines.append(self.words.t("svc.lobby.auto_off", locale))
        return " ".join(lines)

    # ---- lobby ---------------------------------------------------------------------------

    async def new(
        self,
        ctx: Ctx,
        game: str,
        players: int | None = None,
        options: str = "",
        bots: int = 0,
        level: str | None = None,
    ) -> list[Post]:
        """Open a table with the caller seated and ``bots`` computer players of ``level`` after them."""
        table = await lobby.create(self.tables, ctx, game, players, options, bots, level)
        self._listed(table.record)
        loc = await self._public(ctx)
        text = self.words.t(
            "table.new",
            loc,
            player=ctx.user_name,
            game=self.words.game(table, loc),
            seated=len(table.record.seats),
            players=table.record.players,
            options=self.words.options(table, loc),
        )
        lines = [
            text,
            self._pace(table, loc),
            self.own_times.away_policy(table, loc),
            self._fixed_seed(table, loc),
        ]
        seated_bots = [s.name for s in table.record.seats if is_bot(s.player)]
        if seated_bots:
            lines.append(self.words.t("table.bots_seated", loc, bots=seated_bots))
        lines += await self.own_times.away_lines(table, loc)
        return [self._lobby_post(table, loc, *lines)]

    def _lobby_post(self, table: Table, loc: str, *lines: str) -> Post:
        """A lobby post with its buttons; once the last seat is taken it asks the people seated (never
        a bot) to start, and pings them."""
        ready, people = self._ready(table.record, loc)
        return Post(
            "\n".join(filter(None, (*lines, ready))), mentions=people, buttons=self._lobby_buttons(table, loc)
        )

    async def addbot(self, ctx: Ctx, level: str | None = None) -> list[Post]:
        """A computer player of ``level`` takes the next seat of the lobby."""
        table, seat = await lobby.add_bot(self.tables, ctx, level)
        self._listed(table.record)
        loc = await self._public(ctx)
        rec = table.record
        text = self.words.t(
            "table.joined",
            loc,
            player=seat.name,
            game=self.words.game(table, loc),
            seated=len(rec.seats),
            players=rec.players,
        )
        return [self._lobby_post(table, loc, text)]

    async def join(self, ctx: Ctx, team: int | None = None) -> list[Post]:
        table = await lobby.join(self.tables, ctx, team)
        self._listed(table.record)
        loc = await self._public(ctx)
        rec = table.record
        params: dict[str, Any] = {
            "player": ctx.user_name,
            "game": self.words.game(table, loc),
            "seated": len(rec.seats),
        }
        if team is None:
            text = self.words.t("table.joined", loc, players=rec.players, **params)
        else:
            text = self.words.t("table.joined_team", loc, players=rec.players, team=team, **params)
        return [self._lobby_post(table, loc, text, *await self.own_times.away_lines(table, loc))]

    async def leave(self, ctx: Ctx) -> list[Post]:
        left = await lobby.leave(self.tables, ctx)
        self._listed(left.table.record, ctx.user_id)
        loc = await self._public(ctx)
        rec = left.table.record
        if left.closed:
            text = self.words.t("table.left_closed", loc, player=ctx.user_name)
        elif left.new_creator is not None:
            text = self.words.t(
                "table.left_new_creator",
                loc,
                player=ctx.user_name,
                creator=left.table.name(left.new_creator),
                seated=len(rec.seats),
                players=rec.players,
            )
        else:
            text = self.words.t(
                "table.left", loc, player=ctx.user_name, seated=len(rec.seats), players=rec.players
            )
        return [Post(text, buttons=self._lobby_buttons(left.table, loc))]

    async def start(self, ctx: Ctx) -> list[Post]:
        """Deal the game; the first handover post (board, seats, whose turn) goes to the channel."""
        table = await lobby.start(self.tables, ctx)
        await self._announce(ctx, table)
        return [
            Post(
                self.words.t("svc.started_ack", ctx.locale, game=self.words.game(table, ctx.locale)),
                ephemeral=True,
            )
        ]

    # ---- looking -------------------------------------------------------------------------

    async def _latest(self, channel: str) -> Table:
        """The open game, else the last one played here; a lobby closed unplayed does not count."""
        table = await self.tables.latest(channel)
        if table is None or (table.record.status == "aborted" and table.state is None):
            raise NoGame()
        return table

    async def status(self, ctx: Ctx) -> list[Post]:
        table = await self._latest(ctx.channel_id)
        loc = ctx.locale
        rec = table.record
        common: dict[str, Any] = {"game": self.words.game(table, loc), "seats": self.words.seats(table, loc)}
        if rec.status == "lobby":
            text = self.words.t(
                "table.status.lobby",
                loc,
                seated=len(rec.seats),
                players=rec.players,
                creator=table.name(rec.creator),
                options=self.words.options(table, loc),
                **common,
            )
            away = await self.own_times.away_lines(table, loc)
            text = "\n".join(
                filter(
                    None, [text, self._fixed_seed(table, loc), self.own_times.away_policy(table, loc), *away]
                )
            )
        elif table.unreadable:
            text = self.words.t(Unreadable(game=game_title(rec.game)).msg, loc)
        elif rec.status == "active":
            lines = [
                self.words.t(
                    "table.status.active",
                    loc,
                    progress=self.words.progress(table, loc),
                    waiting=named(table.to_act(), table.names),
                    options=self.words.options(table, loc),
                    **common,
                )
            ]
            for kind in ("draw", "abort"):
                votes = await self.tables.store.votes(rec.id, kind)
                if votes:
                    lines.append(
                        self.words.t(f"table.status.votes_{kind}", loc, players=named(votes, table.names))
                    )
            lines.append(self._fixed_seed(table, loc))
            lines += await self.own_times.away_lines(table, loc)
            text = "\n".join(filter(None, lines))
        else:
            text = self.words.t(
                "table.status.finished",
                loc,
                result=self.words.result_text(table, self.words.stored_result(table), loc),
                **common,
            )
        return [Post(self._clip(text), ephemeral=True)]

    async def board(self, ctx: Ctx, details: bool = False, text: bool | None = None) -> list[Post]:
        """The board again, in the channel; with ``details``, the details image too, for the caller;
        with ``text``, the whole position as text instead, for the caller alone (and their own hidden
        part with it), what a screen reader reads. Without ``text``, a caller who asked for the text
        board with every board (``/notify text:``) gets it after the image; ``text:false`` is the
        image alone."""
        if text:
            return await self.text_board(ctx)
        table = await self._shown(ctx)
        rec = table.record
        loc = ctx.channel_locale
        picture = await self.tables.board_image(
            table, loc, away=await self.own_times.away_of(rec, rec.player_ids)
        )
        lines = [self.words.t("table.board", loc, progress=self.words.progress(table, loc))]
        if rec.status == "active":
            lines.append(
                self.words.t("table.status.waiting", loc, players=named(table.to_act(), table.names))
            )
        else:
            lines.append(self.words.result_text(table, self.words.stored_result(table), loc))
        posts = [Post(self._clip("\n".join(lines)), **pictured(picture))]
        if details:
            posts += await self.details(ctx)
        if text is None:
            posts += await self._text_board_if_asked(ctx, table)
        return posts

    async def text_board(self, ctx: Ctx) -> list[Post]:
        """The position as lines (``render.text_board``) in the caller's language, privately: the
        public view for everyone, then the caller's own hand or bag where the game hides one."""
        table = await self._shown(ctx)
        if table.state is None:
            raise TableError(
                "table.error.not_started", seated=len(table.record.seats), players=table.record.players
            )
        return [self.words.text_board_post(table, ctx.user_id, ctx.locale)]

    async def _text_board_if_asked(self, ctx: Ctx, table: Table) -> list[Post]:
        """The text board for a caller who asked for it with every board (``/notify text:``), else
        nothing: a screen-reader user reads the position after each move without asking each time."""
        if table.state is None or table.unreadable or not await self.tables.store.text_board(ctx.user_id):
            return []
        return [self.words.text_board_post(table, ctx.user_id, ctx.locale)]

    async def details(self, ctx: Ctx) -> list[Post]:
        """What the board image leaves out for a phone's first look (War Chest's unit tables,
        Batailles' rosters, Cry Havoc's tracks and factions), shown to the caller alone: it is the
        same for everyone, and one player's curiosity should not push the board up the channel."""
        table = await self._shown(ctx)
        loc = ctx.locale
        picture = await self.tables.details_image(table, loc)
        text = self.words.t("table.details", loc, progress=self.words.progress(table, loc))
        return [Post(text, filename="details.png", ephemeral=True, **pictured(picture))]

    async def _shown(self, ctx: Ctx) -> Table:
        """The channel's latest game, once it has a board to show."""
        table = await self._latest(ctx.channel_id)
        rec = table.record
        if table.unreadable:
            raise Unreadable(game=game_title(rec.game))
        if table.state is None:
            raise TableError("table.error.not_started", seated=len(rec.seats), players=rec.players)
        return table

    async def log(self, ctx: Ctx, page: int = 1) -> list[Post]:
        """The rendered events, newest page first (page 1 holds the latest moves).

        Table-level events (a moderator's act, a move played at a deadline) are kept as notes and
        shown after the action that was current when they happened.
        """
        table = await self._latest(ctx.channel_id)
        loc = ctx.locale
        rec = table.record
        store = self.tables.store
        lines: list[str] = []
        notes = [n for n in await store.notes(rec.id) if not is_explanation(n.event)]
        lines += [self._note_line(n.event, table, loc) for n in notes if n.version == 0]
        for entry in await store.actions(rec.id):
            lines.append(self.words.action_line(table, entry, loc, numbered=True))
            lines += [self._note_line(n.event, table, loc) for n in notes if n.version == entry.seq]
        pages = log_pages(lines, self.tables.limits.text - LOG_HEADER_ROOM)
        if not 1 <= page <= len(pages):
            raise TableError("table.error.bad_page", page=page, pages=len(pages))
        header = self.words.t(
            "table.log.header", loc, game=self.words.game(table, loc), page=page, pages=len(pages)
        )
        if not lines:
            return [Post(header + "\n" + self.words.t("table.log.empty", loc), ephemeral=True)]
        return [Post(self._clip("\n".join([header, *pages[page - 1]])), ephemeral=True)]

    def _note_line(self, event: dict[str, Any], table: Table, loc: str) -> str:
        return "   ⚑ " + self.words.t(decode_msg(event), loc, names=table.named)

    async def rules(self, ctx: Ctx, game: str | None = None, topic: str | None = None) -> list[Post]:
        """A page of a game's rules, or one topic (a unit, a card...), privately in the reader's language."""
        return [Post(self._clip(await reference.answer(self.tables, ctx, game, topic)), ephemeral=True)]

    async def rules_autocomplete(
        self, ctx: Ctx, typed: str, game: str | None = None
    ) -> list[tuple[str, str]]:
        """The rules topics matching what the reader typed, as (name, value), at most 25."""
        return await reference.choices(self.tables, ctx, typed, game)

    async def help(self, ctx: Ctx, front: str = command_tree.DISCORD) -> list[Post]:
        """Every command ``front`` offers, a line each, privately, in as many messages as it takes."""
        games = [self.words.t_value(game_title(g), ctx.locale) for g in self.tables.known_games]
        pages = command_tree.help_pages(front, ctx.locale, games, limit=self.tables.limits.text)
        return [Post(page, ephemeral=True) for page in pages]

    # ---- ending --------------------------------------------------------------------------

    async def resign(self, ctx: Ctx) -> list[Post]:
        """The caller's side loses; the result (with the board) is posted to the channel."""
        table, _result = await endings.resign(self.tables, ctx)
        return await self._ended(ctx, table)

    async def _ended(self, ctx: Ctx, table: Table) -> list[Post]:
        """Post the game's end in its channel; the player who ended it is told so privately."""
        await self._announce(ctx, table)
        return [
            Post(
                self.words.t("svc.ended_ack", ctx.locale, game=self.words.game(table, ctx.locale)),
                ephemeral=True,
            )
        ]

    async def draw(self, ctx: Ctx, *, answering: bool = False) -> list[Post]:
        """Offer or accept a draw; ``answering``, the offer's Accept button, only accepts one."""
        vote = await endings.draw(self.tables, ctx, answering=answering)
        if vote.done:
            return await self._ended(ctx, vote.table)
        loc = await self._public(ctx)
        text = self.words.t(
            "table.draw.offered",
            loc,
            player=vote.table.name(ctx.user_id),
            others=mentions(vote.waiting, vote.table.names),
        )
        return [Post(text, mentions=pings(vote.waiting), buttons=vote_buttons("draw", vote.table, loc))]

    async def abort(self, ctx: Ctx, *, answering: bool = False) -> list[Post]:
        """Cancel the game or vote to; ``answering``, the vote's Accept button, only agrees to one."""
        vote = await endings.abort(self.tables, ctx, answering=answering)
        loc = await self._public(ctx)
        game = self.words.game(vote.table, loc)
        if vote.done and vote.table.state is None:
            self._listed(vote.table.record)
            return [Post(self.words.t("table.abort.lobby", loc, player=ctx.user_name, game=game))]
        if vote.done:
            return await self._ended(ctx, vote.table)
        text = self.words.t(
            "table.abort.vote",
            loc,
            player=vote.table.name(ctx.user_id),
            votes=len(vote.voters),
            needed=len(vote.table.record.seats),
            waiting=mentions(vote.waiting, vote.table.names),
        )
        return [Post(text, mentions=pings(vote.waiting), buttons=vote_buttons("abort", vote.table, loc))]

    # ---- playing -------------------------------------------------------------------------

    async def _running(self, ctx: Ctx, *, reclaim: bool = True) -> Table:
        """The channel's running game, the caller seated in it. A caller a bot was playing for takes
        their seat back (``reclaim``): any command of theirs in the game says they are here."""
        table = await self.tables.open(ctx.channel_id)
        if table is None:
            latest = await self.tables.store.latest_game(ctx.channel_id)
            if latest is not None and latest.state is not None:
                raise GameOver()
            raise NoGame()
        rec = table.record
        if rec.status != "active":
            raise TableError("table.error.not_started", seated=len(rec.seats), players=rec.players)
        if rec.seat_of(ctx.user_id) is None:
            raise NotSeated()
        if table.unreadable:
            raise Unreadable(game=game_title(rec.game))
        if reclaim:
            await self._reclaim(ctx, table)
        return table

    async def _reclaim(self, ctx: Ctx, table: Table) -> None:
        """The caller is back: the bot standing in for them since a deadline stops, and the channel
        is told (one standing in for their time off stops when it ends: a move, ``/away for:off``)."""
        rec = table.record
        if not may_have_bots(rec):
            return
        notes = await self.tables.store.notes(rec.id)
        if ctx.user_id not in stand_ins_in(notes) or ctx.user_id in away_stand_ins(notes):
            return
        await self.tables.store.add_note(
            rec.id, rec.version, ctx.user_id, encode_msg(returned_note(ctx.user_id))
        )
        loc = await self._public(ctx)
        text = self.words.t(
            "svc.bot.back", loc, player=table.name(ctx.user_id), game=self.words.game(table, loc)
        )
        try:
            nonce = post_nonce(
                f"g{rec.id}", f"v{rec.version}", "back", ctx.user_id, limits=self.tables.limits
            )
            await self.announcer.outlet.send(ctx.channel_id, Post(text, nonce=nonce))
        except OutletError:
            log.warning("telling channel %s that %s is back failed", ctx.channel_id, ctx.user_id)

    async def play(self, ctx: Ctx, action: str) -> list[Post]:
        """Apply one action; the player gets a short private confirmation with what happened.

        A move begun (``pass`` where a coin must be named, a group of moves chosen in autocomplete) is
        answered with the moves it may become, not with a refusal.

        The channel is shown the move by the announcer: a new post mentioning whoever acts next
        when the turn passes, else the turn's post updated in place.
        """
        version, text = split_version(action)
        if not text:
            raise BadInput(input=action)
        if listing.group_words(text) is not None:
            return await self.legal_moves(ctx, text)
        async with self.tables.lock(ctx.channel_id):
            table = await self._running(ctx)
            back = await self.own_times.back_by_move(
                ctx, table.record
            )  # any move of theirs ends their time off
            try:
                moved = await self.tables.apply(table, ctx.user_id, text, version=version)
            except (BadInput, IllegalAction) as err:
                begun = ctx.user_id in table.to_act() and listing.begins(
                    text, self._moves_listed(table, ctx.user_id, ctx.locale, text)
                )
                if not begun:
                    raise name_players_in(err, table.names) from None
                moved = None
            except GameError as err:
                raise name_players_in(err, table.names) from None
            finally:
                if back:
                    await self.own_times.returned(ctx, table.record)
        if moved is None:  # a move begun, not a mistake: the moves it may become
            return await self.legal_moves(ctx, text)
        await self._announce(ctx, moved.table)
        after = moved.table
        loc = ctx.locale
        lines = [self.words.t(e, loc, names=after.named) for e in moved.events]
        for step in moved.forced:  # what the rules then left without a choice, played at once
            said = " ".join(self.words.t(e, loc, names=after.named) for e in step.events) or self.words.t(
                "table.log.silent", loc, player=after.name(step.player), action=str(step.action)
            )
            lines.append(self.words.t("svc.log.auto", loc, line=said))
        if after.record.status == "active" and ctx.user_id in after.to_act():
            lines.append(self.words.t("svc.still_your_turn", loc))
        text = self.words.t(
            "svc.played", loc, events=" ".join(filter(None, lines)) or self.words.t("svc.nothing_shown", loc)
        )
        return [Post(self._clip(text), ephemeral=True), *await self._text_board_if_asked(ctx, after)]

    async def hand(self, ctx: Ctx) -> list[Post]:
        """The caller's hidden information, privately: an image and a text listing."""
        table = await self._running(ctx)
        loc = ctx.locale
        view, picture = await self.tables.private_image(table, ctx.user_id, loc)
        private = view.get("private") or {}
        lines = [self.words.t("table.hand.header", loc, game=self.words.game(table, loc))]
        shown = {k: v for k, v in private.items() if k != "seat"}
        if not shown:
            lines.append(self.words.t("table.hand.none", loc))
        for key, value in shown.items():
            label = self.words.t(f"table.private.{key}", loc) if has_key(f"table.private.{key}") else key
            lines.append(
                self.words.t(
                    "table.hand.line", loc, what=label, items=self._items(table.record.game, value, loc)
                )
            )
        hand = Post(self._clip("\n".join(lines)), filename="hand.png", ephemeral=True, **pictured(picture))
        return [hand, *await self._text_board_if_asked(ctx, table)]

    def _item(self, game: str, item: Any, loc: str) -> str:
        entry = registry.find(game)
        for prefix in (*(entry.item_keys if entry is not None else ()), f"{game}.item."):
            if has_key(prefix + str(item)):
                return self.words.t(prefix + str(item), loc)
        return str(item)

    def _items(self, game: str, value: Any, loc: str) -> str:
        if isinstance(value, Mapping):
            parts = [f"{self._item(game, k, loc)} ×{n}" for k, n in value.items() if n]
        elif isinstance(value, (list, tuple)):
            parts = [self._item(game, v, loc) for v in value]
        else:
            return str(value)
        return ", ".join(parts) if parts else self.words.t("table.hand.empty", loc)

    async def legal_moves(self, ctx: Ctx, typed: str = "") -> list[Post]:
        """The caller's legal moves matching ``typed`` (all of them for nothing), privately, each as the
        caller types it in their language with its description: what ``/play`` alone, or a move
        begun, answers. A list too long for a message is grouped by first words with a count each
        (``listing.grouped``), and says so, and how to narrow it; a caller who may not act now is
        told whose turn it is."""
        table = await self._running(ctx, reclaim=False)
        loc = ctx.locale
        acting = table.to_act()
        if ctx.user_id not in acting:
            return [
                Post(
                    self.words.t("error.not_your_turn", loc, waiting=named(acting, table.names)),
                    ephemeral=True,
                )
            ]
        _version, rest = split_version(typed)
        words = listing.group_words(rest)
        shown_typed = rest if words is None else words
        entries = self._moves_listed(table, ctx.user_id, loc, rest)
        if not entries:
            key = "svc.list.none" if shown_typed else "svc.list.no_moves"
            return [Post(self.words.t(key, loc, typed=shown_typed), ephemeral=True)]
        head = (
            self.words.t("svc.list.matching", loc, typed=shown_typed)
            if shown_typed
            else self.words.t("svc.list.all", loc)
        )
        for limit in range(self.tables.limits.choices, 0, -1):
            shown, left = listing.grouped(entries, limit, self._group_name(loc))
            lines = [head]
            if any(entry.group for entry in shown):
                lines.append(self.words.t("svc.list.grouped", loc, count=len(entries)))
            for entry in shown:
                said = f"{entry.said} {listing.GROUP_MARK}" if entry.group else entry.said
                lines.append(f"  {said}  —  {entry.label}")
            if left:
                lines.append(self.words.t("svc.list.more", loc, count=left))
            text = "\n".join(lines)
            if len(text) <= self.tables.limits.text:
                break
        return [Post(self._clip(text), ephemeral=True)]

    def _clip(self, text: str, limit: int | None = None) -> str:
        """``text`` cut to ``limit`` characters, by default to what one of the front end's messages
        holds."""
        return clip(text, self.tables.limits.text if limit is None else limit)

    def _group_name(self, locale: str) -> Callable[[str, int], str]:
        """How a group of moves is named in ``locale``: what their labels share, and how many they are."""
        return lambda what, count: self.words.t("svc.menu.group", locale, what=what, count=count)

    def _moves_listed(self, table: Table, player: str, locale: str, typed: str) -> list[listing.Entry]:
        """``player``'s legal moves that fit ``typed``, in ``locale``'s words: those a group's words begin
        (``deploy inf1 …``), else those holding every typed word (``listing.matches``)."""
        game, state = table.game, table.state
        words = listing.group_words(typed)
        entries = []
        for act in game.legal_actions(state, player):
            said = self._said(game, act, locale)
            if words is not None and not listing.starts(words, said):
                continue
            text = str(act)
            label = self.words.t(game.label(state, act), locale, names=table.names) or text
            if words is not None or listing.matches(typed, label, text, said):
                entries.append(listing.Entry(label, said, text))
        if not entries and words:  # words typed before a "…" that begin no move: as if typed alone
            return self._moves_listed(table, player, locale, words)
        return entries

    async def autocomplete(self, ctx: Ctx, typed: str, *, in_words: bool = False) -> list[tuple[str, str]]:
        """The caller's legal actions matching every typed word, as (label, "v<version>:<action>").

        A typed word matches the label, the action text or the action as the reader types it in their
        language (``recruter`` finds ``recruit``). Discord shows the label and sends the value back, so
        its values keep the action text (within Discord's length); ``in_words`` puts the reader's own words
        in the value instead (the console lists the values), which read back as the same action.

        A list holds the front end's ``limits.choices`` (Discord's 25): past them the moves are grouped
        by their first words (``listing``), a group's value being its words and ``…``, which ``/play``
        answers with the group's moves, and typing its words narrows the choices to it. When even the
        groups do not fit, the last choice says how many moves more words would reach."""
        # The quick read path: a keystroke never waits for the moves a burst is storing.
        table = await self.tables.peek(ctx.channel_id)
        if table is None or table.unreadable or table.record.seat_of(ctx.user_id) is None:
            return []
        game, state, rec = table.game, table.state, table.record
        if ctx.user_id not in table.to_act():
            return []
        _version, rest = split_version(typed)
        limits = self.tables.limits
        choices: list[tuple[str, str]] = []
        offered: set[str] = set()
        typed_act = _typed_action(table, ctx.user_id, rest)
        if typed_act is not None:
            text = str(typed_act)
            if len(f"v{rec.version}:{text}") <= limits.choice:
                label = self.words.t(game.label(state, typed_act), ctx.locale, names=table.names) or text
                said = self._said(game, typed_act, ctx.locale) if in_words else text
                choices.append((self._clip(label, limits.choice), f"v{rec.version}:{said}"))
                offered.add(text)
        entries = [
            entry
            for entry in self._moves_listed(table, ctx.user_id, ctx.locale, rest)
            if len(f"v{rec.version}:{entry.text}") <= limits.choice and entry.text not in offered
        ]
        shown, left = listing.grouped(entries, limits.choices - len(choices), self._group_name(ctx.locale))
        for entry in shown:
            if entry.group:
                value = f"{entry.said} {listing.GROUP_MARK}"
            else:
                value = f"v{rec.version}:{entry.said if in_words else entry.text}"
            if len(value) <= limits.choice:
                choices.append((self._clip(entry.label, limits.choice), value))
        if left:
            more = self.words.t("svc.list.more_choice", ctx.locale, count=left)
            choices.append(
                (
                    self._clip(more, limits.choice),
                    self._clip(f"{rest} {listing.GROUP_MARK}".strip(), limits.choice),
                )
            )
        return choices

    def _said(self, game: Any, act: Any, locale: str) -> str:
        """``act`` as a reader of ``locale`` types it: the game's ``typed`` words without their
        backquotes, else the action text (a game without words of its own, such as Batailles)."""
        typed = getattr(game, "typed", None)
        return self.words.t(typed(act), locale).strip("`") if typed is not None else str(act)


def _typed_action(table: Table, player: str, typed: str) -> Any | None:
    """The action the caller typed in full, when it is legal now; else None.

    Autocomplete lists the legal actions a game enumerates, and some legal actions are
    not among them: a Batailles troop recruited under a name the player makes up
    (``recruit cannon1 1 2 0 2 0 0``) while the list offers only default names, another troop
    named while one acts (the list offers ``done``, then the activations). Such a
    text is tried on a copy of the state, so the player sees it offered (and can send
    it) exactly when ``/play`` would accept it.
    """
    if not typed.strip() or table.state is None:
        return None
    game = table.game
    try:
        action = game.parse_action(table.state, player, typed, lexicon(game))
        game.apply(game.load(game.dump(table.state)), player, action)
    except (GameError, ValueError, IndexError):
        return None
    return action


__all__ = ["Commands", "Ctx", "Post", "mention", "split_version"]
