"""A server's records: ``/leaderboard``, ``/history`` and ``/stats``.

They read what the store keeps of finished games (``db.ResultRecord``) and the ratings made from
them (``db.ratings``), in the server the command is typed in. Lists are text that reads on a phone:
one short line per player or game, ten to a page. Players are named by mention, which Discord shows
as their current name (a post names nobody to ping).

``/leaderboard`` posts its text (mentions) with a table image (``render/leaderboard.py``, display names from
``player_names``, with its alt text). ``/stats`` reads a player's results and the moves and times of their
games' logs (``game_lengths``) and draws a card (``render/chart.py``: each game's rating, record and streak
over a chart, a line and a marker shape per game, with its alt text). ``/history``'s buttons
(``g:<id>:v0:replay:<id>``, ``g:<id>:v0:final:<id>``) replay or show the final board of any finished game of
the server, also after a restart.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

import i18n
from db import GameLength, ResultRecord, Standing
from db.ratings import Change, outcome
from engine import registry
from engine.text import PlayerRef, msg
from table.core.clock import parse_stamp
from table.core.errors import TableError
from table.core.events import encode_msg
from table.core.marks import mention, moment
from table.core.posts import Button, Ctx, Post, pictured
from table.core.ratings import NO_GUILD, points, pool_title
from table.core.settings import server_locale
from table.core.text import clip
from table.core.wording import Wording

if TYPE_CHECKING:
    from render.chart import ChartSeries, ChartView
    from render.leaderboard import LeaderboardRow, LeaderboardSection, LeaderboardView
    from table.core.tables import Tables

PAGE_SIZE = 10
"""Players or games per page."""
PROVISIONAL = 5
"""Players with fewer rated games than this are listed apart, below the ranked ones."""
SIDES_SHOWN = 5
"""Units, armies or factions a record lists per game (the most won first)."""
HOUR = 3600
DAY = 24 * HOUR


@dataclass(frozen=True)
class Board:
    """One game's page of the leaderboard: its title and rows (rank, or None for players apart)."""

    title: str
    rows: list[tuple[int | None, Standing]]


def pool_named(typed: str | None) -> str | None:
    """The rating pool a player typed: its id (``warchest-teams``) or its title in any language
    ("War Chest in teams", "Champ d'honneur"); None when nothing was typed."""
    if typed is None or not typed.strip():
        return None
    word = typed.strip().lower()
    pools = registry.pools()
    for pool in pools:
        if word == pool or any(word == i18n.t(f"rating.pool.{pool}", lang).lower() for lang in i18n.LOCALES):
            return pool
    raise TableError("rating.error.bad_game", game=typed, choices=", ".join(pools))


def _page(page: int, total: int) -> tuple[int, int]:
    """The page's first index and the number of pages; a page out of range is refused."""
    pages = max(1, math.ceil(total / PAGE_SIZE))
    if not 1 <= page <= pages:
        raise TableError("table.error.bad_page", page=page, pages=pages)
    return (page - 1) * PAGE_SIZE, pages


def _guild(ctx: Ctx) -> str:
    return ctx.guild_id or NO_GUILD


class Standings:
    """``/leaderboard``, ``/history``, ``/stats`` and ``/game unrate``: they read (and unrate changes)
    only what the store keeps of finished games, so the tables are all they need."""

    def __init__(self, tables: Tables, words: Wording | None = None) -> None:
        self.tables = tables
        self.words = words or Wording()

    # ---- /leaderboard ----------------------------------------------------------------------------

    async def leaderboard(self, ctx: Ctx, game: str | None = None, page: int = 1) -> list[Post]:
        """The server's rated players of one game (or of each game played), best conservative rating
        first; players with fewer than ``PROVISIONAL`` rated games after them, apart. The text names
        players by mention; the image beside it, a table that reads on a phone, by display name."""
        loc = ctx.locale
        chosen = pool_named(game)
        pools = [chosen] if chosen else list(registry.pools())
        boards = []
        for pool in pools:
            standings = await self.tables.store.standings(_guild(ctx), pool)
            if standings or chosen:
                boards.append(self._board(pool, standings, page, loc))
        if not boards:
            return [Post(self.words.t("rating.board.none", loc), ephemeral=True)]
        text = clip("\n\n".join(self._board_text(board, loc) for board in boards), self.tables.limits.text)
        shown = [s.player for board in boards for _rank, s in board.rows]
        names = await self.tables.store.player_names(_guild(ctx), shown)
        view: LeaderboardView = {"sections": [self._board_view(board, names, loc) for board in boards]}
        picture = await self.tables.picture("leaderboard", {**view}, {}, loc)
        return [Post(text, filename="leaderboard.png", **pictured(picture))]

    def _board(self, pool: str, standings: list[Standing], page: int, loc: str) -> Board:
        ranked = [s for s in standings if s.games >= PROVISIONAL]
        newcomers = [s for s in standings if s.games < PROVISIONAL]
        rows: list[tuple[int | None, Standing]] = [(i, s) for i, s in enumerate(ranked, start=1)]
        rows += [(None, s) for s in newcomers]
        start, pages = _page(page, len(rows))
        title = self.words.t("rating.board.title", loc, pool=pool_title(pool, loc), page=page, pages=pages)
        return Board(title, rows[start : start + PAGE_SIZE])

    def _board_text(self, board: Board, loc: str) -> str:
        lines = [f"**{board.title}**"]
        if not board.rows:
            lines.append(self.words.t("rating.board.empty", loc))
        shown_apart = False
        for rank, standing in board.rows:
            if rank is None and not shown_apart:
                lines.append(self.words.t("rating.board.provisional", loc, games=PROVISIONAL))
                shown_apart = True
            lines.append(self._row(rank, standing, loc))
        return "\n".join(lines)

    def _board_view(self, board: Board, names: dict[str, str], loc: str) -> LeaderboardSection:
        """A section of the leaderboard image (``render.leaderboard``): the same rows in words."""

        def row(rank: int | None, s: Standing) -> LeaderboardRow:
            return {
                "rank": f"{rank}." if rank is not None else "",
                "name": names.get(s.player, s.player),
                "rating": points(s.rating.ordinal, loc),
                "record": self.words.t("rating.board.record", loc, games=s.games, wins=s.wins),
            }

        return {
            "title": board.title,
            "rows": [row(rank, s) for rank, s in board.rows if rank is not None],
            "apart": self.words.t("rating.board.provisional", loc, games=PROVISIONAL).strip("_"),
            "apart_rows": [row(rank, s) for rank, s in board.rows if rank is None],
            "empty": "" if board.rows else self.words.t("rating.board.empty", loc),
        }

    def _row(self, rank: int | None, s: Standing, loc: str) -> str:
        return self.words.t(
            "rating.board.row",
            loc,
            rank=f"{rank}." if rank is not None else "•",
            player=mention(s.player),
            rating=points(s.rating.ordinal, loc),
            record=self.words.t("rating.board.record", loc, games=s.games, wins=s.wins),
        )

    # ---- /history --------------------------------------------------------------------------------

    async def history(
        self, ctx: Ctx, player: str | None = None, game: str | None = None, page: int = 1
    ) -> list[Post]:
        """The server's finished games, newest first (only ``player``'s, only one game's, when given)."""
        loc = ctx.locale
        pool = pool_named(game)
        store = self.tables.store
        found = await store.results(_guild(ctx), pool=pool, player=player)
        if not found:
            return [Post(self.words.t("rating.history.none", loc), ephemeral=True)]
        start, pages = _page(page, len(found))
        title = self.words.t("rating.history.title", loc, page=page, pages=pages)
        if player is not None:
            title = self.words.t(
                "rating.history.title_of", loc, player=mention(player), page=page, pages=pages
            )
        lines = [f"**{title}**"]
        shown = found[start : start + PAGE_SIZE]
        for result in shown:
            lines.append(await self._history_line(result, loc))
        buttons = tuple(
            Button(
                f"{kind}:{r.game_id}", self.words.t(f"rating.history.{kind}", loc, id=r.game_id), r.game_id
            )
            for r in shown
            for kind in ("replay", "final")
        )
        return [Post(clip("\n".join(lines), self.tables.limits.text), buttons=buttons)]

    async def _history_line(self, result: ResultRecord, loc: str) -> str:
        record = await self.tables.store.get_game(result.game_id)
        names = {s.player: s.name for s in record.seats} if record else {}
        when = moment(parse_stamp(result.finished_at), "d")
        if record is not None and record.status == "aborted":
            players = ", ".join(names.get(p.player, p.player) for p in result.places)
            outcome_text = self.words.t("rating.history.aborted", loc, players=players)
        else:
            ordered = sorted(result.places, key=lambda p: (p.rank, p.side))
            outcome_text = " · ".join(
                self.words.t(
                    "rating.history.place",
                    loc,
                    rank=p.rank,
                    player=names.get(p.player, p.player),
                    change=_delta(result.change_of(p.player), loc),
                )
                for p in ordered
            )
        unrated = "" if result.rated else " " + self.words.t("rating.history.unrated", loc)
        label = record.settings.get("label") if record is not None else None
        if label:  # a league's game: its name
            unrated += " " + self.words.t("rating.history.label", loc, label=label)
        return self.words.t(
            "rating.history.line",
            loc,
            id=result.game_id,
            when=when,
            game=pool_title(result.pool, loc),
            outcome=outcome_text + unrated,
        )

    # ---- /game unrate ----------------------------------------------------------------------------

    async def unrate(self, ctx: Ctx, typed: int | str) -> list[Post]:
        """A moderator takes finished game number ``typed`` ("12" or "#12") of this server out of the
        ratings, which follow at once (recomputed without it); the game's log keeps who did it."""
        if not ctx.moderator:
            raise TableError("svc.error.moderator_only")
        number = str(typed).strip().lstrip("#")
        if not number.isdigit():
            raise TableError("rating.error.bad_number", value=str(typed))
        game = int(number)
        store = self.tables.store
        found = await store.result_of(game)
        if found is None or found.guild != _guild(ctx):
            raise TableError("rating.error.no_result", id=game)
        if not found.rated:
            raise TableError("rating.error.not_rated", id=game)
        await store.unrate(game)
        record = await store.get_game(game)
        note = msg("rating.note.unrated", player=PlayerRef(ctx.user_id))
        await store.add_note(game, record.version if record else 0, ctx.user_id, encode_msg(note))
        loc = await server_locale(store, ctx.guild_id, ctx.channel_locale)
        return [Post(self.words.t("rating.unrated", loc, id=game, pool=pool_title(found.pool, loc)))]

    # ---- /stats ----------------------------------------------------------------------------------

    async def stats(
        self, ctx: Ctx, player: str | None = None, game: str | None = None, public: bool = False
    ) -> list[Post]:
        """A player's record in this server (the caller's by default): rating, games, wins, by side or
        faction, average length and the current streak, per game, with a card image (each game's
        rating, record and streak over a chart of the rating, a line per game); only to the caller
        unless ``public``."""
        loc = ctx.locale
        who = player or ctx.user_id
        chosen = pool_named(game)
        store = self.tables.store
        sections = []
        series: list[ChartSeries] = []
        for pool in [chosen] if chosen else list(registry.pools()):
            results = [r for r in await store.results(_guild(ctx), pool=pool, player=who) if r.rated]
            if not results and not chosen:
                continue
            standing = next((s for s in await store.standings(_guild(ctx), pool) if s.player == who), None)
            lengths = await store.game_lengths([r.game_id for r in results])
            sections.append(self._card(who, pool, standing, results, lengths, loc))
            if results:
                line = _series(who, pool_title(pool, loc), results)
                series.append({**line, "summary": self._summary(who, standing, results, loc)})
        if not sections:
            sections = [self.words.t("rating.stats.none", loc, player=mention(who))]
        head = self.words.t("rating.stats.title", loc, player=mention(who))
        text = clip("\n\n".join([f"**{head}**", *sections]), self.tables.limits.text)
        picture = None
        if series:  # the card names the player as they last sat down here (an image shows no mention)
            name = (await store.player_names(_guild(ctx), [who])).get(who, who)
            view: ChartView = {
                "title": self.words.t("rating.chart.title", loc, player=name),
                "series": series,
                "caption": self.words.t(
                    "rating.chart.caption", loc, games=sum(len(s["points"]) for s in series)
                ),
            }
            picture = await self.tables.picture("chart", {**view}, {}, loc)
        return [Post(text, filename="rating.png", ephemeral=not public, **pictured(picture))]

    def _record(self, standing: Standing, loc: str) -> str:
        losses = standing.games - standing.wins - standing.draws
        return self.words.t(
            "rating.stats.record",
            loc,
            games=standing.games,
            wins=standing.wins,
            draws=standing.draws,
            losses=losses,
        )

    def _streak(self, outcomes: list[str], loc: str) -> str:
        """The current run of equal outcomes (``outcomes`` newest first)."""
        run = len(outcomes) - len(list(_after_run(outcomes)))
        return self.words.t(f"rating.stats.streak.{outcomes[0]}", loc, count=run)

    def _summary(self, who: str, standing: Standing | None, results: list[ResultRecord], loc: str) -> str:
        """A game's line on the card image: rating, record and streak."""
        if standing is None:
            return ""
        outcomes = [outcome(p, r.places) for r in results if (p := r.place_of(who)) is not None]
        parts = [points(standing.rating.ordinal, loc), self._record(standing, loc)]
        if outcomes:
            parts.append(self._streak(outcomes, loc))
        return " · ".join(parts)

    def _card(
        self,
        who: str,
        pool: str,
        standing: Standing | None,
        results: list[ResultRecord],
        lengths: dict[int, GameLength],
        loc: str,
    ) -> str:
        title = f"__{pool_title(pool, loc)}__"
        if standing is None or not results:
            return "\n".join([title, self.words.t("rating.stats.unrated", loc)])
        outcomes: list[str] = []
        sides: Counter[str] = Counter()
        side_wins: Counter[str] = Counter()
        for result in results:  # newest first
            place = result.place_of(who)
            if place is None:
                continue
            result_of_player = outcome(place, result.places)
            outcomes.append(result_of_player)
            for side in result.side_of(who):
                sides[side] += 1
                side_wins[side] += result_of_player == "win"
        lines = [
            title,
            self.words.t(
                "rating.stats.rating",
                loc,
                rating=points(standing.rating.ordinal, loc),
                mu=points(standing.rating.mu, loc),
                sigma=points(standing.rating.sigma, loc),
            ),
            self._record(standing, loc),
        ]
        last = results[0].change_of(who)
        if last is not None:
            lines.append(self.words.t("rating.stats.last", loc, change=points(last.delta, loc, signed=True)))
        if outcomes:
            lines.append(self._streak(outcomes, loc))
        length = average_length([lengths[r.game_id] for r in results if r.game_id in lengths], loc)
        if length:
            lines.append(length)
        if sides:
            lines.append(self.words.t(f"rating.stats.sides.{pool}", loc))
            # most won first, then most played, then by name: the same card for the same games
            named = sorted(sides, key=lambda side: (-side_wins[side], -sides[side], side))
            for side in named[:SIDES_SHOWN]:
                lines.append(
                    self.words.t(
                        "rating.stats.side",
                        loc,
                        side=self.words.t(side_key(pool, side), loc),
                        games=sides[side],
                        wins=side_wins[side],
                    )
                )
        return "\n".join(lines)


def average_length(lengths: list[GameLength], loc: str) -> str | None:
    """The average game: days (hours under a day) from the first move to the last, and moves; None
    without a game that has moves."""
    if not lengths:
        return None
    seconds = sum((parse_stamp(g.last) - parse_stamp(g.first)).total_seconds() for g in lengths)
    average = seconds / len(lengths)
    moves = round(sum(g.moves for g in lengths) / len(lengths))
    if moves <= 1:  # from a first move to the same last one no time passes: the moves alone say it
        return i18n.t("rating.stats.length.moves", loc, moves=moves)
    if average >= DAY - HOUR / 2:
        return i18n.t("rating.stats.length.days", loc, days=round(average / DAY), moves=moves)
    if average >= HOUR / 2:
        return i18n.t("rating.stats.length.hours", loc, hours=round(average / HOUR), moves=moves)
    return i18n.t("rating.stats.length.short", loc, moves=moves)


def side_key(pool: str, side: str) -> str:
    """The catalog key naming a side id of a game (a War Chest unit, a Batailles army, a Cry Havoc
    faction), by the game rated in ``pool`` (``engine.registry.Entry.side_keys``)."""
    entry = registry.game_of_pool(pool)
    return f"{entry.side_keys if entry is not None else registry.Entry.side_keys}{side}"


def _series(who: str, label: str, results: list[ResultRecord]) -> ChartSeries:
    """One line of the chart: the player's conservative rating after each rated game of a pool
    (oldest first), from where it stood before the first."""
    changes = [c for r in reversed(results) if (c := r.change_of(who)) is not None]
    return {
        "label": label,
        "start": changes[0].before.ordinal if changes else 0.0,
        "points": [c.after.ordinal for c in changes],
    }


def _after_run(outcomes: list[str]) -> list[str]:
    """The outcomes after the first run of equal ones."""
    first = outcomes[0]
    for i, value in enumerate(outcomes):
        if value != first:
            return outcomes[i:]
    return []


def _delta(change: Change | None, loc: str) -> str:
    return "" if change is None else f" ({points(change.delta, loc, signed=True)})"
