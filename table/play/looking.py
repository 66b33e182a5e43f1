"""Looking at a game: ``/game status``, the board (as an image or as text), the details, the log,
the rules and the help. Nothing here changes a game; most answers are the caller's alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from table.bots.explain import is_explanation
from table.core.errors import NoGame, TableError, Unreadable
from table.core.events import decode_msg
from table.core.posts import Ctx, Post, pictured
from table.core.tables import Table, Tables
from table.core.text import game_title, named, shorten
from table.core.wording import Wording
from table.play import command_tree
from table.play.own_time import OwnTime
from table.play.seating import Seating
from table.play.service import Service
from table.rules import reference

LOG_HEADER_ROOM = 200
"""Characters of a log page kept for its heading; its lines fill the rest of a message."""


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


class _Common(TypedDict):
    """What every status line names: the game and its seats."""

    game: str
    seats: str


class Looking:
    """The commands that read the channel's latest game: built from the tables, the service (the clip
    of a message), the lobby's words on a fixed seed, the away marks and the words."""

    def __init__(
        self, tables: Tables, service: Service, seating: Seating, own_times: OwnTime, words: Wording
    ) -> None:
        self.tables = tables
        self.service = service
        self.seating = seating
        self.own_times = own_times
        self.words = words

    # ---- the channel's game -------------------------------------------------------------------------

    async def latest(self, channel: str) -> Table:
        """The open game, else the last one played here; a lobby closed unplayed does not count."""
        table = await self.tables.latest(channel)
        if table is None or (table.record.status == "aborted" and table.state is None):
            raise NoGame()
        return table

    async def status(self, ctx: Ctx) -> list[Post]:
        table = await self.latest(ctx.channel_id)
        loc = ctx.locale
        rec = table.record
        common: _Common = {"game": self.words.game(table, loc), "seats": self.words.seats(table, loc)}
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
                    None,
                    [
                        text,
                        self.seating.fixed_seed(table, loc),
                        self.own_times.away_policy(table, loc),
                        *away,
                    ],
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
            lines.append(self.seating.fixed_seed(table, loc))
            lines += await self.own_times.away_lines(table, loc)
            text = "\n".join(filter(None, lines))
        else:
            text = self.words.t(
                "table.status.finished",
                loc,
                result=self.words.result_text(table, self.words.stored_result(table), loc),
                **common,
            )
        return [Post(self.service.clip(text), ephemeral=True)]

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
        posts = [Post(self.service.clip("\n".join(lines)), **pictured(picture))]
        if details:
            posts += await self.details(ctx)
        if text is None:
            posts += await self.text_board_if_asked(ctx, table)
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

    async def text_board_if_asked(self, ctx: Ctx, table: Table) -> list[Post]:
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
        table = await self.latest(ctx.channel_id)
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
        table = await self.latest(ctx.channel_id)
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
        return [Post(self.service.clip("\n".join([header, *pages[page - 1]])), ephemeral=True)]

    def _note_line(self, event: Mapping[str, object], table: Table, loc: str) -> str:
        return "   ⚑ " + self.words.t(decode_msg(event), loc, names=table.named)

    async def rules(self, ctx: Ctx, game: str | None = None, topic: str | None = None) -> list[Post]:
        """A page of a game's rules, or one topic (a unit, a card...), privately in the reader's language."""
        return [
            Post(self.service.clip(await reference.answer(self.tables, ctx, game, topic)), ephemeral=True)
        ]

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
